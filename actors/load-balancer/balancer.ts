// The load balancer in front of each workload whose pods share its load (a usage model with
// `spread`, usage-model.ts): as a Service's endpoints do, it takes the workload's pods that are
// Ready and not being deleted, and tells everyone who asks how many there are. A pod of such a
// workload then uses the workload's load divided among them (pod-usage.ts), so more replicas
// each use less, and an autoscaler's replica count can follow the load.
//
// It watches pods through the API like any controller, and publishes each group's count on
// `orch.traffic.<namespace>.<workload>` whenever it changes (at most once per virtual instant);
// a request on `orch.traffic.snapshot` answers every group's count at once, for views that start late.
import type { Clock } from '../api/env.ts';
import { isReady } from '../api/fields.ts';
import { PODS, type Pod } from '../api/model/core.ts';
import { ApiClient } from '../client/client.ts';
import { Informer } from '../client/informer.ts';
import { cacheKey } from '../client/cache.ts';
import { WatchHub } from '../apiserver/watch/hub.ts';
import { payload } from '../../transport/payload.ts';
import type { Bus, Subscription } from '../../transport/bus.ts';
import { spreadOf } from '../nodeagent/usage-spread.ts';
import { trafficSubject, TRAFFIC_SNAPSHOT, type GroupCount, type TrafficCounts } from './traffic.ts';

export class LoadBalancer {
  readonly #bus: Bus;
  readonly #clock: Clock;
  readonly #pods: Informer<Pod>;
  /** Each pod taking traffic now, by key, with its group. */
  readonly #serving = new Map<string, string>();
  readonly #counts = new Map<string, number>();
  readonly #dirty = new Set<string>();
  #flushArmed = false;
  #snapshot: Subscription | undefined;

  constructor(init: { bus: Bus; clock: Clock }) {
    this.#bus = init.bus;
    this.#clock = init.clock;
    const client = new ApiClient(init.bus, 'orchsim-load-balancer', undefined, undefined, { clock: init.clock });
    this.#pods = new Informer({ client, hub: new WatchHub(init.bus), clock: init.clock, type: PODS, indexed: false });
    this.#pods.on({ add: (p) => this.#changed(p), update: (_o, p) => this.#changed(p), delete: (p) => this.#gone(cacheKey(p)) });
  }

  async start(): Promise<void> {
    this.#snapshot = this.#bus.subscribe(TRAFFIC_SNAPSHOT, (msg) => {
      if (msg.reply) this.#bus.publish(msg.reply, payload<TrafficCounts>(Object.fromEntries(this.#counts)));
    });
    await this.#pods.start();
  }

  stop(): void {
    this.#snapshot?.unsubscribe();
    this.#pods.stop();
  }

  /** Ready pods taking traffic now in `group` (`namespace/workload`). */
  count(group: string): number {
    return this.#counts.get(group) ?? 0;
  }

  #changed(pod: Pod): void {
    const key = cacheKey(pod);
    const group = spreadOf(pod)?.group;
    if (group === undefined || pod.metadata.deletionTimestamp || !isReady(pod)) return this.#gone(key);
    if (this.#serving.get(key) === group) return;
    this.#gone(key);
    this.#serving.set(key, group);
    this.#add(group, 1);
  }

  #gone(key: string): void {
    const group = this.#serving.get(key);
    if (group === undefined) return;
    this.#serving.delete(key);
    this.#add(group, -1);
  }

  #add(group: string, n: number): void {
    this.#counts.set(group, (this.#counts.get(group) ?? 0) + n);
    this.#dirty.add(group);
    if (this.#flushArmed) return;
    this.#flushArmed = true;
    // Every change of this instant goes out in one message per group.
    this.#clock.setTimeout(() => this.#flush(), 0);
  }

  #flush(): void {
    this.#flushArmed = false;
    for (const group of [...this.#dirty].sort()) this.#bus.publish(trafficSubject(group), payload<GroupCount>({ group, ready: this.#counts.get(group) ?? 0 }));
    this.#dirty.clear();
  }
}
