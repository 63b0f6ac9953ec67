// The Job controller in a simulated cluster on virtual time: node agents run the Jobs' pods to
// completion (5 s by default, as their annotations say otherwise), so each test reads what a real
// cluster would show: pods made up to parallelism, counted through uncountedTerminatedPods, the
// interim then the terminal condition, back-off between failures, the deadline, Indexed
// completion, suspension and the TTL after finishing. Then the controller alone, its Events.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { coreRecorders, EVENTS, type CoreEvent } from '../../../actors/client/events/index.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { JobController } from '../../../actors/controller-manager/controllers/job.ts';
import { SimCluster } from '../../../sim/cluster.ts';
import { parseScenario } from '../../../sim/scenario/load.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const JOBS = lookupResource('batch', 'v1', 'jobs')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const job = (name: string, spec: Rec = {}, annotations: Record<string, string> = {}, restartPolicy = 'Never'): KObject => ({
  metadata: { name, namespace: 'default' },
  spec: { template: { metadata: { annotations }, spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox' }] } }, ...spec },
} as KObject);
const seconds = (iso: string | undefined) => Date.parse(iso ?? '') / 1000;

async function cluster(seed = 3) {
  const c = new SimCluster(parseScenario('duration: 1h\nnodePools: [{ name: n, count: 2, capacity: { cpu: "8", memory: 32Gi } }]\n', { name: 'jobs', dir: '.' }), seed);
  await c.start();
  const client = new ApiClient(c.bus, 'test');
  /** The most of a Job's pods active at once (made, neither finished nor deleted). */
  let active = 0, mostActive = 0;
  const live = new Set<string>();
  c.server.store.onChange(({ type, key, object }) => {
    if (!key.includes('/pods/default/')) return;
    const phase = (object.status as Rec | undefined)?.phase;
    const running = type !== 'DELETED' && !object.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
    if (running) live.add(key);
    else live.delete(key);
    active = live.size;
    mostActive = Math.max(mostActive, active);
  });
  const run = (ms: number) => c.kernel.run({ until: c.clock.now() + ms });
  const pods = async () => ((await client.list(PODS, 'default')).items as Rec[]).sort((a, b) => Date.parse(a.metadata.creationTimestamp) - Date.parse(b.metadata.creationTimestamp) || a.metadata.name.localeCompare(b.metadata.name));
  const get = async (name: string) => (await client.get(JOBS, 'default', name)) as Rec;
  const conditions = (j: Rec) => (j.status.conditions ?? []).map((x: Rec) => `${x.type}=${x.status} ${x.reason ?? ''}: ${x.message ?? ''}`);
  await run(5_000);
  return { c, client, run, pods, get, conditions, mostActive: () => mostActive, stop: () => c.stop() };
}

test('a Job with completions 3 and parallelism 2 runs two pods, then one, and completes with SuccessCriteriaMet then Complete', async () => {
  const w = await cluster();
  const created = await w.client.create(JOBS, job('pi', { completions: 3, parallelism: 2 }));
  await w.run(60_000);
  const j = await w.get('pi');
  assert.equal(w.conditions(j), ['SuccessCriteriaMet=True CompletionsReached: Reached expected number of succeeded pods', 'Complete=True CompletionsReached: Reached expected number of succeeded pods']);
  assert.equal([j.status.succeeded, j.status.failed, j.status.active, j.status.ready, j.status.terminating], [3, undefined, undefined, 0, 0]);
  assert.equal(j.status.uncountedTerminatedPods, {}, 'every pod counted');
  assert.is(j.status.conditions[1].lastTransitionTime, j.status.completionTime);
  assert.ok(seconds(j.status.startTime) >= seconds(created.metadata.creationTimestamp as string) && seconds(j.status.completionTime) > seconds(j.status.startTime));
  const pods = await w.pods();
  assert.equal(pods.map((p) => p.status.phase), ['Succeeded', 'Succeeded', 'Succeeded']);
  assert.ok(pods.every((p) => !p.metadata.finalizers?.length), 'the tracking finalizers are off');
  assert.ok(pods.every((p) => p.metadata.name.startsWith('pi-') && p.metadata.ownerReferences[0].uid === created.metadata.uid));
  assert.is(w.mostActive(), 2, 'never more than parallelism pods at once');
  assert.ok(seconds(pods[2]!.metadata.creationTimestamp) > seconds(pods[1]!.metadata.creationTimestamp), 'the third pod is made when one of the first two succeeds');
  w.stop();
});

