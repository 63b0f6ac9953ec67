// Job, CronJob and budgeted workloads as the loader reads them: the fields of each kind checked
// by the API server's rules, each broken one reported at its field, and made into the objects a
// user would create (a Job per arrival, one CronJob, a PodDisruptionBudget beside its workload).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseScenario } from '../../../sim/scenario/load.ts';
import { scenarioError } from '../../helpers/scenario-errors.ts';
import { workloadBudget, workloadCronJob, workloadJob, workloadPod } from '../../../sim/workload.ts';
import { RUN_DURATION, RUN_DURATION_MAX } from '../../../actors/nodeagent/pod-run.ts';

const BASE = 'duration: 1h\nnodePools: [{ name: general, count: 2 }]\nworkloads:\n  - name: etl\n    namespace: batch\n    requests: { cpu: 100m, memory: 128Mi }\n';
const parse = (extra: string) => parseScenario(BASE + extra, { name: 'scenario', dir: '.' }).workloads[0]!;
const errorOf = (extra: string) => scenarioError(BASE + extra);
const LABELS = { 'orchsim.io/workload': 'etl' };

test('a Job workload makes Job <workload>-<i> with the fields it gives, its pods restartPolicy Never and carrying the run', () => {
  const w = parse('    controller: Job\n    count: 3\n    arrival: { kind: uniform, interval: 5m }\n    completions: 4\n    parallelism: 2\n'
    + '    backoffLimit: 1\n    activeDeadline: 10m\n    ttlAfterFinished: 1h\n    runDuration: 2m\n    failureProbability: 0.25\n');
  assert.equal(w.job, { completions: 4, parallelism: 2, backoffLimit: 1, activeDeadlineSeconds: 600, ttlSecondsAfterFinished: 3600 });
  assert.equal(w.arrival, { kind: 'uniform', intervalMs: 300_000 });
  const job = workloadJob(w, 2);
  assert.equal(job.metadata, { name: 'etl-2', namespace: 'batch', labels: LABELS });
  const spec = job.spec as { template: { metadata: { labels: Record<string, string>; annotations: Record<string, string> }; spec: { restartPolicy: string } } };
  assert.equal({ ...spec, template: undefined }, { completions: 4, parallelism: 2, backoffLimit: 1, activeDeadlineSeconds: 600, ttlSecondsAfterFinished: 3600, template: undefined });
  assert.equal(spec.template.metadata.labels, LABELS);
  assert.equal(spec.template.metadata.annotations, { 'orchsim.io/run-duration': '2m0s', 'orchsim.io/failure-probability': '0.25' });
  assert.is(spec.template.spec.restartPolicy, 'Never');
});

test('fields a Job workload leaves out are left for the API server to default', () => {
  const w = parse('    controller: Job\n    count: 1\n');
  assert.equal(w.job, {});
  assert.equal(Object.keys(workloadJob(w, 0).spec as object), ['template']);
  assert.is(parse('    controller: Job\n    count: 1\n    failureProbability: 0.5\n').failureProbability, 0.5, 'a Job\'s pods are batch pods without runDuration too');
});

test('a pod whose restartPolicy is OnFailure keeps it in its Job', () => {
  const text = BASE.replace('    requests: { cpu: 100m, memory: 128Mi }\n',
    '    pod: { apiVersion: v1, kind: Pod, metadata: { name: x }, spec: { restartPolicy: OnFailure, containers: [{ name: c, image: busybox }] } }\n');
  const w = parseScenario(`${text}    controller: Job\n    count: 1\n`, { name: 'scenario', dir: '.' }).workloads[0]!;
  assert.is((workloadJob(w, 0).spec as { template: { spec: { restartPolicy: string } } }).template.spec.restartPolicy, 'OnFailure');
});

test('a CronJob workload is one CronJob named after it, its Jobs labelled with the workload', () => {
  const w = parse('    controller: CronJob\n    schedule: "*/10 * * * *"\n    concurrencyPolicy: Forbid\n    successfulJobsHistoryLimit: 1\n'
    + '    failedJobsHistoryLimit: 2\n    startingDeadline: 30s\n    completions: 2\n    start: 5m\n');
  assert.is(w.count, 1);
  assert.is(w.startMs, 300_000);
  const cj = workloadCronJob(w);
  assert.equal(cj.metadata, { name: 'etl', namespace: 'batch', labels: LABELS });
  const spec = cj.spec as Record<string, unknown> & { jobTemplate: { metadata: unknown; spec: { completions: number; template: { spec: { restartPolicy: string } } } } };
  assert.equal({ ...spec, jobTemplate: undefined }, {
    schedule: '*/10 * * * *', concurrencyPolicy: 'Forbid', successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 2, startingDeadlineSeconds: 30, jobTemplate: undefined,
  });
  assert.equal(spec.jobTemplate.metadata, { labels: LABELS });
  assert.is(spec.jobTemplate.spec.completions, 2);
  assert.is(spec.jobTemplate.spec.template.spec.restartPolicy, 'Never');
});

test('disruptionBudget makes a policy/v1 PodDisruptionBudget named after the workload selecting its pods', () => {
  const w = parse('    controller: Deployment\n    count: 4\n    disruptionBudget: { maxUnavailable: "25%" }\n');
  assert.equal(workloadBudget(w), {
    apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'etl', namespace: 'batch', labels: LABELS },
    spec: { maxUnavailable: '25%', selector: { matchLabels: LABELS } },
  });
  assert.equal(parse('    controller: ReplicaSet\n    count: 4\n    disruptionBudget: { minAvailable: 3 }\n').disruptionBudget, { minAvailable: 3 });
  assert.is(parse('    controller: ReplicaSet\n    count: 4\n').disruptionBudget, undefined, 'no field, no budget');
});

