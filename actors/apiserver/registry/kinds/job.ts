// Jobs (batch/v1; kubernetes pkg/apis/batch/v1 defaults.go, pkg/registry/batch/job/strategy.go,
// pkg/apis/batch/validation, printJob). Unless `manualSelector`, a new Job selects its own pods by
// its uid: PrepareForCreate labels the template with the Job's name and uid (prefixed and legacy)
// and writes the selector; a Job without labels shows its template's (the defaulting a read from
// storage applies). On update the selector, the completion mode and the template are fixed, the
// template's scheduling directives aside while a suspended Job has never started; completions
// change only with parallelism, and only for Indexed Jobs (elastic indexed Jobs).
import {
  CONTROLLER_UID_LABEL, JOB_NAME_LABEL, LEGACY_CONTROLLER_UID_LABEL, LEGACY_JOB_NAME_LABEL, trueCondition, type JobConditionType,
} from '../../../api/batch.ts';
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { compileLabelSelector, type LabelSelector } from '../../../scheduler/label-selector.ts';
import { deepEqual } from '../deep-equal.ts';
import { child, fill, items, nil, present, zero, type Fields } from '../defaults-fields.ts';
import { defaultPodTemplateSpec } from '../defaults-pod.ts';
import { defineKind } from '../kind.ts';
import { humanDuration, parseTimestampMs } from '../human-duration.ts';
import { age, ageColumn, column, containerCells, containersColumn, fields, formatLabelSelector, imagesColumn, int, nameColumn, wide } from '../tables-format.ts';
import { validateJobSpec } from './job-spec.ts';
import { immutable, invalid, required, specOf, type Spec } from './rules.ts';

/** Defaults a JobSpec's pod failure policy patterns (SetDefaults_PodFailurePolicyOnPodConditionsPattern) and its pod template. */
export function defaultJobTemplateParts(spec: Fields): void {
  for (const rule of items(present(spec, 'podFailurePolicy') ?? {}, 'rules'))
    for (const pattern of items(rule, 'onPodConditions')) fill(pattern, [zero('status', 'True')]);
  defaultPodTemplateSpec(child(spec, 'template'));
}

function defaults(job: KObject): void {
  const spec = child(job, 'spec');
  if ((spec.completions ?? null) === null && (spec.parallelism ?? null) === null) Object.assign(spec, { completions: 1, parallelism: 1 });
  fill(spec, [nil('parallelism', 1), nil('backoffLimit', (spec.backoffLimitPerIndex ?? null) !== null ? 2_147_483_647 : 6),
    nil('completionMode', 'NonIndexed'), nil('suspend', false),
    nil('podReplacementPolicy', (spec.podFailurePolicy ?? null) !== null ? 'Failed' : 'TerminatingOrFailed'), nil('manualSelector', false)]);
  copyTemplateLabels(job);
  defaultJobTemplateParts(spec);
}

/** A Job without labels of its own shows its template's (SetDefaults_Job). */
function copyTemplateLabels(job: KObject): void {
  const labels = fields(job.spec, 'template', 'metadata').labels as Record<string, string> | undefined;
  if (labels && Object.keys(job.metadata.labels ?? {}).length === 0) job.metadata.labels = { ...labels };
}

/** The template's labels and the selector that picks the Job's pods by its uid (generateSelector). */
function generateSelector(job: KObject): void {
  const spec = child(job, 'spec');
  if (spec.manualSelector === true) return;
  const meta = child(child(spec, 'template'), 'metadata');
  const labels = (meta.labels = { ...(meta.labels as Record<string, string> | undefined) });
  const { name, uid } = job.metadata as { name: string; uid: string };
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) labels[key] ??= name;
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) labels[key] ??= uid;
  const selector = child(spec, 'selector');
  const matchLabels = (selector.matchLabels = { ...(selector.matchLabels as Record<string, string> | undefined) });
  matchLabels[CONTROLLER_UID_LABEL] ??= uid;
}

function validate(job: KObject): StatusCause[] {
  const spec = specOf(job);
  const causes = validateJobSpec(spec, 'spec');
  const selector = spec.selector as LabelSelector | undefined;
  if (selector === undefined || selector === null) causes.push(required('spec.selector'));
  else {
    const labels = (fields(spec.template, 'metadata').labels ?? {}) as Record<string, string>;
    try {
      if (!compileLabelSelector(selector).matches(labels))
        causes.push(invalid('spec.template.metadata.labels', JSON.stringify(labels), '`selector` does not match template `labels`'));
    } catch (e) {
      causes.push(invalid('spec.selector', JSON.stringify(selector), (e as Error).message));
    }
  }
  causes.push(...generatedSelector(job));
  return causes;
}

