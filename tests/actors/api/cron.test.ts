// Cron schedules as robfig/cron's ParseStandard reads them: the five fields, names, steps, lists,
// the descriptors, time zones (with their transitions), and the library's error texts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NEVER, parseCron, type CronSchedule } from '../../../actors/api/cron.ts';
import { TimeZone } from '../../../actors/api/time-zone.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => (ms === NEVER ? 'never' : new Date(ms).toISOString().replace('.000Z', 'Z'));
function schedule(spec: string): CronSchedule {
  const s = parseCron(spec);
  if (typeof s === 'string') throw new Error(`${spec}: ${s}`);
  return s;
}
/** The next `n` activations after `from`. */
function runs(spec: string, from: string, n = 1): string[] {
  const s = schedule(spec);
  const out: string[] = [];
  for (let t = at(from); out.length < n; ) out.push(iso((t = s.next(t))));
  return out;
}

test('every minute and every quarter hour fire on the minute, strictly after the given time', () => {
  assert.equal(runs('*/1 * * * *', '2024-01-01T00:00:30Z', 3), ['2024-01-01T00:01:00Z', '2024-01-01T00:02:00Z', '2024-01-01T00:03:00Z']);
  assert.equal(runs('* * * * *', '2024-01-01T00:01:00Z'), ['2024-01-01T00:02:00Z']);
  assert.equal(runs('*/15 * * * *', '2024-01-01T10:07:00Z', 2), ['2024-01-01T10:15:00Z', '2024-01-01T10:30:00Z']);
  assert.equal(runs('*/15 * * * *', '2024-01-01T10:15:00Z'), ['2024-01-01T10:30:00Z']);
  assert.equal(runs('5/20 * * * *', '2024-01-01T10:00:00Z', 3), ['2024-01-01T10:05:00Z', '2024-01-01T10:25:00Z', '2024-01-01T10:45:00Z']);
});

test('ranges with steps, lists and names of days and months, in any case', () => {
  // 2024-03-01 is a Friday: the next weekday run after 18:00 is Monday at 09:00.
  assert.equal(runs('0 9-17/4 * * mon-fri', '2024-03-01T18:00:00Z', 4),
    ['2024-03-04T09:00:00Z', '2024-03-04T13:00:00Z', '2024-03-04T17:00:00Z', '2024-03-05T09:00:00Z']);
  assert.equal(runs('0 0 1 jan,JUL *', '2024-02-01T00:00:00Z', 2), ['2024-07-01T00:00:00Z', '2025-01-01T00:00:00Z']);
  assert.equal(runs('0 12 * * SUN,6', '2024-05-01T00:00:00Z', 2), ['2024-05-04T12:00:00Z', '2024-05-05T12:00:00Z']);
  assert.equal(runs('0,30 8,20 ? * *', '2024-05-01T08:10:00Z', 3), ['2024-05-01T08:30:00Z', '2024-05-01T20:00:00Z', '2024-05-01T20:30:00Z']);
});

test('two restricted day fields match either; a starred one makes both required', () => {
  // From Sunday 2024-09-01: Friday the 6th, then Friday the 13th, then the 20th.
  assert.equal(runs('0 0 13 * 5', '2024-09-01T00:00:00Z', 3), ['2024-09-06T00:00:00Z', '2024-09-13T00:00:00Z', '2024-09-20T00:00:00Z']);
  assert.equal(runs('0 0 13 * *', '2024-09-01T00:00:00Z', 2), ['2024-09-13T00:00:00Z', '2024-10-13T00:00:00Z']);
  assert.equal(runs('0 0 * * 5', '2024-09-01T00:00:00Z', 2), ['2024-09-06T00:00:00Z', '2024-09-13T00:00:00Z']);
  assert.equal(runs('0 0 */1 * 5', '2024-09-01T00:00:00Z', 1), ['2024-09-06T00:00:00Z'], '*/1 is still a star');
});

test('the descriptors fire at the start of their period', () => {
  assert.equal(runs('@hourly', '2024-05-01T10:30:00Z'), ['2024-05-01T11:00:00Z']);
  assert.equal(runs('@daily', '2024-01-31T10:00:00Z'), ['2024-02-01T00:00:00Z']);
  assert.equal(runs('@midnight', '2024-02-28T23:59:59Z'), ['2024-02-29T00:00:00Z']);
  assert.equal(runs('@weekly', '2024-05-01T00:00:00Z'), ['2024-05-05T00:00:00Z']);
  assert.equal(runs('@monthly', '2024-02-15T00:00:00Z'), ['2024-03-01T00:00:00Z']);
  assert.equal(runs('@yearly', '2024-05-01T00:00:00Z'), ['2025-01-01T00:00:00Z']);
  assert.equal(runs('@annually', '2024-12-31T23:59:59Z'), ['2025-01-01T00:00:00Z']);
});

