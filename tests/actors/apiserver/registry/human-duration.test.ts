import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ageSince, GO_ZERO_TIME_MS, humanDuration, parseTimestampMs, translateTimestampSince } from '../../../../actors/apiserver/registry/human-duration.ts';

const s = (n: number) => n * 1000;
const m = (n: number) => s(n * 60);
const h = (n: number) => m(n * 60);
const d = (n: number) => h(n * 24);

test('under two minutes reads in whole seconds, truncated', () => {
  assert.is(humanDuration(0), '0s');
  assert.is(humanDuration(999), '0s');
  assert.is(humanDuration(s(1)), '1s');
  assert.is(humanDuration(s(59)), '59s');
  assert.is(humanDuration(s(119)), '119s');
  assert.is(humanDuration(s(119) + 999), '119s');
});

test('a clock up to two seconds behind reads 0s, further behind <invalid>', () => {
  assert.is(humanDuration(-500), '0s');
  assert.is(humanDuration(-1999), '0s');
  assert.is(humanDuration(-2000), '<invalid>');
  assert.is(humanDuration(-s(60)), '<invalid>');
});

test('from two to ten minutes, minutes and leftover seconds', () => {
  assert.is(humanDuration(m(2)), '2m');
  assert.is(humanDuration(m(3) + s(20)), '3m20s');
  assert.is(humanDuration(m(9) + s(59)), '9m59s');
});

test('from ten minutes to three hours, whole minutes only', () => {
  assert.is(humanDuration(m(10) + s(30)), '10m');
  assert.is(humanDuration(m(179) + s(59)), '179m');
});

test('from three to eight hours, hours and minutes; then whole hours up to two days', () => {
  assert.is(humanDuration(h(3)), '3h');
  assert.is(humanDuration(h(7) + m(5)), '7h5m');
  assert.is(humanDuration(h(8) + m(30)), '8h');
  assert.is(humanDuration(h(47) + m(59)), '47h');
});

test('from two to eight days, days and hours; then whole days up to two years', () => {
  assert.is(humanDuration(d(2)), '2d');
  assert.is(humanDuration(d(2) + h(3)), '2d3h');
  assert.is(humanDuration(d(7) + h(23)), '7d23h');
  assert.is(humanDuration(d(8) + h(5)), '8d');
  assert.is(humanDuration(d(729)), '729d');
});

test('from two to eight years, 365-day years and days; then whole years', () => {
  assert.is(humanDuration(d(730)), '2y');
  assert.is(humanDuration(d(3 * 365 + 12)), '3y12d');
  assert.is(humanDuration(d(8 * 365) - 1), '7y364d');
  assert.is(humanDuration(d(8 * 365)), '8y');
  assert.is(humanDuration(d(20 * 365 + 100)), '20y');
});

test('RFC 3339 timestamps parse with fractions and offsets', () => {
  assert.is(parseTimestampMs('2024-05-01T10:00:00Z'), Date.UTC(2024, 4, 1, 10));
  assert.is(parseTimestampMs('2024-05-01T10:00:00.123456Z'), Date.UTC(2024, 4, 1, 10, 0, 0, 123));
  assert.is(parseTimestampMs('2024-05-01T12:00:00+02:00'), Date.UTC(2024, 4, 1, 10));
  assert.is(parseTimestampMs('0001-01-01T00:00:00Z'), GO_ZERO_TIME_MS);
  assert.is(parseTimestampMs('yesterday'), undefined);
  assert.is(parseTimestampMs(null), undefined);
});

test('an unset timestamp is <unknown>, a set one its age at the given now', () => {
  const now = Date.UTC(2024, 4, 1, 10, 5, 0);
  assert.is(translateTimestampSince(undefined, now), '<unknown>');
  assert.is(translateTimestampSince(null, now), '<unknown>');
  assert.is(translateTimestampSince('0001-01-01T00:00:00Z', now), '<unknown>');
  assert.is(translateTimestampSince('2024-05-01T10:00:00Z', now), '5m');
  assert.is(translateTimestampSince('2024-05-01T10:04:55Z', now), '5s');
  assert.is(ageSince(now - m(3) - s(20), now), '3m20s');
});

test.run();
