// What the load balancer (balancer.ts) tells the node agents: how many Ready pods share each
// workload's load. A process keeps one view (TrafficView) whatever number of agents it hosts;
// an agent asks it when it evaluates a pod's use.
import type { Bus, Subscription } from '../../transport/bus.ts';
import { payload, valueOf } from '../../transport/payload.ts';
import { token } from '../apiserver/watch/subjects.ts';
import type { LoadShares } from '../nodeagent/usage-spread.ts';

/** Where a group's count is published; the group is `namespace/workload`. */
export const trafficSubject = (group: string): string => {
  const [namespace = '', workload = ''] = group.split('/');
  return `orch.traffic.${token(namespace)}.${token(workload)}`;
};
export const TRAFFIC_SNAPSHOT = 'orch.traffic-snapshot';
const TRAFFIC_ALL = 'orch.traffic.*.*';
const SNAPSHOT_TIMEOUT_MS = 5_000;

/** Every group's count, by group. */
export type TrafficCounts = Record<string, number>;
/** One group's count, as published. */
export interface GroupCount {
  group: string;
  ready: number;
}


export class TrafficView implements LoadShares {
  readonly #counts = new Map<string, number>();
  #subscription: Subscription | undefined;

  constructor(readonly bus: Bus) {}

  /** Follows the published counts, after asking for the ones set before it started (none answering is no error). */
  async start(): Promise<void> {
    this.#subscription = this.bus.subscribe(TRAFFIC_ALL, (msg) => {
      const { group, ready } = valueOf<GroupCount>(msg);
      this.#counts.set(group, ready);
    });
    try {
      const all = valueOf<TrafficCounts>(await this.bus.request(TRAFFIC_SNAPSHOT, payload({}), SNAPSHOT_TIMEOUT_MS));
      for (const [group, n] of Object.entries(all)) if (!this.#counts.has(group)) this.#counts.set(group, n);
    } catch {
      // no balancer yet: counts arrive as it publishes them
    }
  }

  stop(): void {
    this.#subscription?.unsubscribe();
  }

  readyPods(group: string): number | undefined {
    return this.#counts.get(group);
  }
}