test('pods failing past backoffLimit are replaced after 10 s, then 20 s, and the Job fails with BackoffLimitExceeded', async () => {
  const w = await cluster();
  await w.client.create(JOBS, job('flaky', { backoffLimit: 2 }, { 'orchsim.io/exit-code': '1' }));
  await w.run(120_000);
  const j = await w.get('flaky');
  assert.equal(w.conditions(j), ['FailureTarget=True BackoffLimitExceeded: Job has reached the specified backoff limit', 'Failed=True BackoffLimitExceeded: Job has reached the specified backoff limit']);
  assert.equal([j.status.failed, j.status.succeeded, j.status.completionTime], [3, undefined, undefined]);
  const pods = await w.pods();
  assert.equal(pods.map((p) => p.status.phase), ['Failed', 'Failed', 'Failed']);
  assert.equal(pods.map((p) => p.status.containerStatuses[0].state.terminated.exitCode), [1, 1, 1]);
  const failedAt = pods.map((p) => seconds(p.status.containerStatuses[0].state.terminated.finishedAt));
  const madeAt = pods.map((p) => seconds(p.metadata.creationTimestamp));
  const waits = [madeAt[1]! - failedAt[0]!, madeAt[2]! - failedAt[1]!];
  assert.ok(waits[0]! >= 10 && waits[0]! <= 11 && waits[1]! >= 20 && waits[1]! <= 21, `replacements came ${waits.join(' s and ')} s after the failures`);
  w.stop();
});

test('a Job active past activeDeadlineSeconds fails with DeadlineExceeded: its pods are deleted and counted failed', async () => {
  const w = await cluster();
  await w.client.create(JOBS, job('slow', { parallelism: 2, completions: 4, activeDeadlineSeconds: 20 }, { 'orchsim.io/run-duration': '10m' }));
  await w.run(60_000);
  const j = await w.get('slow');
  assert.equal(w.conditions(j), ['FailureTarget=True DeadlineExceeded: Job was active longer than specified deadline', 'Failed=True DeadlineExceeded: Job was active longer than specified deadline']);
  assert.is(seconds(j.status.conditions[0].lastTransitionTime) - seconds(j.status.startTime), 20);
  assert.equal([j.status.failed, j.status.active, j.status.terminating], [2, undefined, 0]);
  assert.equal(await w.pods(), [], 'the running pods were deleted');
  w.stop();
});