/** A generated selector is exactly the prefixed controller-uid, and the template carries all four labels (validateGeneratedSelector). */
function generatedSelector(job: KObject): StatusCause[] {
  const spec = specOf(job);
  const labels = fields(spec.template, 'metadata').labels as Record<string, string> | undefined;
  if (spec.manualSelector === true || !labels || !spec.selector) return [];
  const { name, uid } = job.metadata;
  const causes: StatusCause[] = [];
  const expect: [string, string | undefined][] = [[LEGACY_CONTROLLER_UID_LABEL, uid], [LEGACY_JOB_NAME_LABEL, name], [CONTROLLER_UID_LABEL, uid], [JOB_NAME_LABEL, name]];
  for (const [key, value] of expect) {
    const field = `spec.template.metadata.labels[${key}]`;
    if (!(key in labels)) causes.push(required(field, `must be '${value}'`));
    else if (labels[key] !== value) causes.push(invalid(field, JSON.stringify(labels[key]), `must be '${value}'`));
  }
  if (!deepEqual(spec.selector, { matchLabels: { [CONTROLLER_UID_LABEL]: uid } }))
    causes.push(invalid('spec.selector', JSON.stringify(spec.selector), '`selector` not auto-generated'));
  return causes;
}

/** What a suspended Job that never started may change in its template (validatePodTemplateUpdate). */
function withoutSchedulingDirectives(template: unknown): Spec {
  const t = fields(template);
  const podSpec = fields(t.spec);
  const affinity = podSpec.affinity === undefined ? undefined : { ...fields(podSpec.affinity), nodeAffinity: undefined };
  return { ...t, metadata: { ...fields(t.metadata), labels: undefined, annotations: undefined },
    spec: { ...podSpec, nodeSelector: undefined, tolerations: undefined, schedulingGates: undefined,
      affinity: affinity && Object.values(affinity).every((v) => v === undefined) ? undefined : affinity } };
}

function validateUpdate(job: KObject, old: KObject): StatusCause[] {
  const spec = specOf(job), was = specOf(old);
  const causes: StatusCause[] = [];
  for (const key of ['selector', 'completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'])
    if (!deepEqual(spec[key], was[key])) causes.push(immutable(`spec.${key}`, spec[key]));
  if (!deepEqual(spec.completions, was.completions)) {
    if (spec.completionMode !== 'Indexed') causes.push(immutable('spec.completions', spec.completions));
    else if (spec.completions !== undefined && spec.completions !== spec.parallelism)
      causes.push(invalid('spec.completions', JSON.stringify(spec.completions), 'can only be modified in tandem with spec.parallelism'));
  }
  const mutableDirectives = was.suspend === true && fields(old.status).startTime === undefined;
  const [now, then] = mutableDirectives ? [withoutSchedulingDirectives(spec.template), withoutSchedulingDirectives(was.template)] : [spec.template, was.template];
  if (!deepEqual(now, then)) causes.push(immutable('spec.template', spec.template));
  return causes;
}

/** The Status column: the first condition that holds, in printJob's order. */
function jobState(job: KObject): string {
  const holds = (type: JobConditionType) => trueCondition(job, type) !== undefined;
  if (holds('Complete')) return 'Complete';
  if (holds('Failed')) return 'Failed';
  if (job.metadata.deletionTimestamp) return 'Terminating';
  for (const type of ['Suspended', 'FailureTarget', 'SuccessCriteriaMet'] as const) if (holds(type)) return type;
  return 'Running';
}

function completionsCell(job: KObject): string {
  const spec = fields(job.spec), succeeded = int(fields(job.status).succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = int(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function durationCell(job: KObject, nowMs: number): string {
  const status = fields(job.status);
  const start = parseTimestampMs(status.startTime);
  if (start === undefined) return '';
  const end = parseTimestampMs(status.completionTime);
  return humanDuration((end ?? nowMs) - start);
}

/** The Selector column of Jobs and CronJobs: JobSpec.selector's documentation. */
export const JOB_SELECTOR_COLUMN = column('Selector', 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', wide);

export const job = defineKind({
  nameRule: 'subdomain',
  hasStatus: true,
  hasGeneration: true,
  defaults,
  prepareForCreate(obj) {
    delete obj.status;
    generateSelector(obj);
    copyTemplateLabels(obj);
  },
  validate,
  validateUpdate,
  printer: {
    columns: [
      nameColumn,
      column('Status', 'Status of the job.'),
      column('Completions', 'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.'),
      column('Duration', 'Time required to complete the job.'),
      ageColumn,
      containersColumn,
      imagesColumn,
      JOB_SELECTOR_COLUMN,
    ],
    cells: (o, nowMs) => [o.metadata.name ?? '', jobState(o), completionsCell(o), durationCell(o, nowMs), age(o, nowMs),
      ...containerCells(fields(o.spec, 'template', 'spec').containers), formatLabelSelector(fields(o.spec).selector)],
  },
});
