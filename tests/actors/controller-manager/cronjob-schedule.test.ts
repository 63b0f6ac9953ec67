// When a CronJob's Jobs are due, as the real controller's utils compute it: the latest start time
// not yet met, the starting deadline, how many were missed (more than 100: many), the next look,
// and the names of its Jobs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../actors/api/types.ts';
import { dueSchedule, jobNameAt, mostRecentSchedule, rfc1123z, scheduleOf, untilNextMs } from '../../../actors/controller-manager/controllers/cronjob-schedule.ts';
import type { CronSchedule } from '../../../actors/api/cron.ts';

const at = (iso: string) => Date.parse(iso);
const cronJob = (spec: Record<string, unknown>, status: Record<string, unknown> = {}, created = '2024-05-01T10:00:30Z'): KObject =>
  ({ metadata: { name: 'tick', namespace: 'default', creationTimestamp: created }, spec: { schedule: '*/1 * * * *', ...spec }, status } as KObject);
const schedule = (cj: KObject) => scheduleOf(cj) as CronSchedule;

test('the latest start time since the last schedule (or creation) is due; none before the first', () => {
  const cj = cronJob({});
  assert.equal(dueSchedule(cj, at('2024-05-01T10:00:50Z'), schedule(cj)), {}, 'created at 10:00:30: nothing due before 10:01');
  assert.equal(dueSchedule(cj, at('2024-05-01T10:01:00Z'), schedule(cj)), { dueMs: at('2024-05-01T10:01:00Z') });
  assert.equal(dueSchedule(cj, at('2024-05-01T10:05:30Z'), schedule(cj)), { dueMs: at('2024-05-01T10:05:00Z') }, 'missed ones collapse into the latest');
  const ran = cronJob({}, { lastScheduleTime: '2024-05-01T10:05:00Z' });
  assert.equal(dueSchedule(ran, at('2024-05-01T10:05:30Z'), schedule(ran)), {}, 'already run');
});

test('the starting deadline moves the earliest start considered; many missed starts are counted for the warning', () => {
  const strict = cronJob({ startingDeadlineSeconds: 10 });
  assert.equal(dueSchedule(strict, at('2024-05-01T10:05:30Z'), schedule(strict)), {}, '10:05 is more than 10 s ago');
  const long = cronJob({}, { lastScheduleTime: '2024-05-01T07:00:00Z' });
  const due = dueSchedule(long, at('2024-05-01T10:00:30Z'), schedule(long));
  assert.is(due.dueMs, at('2024-05-01T10:00:00Z'));
  assert.is(due.manyMissed, 180, '07:01 to 10:00');
  const r = mostRecentSchedule(long, at('2024-05-01T10:00:30Z'), schedule(long), false);
  assert.equal([r.earliestMs, r.mostRecentMs, r.missed], [at('2024-05-01T07:00:00Z'), at('2024-05-01T10:00:00Z'), 180]);
});

test('a schedule that parses but never fires twice is an error; the next look is the next start, 100 ms late', () => {
  const never = cronJob({ schedule: '59 23 31 2 *' });
  assert.equal(dueSchedule(never, at('2024-05-01T10:00:00Z'), schedule(never)), { error: 'time difference between two schedules is less than 1 second' });
  const cj = cronJob({}, { lastScheduleTime: '2024-05-01T10:05:00Z' });
  assert.is(untilNextMs(cj, at('2024-05-01T10:05:20Z'), schedule(cj)), 40_100);
  const hourly = cronJob({ schedule: '@hourly', timeZone: 'Asia/Kolkata' });
  assert.is(untilNextMs(hourly, at('2024-05-01T10:00:30Z'), schedule(hourly)), 29 * 60_000 + 30_000 + 100, 'Kolkata\'s hours start at :30 UTC');
});

test('a Job is named by its minute since the epoch; MissSchedule dates read as Go\'s RFC1123Z', () => {
  assert.is(jobNameAt(cronJob({}), at('2024-05-01T10:05:00Z')), `tick-${at('2024-05-01T10:05:00Z') / 60_000}`);
  assert.is(rfc1123z(at('2024-05-01T10:05:00Z')), 'Wed, 01 May 2024 10:05:00 +0000');
  assert.is(scheduleOf(cronJob({ schedule: 'nope' })), 'expected exactly 5 fields, found 1: [nope]');
});

test.run();
