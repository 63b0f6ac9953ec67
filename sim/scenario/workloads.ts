// Workloads: `count` pods of one kind, arriving from `start` in a burst, at a fixed interval or
// as a Poisson process; batch pods end after `runDuration`, some of them failing. A `controller:`
// workload is objects of that kind instead: one ReplicaSet or Deployment of `count` replicas (with
// its autoscaler and disruption budget), `count` Jobs arriving as pods would, or one CronJob
// (batch.ts checks their fields).
import { formatDuration } from '../../actors/api/duration.ts';
import type { Arrival, Workload } from './types.ts';
import { manifestPod, SHORT_FORM_FIELDS, shortFormPod, templatePod, type BuiltPod } from './pods.ts';
import { checkUsageModel, USAGE_RESOURCES, UsageModelError, type UsageModel } from '../../actors/nodeagent/usage-model.ts';
import { VIRTUAL_EPOCH_MS } from '../virtual-clock.ts';
import { isMapping, type Field } from './field.ts';
import { autoscale } from './autoscale.ts';
import { seriesUsage } from './usage-series.ts';
import { dnsLabel, durationMs, number, oneOf, optional, positiveInteger } from './schema.ts';
import { CRONJOB_FIELDS, CRONJOB_NAME_MAX, cronJobFields, disruptionBudget, JOB_FIELDS, jobFields } from './batch.ts';

const POD_FORMS = ['requests', 'pod', 'template'] as const;
const WORKLOAD_FIELDS = ['name', 'namespace', 'count', 'start', 'arrival', ...SHORT_FORM_FIELDS, 'pod', 'template', 'runDuration', 'failureProbability', 'controller', 'usage', 'autoscale',
  'disruptionBudget', ...JOB_FIELDS, ...CRONJOB_FIELDS];
const CONTROLLERS = ['ReplicaSet', 'Deployment', 'Job', 'CronJob'] as const;
type Controller = (typeof CONTROLLERS)[number];
const isBatch = (c: Controller | undefined) => c === 'Job' || c === 'CronJob';
/** Fields only workloads of these controllers take. */
const FIELDS_OF_KINDS: [readonly string[], readonly Controller[]][] = [
  [JOB_FIELDS, ['Job', 'CronJob']], [CRONJOB_FIELDS, ['CronJob']], [['disruptionBudget'], ['ReplicaSet', 'Deployment']],
];
/** Job and CronJob names are label values on their pods: at most 63 characters. */
const JOB_NAME_MAX = 63;
const WORKLOAD_PODS_MAX = 10_000_000;
const POISSON_RATE_MAX_PER_SECOND = 1_000_000;
const DEFAULT_NAMESPACE = 'default';

