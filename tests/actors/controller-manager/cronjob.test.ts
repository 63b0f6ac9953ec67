// The CronJob controller on virtual time, in a simulated cluster whose Job controller and node
// agents run the Jobs it creates: a Job each minute named by its minute, the concurrency
// policies, the history limits, suspension and the starting deadline, the time zone of the
// scheduled-timestamp annotation; then the controller alone, its Events.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { coreRecorders, EVENTS, type CoreEvent } from '../../../actors/client/events/index.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { CronJobController } from '../../../actors/controller-manager/controllers/cronjob.ts';
import { SimCluster } from '../../../sim/cluster.ts';
import { parseScenario } from '../../../sim/scenario/load.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const JOBS = lookupResource('batch', 'v1', 'jobs')!;
const CRONJOBS = lookupResource('batch', 'v1', 'cronjobs')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const cronJob = (name: string, spec: Rec = {}, annotations: Record<string, string> = {}, jobSpec: Rec = {}): KObject => ({
  metadata: { name, namespace: 'default' },
  spec: { schedule: '*/1 * * * *', ...spec, jobTemplate: { metadata: { labels: { cron: name } },
    spec: { ...jobSpec, template: { metadata: { annotations }, spec: { restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'busybox' }] } } } } },
} as KObject);
/** The minute (since the epoch) of an ISO time, as CronJobs name their Jobs. */
const minute = (iso: string) => Math.floor(Date.parse(iso) / 60_000);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

async function cluster(seed = 3) {
  const c = new SimCluster(parseScenario('duration: 1h\nnodePools: [{ name: n, count: 2, capacity: { cpu: "8", memory: 32Gi } }]\n', { name: 'cron', dir: '.' }), seed);
  await c.start();
  const client = new ApiClient(c.bus, 'test');
  /** Every Job name ever created, in order. */
  const made: string[] = [];
  c.server.store.onChange(({ type, key, object }) => {
    if (type === 'ADDED' && key.includes('/jobs/')) made.push(object.metadata.name!);
  });
  const start = c.clock.now();
  const until = (ms: number) => c.kernel.run({ until: ms });
  const jobs = async () => ((await client.list(JOBS, 'default')).items as Rec[]).map((j) => j.metadata.name).sort();
  const status = async (name: string) => ((await client.get(CRONJOBS, 'default', name)) as Rec).status;
  /** The Job name for the `n`th minute of the run. */
  const at = (n: number, name: string) => `${name}-${minute(iso(start)) + n}`;
  return { c, client, made, start, until, jobs, status, at, stop: () => c.stop() };
}

