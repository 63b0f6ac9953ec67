// Scheduler throughput at 5,000 nodes (3 zones), with 10,000 and 50,000 pending pods, four ways
// in one run: the scheduler actor against the in-process API server (informers, cycles, bindings
// through pods/binding, no QPS limit), its cycles alone (filter, score, assume; no API), the
// scheduler as its own process over NATS (scheduler-process.ts), and the baseline: the same
// bindings posted straight to the in-process API server, round-robin, no decisions.
// The reference scheduler's own benchmark gates at 680 and 810 pods/s (6 cores).
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
import type { Row, SuiteResult } from './report.ts';
import { schedulerProcess } from './scheduler-process.ts';
import { benchServerOptions, fill, inBatches, NODE_COUNT, nodeObject, podObject, ZONES } from './scheduler-objects.ts';

const POD_COUNTS = [10_000, 50_000];
const WARM_UP_PODS = 5_000;
const REFERENCE_GATE = 680;

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

/** The process rows for `pods`, set against `baseline`, with a note of the run's timings. */
async function processRows(pods: number, seed: number, baseline: number, notes: string[]): Promise<Row[]> {
  const run = await schedulerProcess({ podCount: pods, seed });
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  notes.push(`scheduler process over NATS, ${pods} pods: after the spawn, first binding at ${s(run.firstBindingMs)}, last at ${s(run.lastBindingMs)}; ${run.requests} API requests`);
  return [
    { name: `scheduler process over NATS, ${pods} pods`, opsPerSec: run.bindingRate, baselineOpsPerSec: baseline, ratio: run.bindingRate / baseline },
    { name: `scheduler process over NATS from spawn, ${pods} pods`, opsPerSec: run.wholeRate, baselineOpsPerSec: baseline, ratio: run.wholeRate / baseline },
  ];
}

export async function schedulerSuite(seed: number): Promise<SuiteResult> {
  const rows: Row[] = [];
  const processNotes: string[] = [];
  // A discarded round first, so the first measured case does not pay for the JIT's warm-up. The
  // scheduler process is a fresh JIT each time: nothing here can warm it (see its notes).
  await bindingsAlone(WARM_UP_PODS, seed);
  await schedulerActor(WARM_UP_PODS, seed);
  cyclesAlone(WARM_UP_PODS, seed);
  for (const pods of POD_COUNTS) {
    const baseline = await bindingsAlone(pods, seed);
    const actor = await schedulerActor(pods, seed);
    const cycles = cyclesAlone(pods, seed);
    rows.push({ name: `scheduler actor, ${pods} pods`, opsPerSec: actor, baselineOpsPerSec: baseline, ratio: actor / baseline });
    rows.push({ name: `cycles alone, ${pods} pods`, opsPerSec: cycles, baselineOpsPerSec: baseline, ratio: cycles / baseline });
    rows.push(...await processRows(pods, seed, baseline, processNotes));
  }
  return {
    suite: 'scheduler',
    seed,
    notes: [
      `${NODE_COUNT} nodes in ${ZONES.length} zones (32 CPU, 128Gi, 110 pods each); pods request 250m and 512Mi; adaptive sampling (percentageOfNodesToScore 0)`,
      'scheduler actor: from start() (it lists the pending pods) until every binding is acknowledged; in-process bus, no QPS limit',
      'cycles alone: PreFilter, Filter with sampling, Score, select and assume, with no API calls',
      'scheduler process over NATS: `orchsim scheduler --config` (clientConnection.qps 0, leaderElection.leaderElect false) as a child process, reaching an API server '
        + 'in this process (wall clock, served on a private nats-server) over NATS; '
        + 'timed from the first binding committed to the last, (pods - 1) / that time: the child\'s start-up and its informers\' initial lists are excluded, '
        + 'the JIT warm-up of its scheduling path is not (a fresh process cannot be warmed beforehand); bindings are counted in the store\'s change feed',
      'scheduler process over NATS from spawn: the same run from the spawn to the last binding: node and TypeScript loader start-up, NATS connect, the informers\' lists and JIT warm-up included',
      ...processNotes,
      'baseline: the same number of pods/binding requests posted straight to the same API server (the write floor a scheduler cannot beat); '
        + 'for the process rows it is still the in-process server\'s, measured in the same run',
      `the reference scheduler's benchmark gates at ${REFERENCE_GATE} and 810 pods/s on 6 cores`,
    ],
    rows,
  };
}
