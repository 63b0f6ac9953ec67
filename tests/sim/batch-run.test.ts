// Job and CronJob workloads under `orchsim run`: their timelines computed from the real
// controllers' rules and compared with the run's. A pod starts 1.1 s to 2.5 s after its creation
// (the node agent's stages) and runs exactly its runDuration; the Job controller gathers pod
// changes for a second (syncJobBatchPeriod) before a sync, then makes the next pod or finishes
// the Job; a failed pod is replaced 10 s, then 20 s, ... after it finished (finishedAt, whole
// seconds), and backoffLimit failures later the Job fails; a CronJob's controller looks 100 ms
// after each start time (nextScheduleDelta) and names its Job for the scheduled minute; the TTL
// controller deletes a finished Job ttlSecondsAfterFinished after its finish (whole seconds).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ScenarioRun, runScenario } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';
import { stableJson } from '../../sim/report/write.ts';
import { jobFinished } from '../../actors/api/batch.ts';
import type { Job } from '../../actors/api/model/batch.ts';
import type { Report, TimelineEntry } from '../../sim/report/types.ts';
import { VIRTUAL_EPOCH_MS } from '../../sim/virtual-clock.ts';

const BATCH_PERIOD_MS = 1_000;
const STARTUP_MS = { min: 1_100, max: 2_500 };
const SCENARIO = `
duration: 35m
nodePools: [{ name: general, count: 2, capacity: { cpu: "4", memory: 16Gi } }]
workloads:
  - name: seq
    controller: Job
    count: 1
    completions: 3
    parallelism: 1
    runDuration: 1m
    requests: { cpu: 100m, memory: 64Mi }
  - name: flaky
    controller: Job
    count: 1
    backoffLimit: 2
    runDuration: 10s
    failureProbability: 1
    requests: { cpu: 100m, memory: 64Mi }
  - name: short
    controller: Job
    count: 2
    arrival: { kind: uniform, interval: 5m }
    runDuration: 30s
    ttlAfterFinished: 1m
    requests: { cpu: 100m, memory: 64Mi }
  - name: nightly
    controller: CronJob
    schedule: "*/10 * * * *"
    successfulJobsHistoryLimit: 1
    runDuration: 1m
    requests: { cpu: 100m, memory: 64Mi }
`;
const scenario = () => parseScenario(SCENARIO, { name: 'batch', dir: '.' });

interface JobSeen {
  createdMs: number;
  finishedMs?: number;
  /** The finished condition's type and reason. */
  finish?: string;
  deletedMs?: number;
  scheduledAt?: string;
}

