// Invariants checked beside every run: no pod bound twice, no node given more than its
// allocatable, every pod's phases a legal path of the pod machine (Pending → Running →
// Succeeded | Failed, or straight from Pending to an end), and, once the run settles, every
// informer's cache equal to the store. A run reports each violation; tests require none.
import type { KObject } from '../actors/api/types.ts';
import type { Informer } from '../actors/client/informer.ts';
import { cacheKey } from '../actors/client/cache.ts';
import type { Store } from '../actors/apiserver/storage/store.ts';
import type { RunMetrics } from './metrics.ts';
import type { Pod } from '../actors/api/model/core.ts';

const LEGAL: Record<string, string> = { P: 'RSF', R: 'SF', S: '', F: '' };
/** Violations kept per checker: enough to debug, bounded for a run gone badly wrong. */
const KEEP = 20;

export interface CheckResult {
  name: string;
  violations: number;
  /** The first few, in words. */
  examples: string[];
}

export class Checkers {
  readonly #results = new Map<string, CheckResult>();

  constructor(metrics: RunMetrics) {
    for (const name of ['no pod bound twice', 'no node over its allocatable', 'pod phases follow the pod machine', 'informer caches equal the store', 'one leader at a time'])
      this.#results.set(name, { name, violations: 0, examples: [] });
    metrics.onPodChange((c, before, after) => {
      const key = cacheKey(c.object);
      const nodeName = (c.object as Pod).spec?.nodeName;
      if (before?.node && after && nodeName !== before.node) this.#violate('no pod bound twice', `pod ${key} moved from ${before.node} to ${nodeName ?? 'no node'}`);
      if (before && after && before.phase !== after.phase && !LEGAL[before.phase[0]!]!.includes(after.phase[0]!))
        this.#violate('pod phases follow the pod machine', `pod ${key} went ${before.phase} → ${after.phase} (path ${after.path})`);
      if (after?.node && after.boundMs === metrics.clock.now()) {
        const n = metrics.nodes.get(after.node);
        if (n) for (const r of ['milliCPU', 'memory', 'pods'] as const)
          if (n.requested[r] > n.allocatable[r]) this.#violate('no node over its allocatable', `node ${after.node}: ${r} requested ${n.requested[r]} > allocatable ${n.allocatable[r]} after binding ${key}`);
      }
    });
  }

  /** Replicas working under each lock now. */
  readonly #leaders = new Map<string, Set<string>>();

  /** A replica starts or stops doing its work under `lock`: two at once is a violation. */
  leading(lock: string, holder: string, leading: boolean): void {
    const set = this.#leaders.get(lock) ?? new Set<string>();
    this.#leaders.set(lock, set);
    if (!leading) return void set.delete(holder);
    for (const other of set) if (other !== holder) this.#violate('one leader at a time', `${holder} started leading ${lock} while ${other} still was`);
    set.add(holder);
  }

  #violate(name: string, example: string): void {
    const r = this.#results.get(name)!;
    r.violations++;
    if (r.examples.length < KEEP) r.examples.push(example);
  }

  /**
   * Compares each informer's cache with the store's objects under `prefix` (those in group `group`
   * when one is given). Each prefix is listed once and split by `groupOf`: with thousands of node
   * agents, a list per agent would cost agents × pods.
   */
  async compareCaches(store: Store, informers: { name: string; informer: Informer; prefix: string; group?: string }[],
    groupOf: (o: KObject) => string = () => ''): Promise<void> {
    const listed = new Map<string, Map<string, Map<string, string | undefined>>>();
    const wanted = async (prefix: string, group: string | undefined) => {
      let groups = listed.get(prefix);
      if (!groups) {
        groups = new Map([['*', new Map()]]);
        for (const o of (await store.list(prefix)).items) {
          const entry: [string, string | undefined] = [cacheKey(o), o.metadata.resourceVersion];
          groups.get('*')!.set(...entry);
          const g = groupOf(o);
          if (!groups.has(g)) groups.set(g, new Map());
          groups.get(g)!.set(...entry);
        }
        listed.set(prefix, groups);
      }
      return groups.get(group ?? '*') ?? new Map<string, string | undefined>();
    };
    for (const { name, informer, prefix, group } of informers) {
      const want = await wanted(prefix, group);
      const have = new Map(informer.cache.list().map((o) => [cacheKey(o), o.metadata.resourceVersion]));
      for (const [k, rv] of want)
        if (have.get(k) !== rv) this.#violate('informer caches equal the store', `${name}: ${k} is at ${have.get(k) ?? 'missing'} in the cache, ${rv} in the store`);
      for (const k of have.keys()) if (!want.has(k)) this.#violate('informer caches equal the store', `${name}: ${k} is cached but not in the store`);
    }
  }

  results(): CheckResult[] {
    return [...this.#results.values()];
  }
}