/** One entry of `workloads:`; `runMs` is the scenario's duration, which `start` must precede. */
export function workload(f: Field, runMs: number, dir: string): Workload {
  f.mapping(WORKLOAD_FIELDS);
  const name = dnsLabel(f.child('name'));
  const controller = optional(f.child('controller'), (c) => oneOf(c, CONTROLLERS), undefined);
  // A CronJob workload is one CronJob: its schedule, not a count, says how many Jobs it makes.
  if (controller === 'CronJob' && f.child('count').present && f.child('count').value !== 1)
    f.child('count').fail('must be 1 or left out: a CronJob workload is one CronJob, whose schedule makes its Jobs');
  const count = controller === 'CronJob' ? 1 : positiveInteger(f.child('count'), WORKLOAD_PODS_MAX);
  const startMs = optional(f.child('start'), durationMs, 0);
  if (startMs < 0) f.child('start').fail('must not be negative');
  if (startMs >= runMs) f.child('start').fail(`must be before the end of the run (duration ${formatDuration(runMs)})`);
  const arrival = optional(f.child('arrival'), arrivalOf, { kind: 'burst' });
  const built = pod(f, name);
  const given = optional(f.child('namespace'), dnsLabel, undefined);
  if (given !== undefined && built.namespace !== undefined && built.namespace !== given)
    f.child('namespace').fail(`must match the namespace of the workload's manifest (${built.namespace}), or be left out`);
  const out: Workload = { name, namespace: given ?? built.namespace ?? DEFAULT_NAMESPACE, count, startMs, arrival, pod: built.pod, failureProbability: 0 };
  if (f.child('runDuration').present) Object.assign(out, runDuration(f.child('runDuration')));
  if (f.child('failureProbability').present) {
    // A Job's pods are batch pods even without a run duration (they run the node agent's default).
    if (out.runDurationMs === undefined && !isBatch(controller)) f.child('failureProbability').error('applies to batch pods only: give runDuration too');
    out.failureProbability = number(f.child('failureProbability'), 0, 1, 'a probability from 0 to 1');
  }
  if (f.child('usage').present) out.usage = usageModel(f.child('usage'), runMs, out.namespace, name, dir);
  if (controller === 'ReplicaSet' || controller === 'Deployment') {
    out.controller = controller;
    if (arrival.kind !== 'burst') f.child('arrival').error(`does not apply to a ${out.controller} workload: it creates its count pods at start`);
    if (out.runDurationMs !== undefined) f.child('runDuration').error(`does not apply to a ${out.controller} workload: its pods run until deleted (a finished one is replaced)`);
    if (f.child('disruptionBudget').present) out.disruptionBudget = disruptionBudget(f.child('disruptionBudget'));
  }
  if (isBatch(controller)) batchWorkload(f, out, controller!);
  for (const [fields, kinds] of FIELDS_OF_KINDS)
    for (const field of controller && kinds.includes(controller) ? [] : fields.filter((k) => f.child(k).present))
      f.child(field).error(`applies to a ${kinds.join(' or ')} workload only: give controller: ${kinds.join(' or ')} too`);
  if (f.child('autoscale').present) {
    if (out.controller !== 'Deployment') f.child('autoscale').error('applies to a Deployment workload only: give controller: Deployment too');
    out.autoscale = autoscale(f.child('autoscale'));
  }
  return out;
}

/** A Job or CronJob workload's own fields, and the names and pods its kind needs. */
function batchWorkload(f: Field, out: Workload, controller: 'Job' | 'CronJob'): void {
  out.controller = controller;
  const restartPolicy = (out.pod.spec as { restartPolicy?: string } | undefined)?.restartPolicy;
  if (restartPolicy !== undefined && restartPolicy !== 'Never' && restartPolicy !== 'OnFailure')
    f.child('controller').error(`a ${controller}'s pods must have restartPolicy Never or OnFailure; the workload's pod has ${restartPolicy}`);
  const longest = controller === 'CronJob' ? out.name : `${out.name}-${out.count - 1}`;
  const max = controller === 'CronJob' ? CRONJOB_NAME_MAX : JOB_NAME_MAX;
  if (longest.length > max)
    f.child('name').error(`must leave the ${controller} name ${longest} at most ${max} characters (${longest.length})`);
  if (controller === 'CronJob') {
    if (f.child('arrival').present) f.child('arrival').error('does not apply to a CronJob workload: its schedule makes its Jobs');
    out.cronJob = cronJobFields(f);
  }
  out.job = jobFields(f);
}

/** `runDuration:` a duration, or `{ kind: uniform, min, max }` drawn for each pod. */
function runDuration(f: Field): Pick<Workload, 'runDurationMs' | 'runDurationJitterMs'> {
  if (!isMapping(f.value)) {
    const runDurationMs = durationMs(f);
    if (!(runDurationMs > 0)) f.fail('must be greater than 0');
    return { runDurationMs };
  }
  f.mapping(['kind', 'min', 'max'], 'a duration such as 10m, or a mapping such as { kind: uniform, min: 1m, max: 5m }');
  oneOf(f.child('kind'), ['uniform'] as const);
  const min = durationMs(f.child('min')), max = durationMs(f.child('max'));
  if (!(min > 0)) f.child('min').fail('must be greater than 0');
  if (max < min) f.child('max').fail(`must be at least min (${formatDuration(min)})`);
  return { runDurationMs: min, runDurationJitterMs: max - min };
}

/** A Pod of a manifests file: one pod at the start, in a workload named after it. */
export function workloadFromPod(f: Field): Workload {
  const name = dnsLabel(f.child('metadata').child('name'));
  return fromManifest(name, manifestPod(f, name));
}