test('runDuration as a uniform range: each pod runs from min up to max, drawn by its node agent', () => {
  const w = parse('    count: 2\n    runDuration: { kind: uniform, min: 1m, max: 3m }\n');
  assert.equal([w.runDurationMs, w.runDurationJitterMs], [60_000, 120_000]);
  const annotations = workloadPod(w, 0).metadata.annotations!;
  assert.equal([annotations[RUN_DURATION], annotations[RUN_DURATION_MAX]], ['1m0s', '3m0s']);
  assert.is(workloadPod(parse('    count: 2\n    runDuration: 1m\n'), 0).metadata.annotations![RUN_DURATION_MAX], undefined);
});

test('a batch field breaking a rule, or given to the wrong kind of workload, is refused at its field', () => {
  const at = 'scenario.yaml: workloads[0]';
  const cases: [string, string][] = [
    ['    count: 1\n    completions: 2\n', `${at}.completions: applies to a Job or CronJob workload only: give controller: Job or CronJob too`],
    ['    controller: Job\n    count: 1\n    schedule: "@daily"\n', `${at}.schedule: applies to a CronJob workload only: give controller: CronJob too`],
    ['    controller: Job\n    count: 1\n    disruptionBudget: { minAvailable: 1 }\n',
      `${at}.disruptionBudget: applies to a ReplicaSet or Deployment workload only: give controller: ReplicaSet or Deployment too`],
    ['    controller: Job\n    count: 1\n    completions: -1\n', `${at}.completions: must be a non-negative integer, got -1`],
    ['    controller: Job\n    count: 1\n    backoffLimit: 2147483648\n', `${at}.backoffLimit: must be at most 2,147,483,647, got 2147483648`],
    ['    controller: Job\n    count: 1\n    activeDeadline: 0s\n', `${at}.activeDeadline: must be at least 1s, got "0s"`],
    ['    controller: Job\n    count: 1\n    ttlAfterFinished: 1500ms\n',
      `${at}.ttlAfterFinished: must be a whole number of seconds (the API field is in seconds), got "1500ms"`],
    ['    controller: CronJob\n', `${at}.schedule: required (must be a cron schedule such as "*/10 * * * *" or "@daily")`],
    ['    controller: CronJob\n    schedule: "61 * * * *"\n', `${at}.schedule: must be a cron schedule (`],
    ['    controller: CronJob\n    schedule: "TZ=Europe/Paris 0 3 * * *"\n', `${at}.schedule: must not name a time zone: schedules run on the cluster's clock, in UTC`],
    ['    controller: CronJob\n    schedule: "@daily"\n    concurrencyPolicy: Sometimes\n', `${at}.concurrencyPolicy: must be one of Allow, Forbid, Replace, got "Sometimes"`],
    ['    controller: CronJob\n    schedule: "@daily"\n    count: 3\n',
      `${at}.count: must be 1 or left out: a CronJob workload is one CronJob, whose schedule makes its Jobs, got 3`],
    ['    controller: CronJob\n    schedule: "@daily"\n    arrival: { kind: burst }\n', `${at}.arrival: does not apply to a CronJob workload: its schedule makes its Jobs`],
    ['    controller: Deployment\n    count: 2\n    disruptionBudget: { minAvailable: 1, maxUnavailable: 1 }\n',
      `${at}.disruptionBudget: must give exactly one of minAvailable and maxUnavailable (as a PodDisruptionBudget does)`],
    ['    controller: Deployment\n    count: 2\n    disruptionBudget: { minAvailable: "120%" }\n', `${at}.disruptionBudget.minAvailable: must not be greater than 100%, got "120%"`],
    ['    controller: Deployment\n    count: 2\n    disruptionBudget: { maxUnavailable: half }\n',
      `${at}.disruptionBudget.maxUnavailable: must be a non-negative integer or a percentage such as "50%", got "half"`],
    ['    count: 1\n    runDuration: { kind: uniform, min: 2m, max: 1m }\n', `${at}.runDuration.max: must be at least min (2m0s), got "1m"`],
    ['    count: 1\n    runDuration: { kind: normal, min: 1m, max: 2m }\n', `${at}.runDuration.kind: must be one of uniform, got "normal"`],
  ];
  for (const [extra, message] of cases) assert.ok(errorOf(extra).startsWith(message), `${extra}\n  got: ${errorOf(extra)}\n  want: ${message}`);
});

test('Job and CronJob names must fit the label values their pods carry', () => {
  const named = (name: string, extra: string) => BASE.replace('name: etl', `name: ${name}`) + extra;
  const long = 'a'.repeat(50);
  parseScenario(named(long, '    controller: CronJob\n    schedule: "@daily"\n'), { name: 'scenario', dir: '.' }); // room for the -<minutes> suffix
  parseScenario(named(long, '    controller: Job\n    count: 10\n'), { name: 'scenario', dir: '.' });
  const longer = 'b'.repeat(53);
  assert.is(scenarioError(named(longer, '    controller: CronJob\n    schedule: "@daily"\n')),
    `scenario.yaml: workloads[0].name: must leave the CronJob name ${longer} at most 52 characters (53)`);
  const job = 'c'.repeat(60);
  assert.is(scenarioError(named(job, '    controller: Job\n    count: 1000\n')),
    `scenario.yaml: workloads[0].name: must leave the Job name ${job}-999 at most 63 characters (64)`);
});

test.run();
