// The taint eviction controller (the real NoExecuteTaintManager): a pod on a node with NoExecute
// taints is deleted at once when some taint has no toleration of it, and after the shortest
// tolerationSeconds of the tolerations used otherwise (tolerations without tolerationSeconds
// tolerate for ever). The clock starts when this controller first sees the pod under the taints,
// and an eviction once scheduled keeps its start: a later change of taints only cancels it (no
// NoExecute taint left, the pod gone) or leaves it. Before deleting, the pod gets the
// DisruptionTarget condition saying why. A pod already being deleted is left alone. It records, as
// the real one: TaintManagerEviction "Marking for deletion Pod ns/name" as it deletes a pod, and
// "Cancelling deletion of Pod ns/name" when an eviction still waiting is called off.
import type { Clock } from '../../api/env.ts';
import { timestamp } from '../../api/env.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { ApiClient } from '../../client/client.ts';
import { NO_EVENTS, type EventRecorder, type RecorderFactory } from '../../client/events/index.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import type { SharedInformers } from '../../client/shared-informers.ts';
import type { RateLimiter } from '../../client/rate-limiter.ts';
import type { Toleration } from '../../scheduler/framework.ts';
import { toleratesTaint } from '../../scheduler/plugins/taint-toleration.ts';
import type { Bus } from '../../../transport/bus.ts';
import { ActorSystem } from '../../system/actor-system.ts';
import { ControllerActor } from '../controller-actor.ts';
import { taintsOf, type Taint } from '../node-taints.ts';
import { NODES, type Node, PODS, type Pod } from '../../api/model/core.ts';

interface Scheduled {
  createdAtMs: number;
  /** undefined once the eviction ran: kept so the pod is not evicted twice (the real queue's nil worker). */
  timer: unknown;
}

export interface TaintEvictionInit {
  bus: Bus;
  clock: Clock;
  informers: SharedInformers;
  limiter?: RateLimiter;
  onError?: (e: unknown) => void;
  /** Told of each pod this controller deletes. */
  onEvict?: (pod: string, atMs: number) => void;
  /** Where its lifecycle is hosted as `controller/taint-eviction-controller`. */
  system?: ActorSystem;
  /** Makes its event recorder; without it, it records none. */
  events?: RecorderFactory;
}

const noExecuteTaints = (node: KObject | undefined): Taint[] => (node ? taintsOf(node).filter((t) => t.effect === 'NoExecute') : []);
const tolerationsOf = (pod: Pod): Toleration[] => pod.spec?.tolerations ?? [];
const nodeNameOf = (pod: Pod): string | undefined => pod.spec?.nodeName;
const sameTaints = (a: Taint[], b: Taint[]) => a.length === b.length && a.every((t, i) => t.key === b[i]!.key && t.value === b[i]!.value);

/**
 * The real GetMatchingTolerations and getMinTolerationTime: undefined when some taint is not
 * tolerated (evict now), else the shortest tolerationSeconds in ms (-1: tolerated for ever).
 */
export function tolerationMs(taints: Taint[], tolerations: Toleration[]): number | undefined {
  const used: Toleration[] = [];
  for (const taint of taints) {
    const t = tolerations.find((t) => toleratesTaint(t, taint as Parameters<typeof toleratesTaint>[1]));
    if (!t) return undefined;
    used.push(t);
  }
  if (used.length === 0) return 0;
  let min = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return 0;
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? -1 : min * 1000;
}

export class TaintEvictionController {
  readonly #clock: Clock;
  readonly #client: ApiClient;
  readonly #informers: SharedInformers;
  readonly #nodes: Informer<Node>;
  readonly #pods: Informer<Pod>;
  readonly #onError: (e: unknown) => void;
  readonly #events: EventRecorder;
  readonly #onEvict: TaintEvictionInit['onEvict'];
  readonly #scheduled = new Map<string, Scheduled>();
  /** Events before both caches are synced wait for the sweep over every node when it runs. */
  readonly #lifecycle: ControllerActor;

