import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clockDigits, niceTicks, timeTicks } from '../../../sim/report/ticks.ts';

test('value ticks are 1, 2 or 5 times a power of ten, and a flat range still gets an axis', () => {
  assert.equal(niceTicks(0, 97).ticks, [0, 20, 40, 60, 80, 100]);
  assert.equal(niceTicks(0, 1).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
  const flat = niceTicks(0, 0);
  assert.is(flat.min, 0);
  assert.is(flat.max, 1);
  const huge = niceTicks(0, 3.4e9);
  assert.is(huge.max, 3.5e9);
  assert.is(huge.step, 5e8);
  assert.ok(huge.ticks.length <= 8);
  const broken = niceTicks(Number.NaN, Number.POSITIVE_INFINITY);
  assert.ok(broken.ticks.every(Number.isFinite));
});

test('whole things get steps of one or more: no tick between two nodes', () => {
  assert.equal(niceTicks(11, 13).ticks, [11, 11.5, 12, 12.5, 13]);
  assert.equal(niceTicks(11, 13, 5, 1).ticks, [11, 12, 13]);
  assert.equal(niceTicks(13, 14, 5, 1).ticks, [13, 14]);
  assert.is(niceTicks(0, 1000, 5, 1).step, 200, 'a larger step is left as it was');
});

test('time ticks land on clock-friendly steps inside the domain', () => {
  assert.equal(timeTicks(0, 60_000), { stepMs: 10_000, ticksMs: [0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000] });
  assert.is(timeTicks(0, 3 * 3_600_000).stepMs, 30 * 60_000);
  assert.ok(timeTicks(0, 1e15).ticksMs.length <= 50);
  const flat = timeTicks(5000, 5000).ticksMs;
  assert.is(flat[0], 5000);
  assert.ok(flat.length > 1 && flat.every((t) => t >= 5000 && t <= 6000));
});

test('sub-second tick steps get enough digits to tell them apart', () => {
  assert.is(clockDigits(1000), 0);
  assert.is(clockDigits(200), 1);
  assert.is(clockDigits(20), 2);
  assert.is(clockDigits(5), 3);
});

test.run();
