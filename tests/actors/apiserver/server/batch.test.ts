// batch/v1 Jobs and CronJobs as the real server stores them: defaults, the selector and labels a
// Job generates for itself, the validation messages, what an update may change, the Tables
// `kubectl get` prints, and the field selector on succeeded pods.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MERGE, startServer, type Harness } from '../../../helpers/in-process-server.ts';

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const CRONJOBS = '/apis/batch/v1/namespaces/default/cronjobs';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const podTemplate = (restartPolicy?: string) => ({ spec: { containers: [{ name: 'c', image: 'busybox' }], ...(restartPolicy ? { restartPolicy } : {}) } });
const job = (name: string, spec: Record<string, unknown> = {}) =>
  ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name }, spec: { template: podTemplate('Never'), ...spec } });
const cronJob = (name: string, spec: Record<string, unknown> = {}) =>
  ({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name }, spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: podTemplate('OnFailure') } }, ...spec } });
const causes = (r: { json: any }) => (r.json.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);

async function created(h: Harness, url: string, body: unknown): Promise<any> {
  const r = await h.post(url, body);
  assert.is(r.status, 201, r.text);
  return r.json;
}

test('a Job gets the real defaults, a selector on its uid, and the four labels on its template and itself', async () => {
  const h = await startServer();
  const j = await created(h, JOBS, job('pi'));
  const uid = j.metadata.uid;
  const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' };
  assert.equal(j.spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
  assert.equal(j.spec.template.metadata.labels, labels);
  assert.equal(j.metadata.labels, labels);
  assert.equal([j.spec.completions, j.spec.parallelism, j.spec.backoffLimit, j.spec.completionMode, j.spec.suspend, j.spec.manualSelector, j.spec.podReplacementPolicy],
    [1, 1, 6, 'NonIndexed', false, false, 'TerminatingOrFailed']);
  assert.is(j.spec.template.spec.terminationGracePeriodSeconds, 30, 'the pod template is defaulted');
  assert.is(j.metadata.generation, 1);
  assert.is(j.status, undefined);
  const parallel = await created(h, JOBS, job('wide', { parallelism: 3 }));
  assert.equal([parallel.spec.completions, parallel.spec.parallelism], [undefined, 3], 'completions stay unset when parallelism is given');
  const own = await created(h, JOBS, { ...job('labelled'), metadata: { name: 'labelled', labels: { team: 'a' } } });
  assert.equal(own.metadata.labels, { team: 'a' }, 'a Job with labels of its own keeps them');
});

test('a Job with a manual selector keeps it and its template labels as given', async () => {
  const h = await startServer();
  const j = await created(h, JOBS, job('manual', { manualSelector: true, selector: { matchLabels: { app: 'x' } },
    template: { metadata: { labels: { app: 'x' } }, ...podTemplate('OnFailure') } }));
  assert.equal(j.spec.selector, { matchLabels: { app: 'x' } });
  assert.equal(j.spec.template.metadata.labels, { app: 'x' });
  const bad = await h.post(JOBS, job('nomatch', { manualSelector: true, selector: { matchLabels: { app: 'y' } }, template: { metadata: { labels: { app: 'x' } }, ...podTemplate('Never') } }));
  assert.is(bad.status, 422);
  assert.equal(causes(bad), ['spec.template.metadata.labels: Invalid value: {"app":"x"}: `selector` does not match template `labels`']);
  const none = await h.post(JOBS, job('noselector', { manualSelector: true }));
  assert.equal(causes(none), ['spec.selector: Required value']);
});

test('a Job is refused with the real messages: restart policy, negative counts, Indexed without completions', async () => {
  const h = await startServer();
  const always = await h.post(JOBS, job('always', { template: podTemplate() }));
  assert.is(always.status, 422);
  assert.is(always.json.message, 'Job.batch "always" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
  const sometimes = await h.post(JOBS, job('sometimes', { template: podTemplate('Sometimes') }));
  assert.equal(causes(sometimes), ['spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"']);
  const negative = await h.post(JOBS, job('neg', { parallelism: -1, backoffLimit: -2, activeDeadlineSeconds: -5 }));
  assert.equal(causes(negative).sort(), [
    'spec.activeDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0',
    'spec.backoffLimit: Invalid value: -2: must be greater than or equal to 0',
    'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
  ]);
  const indexed = await h.post(JOBS, job('idx', { completionMode: 'Indexed', parallelism: 2 }));
  assert.equal(causes(indexed), ['spec.completions: Required value: when completion mode is Indexed']);
  const mode = await h.post(JOBS, job('mode', { completionMode: 'Sometimes' }));
  assert.equal(causes(mode), ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']);
  const stolen = await h.post(JOBS, job('stolen', { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'not-mine' } } }));
  assert.is(stolen.status, 422);
  assert.ok(causes(stolen).includes('spec.selector: Invalid value: {"matchLabels":{"batch.kubernetes.io/controller-uid":"not-mine"}}: `selector` not auto-generated'), causes(stolen).join('\n'));
});

test('a Job\'s selector, completion mode and template are fixed; a suspended Job that never ran may change its scheduling directives', async () => {
  const h = await startServer();
  await created(h, JOBS, job('fixed'));
  const image = await h.patch(`${JOBS}/fixed`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:2' }] } } } }, MERGE);
  assert.is(image.status, 422);
  assert.match(causes(image)[0], /^spec\.template: Invalid value: .*: field is immutable$/);
  const completions = await h.patch(`${JOBS}/fixed`, { spec: { completions: 3 } }, MERGE);
  assert.equal(causes(completions), ['spec.completions: Invalid value: 3: field is immutable']);
  const parallelism = await h.patch(`${JOBS}/fixed`, { spec: { parallelism: 4, activeDeadlineSeconds: 60, suspend: true } }, MERGE);
  assert.is(parallelism.status, 200, 'parallelism, the deadline and suspend may change');
  assert.is(parallelism.json.metadata.generation, 2);
  await created(h, JOBS, job('queued', { suspend: true }));
  const placed = await h.patch(`${JOBS}/queued`, { spec: { template: { metadata: { annotations: { queue: 'gpu' } }, spec: { nodeSelector: { pool: 'gpu' } } } } }, MERGE);
  assert.is(placed.status, 200, placed.text);
  const elastic = await created(h, JOBS, job('elastic', { completionMode: 'Indexed', completions: 4, parallelism: 4 }));
  assert.ok(elastic);
  const tandem = await h.patch(`${JOBS}/elastic`, { spec: { completions: 6, parallelism: 6 } }, MERGE);
  assert.is(tandem.status, 200, 'an Indexed Job scales completions with parallelism');
  const alone = await h.patch(`${JOBS}/elastic`, { spec: { completions: 8 } }, MERGE);
  assert.equal(causes(alone), ['spec.completions: Invalid value: 8: can only be modified in tandem with spec.parallelism']);
});

test('a CronJob gets the real defaults and its schedule and time zone are checked', async () => {
  const h = await startServer();
  const cj = await created(h, CRONJOBS, cronJob('tick'));
  assert.equal([cj.spec.concurrencyPolicy, cj.spec.suspend, cj.spec.successfulJobsHistoryLimit, cj.spec.failedJobsHistoryLimit], ['Allow', false, 3, 1]);
  assert.is(cj.spec.jobTemplate.spec.template.spec.dnsPolicy, 'ClusterFirst');
  assert.is(cj.spec.jobTemplate.spec.backoffLimit, undefined, 'the template is not a Job: no Job defaults');
  await created(h, CRONJOBS, cronJob('hourly', { schedule: '@hourly', timeZone: 'Europe/Berlin' }));
  const fields = await h.post(CRONJOBS, cronJob('four', { schedule: '* * * *' }));
  assert.is(fields.json.message, 'CronJob.batch "four" is invalid: spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]');
  const tz = await h.post(CRONJOBS, cronJob('tz', { schedule: 'TZ=UTC 0 * * * *' }));
  assert.equal(causes(tz), ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']);
  const zone = await h.post(CRONJOBS, cronJob('zone', { timeZone: 'Mars/Olympus' }));
  assert.equal(causes(zone), ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']);
  const local = await h.post(CRONJOBS, cronJob('local', { timeZone: 'Local' }));
  assert.equal(causes(local), ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones']);
  const policy = await h.post(CRONJOBS, cronJob('policy', { concurrencyPolicy: 'Sometimes' }));
  assert.equal(causes(policy), ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']);
  const long = await h.post(CRONJOBS, cronJob('a'.repeat(53)));
  assert.equal(causes(long), [`metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`]);
  const selector = await h.post(CRONJOBS, cronJob('sel', { jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, template: podTemplate('Never') } } }));
  assert.equal(causes(selector), ['spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated']);
  const always = await h.post(CRONJOBS, cronJob('always', { jobTemplate: { spec: { template: podTemplate() } } }));
  assert.equal(causes(always), ['spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
});

test('kubectl get jobs and cronjobs print the real columns', async () => {
  const h = await startServer();
  const pi = await created(h, JOBS, job('pi', { completions: 3, parallelism: 2 }));
  const start = pi.metadata.creationTimestamp;
  await h.patch(`${JOBS}/pi/status`, { status: { succeeded: 1, startTime: start } }, MERGE);
  h.clock.advance(75_000);
  const jobs = (await h.get(JOBS, { accept: TABLE })).json;
  assert.equal(jobs.columnDefinitions.map((c: any) => `${c.name}${c.priority ? '*' : ''}`), ['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*']);
  const [row] = jobs.rows;
  assert.equal(row.cells.slice(0, 6), ['pi', 'Running', '1/3', '75s', '75s', 'c']);
  await h.patch(`${JOBS}/pi/status`, { status: { completionTime: new Date(Date.parse(start) + 40_000).toISOString().replace('.000Z', 'Z'), conditions: [{ type: 'Complete', status: 'True' }] } }, MERGE);
  const done = (await h.get(JOBS, { accept: TABLE })).json.rows[0].cells;
  assert.equal(done.slice(1, 4), ['Complete', '1/3', '40s']);
  await created(h, CRONJOBS, cronJob('tick', { timeZone: 'UTC' }));
  const cronjobs = (await h.get(CRONJOBS, { accept: TABLE })).json;
  assert.equal(cronjobs.columnDefinitions.map((c: any) => `${c.name}:${c.type}${c.priority ? '*' : ''}`),
    ['Name:string', 'Schedule:string', 'Timezone:string', 'Suspend:boolean', 'Active:integer', 'Last Schedule:string', 'Age:string', 'Containers:string*', 'Images:string*', 'Selector:string*']);
  assert.equal(cronjobs.rows[0].cells, ['tick', '*/1 * * * *', 'UTC', 'False', 0, '<none>', '0s', 'c', 'busybox', '<none>']);
});

test('jobs can be selected by status.successful, 0 when none succeeded', async () => {
  const h = await startServer();
  await created(h, JOBS, job('a'));
  await created(h, JOBS, job('b'));
  await h.patch(`${JOBS}/b/status`, { status: { succeeded: 1 } }, MERGE);
  const names = async (selector: string) => (await h.get(`${JOBS}?fieldSelector=${encodeURIComponent(selector)}`)).json.items.map((j: any) => j.metadata.name);
  assert.equal(await names('status.successful=1'), ['b']);
  assert.equal(await names('status.successful=0'), ['a']);
});

test('a Job deleted with no propagation policy orphans its pods, as batch/v1 does for compatibility; Background deletes them', async () => {
  const h = await startServer();
  await created(h, JOBS, job('legacy'));
  const orphaning = await h.del(`${JOBS}/legacy`);
  assert.is(orphaning.status, 200);
  assert.equal(orphaning.json.metadata.finalizers, ['orphan'], 'it waits for the garbage collector to orphan its pods');
  await created(h, JOBS, job('modern'));
  const background = await h.del(`${JOBS}/modern`, { propagationPolicy: 'Background' });
  assert.is(background.json.status, 'Success');
  assert.is((await h.get(`${JOBS}/modern`)).status, 404);
});

test.run();