/** The run, and what happened to each Job (by name) in ms from its start. */
async function watchedRun(): Promise<{ report: Report; errors: string[]; jobs: Map<string, JobSeen> }> {
  const run = await ScenarioRun.start(scenario());
  const jobs = new Map<string, JobSeen>();
  const stop = run.cluster.server.store.onChange((c) => {
    if (!c.key.includes('/batch/jobs/')) return;
    const name = c.object.metadata.name!, at = run.virtualMs;
    if (c.type === 'ADDED')
      jobs.set(name, { createdMs: at, scheduledAt: c.object.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'] });
    const seen = jobs.get(name)!;
    if (c.type === 'DELETED') seen.deletedMs ??= at;
    const finished = jobFinished(c.object as Job);
    if (finished && seen.finishedMs === undefined) Object.assign(seen, { finishedMs: at, finish: `${finished.type} ${finished.reason}` });
  });
  await run.advance();
  stop();
  const outcome = await run.finish();
  return { report: outcome.report, errors: outcome.errors, jobs };
}

/** The pods of Job `job`, oldest first, each as its timeline's first time of each event. */
function podsOf(report: Report, job: string): Record<string, number>[] {
  return Object.entries(report.timelines.pods).filter(([key]) => /^default\/(.+)-[a-z0-9]{5}$/.exec(key)?.[1] === job)
    .map(([, entries]) => Object.fromEntries((entries as TimelineEntry[]).map(([ms, what]) => [what, ms]).reverse()))
    .sort((a, b) => a.created! - b.created!);
}

const floorSecond = (ms: number) => Math.floor(ms / 1000) * 1000;
const startup = (pod: Record<string, number>) => pod.started! - pod.created!;
let outcome: Awaited<ReturnType<typeof watchedRun>>;

test.before(async () => {
  outcome = await watchedRun();
});

test('a Job of completions 3, parallelism 1 and runDuration 1m runs its pods one after another and finishes at 3m plus their startup', () => {
  assert.equal(outcome.errors, []);
  const pods = podsOf(outcome.report, 'seq-0');
  assert.is(pods.length, 3);
  assert.is(pods[0]!.created, outcome.jobs.get('seq-0')!.createdMs, 'the first pod at the Job\'s first sync');
  for (const [i, pod] of pods.entries()) {
    assert.ok(startup(pod) >= STARTUP_MS.min && startup(pod) <= STARTUP_MS.max, `pod ${i} started ${startup(pod)} ms after its creation`);
    assert.is(pod.Succeeded! - pod.started!, 60_000, `pod ${i} ran its runDuration`);
    if (i > 0) assert.is(pod.created, pods[i - 1]!.Succeeded! + BATCH_PERIOD_MS, `pod ${i} made at the sync after the one before succeeded`);
  }
  const job = outcome.jobs.get('seq-0')!;
  const startups = pods.reduce((sum, p) => sum + startup(p), 0);
  assert.is(job.finish, 'Complete CompletionsReached');
  assert.is(job.finishedMs, 3 * 60_000 + startups + 3 * BATCH_PERIOD_MS, 'three runs, their startups, and a sync after each');
});

test('a failing pod is retried after the Job controller\'s backoff of 10s, then 20s, until backoffLimit fails the Job', () => {
  const pods = podsOf(outcome.report, 'flaky-0');
  assert.is(pods.length, 3, 'the first run and backoffLimit 2 retries');
  for (const [i, pod] of pods.entries()) assert.is(pod.Failed! - pod.started!, 10_000, `pod ${i} failed at the end of its run`);
  assert.is(pods[1]!.created, floorSecond(pods[0]!.Failed!) + 10_000);
  assert.is(pods[2]!.created, floorSecond(pods[1]!.Failed!) + 20_000);
  const job = outcome.jobs.get('flaky-0')!;
  assert.is(job.finish, 'Failed BackoffLimitExceeded');
  assert.is(job.finishedMs, pods[2]!.Failed! + BATCH_PERIOD_MS);
});

test('Jobs arrive by the workload\'s arrival process, and a finished one is deleted ttlAfterFinished later', () => {
  const jobs = [outcome.jobs.get('short-0')!, outcome.jobs.get('short-1')!];
  assert.equal(jobs.map((j) => j.createdMs), [0, 300_000]);
  for (const [i, job] of jobs.entries()) {
    assert.is(job.finish, 'Complete CompletionsReached');
    const due = floorSecond(job.finishedMs!) + 60_000;
    assert.ok(job.deletedMs! >= due && job.deletedMs! < due + 1_000, `short-${i} deleted at ${job.deletedMs}, due ${due}`);
  }
});

test('a CronJob */10 * * * * makes a Job on each ten minutes of the cluster\'s clock, keeping the history it is told to', () => {
  const cron = [...outcome.jobs].filter(([name]) => name.startsWith('nightly-')).sort((a, b) => a[1].createdMs - b[1].createdMs);
  const due = [600_000, 1_200_000, 1_800_000];
  assert.equal(cron.map(([name]) => name), due.map((ms) => `nightly-${(VIRTUAL_EPOCH_MS + ms) / 60_000}`), 'named for the scheduled minute');
  assert.equal(cron.map(([, j]) => j.createdMs), due.map((ms) => ms + 100), 'made 100 ms after each start time');
  assert.equal(cron.map(([, j]) => j.scheduledAt), due.map((ms) => new Date(VIRTUAL_EPOCH_MS + ms).toISOString().replace('.000Z', 'Z')));
  assert.ok(cron.every(([, j]) => j.finish === 'Complete CompletionsReached'));
  assert.equal(cron.map(([, j]) => j.deletedMs !== undefined), [true, true, false], 'successfulJobsHistoryLimit 1 keeps the latest');
});

test('report.batch counts each Job and CronJob workload\'s Jobs, failed pods and retries', () => {
  assert.equal(outcome.report.batch, [
    { workload: 'seq', controller: 'Job', jobs: { created: 1, succeeded: 1, failed: 0 }, pods: { created: 3, failed: 0, retries: 0 } },
    { workload: 'flaky', controller: 'Job', jobs: { created: 1, succeeded: 0, failed: 1 }, pods: { created: 3, failed: 3, retries: 2 } },
    { workload: 'short', controller: 'Job', jobs: { created: 2, succeeded: 2, failed: 0 }, pods: { created: 2, failed: 0, retries: 0 } },
    { workload: 'nightly', controller: 'CronJob', jobs: { created: 3, succeeded: 3, failed: 0 }, pods: { created: 3, failed: 0, retries: 0 } },
  ]);
});

test('the same scenario and seed give a byte-identical report, and a run without batch workloads has no batch section', async () => {
  const again = await runScenario(scenario());
  assert.is(stableJson(again.report), stableJson(outcome.report));
  const plain = await runScenario(parseScenario('duration: 1m\nnodePools: [{ name: a, count: 1 }]\nworkloads: [{ name: w, count: 2, requests: {} }]\n', { name: 'plain', dir: '.' }));
  assert.is(plain.report.batch, undefined);
});

test.run();
