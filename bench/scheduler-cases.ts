// The scheduler benchmark's in-process cases at 5,000 nodes, each timed once: the scheduler actor
// against the in-process API server (informers, cycles, bindings through pods/binding, no QPS
// limit), its cycles alone (filter, score, assume; no API), and the baseline: the same bindings
// posted straight to the API server, round-robin, no decisions.
import { ApiServer } from '../actors/apiserver/server.ts';
import { ApiClient } from '../actors/client/client.ts';
import { SchedulerCache } from '../actors/scheduler/cache.ts';
import { runCycle } from '../actors/scheduler/cycle.ts';
import { numFeasibleNodesToFind } from '../actors/scheduler/options.ts';
import { podInfo } from '../actors/scheduler/pod-info.ts';
import { defaultFilterPlugins, defaultScorePlugins } from '../actors/scheduler/plugins/index.ts';
import { Scheduler } from '../actors/scheduler/scheduler.ts';
import { Kernel } from '../sim/kernel.ts';
import { seededRandom } from '../sim/random.ts';
import { virtualClock } from '../sim/virtual-clock.ts';
import { MemoryBus } from '../transport/memory-bus.ts';
import { benchServerOptions, fill, inBatches, NODE_COUNT, nodeObject, podObject } from './scheduler-objects.ts';

export const CASES = ['actor', 'cycles', 'baseline'] as const;
export type SchedulerCase = (typeof CASES)[number];
/** The discarded round a fresh process runs before the timed one (scheduler-case-child.ts). */
export const WARM_UP_PODS = 5_000;

/** An API server on virtual time holding the nodes and `pods` pending pods. */
async function cluster(pods: number, seed: number) {
  const clock = virtualClock();
  const bus = new MemoryBus({ clock });
  const random = seededRandom(seed);
  const server = new ApiServer(benchServerOptions(), { clock, random: random.fork('apiserver'), bus });
  await server.start();
  const client = new ApiClient(bus, 'bench');
  await fill(client, pods);
  return { clock, bus, random, server, client };
}

/** From start() (it lists the pending pods) until every binding is acknowledged. */
async function schedulerActor(pods: number, seed: number): Promise<number> {
  const c = await cluster(pods, seed);
  let bound = 0;
  const scheduler = new Scheduler({ bus: c.bus, clock: c.clock, random: c.random.fork('scheduler'), options: { orchApiQps: 0 },
    onBound: () => bound++, onError: (e) => { throw e; } });
  const kernel = new Kernel({ clock: c.clock });
  const start = performance.now();
  await scheduler.start();
  await kernel.run({ until: c.clock.now() + 24 * 3_600_000, stopWhen: () => bound === pods });
  const ms = performance.now() - start;
  if (bound !== pods) throw new Error(`the scheduler bound ${bound} of ${pods} pods`);
  scheduler.stop();
  c.server.stop();
  return (pods * 1000) / ms;
}

async function bindingsAlone(pods: number, seed: number): Promise<number> {
  const c = await cluster(pods, seed);
  const start = performance.now();
  await inBatches(pods, (i) => {
    const name = podObject(i).metadata.name!;
    return c.client.request('POST', `/api/v1/namespaces/default/pods/${name}/binding`,
      { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Node', name: nodeObject(i % NODE_COUNT).metadata.name } });
  });
  const ms = performance.now() - start;
  c.server.stop();
  return (pods * 1000) / ms;
}

function cyclesAlone(pods: number, seed: number): number {
  const cache = new SchedulerCache();
  for (let i = 0; i < NODE_COUNT; i++) cache.setNode(nodeObject(i));
  const infos = Array.from({ length: pods }, (_, i) => podInfo({ ...podObject(i), metadata: { ...podObject(i).metadata, uid: `uid-${i}` } }));
  const filters = defaultFilterPlugins();
  const scores = defaultScorePlugins();
  const random = seededRandom(seed);
  let nextStart = 0;
  const start = performance.now();
  for (const info of infos) {
    const snapshot = cache.snapshot();
    const r = runCycle({ pod: info, snapshot, filters, scores, start: nextStart, numToFind: numFeasibleNodesToFind(0, snapshot.nodes.length), random });
    nextStart = r.nextStart;
    if (!r.node) throw new Error(`pod ${info.key} fit nowhere`);
    cache.place(info, r.node.name, true);
  }
  return (pods * 1000) / (performance.now() - start);
}

/** One timing of `which` with `pods` pending pods, in pods per second. */
export function runCase(which: SchedulerCase, pods: number, seed: number): Promise<number> {
  switch (which) {
    case 'actor':
      return schedulerActor(pods, seed);
    case 'cycles':
      return Promise.resolve(cyclesAlone(pods, seed));
    case 'baseline':
      return bindingsAlone(pods, seed);
  }
}
