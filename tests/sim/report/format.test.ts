import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatBytes, formatClock, formatCount, formatInteger, formatList, formatMs, formatPercent } from '../../../sim/report/format.ts';

test('counts are compact with k, M and G and never round up to "1000k"', () => {
  assert.is(formatCount(0), '0');
  assert.is(formatCount(999), '999');
  assert.is(formatCount(1234), '1.2k');
  assert.is(formatCount(12_345), '12.3k');
  assert.is(formatCount(123_456), '123k');
  assert.is(formatCount(3_400_000), '3.4M');
  assert.is(formatCount(2_000_000_000), '2G');
  assert.is(formatCount(999_960), '1M');
  assert.is(formatCount(999.7), '1k');
  assert.is(formatCount(-1500), '-1.5k');
  assert.is(formatCount(12.345), '12.3');
  assert.is(formatCount(0.051), '0.051');
});

test('values that are not finite print as a dash, never NaN or Infinity', () => {
  for (const f of [formatCount, formatInteger, formatMs, formatClock, formatPercent, formatBytes]) {
    assert.is(f(Number.NaN), '–');
    assert.is(f(Number.POSITIVE_INFINITY), '–');
  }
});

test('integers are exact with comma groups', () => {
  assert.is(formatInteger(5_678_901), '5,678,901');
  assert.is(formatInteger(-1000), '-1,000');
  assert.is(formatInteger(999), '999');
  assert.is(formatInteger(1234.5), '1,234.5');
});

test('durations use their largest unit and carry over when rounding reaches the next', () => {
  assert.is(formatMs(0), '0ms');
  assert.is(formatMs(0.5), '0.5ms');
  assert.is(formatMs(250), '250ms');
  assert.is(formatMs(1500), '1.5s');
  assert.is(formatMs(59_999), '1m');
  assert.is(formatMs(90_000), '1.5m');
  assert.is(formatMs(7_200_000), '2h');
  assert.is(formatMs(172_800_000), '2d');
});

test('the clock is m:ss under an hour and h:mm:ss from one hour', () => {
  assert.is(formatClock(0), '0:00');
  assert.is(formatClock(75_000), '1:15');
  assert.is(formatClock(3_725_000), '1:02:05');
  assert.is(formatClock(5_000, { withHours: true }), '0:00:05');
  assert.is(formatClock(1_500, { fractionDigits: 1 }), '0:01.5');
  assert.is(formatClock(59_999), '1:00');
});

test('percentages, bytes and truncated lists', () => {
  assert.is(formatPercent(0.4234), '42.3%');
  assert.is(formatBytes(512), '512 B');
  assert.is(formatBytes(328_000_000), '312.8 MiB');
  assert.is(formatList(['a', 'b', 'c', 'd', 'e'], 2), 'a, b +3 more');
  assert.is(formatList(['a', 'b'], 2), 'a, b');
  assert.is(formatList([], 2), '');
});

test.run();