test('an Indexed Job gives each pod its index, hostname and JOB_COMPLETION_INDEX, and completes every index', async () => {
  const w = await cluster();
  await w.client.create(JOBS, job('idx', { completionMode: 'Indexed', completions: 3, parallelism: 2 }));
  await w.run(2_000);
  const first = await w.pods();
  assert.equal(first.map((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index']).sort(), ['0', '1']);
  const zero = first.find((p) => p.metadata.labels['batch.kubernetes.io/job-completion-index'] === '0')!;
  assert.match(zero.metadata.name, /^idx-0-[a-z0-9]{5}$/);
  assert.is(zero.spec.hostname, 'idx-0');
  assert.equal(zero.spec.containers[0].env, [{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }]);
  await w.run(60_000);
  const j = await w.get('idx');
  assert.equal([j.status.completedIndexes, j.status.succeeded], ['0-2', 3]);
  assert.is(j.status.conditions.at(-1).type, 'Complete');
  assert.equal((await w.pods()).map((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index']).sort(), ['0', '1', '2']);
  w.stop();
});

test('a suspended Job makes no pods; resumed it starts anew; suspended again its pods are deleted', async () => {
  const w = await cluster();
  await w.client.create(JOBS, job('later', { suspend: true, parallelism: 2, completions: 2 }, { 'orchsim.io/run-duration': '10m' }));
  await w.run(10_000);
  let j = await w.get('later');
  assert.equal(w.conditions(j), ['Suspended=True JobSuspended: Job suspended']);
  assert.equal([j.status.startTime, (await w.pods()).length], [undefined, 0]);
  await w.client.patch(JOBS, 'default', 'later', { spec: { suspend: false } }, 'merge');
  const resumedAt = w.c.clock.now();
  await w.run(10_000);
  j = await w.get('later');
  assert.equal(w.conditions(j), ['Suspended=False JobResumed: Job resumed']);
  assert.is(seconds(j.status.startTime), Math.floor(resumedAt / 1000), 'the start time is the resumption');
  assert.equal([j.status.active, j.status.ready], [2, 2]);
  await w.client.patch(JOBS, 'default', 'later', { spec: { suspend: true } }, 'merge');
  await w.run(10_000);
  j = await w.get('later');
  assert.equal(w.conditions(j), ['Suspended=True JobSuspended: Job suspended']);
  assert.equal([j.status.active, (await w.pods()).length], [undefined, 0]);
  w.stop();
});

test('a finished Job with ttlSecondsAfterFinished is deleted, with its pods, that long after it finished', async () => {
  const w = await cluster();
  await w.client.create(JOBS, job('brief', { ttlSecondsAfterFinished: 30 }));
  await w.run(15_000);
  const j = await w.get('brief');
  const finished = seconds(j.status.completionTime);
  assert.is(j.status.conditions.at(-1).type, 'Complete');
  await w.run(Math.max(0, (finished + 29) * 1000 - w.c.clock.now()));
  assert.ok(await w.get('brief'), 'still there a second before its TTL');
  await w.run(5_000);
  const gone = await w.client.get(JOBS, 'default', 'brief').then(() => false, (e) => e.code === 404);
  assert.ok(gone, 'deleted after its TTL');
  assert.equal(await w.pods(), [], 'its pods went before it (foreground)');
  w.stop();
});

test('restarts of a restartPolicy OnFailure pod reaching backoffLimit fail the Job', async () => {
  const w = await cluster();
  await w.client.create(JOBS, job('crashy', { backoffLimit: 2 }, { 'orchsim.io/exit-code': '2' }, 'OnFailure'));
  await w.run(90_000);
  const j = await w.get('crashy');
  assert.equal(w.conditions(j).map((x: string) => x.split(' ')[0]), ['FailureTarget=True', 'Failed=True']);
  assert.is(j.status.conditions[1].reason, 'BackoffLimitExceeded');
  assert.equal([j.status.failed, (await w.pods()).length], [1, 0], 'the restarting pod was deleted and counted failed');
  w.stop();
});

test('deleting a running Job in the background deletes its pods: their tracking finalizers are taken off', async () => {
  const w = await cluster();
  await w.client.create(JOBS, job('doomed', { parallelism: 2, completions: 2 }, { 'orchsim.io/run-duration': '10m' }));
  await w.run(10_000);
  assert.is((await w.pods()).length, 2);
  await w.client.delete(JOBS, 'default', 'doomed', { propagationPolicy: 'Background' });
  await w.run(60_000);
  assert.equal(await w.pods(), []);
  w.stop();
});

test('the controller records the real Events: pods created, the Job completed', async () => {
  const { clock, bus, server, client, run, random } = await virtualWorld({ seed: 5 });
  const informers = new SharedInformers(bus, clock, 'test');
  const controller = new JobController({ bus, clock, informers, workers: 5, onError: (e) => { throw e; }, events: coreRecorders(clock, random.fork('events')) });
  /** The Events written, in the order they were, as `object type reason: message`. */
  const events = async () => ((await client.list(EVENTS, 'default')).items as CoreEvent[])
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => `${e.involvedObject.name} ${e.type} ${e.reason}: ${e.message}`);
  await controller.start();
  await client.create(JOBS, job('once'));
  await run(2_000);
  const [pod] = (await client.list(PODS, 'default')).items;
  assert.equal(pod!.metadata.finalizers, ['batch.kubernetes.io/job-tracking']);
  // The test plays the node agent: the pod ran and exited 0.
  const now = new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  await client.patch(PODS, 'default', pod!.metadata.name!, { status: { phase: 'Succeeded',
    containerStatuses: [{ name: 'main', state: { terminated: { exitCode: 0, reason: 'Completed', finishedAt: now } } }] } }, 'merge', 'status');
  await run(5_000);
  assert.equal(await events(), [`once Normal SuccessfulCreate: Created pod: ${pod!.metadata.name}`, 'once Normal Completed: Job completed']);
  assert.equal(((await client.get(JOBS, 'default', 'once')).status as Rec).succeeded, 1);
  controller.stop();
  informers.stop();
  server.stop();
});

test.run();
