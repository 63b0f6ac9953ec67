// CronJobs (batch/v1; SetDefaults_CronJob, pkg/apis/batch/validation ValidateCronJob*, printCronJob):
// concurrencyPolicy Allow, not suspended, three successful and one failed Job kept by default. The
// schedule must parse as robfig/cron reads it; a `TZ=` in it is refused on create (use
// spec.timeZone) and kept on update only where it already was; the time zone is checked when set
// or changed. The job template's selector is always generated, so it may not give one. The name
// leaves room for the 11 characters the controller appends to name its Jobs.
import { cronJobSpec } from '../../../api/batch.ts';
import { parseCron } from '../../../api/cron.ts';
import type { StatusCause } from '../../../api/status.ts';
import { TimeZone } from '../../../api/time-zone.ts';
import type { KObject } from '../../../api/types.ts';
import { child, fill, nil, zero } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, containerCells, containersColumn, fields, formatLabelSelector, imagesColumn, integer, list, nameColumn } from '../tables-format.ts';
import { translateTimestampSince } from '../human-duration.ts';
import { defaultJobTemplateParts, JOB_SELECTOR_COLUMN } from './job.ts';
import { validateJobSpec } from './job-spec.ts';
import { invalid, notNegative, notSupported, required, specOf, type Spec } from './rules.ts';

/** 63 (a Job's name is a label value) less the `-<minutes>` suffix of its Jobs. */
const MAX_NAME_LENGTH = 52;
const POLICIES = ['Allow', 'Forbid', 'Replace'];
const ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

function defaults(cj: KObject): void {
  const spec = child(cj, 'spec');
  fill(spec, [zero('concurrencyPolicy', 'Allow'), nil('suspend', false), nil('successfulJobsHistoryLimit', 3), nil('failedJobsHistoryLimit', 1)]);
  defaultJobTemplateParts(child(child(spec, 'jobTemplate'), 'spec'));
}

/** `old` undefined: a create, which is held to the time zone rules too (an update to those it changes). */
function validate(cj: KObject, old: KObject | undefined): StatusCause[] {
  const spec = specOf(cj);
  const causes: StatusCause[] = old ? [] : [...scheduleZone(spec, false), ...timeZone(spec.timeZone)];
  const name = cj.metadata.name ?? '';
  if (name.length > MAX_NAME_LENGTH) causes.push(invalid('metadata.name', JSON.stringify(name), `must be no more than ${MAX_NAME_LENGTH} characters`));
  if (typeof spec.schedule !== 'string' || spec.schedule === '') causes.push(required('spec.schedule'));
  else {
    const parsed = parseCron(spec.schedule);
    if (typeof parsed === 'string') causes.push(invalid('spec.schedule', JSON.stringify(spec.schedule), parsed));
  }
  if (typeof spec.startingDeadlineSeconds === 'number' && spec.startingDeadlineSeconds < 0) causes.push(notNegative('spec.startingDeadlineSeconds', spec.startingDeadlineSeconds));
  const policy = spec.concurrencyPolicy;
  if (policy === undefined || policy === '') causes.push(required('spec.concurrencyPolicy'));
  else if (!POLICIES.includes(policy as string)) causes.push(notSupported('spec.concurrencyPolicy', JSON.stringify(policy), POLICIES));
  for (const key of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit'] as const)
    if (typeof spec[key] === 'number' && (spec[key] as number) < 0) causes.push(notNegative(`spec.${key}`, spec[key] as number));
  causes.push(...jobTemplate(fields(spec.jobTemplate, 'spec')));
  return causes;
}

/** The template's JobSpec, whose selector the controller always generates (ValidateJobTemplateSpec). */
function jobTemplate(spec: Spec): StatusCause[] {
  const causes = validateJobSpec(spec, 'spec.jobTemplate.spec');
  if (spec.selector !== undefined && spec.selector !== null) causes.push(invalid('spec.jobTemplate.spec.selector', JSON.stringify(spec.selector), '`selector` will be auto-generated'));
  if (spec.manualSelector === true) causes.push(notSupported('spec.jobTemplate.spec.manualSelector', JSON.stringify(true), ['nil', 'false']));
  return causes;
}

/** A `TZ=` in the schedule: refused unless the old schedule had one; with spec.timeZone never. */
function scheduleZone(spec: Spec, allowInSchedule: boolean): StatusCause[] {
  const schedule = spec.schedule;
  if (typeof schedule !== 'string' || !schedule.includes('TZ')) return [];
  if (!allowInSchedule) return [invalid('spec.schedule', JSON.stringify(schedule), 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead')];
  if (spec.timeZone !== undefined && spec.timeZone !== null) return [invalid('spec.schedule', JSON.stringify(schedule), 'cannot use both timeZone field and TZ or CRON_TZ in schedule')];
  return [];
}

/** spec.timeZone: an IANA name this server knows, never "Local" (validateTimeZone). */
function timeZone(value: unknown): StatusCause[] {
  if (value === undefined || value === null) return [];
  const field = 'spec.timeZone';
  const name = String(value);
  if (name === '') return [invalid(field, JSON.stringify(name), 'timeZone must be nil or non-empty string')];
  if (name.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !ZONE_PART.test(part)))
    return [invalid(field, JSON.stringify(name), 'unknown time zone ' + name)];
  if (name.toLowerCase() === 'local') return [invalid(field, JSON.stringify(name), 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  const loaded = TimeZone.load(name);
  return typeof loaded === 'string' ? [invalid(field, JSON.stringify(name), loaded)] : [];
}

/** printBoolPtr. */
const boolCell = (v: unknown) => (v === true ? 'True' : v === false ? 'False' : '<unset>');

export const cronJob = defineKind({
  nameRule: 'subdomain',
  hasStatus: true,
  hasGeneration: true,
  defaults,
  validate,
  validateUpdate(cj, old) {
    const spec = specOf(cj), was = specOf(old);
    const causes = scheduleZone(spec, typeof was.schedule === 'string' && was.schedule.includes('TZ'));
    if (spec.timeZone !== was.timeZone) causes.push(...timeZone(spec.timeZone));
    return causes;
  },
  printer: {
    columns: [
      nameColumn,
      column('Schedule', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
      column('Timezone', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones'),
      column('Suspend', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.', { type: 'boolean' }),
      column('Active', 'A list of pointers to currently running jobs.', integer),
      column('Last Schedule', 'Information when was the last time the job was successfully scheduled.'),
      ageColumn, containersColumn, imagesColumn, JOB_SELECTOR_COLUMN,
    ],
    cells(o, nowMs) {
      const spec = cronJobSpec(o);
      const status = fields(o.status);
      const last = status.lastScheduleTime === undefined ? '<none>' : translateTimestampSince(status.lastScheduleTime, nowMs);
      return [o.metadata.name ?? '', spec.schedule ?? '', spec.timeZone ?? '<none>', boolCell(spec.suspend), list(status.active).length, last, age(o, nowMs),
        ...containerCells(fields(o.spec, 'jobTemplate', 'spec', 'template', 'spec').containers), formatLabelSelector(fields(o.spec, 'jobTemplate', 'spec').selector)];
    },
  },
});
