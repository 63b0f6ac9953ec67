// Sharing seats in proportion to targets within bounds (the allocation borrowing uses), and the
// Retry-After of refused requests.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { allocate as allocation } from '../../../../actors/apiserver/flowcontrol/borrowing.ts';
import { RetryAfter } from '../../../../actors/apiserver/flowcontrol/retry-after.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';

test('allocation: in proportion to the targets, within the bounds, summing to the total', () => {
  const allocate = (total: number, items: Parameters<typeof allocation>[1]) => allocation(total, items).map((x) => Math.round(x * 1e9) / 1e9);
  assert.equal(allocate(10, [{ lowerBound: 0, upperBound: 10, target: 1 }, { lowerBound: 0, upperBound: 10, target: 4 }]), [2, 8]);
  // The second is capped; the first takes the rest.
  assert.equal(allocate(10, [{ lowerBound: 0, upperBound: 10, target: 1 }, { lowerBound: 0, upperBound: 5, target: 4 }]), [5, 5]);
  // The first's lower bound holds.
  assert.equal(allocate(10, [{ lowerBound: 3, upperBound: 10, target: 3 }, { lowerBound: 0, upperBound: 10, target: 100 }]), [3, 7]);
  assert.equal(allocate(4, [{ lowerBound: 2, upperBound: 3, target: 2 }, { lowerBound: 2, upperBound: 3, target: 2 }]), [2, 2]);
  assert.throws(() => allocate(10, [{ lowerBound: 0, upperBound: 4, target: 1 }]));
});

test('Retry-After starts at 1 s, doubles while a level keeps refusing (up to 32 s), and comes down by one when it stops', () => {
  const clock = manualClock(0);
  const r = new RetryAfter(clock);
  const second = (refusals: number) => {
    let last = 0;
    for (let i = 0; i < refusals; i++) last = r.refused('busy');
    clock.advance(1000);
    return last;
  };
  assert.is(second(5), 1);
  assert.is(second(5), 2, 'at least 3 × 1 refused in the last second');
  assert.is(second(5), 2, 'not again before 2 s have passed');
  assert.is(second(5), 4, '10 ≥ 3 × 2 in the last 2 s');
  for (let i = 0; i < 30; i++) second(200);
  assert.is(second(200), 32);
  assert.is(r.refused('other'), 1, 'levels are counted apart');
  clock.advance(60_000);
  assert.is(second(1), 31, 'fewer than retryAfter refusals in the window: one less');
});

test.run();