test('*/1 * * * * creates a Job each minute named by its minute, and keeps the newest three that succeeded', async () => {
  const w = await cluster();
  await w.client.create(CRONJOBS, cronJob('tick'));
  await w.until(w.start + 5 * 60_000 + 30_000);
  assert.equal(w.made, [1, 2, 3, 4, 5].map((n) => w.at(n, 'tick')));
  assert.equal(await w.jobs(), [3, 4, 5].map((n) => w.at(n, 'tick')), 'the two oldest were deleted');
  const last = (await w.client.get(JOBS, 'default', w.at(5, 'tick'))) as Rec;
  assert.is(last.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'], iso(w.start + 5 * 60_000));
  assert.equal(last.metadata.labels.cron, 'tick');
  assert.equal(last.metadata.ownerReferences.map((r: Rec) => `${r.kind}/${r.name} ${r.controller}`), ['CronJob/tick true']);
  const s = await w.status('tick');
  assert.is(s.lastScheduleTime, iso(w.start + 5 * 60_000));
  assert.is(s.lastSuccessfulTime, last.status.completionTime);
  assert.is(s.active, undefined, 'no Job runs: none is active');
  w.stop();
});

test('Forbid holds a start while the last Job runs; Allow runs them side by side; Replace deletes the running one', async () => {
  const w = await cluster();
  const long = { 'orchsim.io/run-duration': '90s' };
  await w.client.create(CRONJOBS, cronJob('forbid', { concurrencyPolicy: 'Forbid' }, long));
  await w.client.create(CRONJOBS, cronJob('strict', { concurrencyPolicy: 'Forbid', startingDeadlineSeconds: 10 }, long));
  await w.client.create(CRONJOBS, cronJob('allow', {}, long));
  await w.client.create(CRONJOBS, cronJob('replace', { concurrencyPolicy: 'Replace' }, long));
  const madeAt = new Map<string, number>();
  w.c.server.store.onChange(({ type, object }) => { if (type === 'ADDED' && object.kind === 'Job') madeAt.set(object.metadata.name!, w.c.clock.now()); });
  await w.until(w.start + 4 * 60_000 + 30_000);
  const of = (name: string) => w.made.filter((j) => j.startsWith(`${name}-`));
  // The start of minute 2 came while the first Job ran: it runs late, once that Job is done; so does minute 4's.
  assert.equal(of('forbid'), [1, 2, 4].map((n) => w.at(n, 'forbid')));
  const late = madeAt.get(w.at(2, 'forbid'))! - (w.start + 2 * 60_000);
  assert.ok(late > 30_000 && late < 40_000, `minute 2's Job came ${late} ms late, when minute 1's ended`);
  assert.equal(of('strict'), [1, 3].map((n) => w.at(n, 'strict')), 'a start held longer than startingDeadlineSeconds is skipped');
  assert.equal(of('allow'), [1, 2, 3, 4].map((n) => w.at(n, 'allow')));
  assert.is((await w.status('allow')).active.length, 2, 'two Jobs of 90 s run at once');
  assert.equal(of('replace'), [1, 2, 3, 4].map((n) => w.at(n, 'replace')));
  assert.equal((await w.jobs()).filter((j) => j.startsWith('replace-')), [w.at(4, 'replace')], 'each start deleted the Job before it');
  assert.equal((await w.status('replace')).active.map((a: Rec) => a.name), [w.at(4, 'replace')]);
  w.stop();
});

test('failed Jobs beyond failedJobsHistoryLimit (1) are deleted, the newest kept', async () => {
  const w = await cluster();
  await w.client.create(CRONJOBS, cronJob('broken', {}, { 'orchsim.io/exit-code': '1' }, { backoffLimit: 0 }));
  await w.until(w.start + 3 * 60_000 + 40_000);
  assert.equal(w.made, [1, 2, 3].map((n) => w.at(n, 'broken')));
  const left = ((await w.client.list(JOBS, 'default')).items as Rec[]);
  assert.equal(left.map((j) => j.metadata.name), [w.at(3, 'broken')]);
  assert.is(left[0]!.status.conditions.at(-1).type, 'Failed');
  w.stop();
});

test('a suspended CronJob starts nothing; resumed it runs the start it missed, unless that is older than startingDeadlineSeconds', async () => {
  const w = await cluster();
  await w.client.create(CRONJOBS, cronJob('late', { suspend: true }));
  await w.client.create(CRONJOBS, cronJob('strict', { suspend: true, startingDeadlineSeconds: 10 }));
  await w.until(w.start + 5 * 60_000 + 30_000);
  assert.equal(w.made, []);
  for (const name of ['late', 'strict']) await w.client.patch(CRONJOBS, 'default', name, { spec: { suspend: false } }, 'merge');
  await w.until(w.start + 5 * 60_000 + 40_000);
  assert.equal(w.made, [w.at(5, 'late')], 'the start of minute 5, 30 s late');
  await w.until(w.start + 6 * 60_000 + 10_000);
  assert.equal(w.made, [w.at(5, 'late'), w.at(6, 'late'), w.at(6, 'strict')].sort((a, b) => w.made.indexOf(a) - w.made.indexOf(b)));
  assert.equal(w.made.filter((j) => j.startsWith('strict-')), [w.at(6, 'strict')], 'strict waited for the next start');
  w.stop();
});

test('the scheduled timestamp is written in the CronJob\'s time zone', async () => {
  const w = await cluster();
  await w.client.create(CRONJOBS, cronJob('kolkata', { timeZone: 'Asia/Kolkata' }));
  await w.until(w.start + 60_000 + 10_000);
  const j = (await w.client.get(JOBS, 'default', w.at(1, 'kolkata'))) as Rec;
  const utc = new Date(w.start + 60_000);
  const local = new Date(utc.getTime() + 5.5 * 3_600_000).toISOString().replace(/\.\d+Z$/, '+05:30');
  assert.is(j.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'], local);
  w.stop();
});

test('the controller records the real Events: the Job created, then seen completed', async () => {
  const { clock, bus, server, client, run, random } = await virtualWorld({ seed: 6 });
  const informers = new SharedInformers(bus, clock, 'test');
  const controller = new CronJobController({ bus, clock, informers, workers: 5, onError: (e) => { throw e; }, events: coreRecorders(clock, random.fork('events')) });
  /** The Events written, in the order they were, as `object type reason: message`. */
  const events = async () => ((await client.list(EVENTS, 'default')).items as CoreEvent[])
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => `${e.involvedObject.name} ${e.type} ${e.reason}: ${e.message}`);
  await controller.start();
  await client.create(CRONJOBS, cronJob('tick'));
  const next = Math.ceil((clock.now() + 1) / 60_000) * 60_000;
  await run(next - clock.now() + 1_000);
  const name = `tick-${next / 60_000}`;
  const job = await client.get(JOBS, 'default', name);
  assert.equal(((await client.get(CRONJOBS, 'default', 'tick')).status as Rec).active.map((a: Rec) => [a.kind, a.name, a.uid]), [['Job', name, job.metadata.uid]]);
  // The test plays the Job controller: the Job completed.
  const done = iso(clock.now());
  await client.patch(JOBS, 'default', name, { status: { startTime: done, completionTime: done, succeeded: 1,
    conditions: [{ type: 'SuccessCriteriaMet', status: 'True' }, { type: 'Complete', status: 'True' }] } }, 'merge', 'status');
  await run(1_000);
  assert.equal(await events(), [`tick Normal SuccessfulCreate: Created job ${name}`, `tick Normal SawCompletedJob: Saw completed job: ${name}, condition: Complete`]);
  const status = (await client.get(CRONJOBS, 'default', 'tick')).status as Rec;
  assert.equal([status.active, status.lastScheduleTime], [undefined, iso(next)]);
  controller.stop();
  informers.stop();
  server.stop();
});

test.run();
