// What the controllers that reconcile keys share: their own API client (limited to the component's
// QPS and burst), a work queue with `workers` at a time whose workers start once the shared
// informers are synced, and where errors go. A controller registers its informer handlers in its
// constructor and implements `sync(key)`. With a registry, its queue reports the workqueue_*
// metrics under the name the real controller gives its queue. Its lifecycle is a controller
// actor (controller-actor.ts): it waits for the caches, then its workers run until it stops.
// Its events go through its own client, with its name as their source, when it is given recorders.
import type { Clock } from '../api/env.ts';
import type { KObject } from '../api/types.ts';
import type { Registry } from '../api/metrics.ts';
import { ApiClient } from '../client/client.ts';
import { NO_EVENTS, referenceOf, type EventRecorder, type EventType, type RecorderFactory } from '../client/events/index.ts';
import type { RateLimiter } from '../client/rate-limiter.ts';
import type { SharedInformers } from '../client/shared-informers.ts';
import { WorkQueue } from '../client/work-queue.ts';
import type { Bus } from '../../transport/bus.ts';
import { ActorSystem } from '../system/actor-system.ts';
import { ControllerActor } from './controller-actor.ts';

export interface QueuedControllerInit {
  bus: Bus;
  clock: Clock;
  informers: SharedInformers;
  workers: number;
  limiter?: RateLimiter;
  onError?: (e: unknown) => void;
  /** Where the work queue's metrics go. */
  registry?: Registry;
  /** The process's actor system, where the controller's lifecycle is hosted as `controller/<name>`. */
  system?: ActorSystem;
  /** Makes its event recorder; without it, it records none. */
  events?: RecorderFactory;
}

/** The real controllers' work queue names where they are not the controller's name less `-controller`. */
const QUEUE_NAMES: Record<string, string> = { 'generic-garbage-collector': 'garbage_collector_attempt_to_delete', 'ttl-after-finished-controller': 'ttl_jobs_to_delete',
  'endpoint-controller': 'endpoint', 'endpointslice-controller': 'endpoint_slice', 'endpointslicemirroring-controller': 'endpoint_slice_mirroring',
  'service-account-controller': 'serviceaccount', 'horizontal-pod-autoscaler': 'horizontalpodautoscaler' };

/** The controllers' --controllers names where they are not the name their clients and queues go by. */
const CONTROLLER_NAMES: Record<string, string> = { 'generic-garbage-collector': 'garbage-collector', 'endpoint-controller': 'endpoints-controller',
  'service-account-controller': 'serviceaccount-controller', 'root-ca-cert-publisher': 'root-ca-certificate-publisher-controller',
  'endpointslicemirroring-controller': 'endpointslice-mirroring-controller', 'horizontal-pod-autoscaler': 'horizontal-pod-autoscaler-controller' };

/** The source component of a controller's Events where the real one names it otherwise than the controller. */
const EVENT_SOURCES: Record<string, string> = { 'disruption-controller': 'controllermanager' };

/** The `name` label of a controller's work queue metrics: `replicaset-controller` → `replicaset`. */
export const workQueueName = (controller: string) => QUEUE_NAMES[controller] ?? controller.replace(/-controller$/, '').replaceAll('-', '_');

export abstract class QueuedController {
  protected readonly client: ApiClient;
  protected readonly events: EventRecorder;
  protected readonly queue: WorkQueue;
  protected readonly informers: SharedInformers;
  protected readonly clock: Clock;
  /** Where the controller's lifecycle, and any machine it hosts, live. */
  protected readonly system: ActorSystem;
  readonly #onError: ((e: unknown) => void) | undefined;
  readonly #lifecycle: ControllerActor;

  /** `periodic`: a pass the controller makes every `periodMs` besides working off its queue (the garbage collector's rediscovery). */
  constructor(readonly name: string, init: QueuedControllerInit, periodic?: { periodMs: number; pass(): Promise<void> }) {
    this.client = new ApiClient(init.bus, name, undefined, init.limiter, { clock: init.clock });
    this.events = init.events?.(this.client, { component: EVENT_SOURCES[name] ?? name }) ?? NO_EVENTS;
    this.informers = init.informers;
    this.clock = init.clock;
    this.#onError = init.onError;
    this.queue = new WorkQueue(init.clock, init.workers, (key) => this.sync(key), (_key, e) => this.report(e),
      init.registry ? { registry: init.registry, name: workQueueName(name) } : undefined);
    this.system = init.system ?? new ActorSystem(init.clock);
    this.#lifecycle = new ControllerActor(CONTROLLER_NAMES[name] ?? name, { syncCaches: () => this.informers.start(), run: () => this.run(), halt: () => this.halt(),
      ...(periodic ? { periodMs: periodic.periodMs, pass: () => periodic.pass().catch((e) => this.report(e)) } : {}) },
      this.system);
  }

  /** Syncs the caches, then starts the workers. */
  start(): Promise<void> {
    return this.#lifecycle.start();
  }

  stop(): void {
    this.#lifecycle.stop();
  }

  /** An Event about `obj` (an object of the cache, which says its kind), as the real controller records it. */
  protected event(obj: KObject, type: EventType, reason: string, message: string): void {
    this.events.event(referenceOf(obj), type, reason, message);
  }

  protected report(e: unknown): void {
    if (this.#onError) this.#onError(e);
    else console.error(`${this.name}:`, e);
  }

  /** Once the caches are synced: the workers start. */
  protected run(): void {
    this.queue.run();
  }

  /** The controller stops: its workers with it, and what its recorder has yet to write. */
  protected halt(): void {
    this.queue.stop();
    this.events.stop();
  }

  protected abstract sync(key: string): Promise<void>;
}
