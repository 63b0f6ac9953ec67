// Scheduler throughput at 5,000 nodes (3 zones), with 10,000 and 50,000 pending pods, four ways:
// the scheduler actor against the in-process API server, its cycles alone, the scheduler as its
// own process over NATS (scheduler-process.ts), and the baseline: the same bindings posted straight
// to the in-process API server (scheduler-cases.ts). Each in-process case runs in a fresh process,
// ROUNDS times in turn with the others, and its median is reported.
// The reference scheduler's own benchmark gates at 680 and 810 pods/s (6 cores).
import { join } from 'node:path';
import { runJsonChild } from './json-child.ts';
import type { Row, SuiteResult } from './report.ts';
import { type SchedulerCase, WARM_UP_PODS } from './scheduler-cases.ts';
import { schedulerProcess } from './scheduler-process.ts';
import { NODE_COUNT, ZONES } from './scheduler-objects.ts';

const POD_COUNTS = [10_000, 50_000];
/**
 * Timings of each in-process case per pod count. This machine's speed wanders by a quarter from
 * one run to the next: one timing decides nothing, the median of three in turn with the others does.
 */
const ROUNDS = 3;
const REFERENCE_GATE = 680;
const CHILD = join(import.meta.dirname, 'scheduler-case-child.ts');

const timed = (which: SchedulerCase, pods: number, seed: number) =>
  runJsonChild<{ opsPerSec: number }>(CHILD, [which, String(pods), String(seed)]).then((r) => r.opsPerSec);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** ROUNDS timings of each case, the cases in turn within a round. */
async function inTurn(pods: number, seed: number): Promise<Record<SchedulerCase, number[]>> {
  const runs: Record<SchedulerCase, number[]> = { baseline: [], actor: [], cycles: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const which of ['baseline', 'actor', 'cycles'] as const) runs[which].push(await timed(which, pods, seed));
  }
  return runs;
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

const range = (xs: number[]) => `${Math.round(Math.min(...xs))} to ${Math.round(Math.max(...xs))}`;

export async function schedulerSuite(seed: number): Promise<SuiteResult> {
  const rows: Row[] = [];
  const notes: string[] = [];
  for (const pods of POD_COUNTS) {
    const runs = await inTurn(pods, seed);
    const baseline = median(runs.baseline);
    const actor = median(runs.actor);
    const cycles = median(runs.cycles);
    rows.push({ name: `scheduler actor, ${pods} pods`, opsPerSec: actor, baselineOpsPerSec: baseline, ratio: actor / baseline });
    rows.push({ name: `cycles alone, ${pods} pods`, opsPerSec: cycles, baselineOpsPerSec: baseline, ratio: cycles / baseline });
    notes.push(`${pods} pods, the ${ROUNDS} timings (pods/s): actor ${range(runs.actor)}, cycles alone ${range(runs.cycles)}, baseline ${range(runs.baseline)}`);
    rows.push(...await processRows(pods, seed, baseline, notes));
  }
  return {
    suite: 'scheduler',
    seed,
    notes: [
      `${NODE_COUNT} nodes in ${ZONES.length} zones (32 CPU, 128Gi, 110 pods each); pods request 250m and 512Mi; adaptive sampling (percentageOfNodesToScore 0)`,
      `each in-process row is the median of ${ROUNDS} timings, each in a fresh process after a discarded round of ${WARM_UP_PODS} pods (the JIT's warm-up); `
        + 'the three cases take turns, so a drift of the machine\'s speed falls on all of them',
      'scheduler actor: from start() (it lists the pending pods) until every binding is acknowledged; in-process bus, no QPS limit',
      'cycles alone: PreFilter, Filter with sampling, Score, select and assume, with no API calls',
      'scheduler process over NATS: `orchsim scheduler --config` (clientConnection.qps 0, leaderElection.leaderElect false) as a child process, reaching an API server '
        + 'in this process (wall clock, served on a private nats-server) over NATS; '
        + 'timed from the first binding committed to the last, (pods - 1) / that time: the child\'s start-up and its informers\' initial lists are excluded, '
        + 'the JIT warm-up of its scheduling path is not (a fresh process cannot be warmed beforehand); bindings are counted in the store\'s change feed; one run',
      'scheduler process over NATS from spawn: the same run from the spawn to the last binding: node and TypeScript loader start-up, NATS connect, the informers\' lists and JIT warm-up included',
      'baseline: the same number of pods/binding requests posted straight to the same API server (the write floor a scheduler cannot beat); '
        + 'for the process rows it is the in-process baseline\'s median',
      `the reference scheduler's benchmark gates at ${REFERENCE_GATE} and 810 pods/s on 6 cores`,
      ...notes,
    ],
    rows,
  };
}
