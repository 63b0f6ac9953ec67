// The JobSpec rules a Job and a CronJob's job template share (kubernetes pkg/apis/batch/validation
// validateJobSpec): counts not negative, the completion mode and what Indexed asks for, the pod
// replacement policy, and a pod template whose restart policy is Never or OnFailure.
import type { StatusCause } from '../../../api/status.ts';
import { validateLabels } from '../../validation/names.ts';
import { containerImages, invalid, notNegative, notSupported, required, type Spec } from './rules.ts';

/** The most pods an Indexed Job may run at once (maxParallelismForIndexedJob). */
const MAX_INDEXED_PARALLELISM = 100_000;
const COUNTS = ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes'] as const;
const MODES = ['NonIndexed', 'Indexed'];
const RESTART_POLICIES = ['OnFailure', 'Never'];

/** `path` is where the JobSpec sits: `spec` in a Job, `spec.jobTemplate.spec` in a CronJob. */
export function validateJobSpec(spec: Spec, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const key of COUNTS) {
    const v = spec[key];
    if (typeof v === 'number' && v < 0) causes.push(notNegative(`${path}.${key}`, v));
  }
  if (spec.maxFailedIndexes !== undefined && spec.backoffLimitPerIndex === undefined)
    causes.push(required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  causes.push(...completionMode(spec, path), ...replacementPolicy(spec, path), ...template(spec, path));
  if (spec.managedBy !== undefined && !/^[^/]+\/[^/]+$/.test(String(spec.managedBy)))
    causes.push(invalid(`${path}.managedBy`, JSON.stringify(spec.managedBy), 'must be a domain-prefixed path (such as "acme.io/foo")'));
  return causes;
}

function completionMode(spec: Spec, path: string): StatusCause[] {
  const mode = spec.completionMode;
  const causes: StatusCause[] = [];
  if (mode !== undefined && !MODES.includes(mode as string)) causes.push(notSupported(`${path}.completionMode`, JSON.stringify(mode), MODES));
  if (mode === 'Indexed') {
    if (spec.completions === undefined) causes.push(required(`${path}.completions`, 'when completion mode is Indexed'));
    if (typeof spec.parallelism === 'number' && spec.parallelism > MAX_INDEXED_PARALLELISM)
      causes.push(invalid(`${path}.parallelism`, JSON.stringify(spec.parallelism), `must be less than or equal to ${MAX_INDEXED_PARALLELISM} when completion mode is Indexed`));
    if (typeof spec.completions === 'number' && typeof spec.maxFailedIndexes === 'number' && spec.maxFailedIndexes > spec.completions)
      causes.push(invalid(`${path}.maxFailedIndexes`, JSON.stringify(spec.maxFailedIndexes), 'must be less than or equal to completions'));
  } else {
    for (const key of ['backoffLimitPerIndex', 'maxFailedIndexes'] as const)
      if (spec[key] !== undefined) causes.push(invalid(`${path}.${key}`, JSON.stringify(spec[key]), 'requires indexed completion mode'));
    if (spec.successPolicy !== undefined) causes.push(invalid(`${path}.successPolicy`, JSON.stringify(spec.successPolicy), 'requires indexed completion mode'));
  }
  return causes;
}

function replacementPolicy(spec: Spec, path: string): StatusCause[] {
  const policy = spec.podReplacementPolicy;
  if (policy === undefined) return [];
  const allowed = spec.podFailurePolicy !== undefined ? ['Failed'] : ['Failed', 'TerminatingOrFailed'];
  return allowed.includes(policy as string) ? [] : [notSupported(`${path}.podReplacementPolicy`, JSON.stringify(policy), allowed)];
}

function template(spec: Spec, path: string): StatusCause[] {
  const template = (spec.template ?? {}) as Spec;
  const podSpec = (template.spec ?? {}) as Spec;
  const causes = [...validateLabels((template.metadata as Spec | undefined)?.labels, `${path}.template.labels`),
    ...containerImages(podSpec, `${path}.template.spec`)];
  const restart = podSpec.restartPolicy;
  const field = `${path}.template.spec.restartPolicy`;
  // Defaulting makes an unset policy Always: both are refused the same way.
  if (restart === undefined || restart === '' || restart === 'Always') causes.push(required(field, 'valid values: "OnFailure", "Never"'));
  else if (!RESTART_POLICIES.includes(restart as string)) causes.push(notSupported(field, JSON.stringify(restart), RESTART_POLICIES));
  else if (spec.podFailurePolicy !== undefined && restart !== 'Never') causes.push(invalid(field, JSON.stringify(restart), 'only "Never" is supported when podFailurePolicy is specified'));
  return causes;
}