/** A PodTemplate of a manifests file: one pod from the template at the start, in a workload named after it. */
export function workloadFromTemplate(f: Field): Workload {
  const name = dnsLabel(f.child('metadata').child('name'));
  return fromManifest(name, templatePod(f, name));
}

function fromManifest(name: string, built: BuiltPod): Workload {
  return { name, namespace: built.namespace ?? DEFAULT_NAMESPACE, count: 1, startMs: 0, arrival: { kind: 'burst' }, pod: built.pod, failureProbability: 0 };
}

/** Exactly one of the forms; the short form's fields beside `requests` belong to it alone. */
function pod(f: Field, name: string): BuiltPod {
  const forms = POD_FORMS.filter((k) => f.child(k).present);
  if (forms.length === 0)
    f.error(`workload ${name} has no pod: give one of requests (the short form), pod (a Pod manifest) or template (a pod template)`);
  const [form, second] = forms as [(typeof POD_FORMS)[number], ...string[]];
  if (second !== undefined) f.child(second).error(`cannot be given with ${form}: give exactly one of requests, pod or template`);
  if (form === 'requests') return { pod: shortFormPod(f, name) };
  for (const field of SHORT_FORM_FIELDS)
    if (f.child(field).present) f.child(field).error(`belongs to the short form (with requests); with ${form}, write it in the manifest`);
  return form === 'pod' ? manifestPod(f.child('pod'), name) : templatePod(f.child('template'), name);
}

function arrivalOf(f: Field): Arrival {
  f.mapping(['kind', 'interval', 'ratePerSecond'], 'a mapping such as { kind: poisson, ratePerSecond: 5 }');
  const kind = oneOf(f.child('kind'), ['burst', 'uniform', 'poisson'] as const);
  if (kind === 'burst') {
    f.mapping(['kind']);
    return { kind };
  }
  if (kind === 'uniform') {
    f.mapping(['kind', 'interval']);
    const intervalMs = durationMs(f.child('interval'));
    if (!(intervalMs > 0)) f.child('interval').fail('must be greater than 0');
    return { kind, intervalMs };
  }
  f.mapping(['kind', 'ratePerSecond']);
  const ratePerSecond = number(f.child('ratePerSecond'), 0, POISSON_RATE_MAX_PER_SECOND, `a number of pods per second, greater than 0 and at most ${POISSON_RATE_MAX_PER_SECOND}`);
  if (ratePerSecond === 0) f.child('ratePerSecond').fail('must be greater than 0');
  return { kind, ratePerSecond };
}

/**
 * `usage:` checked by the node agent's own rules (usage-model.ts), a broken rule reported at its
 * field. A step's `at` is written as a duration after the run's start (before its end) and becomes
 * the instant of the run's virtual clock the model names.
 */
function usageModel(f: Field, runMs: number, namespace: string, name: string, dir: string): UsageModel {
  const series = isMapping(f.value) && f.value.kind === 'series';
  const value = series ? seriesUsage(f, dir) : isMapping(f.value) ? { ...f.value } : f.value;
  for (const r of USAGE_RESOURCES) {
    if (!isMapping(value) || !isMapping(value[r]) || value[r].kind !== 'step' || !f.child(r).child('at').present) continue;
    const at = f.child(r).child('at');
    const atMs = durationMs(at);
    if (atMs < 0 || atMs >= runMs) at.fail(`must be a duration after the run's start and before its end (duration ${formatDuration(runMs)})`);
    value[r] = { ...(value[r] as object), at: new Date(VIRTUAL_EPOCH_MS + atMs).toISOString() };
  }
  // `spread: N` names the workload's own group: its pods share the load of N (usage-spread.ts).
  if (isMapping(value) && value.spread !== undefined) {
    const n = value.spread;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) f.child('spread').fail(`must be a whole number of pods (at least 1) whose use the curves give, got ${JSON.stringify(n)}`);
    value.spread = { group: `${namespace}/${name}`, replicas: n };
  }
  try {
    return checkUsageModel(value);
  } catch (e) {
    if (!(e instanceof UsageModelError)) throw e;
    // A series' curves are the file's columns: what breaks a rule there is its `factor`, written once.
    const path = series ? e.path.replace(/^(cpu|memory)\./, '') : e.path;
    return path.split('.').filter((k) => k !== '').reduce((at, key) => at.child(key), f).error(e.rule);
  }
}