  constructor(init: TaintEvictionInit) {
    this.#clock = init.clock;
    this.#client = new ApiClient(init.bus, 'taint-eviction-controller', undefined, init.limiter, { clock: init.clock });
    this.#events = init.events?.(this.#client, { component: 'taint-eviction-controller' }) ?? NO_EVENTS;
    this.#informers = init.informers;
    this.#nodes = init.informers.get(NODES);
    this.#pods = init.informers.get(PODS);
    this.#onError = init.onError ?? ((e) => console.error('taint-eviction-controller:', e));
    this.#onEvict = init.onEvict;
    this.#nodes.on({
      add: (n) => this.#lifecycle.running && this.#nodeChanged(undefined, n),
      update: (old, n) => this.#lifecycle.running && this.#nodeChanged(old, n),
      delete: (n) => this.#lifecycle.running && this.#nodeChanged(n, undefined),
    });
    this.#pods.on({
      add: (p) => this.#lifecycle.running && this.#podChanged(p),
      update: (_old, p) => this.#lifecycle.running && this.#podChanged(p),
      delete: (p) => this.#cancel(cacheKey(p)),
    });
    this.#lifecycle = new ControllerActor('taint-eviction-controller', {
      syncCaches: () => this.#informers.start(),
      run: () => {
        for (const node of this.#nodes.cache.list()) this.#nodeChanged(undefined, node);
        for (const pod of this.#pods.cache.list()) if (!nodeNameOf(pod)) this.#cancel(cacheKey(pod));
      },
      halt: () => {
        for (const s of this.#scheduled.values()) this.#clock.clearTimeout(s.timer);
        this.#scheduled.clear();
        this.#events.stop();
      },
    }, init.system ?? new ActorSystem(init.clock));
  }

  start(): Promise<void> {
    return this.#lifecycle.start();
  }

  stop(): void {
    this.#lifecycle.stop();
  }

  get informers(): Informer[] {
    return [this.#nodes, this.#pods];
  }

  /** Pods with an eviction pending. */
  get pending(): number {
    return [...this.#scheduled.values()].filter((s) => s.timer !== undefined).length;
  }

  #nodeChanged(old: KObject | undefined, node: KObject | undefined): void {
    const taints = noExecuteTaints(node);
    if (old && node && sameTaints(noExecuteTaints(old), taints)) return;
    const name = (node ?? old)!.metadata.name!;
    for (const pod of this.#pods.cache.onNode(name)) this.#process(pod, taints);
  }

  #podChanged(pod: KObject): void {
    const nodeName = nodeNameOf(pod);
    if (!nodeName) return this.#cancel(cacheKey(pod));
    this.#process(pod, noExecuteTaints(this.#nodes.cache.get(undefined, nodeName)));
  }

  /** The real processPodOnNode. */
  #process(pod: KObject, taints: Taint[]): void {
    const key = cacheKey(pod);
    // Being deleted already (by us or anyone): evicting it again would change nothing.
    if (taints.length === 0 || pod.metadata.deletionTimestamp) return this.#cancel(key);
    const waitMs = tolerationMs(taints, tolerationsOf(pod));
    if (waitMs !== undefined && waitMs < 0) return this.#cancel(key);
    if (waitMs === undefined) this.#cancel(key);
    if (this.#scheduled.has(key)) return;
    const now = this.#clock.now();
    const entry: Scheduled = { createdAtMs: now, timer: undefined };
    entry.timer = this.#clock.setTimeout(() => this.#evict(key, entry), waitMs ?? 0);
    this.#scheduled.set(key, entry);
  }

  #cancel(key: string): void {
    const s = this.#scheduled.get(key);
    if (!s) return;
    this.#clock.clearTimeout(s.timer);
    this.#scheduled.delete(key);
    if (s.timer !== undefined) this.#event(key, `Cancelling deletion of Pod ${key}`);
  }

  /** About the pod by name, as the real controller refers to it (no uid). */
  #event(key: string, message: string): void {
    const [namespace, name] = key.split('/') as [string, string];
    this.#events.event({ apiVersion: 'v1', kind: 'Pod', name, namespace }, 'Normal', 'TaintManagerEviction', message);
  }

  #evict(key: string, entry: Scheduled): void {
    entry.timer = undefined;
    if (!this.#lifecycle.running) return;
    const [namespace, name] = key.split('/') as [string, string];
    const pod = this.#pods.cache.get(namespace, name);
    if (!pod) return;
    const now = this.#clock.now();
    this.#onEvict?.(key, now);
    this.#event(key, `Marking for deletion Pod ${key}`);
    void this.#deleteWithCondition(pod, now).catch((e) => {
      if (!(isNotFound(e) || isConflict(e))) this.#onError(e);
    });
  }

  async #deleteWithCondition(pod: KObject, now: number): Promise<void> {
    const { namespace, name, uid } = pod.metadata;
    const condition = { type: 'DisruptionTarget', status: 'True', lastTransitionTime: timestamp(now),
      reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' };
    await this.#client.patch(PODS, namespace, name!, { status: { conditions: [condition] } }, 'strategic', 'status');
    await this.#client.delete(PODS, namespace, name!, { preconditions: { uid } });
  }
}
