// The batch fields of a workload: a Job workload's Job spec, a CronJob workload's schedule and
// history, and a ReplicaSet or Deployment workload's disruption budget. Each is checked by the
// API server's rules for its kind (pkg/apis/batch/validation and pkg/apis/policy/validation,
// 1.32) when the scenario loads, so a run never meets a refused create; absent fields are left
// for the API server to default, as `kubectl create` leaves them.
import { parseCron } from '../../actors/api/cron.ts';
import type { Field } from './field.ts';
import type { CronJobFields, DisruptionBudget, JobFields } from './types.ts';
import { durationMs, integer, oneOf, optional } from './schema.ts';

/** The Job spec's fields a workload may give (Job and CronJob workloads). */
export const JOB_FIELDS = ['completions', 'parallelism', 'backoffLimit', 'activeDeadline', 'ttlAfterFinished'];
/** The CronJob spec's fields a workload may give (CronJob workloads). */
export const CRONJOB_FIELDS = ['schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit', 'startingDeadline'];
/** The API server stores these counts as int32. */
const INT32_MAX = 2_147_483_647;
/** A CronJob's name leaves room for the `-<minutes>` its controller appends to name its Jobs. */
export const CRONJOB_NAME_MAX = 52;

const count = (f: Field) => integer(f, 0, INT32_MAX, 'a non-negative integer');

/** Whole seconds of a duration field; `min` is the least allowed (0 or 1 second). */
function seconds(f: Field, min: 0 | 1): number {
  const ms = durationMs(f);
  if (ms % 1000 !== 0) f.fail('must be a whole number of seconds (the API field is in seconds)');
  if (ms < min * 1000) f.fail(min === 0 ? 'must not be negative' : 'must be at least 1s');
  return ms / 1000;
}

/** The Job fields `f` (a workload) gives. */
export function jobFields(f: Field): JobFields {
  const out: JobFields = {};
  for (const key of ['completions', 'parallelism', 'backoffLimit'] as const)
    if (f.child(key).present) out[key] = count(f.child(key));
  if (f.child('activeDeadline').present) out.activeDeadlineSeconds = seconds(f.child('activeDeadline'), 1);
  if (f.child('ttlAfterFinished').present) out.ttlSecondsAfterFinished = seconds(f.child('ttlAfterFinished'), 0);
  return out;
}

/** The CronJob fields `f` (a workload) gives; `schedule` is required. */
export function cronJobFields(f: Field): CronJobFields {
  const at: Field = f.child('schedule');
  if (typeof at.value !== 'string' || at.value.trim() === '') at.fail('must be a cron schedule such as "*/10 * * * *" or "@daily"');
  if (/(^|\s)(CRON_)?TZ=/.test(at.value)) at.fail('must not name a time zone: schedules run on the cluster\'s clock, in UTC');
  const parsed = parseCron(at.value);
  if (typeof parsed === 'string') at.fail(`must be a cron schedule (${parsed})`);
  const out: CronJobFields = { schedule: at.value };
  if (f.child('concurrencyPolicy').present) out.concurrencyPolicy = oneOf(f.child('concurrencyPolicy'), ['Allow', 'Forbid', 'Replace'] as const);
  for (const key of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit'] as const)
    if (f.child(key).present) out[key] = count(f.child(key));
  if (f.child('startingDeadline').present) out.startingDeadlineSeconds = seconds(f.child('startingDeadline'), 0);
  return out;
}

const PERCENT = /^(\d+)%$/;

/** `disruptionBudget:` exactly one of minAvailable and maxUnavailable, a count or a percentage up to 100%. */
export function disruptionBudget(f: Field): DisruptionBudget {
  f.mapping(['minAvailable', 'maxUnavailable'], 'a mapping such as { minAvailable: 2 } or { maxUnavailable: "25%" }');
  const given = (['minAvailable', 'maxUnavailable'] as const).filter((k) => f.child(k).present);
  if (given.length !== 1) f.error('must give exactly one of minAvailable and maxUnavailable (as a PodDisruptionBudget does)');
  const key = given[0]!;
  const value = optional(f.child(key), intOrPercent, 0);
  return key === 'minAvailable' ? { minAvailable: value } : { maxUnavailable: value };
}

/** A non-negative int32 or a percentage from 0% to 100% (ValidatePositiveIntOrPercent, IsNotMoreThan100Percent). */
function intOrPercent(f: Field): number | string {
  if (typeof f.value === 'number') return count(f);
  const percent = typeof f.value === 'string' ? PERCENT.exec(f.value) : null;
  if (!percent) f.fail('must be a non-negative integer or a percentage such as "50%"');
  if (Number(percent[1]) > 100) f.fail('must not be greater than 100%');
  return f.value as string;
}
