// The pod garbage collector (the real podgc controller), every GC_PERIOD_MS:
// - terminated pods (Succeeded or Failed) beyond `--terminated-pod-gc-threshold` are deleted,
//   oldest first (0 or less: never);
// - pods bound to a node that no longer exists, unseen for ORPHAN_QUARANTINE_MS, are deleted;
// - pods being deleted that were never scheduled are deleted at once (nobody else would finish them).
// Deletions have no grace period, as the real collector's.
// The terminated pods are kept from the informer's events and orphans found through its node
// index, so a pass does not walk every pod (with 150,000 pods, every 20 s, that walk was 2.5% of a
// whole run).
import type { Clock } from '../../api/env.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import { ApiClient } from '../../client/client.ts';
import type { Informer } from '../../client/informer.ts';
import type { SharedInformers } from '../../client/shared-informers.ts';
import type { RateLimiter } from '../../client/rate-limiter.ts';
import type { Bus } from '../../../transport/bus.ts';
import { ActorSystem } from '../../system/actor-system.ts';
import { ControllerActor } from '../controller-actor.ts';
import { NODES, type Node, PODS, type Pod } from '../../api/model/core.ts';

/** How often the collector looks (the real gcCheckPeriod). */
export const GC_PERIOD_MS = 20_000;
/** How long a node must be missing before its pods are collected (the real quarantineTime). */
export const ORPHAN_QUARANTINE_MS = 40_000;

export interface PodGcInit {
  bus: Bus;
  clock: Clock;
  informers: SharedInformers;
  terminatedPodGcThreshold: number;
  limiter?: RateLimiter;
  onError?: (e: unknown) => void;
  /** Told of each pod collected, and why. */
  onCollect?: (pod: string, reason: 'terminated' | 'orphaned' | 'unscheduled-terminating') => void;
  /** Where its lifecycle is hosted as `controller/pod-garbage-collector`. */
  system?: ActorSystem;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const phaseOf = (pod: Pod) => pod.status?.phase;
const nodeNameOf = (pod: Pod) => pod.spec?.nodeName;
const byKey = (pods: KObject[]) => pods.map((pod) => [cacheKey(pod), pod] as const).sort((a, b) => compare(a[0], b[0])).map(([, pod]) => pod);

/** The pods a pass looks at besides those of missing nodes (which the cache's node index gives): terminated ones and unbound ones being deleted. */
class PodsOfInterest {
  readonly terminated = new Map<string, KObject>();
  readonly unscheduledTerminating = new Map<string, KObject>();

  /** The pod as it is now, added or changed (its key stays the same across versions). */
  put(pod: KObject): void {
    const key = cacheKey(pod);
    const phase = phaseOf(pod);
    if (phase === 'Succeeded' || phase === 'Failed') this.terminated.set(key, pod);
    else this.terminated.delete(key);
    if (!nodeNameOf(pod) && pod.metadata.deletionTimestamp) this.unscheduledTerminating.set(key, pod);
    else this.unscheduledTerminating.delete(key);
  }

  remove(pod: KObject): void {
    const key = cacheKey(pod);
    this.terminated.delete(key);
    this.unscheduledTerminating.delete(key);
  }

  clear(): void {
    this.terminated.clear();
    this.unscheduledTerminating.clear();
  }
}

export class PodGarbageCollector {
  readonly #init: PodGcInit;
  readonly #client: ApiClient;
  readonly #informers: SharedInformers;
  readonly #pods: Informer<Pod>;
  readonly #nodes: Informer<Node>;
  /** Nodes found missing, and since when (on this collector's clock). */
  readonly #missingSince = new Map<string, number>();
  readonly #collecting = new Set<string>();
  readonly #watched = new PodsOfInterest();
  readonly #lifecycle: ControllerActor;

  constructor(init: PodGcInit) {
    this.#init = init;
    this.#client = new ApiClient(init.bus, 'pod-garbage-collector', undefined, init.limiter, { clock: init.clock });
    this.#informers = init.informers;
    this.#pods = init.informers.get(PODS);
    this.#nodes = init.informers.get(NODES);
    const watched = this.#watched;
    this.#pods.on({ add: (pod) => watched.put(pod), update: (_old, pod) => watched.put(pod), delete: (pod) => watched.remove(pod) });
    // As the real one (wait.Until): a sweep once the caches are synced, then every GC_PERIOD_MS.
    this.#lifecycle = new ControllerActor('pod-garbage-collector', {
      periodMs: GC_PERIOD_MS,
      syncCaches: () => this.#informers.start(),
      run: () => {
        // The shared informer may have listed before this collector subscribed: start from its cache.
        this.#watched.clear();
        for (const pod of this.#pods.cache.list()) this.#watched.put(pod);
      },
      pass: () => {
        try {
          this.#gc();
        } catch (e) {
          this.#onError(e);
        }
      },
      halt: () => {},
    }, init.system ?? new ActorSystem(init.clock));
  }

  start(): Promise<void> {
    return this.#lifecycle.start();
  }

  stop(): void {
    this.#lifecycle.stop();
  }

  get informers(): Informer[] {
    return [this.#pods, this.#nodes];
  }

  #onError(e: unknown): void {
    if (this.#init.onError) this.#init.onError(e);
    else console.error('pod-garbage-collector:', e);
  }

  #gc(): void {
    const watched = this.#watched;
    const threshold = this.#init.terminatedPodGcThreshold;
    if (threshold > 0 && watched.terminated.size > threshold) {
      // Oldest first, then by key so that ties go the same way every run; RFC 3339 times in UTC
      // order as their text does.
      const terminated = [...watched.terminated].map(([key, pod]) => ({ created: pod.metadata.creationTimestamp ?? '', key, pod }));
      terminated.sort((a, b) => compare(a.created, b.created) || compare(a.key, b.key));
      for (const t of terminated.slice(0, terminated.length - threshold)) this.#collect(t.pod, 'terminated');
    }
    const now = this.#init.clock.now();
    for (const pod of byKey([...watched.unscheduledTerminating.values()])) this.#collect(pod, 'unscheduled-terminating');
    const missing = new Set<string>();
    for (const node of this.#pods.cache.nodeNames()) {
      if (node === '' || this.#nodes.cache.get(undefined, node)) continue;
      missing.add(node);
      const since = this.#missingSince.get(node) ?? now;
      this.#missingSince.set(node, since);
    }
    for (const node of [...missing].sort()) {
      if (now - this.#missingSince.get(node)! < ORPHAN_QUARANTINE_MS) continue;
      for (const pod of byKey(this.#pods.cache.onNode(node))) this.#collect(pod, 'orphaned');
    }
    for (const node of [...this.#missingSince.keys()]) if (!missing.has(node)) this.#missingSince.delete(node);
  }

  #collect(pod: KObject, reason: 'terminated' | 'orphaned' | 'unscheduled-terminating'): void {
    const key = cacheKey(pod);
    if (this.#collecting.has(key)) return;
    this.#collecting.add(key);
    this.#init.onCollect?.(key, reason);
    const { namespace, name, uid } = pod.metadata;
    this.#client.delete(PODS, namespace, name!, { gracePeriodSeconds: 0, preconditions: { uid } })
      .catch((e) => {
        if (!(isNotFound(e) || isConflict(e))) this.#onError(e);
      })
      .finally(() => this.#collecting.delete(key));
  }
}