test('@every counts whole seconds from the start of the current second, and at least one', () => {
  assert.equal(runs('@every 90s', '2024-05-01T10:00:00.500Z', 2), ['2024-05-01T10:01:30Z', '2024-05-01T10:03:00Z']);
  assert.equal(runs('@every 1500ms', '2024-05-01T10:00:00Z'), ['2024-05-01T10:00:01Z']);
  assert.equal(runs('@every 10ms', '2024-05-01T10:00:00Z'), ['2024-05-01T10:00:01Z']);
});

test('a date that never comes within five years is never; a leap day four years off comes', () => {
  assert.is(schedule('0 0 31 2 *').next(at('2024-01-01T00:00:00Z')), NEVER);
  assert.equal(runs('0 0 29 2 *', '2024-03-01T00:00:00Z'), ['2028-02-29T00:00:00Z']);
  assert.equal(runs('0 0 31 * *', '2024-04-01T00:00:00Z'), ['2024-05-31T00:00:00Z']);
});

test('TZ= schedules read the wall clock of their zone, across offsets and transitions', () => {
  assert.equal(runs('TZ=America/New_York 0 9 * * *', '2024-07-01T00:00:00Z'), ['2024-07-01T13:00:00Z']);
  assert.equal(runs('CRON_TZ=America/New_York 0 9 * * *', '2024-01-10T00:00:00Z'), ['2024-01-10T14:00:00Z']);
  assert.equal(runs('TZ=Asia/Kolkata 0 0 * * *', '2024-01-10T00:00:00Z'), ['2024-01-10T18:30:00Z']);
  assert.equal(runs('TZ=UTC @hourly', '2024-01-10T00:30:00Z'), ['2024-01-10T01:00:00Z']);
  // 02:30 does not exist on 2024-03-10 in New York: the library skips that day.
  assert.equal(runs('TZ=America/New_York 30 2 * * *', '2024-03-09T12:00:00Z'), ['2024-03-11T06:30:00Z']);
  // 01:30 happens twice on 2024-11-03: once in daylight time, once in standard time.
  assert.equal(runs('TZ=America/New_York 30 1 * * *', '2024-11-03T04:00:00Z', 3), ['2024-11-03T05:30:00Z', '2024-11-03T06:30:00Z', '2024-11-04T06:30:00Z']);
  // Midnight in Santiago on 2024-09-08 does not exist (clocks go from 00:00 to 01:00): the day still runs.
  assert.equal(runs('TZ=America/Santiago 0 * 8 9 *', '2024-09-07T12:00:00Z', 1), ['2024-09-08T04:00:00Z']);
});

test('bad schedules are refused with the library\'s messages', () => {
  const cases: [string, string][] = [
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * 13 *', 'end of range (13) above maximum (12): 13'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['* * * foo *', 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'],
    ['5- * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    ['99999999999999999999 * * * *', 'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every soon', 'failed to parse duration @every soon: time: invalid duration "soon"'],
    ['TZ=Mars/Olympus * * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
  ];
  for (const [spec, message] of cases) assert.is(parseCron(spec), message, spec);
});

test('time zones load by their exact names; Local and wrongly cased names are unknown', () => {
  assert.is(TimeZone.load('UTC'), TimeZone.UTC);
  assert.is(TimeZone.load('Local'), 'unknown time zone Local');
  assert.is(TimeZone.load('america/new_york'), 'unknown time zone america/new_york');
  assert.is(TimeZone.load('Nowhere/Special'), 'unknown time zone Nowhere/Special');
  const berlin = TimeZone.load('Europe/Berlin') as TimeZone;
  assert.is(berlin.rfc3339(at('2024-05-01T08:00:00Z')), '2024-05-01T10:00:00+02:00');
  assert.is(berlin.rfc3339(at('2024-01-01T08:00:00Z')), '2024-01-01T09:00:00+01:00');
  assert.is(TimeZone.UTC.rfc3339(at('2024-01-01T08:00:00Z')), '2024-01-01T08:00:00Z');
  assert.is((TimeZone.load('America/St_Johns') as TimeZone).rfc3339(at('2024-01-01T12:00:00Z')), '2024-01-01T08:30:00-03:30');
});

test.run();
