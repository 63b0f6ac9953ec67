// When a CronJob's Jobs are due (kubernetes pkg/controller/cronjob/utils.go), all in epoch
// milliseconds of the controller's clock: the most recent start time not yet met since the last
// schedule (or the CronJob's creation), how many were missed, and when to look again. Pure.
import { cronJobSpec, cronJobStatus } from '../../api/batch.ts';
import { parseCron, NEVER, type CronSchedule } from '../../api/cron.ts';
import { TimeZone } from '../../api/time-zone.ts';
import type { KObject } from '../../api/types.ts';
import { timestampMs } from './job-pods.ts';

/** Looked at again this long after a start time, for clock skew (nextScheduleDelta). */
const NEXT_SCHEDULE_DELTA_MS = 100;
/** More missed start times than this are "many": a Warning, and a hint at the clock (an arbitrary bound above 80). */
const MANY_MISSED = 100;

export interface RecentSchedule {
  /** The last schedule time, the CronJob's creation, or the starting deadline, whichever is latest. */
  readonly earliestMs: number;
  /** The latest start time at or before now, if any since `earliestMs`. */
  readonly mostRecentMs: number | undefined;
  /** How many start times were missed since `earliestMs` (an estimate when many). */
  readonly missed: number;
  /** A schedule that is valid to parse but never makes sense (Feb 31). */
  readonly error?: string;
}

/** The schedule with the CronJob's time zone, or why it cannot be read (formatSchedule, ParseStandard). */
export function scheduleOf(cj: KObject): CronSchedule | string {
  const spec = cronJobSpec(cj);
  const schedule = spec.schedule ?? '';
  if (schedule.includes('TZ') || spec.timeZone === undefined || spec.timeZone === null) return parseCron(schedule);
  if (typeof TimeZone.load(spec.timeZone) === 'string') return parseCron(schedule);
  return parseCron(`TZ=${spec.timeZone} ${schedule}`);
}

/** mostRecentScheduleTime. */
export function mostRecentSchedule(cj: KObject, nowMs: number, schedule: CronSchedule, withStartingDeadline: boolean): RecentSchedule {
  const spec = cronJobSpec(cj);
  let earliestMs = timestampMs(cronJobStatus(cj).lastScheduleTime) ?? timestampMs(cj.metadata.creationTimestamp) ?? nowMs;
  if (withStartingDeadline && typeof spec.startingDeadlineSeconds === 'number')
    earliestMs = Math.max(earliestMs, nowMs - spec.startingDeadlineSeconds * 1000);
  const t1 = schedule.next(earliestMs), t2 = schedule.next(t1);
  if (nowMs < t1) return { earliestMs, mostRecentMs: undefined, missed: 0 };
  if (nowMs < t2) return { earliestMs, mostRecentMs: t1, missed: 0 };
  // A schedule that parses yet never fires twice (59 23 31 2 *) has no time between its runs.
  const betweenS = Math.round((t2 - t1) / 1000);
  if (betweenS < 1 || t1 === NEVER) return { earliestMs, mostRecentMs: undefined, missed: 0, error: 'time difference between two schedules is less than 1 second' };
  // Roughly how many runs fit since t1; then the exact latest, starting one interval before the estimate.
  const missed = Math.trunc(Math.trunc((nowMs - t1) / 1000) / betweenS) + 1;
  let mostRecentMs: number | undefined;
  for (let t = schedule.next(t1 + (missed - 2) * betweenS * 1000); t <= nowMs && t !== NEVER; t = schedule.next(t)) mostRecentMs = t;
  return { earliestMs, mostRecentMs, missed };
}

/** The start time to run now, if one is due; whether many were missed (nextScheduleTime). */
export function dueSchedule(cj: KObject, nowMs: number, schedule: CronSchedule): { dueMs?: number; manyMissed?: number; error?: string } {
  const r = mostRecentSchedule(cj, nowMs, schedule, true);
  if (r.mostRecentMs === undefined || r.mostRecentMs > nowMs) return r.error ? { error: r.error } : {};
  return { dueMs: r.mostRecentMs, ...(r.missed > MANY_MISSED ? { manyMissed: r.missed } : {}) };
}

/** How long until the next start time is due, and a little more (nextScheduleTimeDuration). */
export function untilNextMs(cj: KObject, nowMs: number, schedule: CronSchedule): number {
  const r = mostRecentSchedule(cj, nowMs, schedule, false);
  const from = r.error ? nowMs : r.mostRecentMs ?? (r.missed === 0 ? r.earliestMs : nowMs);
  return schedule.next(from) + NEXT_SCHEDULE_DELTA_MS - nowMs;
}

/** A CronJob's Job for a start time: `<cronjob>-<minutes since the epoch>` (getJobName). */
export const jobNameAt = (cj: KObject, scheduledMs: number) => `${cj.metadata.name}-${Math.floor(scheduledMs / 60_000)}`;

/** Go's time.RFC1123Z of an instant, in UTC: `Mon, 02 Jan 2006 15:04:05 +0000` (MissSchedule's message). */
export function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day}, ${pad(d.getUTCDate())} ${month} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}
