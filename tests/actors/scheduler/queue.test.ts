// The scheduling queue: PrioritySort order, backoff doubling to its cap, parking and moving
// unschedulable pods, and the flush of pods parked too long.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SchedulingQueue } from '../../../actors/scheduler/queue.ts';

const drain = (q: SchedulingQueue) => {
  const out: string[] = [];
  for (let p = q.pop(); p; p = q.pop()) {
    out.push(p.key);
    q.done(p.key);
  }
  return out;
};

test('higher priority first, then the earlier arrival, then insertion order', () => {
  const q = new SchedulingQueue();
  q.add('ns/low', 0, 100);
  q.add('ns/high', 10, 300);
  q.add('ns/early', 0, 50);
  q.add('ns/tie-a', 5, 200);
  q.add('ns/tie-b', 5, 200);
  assert.equal(drain(q), ['ns/high', 'ns/tie-a', 'ns/tie-b', 'ns/early', 'ns/low']);
});

test('adding a pod already queued or in flight does not duplicate it', () => {
  const q = new SchedulingQueue();
  q.add('ns/a', 0, 0);
  q.add('ns/a', 0, 1);
  const p = q.pop()!;
  q.add('ns/a', 0, 2);
  assert.is(q.pop(), undefined);
  q.done(p.key);
  assert.is(q.size, 0);
});

test('a failed pod waits 1 s, 2 s, 4 s, 8 s, then 10 s at most before its next attempt', () => {
  const q = new SchedulingQueue();
  q.add('ns/a', 0, 0);
  let now = 0;
  const waits: number[] = [];
  let p = q.pop()!;
  for (let i = 0; i < 6; i++) {
    q.failed(p.key, now, false);
    const failedAt = now;
    let next = q.pop();
    while (!next) {
      now += 100;
      q.flush(now);
      next = q.pop();
    }
    waits.push(now - failedAt);
    p = next;
  }
  assert.equal(waits, [1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
});

test('backoff expiry doubles per attempt and is capped', () => {
  const q = new SchedulingQueue();
  const pod = { key: 'k', priority: 0, timestampMs: 0, initialMs: 0, attempts: 1, failedAtMs: 0, cycle: 0, seq: 0 };
  const expiries = [1, 2, 3, 4, 5, 6].map((attempts) => q.backoffExpiry({ ...pod, attempts }));
  assert.equal(expiries, [1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
});

test('an unschedulable pod is parked until a cluster event moves it, then waits out its backoff', () => {
  const q = new SchedulingQueue();
  q.add('ns/a', 0, 0);
  const p = q.pop()!;
  q.failed(p.key, 0, true);
  assert.equal(q.counts().unschedulable, 1);
  q.flush(60_000); // backoff long over, but parked pods only leave on an event or after 5 minutes
  assert.is(q.pop(), undefined);
  q.moveAllToActiveOrBackoff(60_000);
  assert.is(q.pop()?.key, 'ns/a');
});

test('a pod moved by an event during its backoff waits in the backoff queue', () => {
  const q = new SchedulingQueue();
  q.add('ns/a', 0, 0);
  q.failed(q.pop()!.key, 0, true);
  q.moveAllToActiveOrBackoff(500);
  assert.equal(q.counts().backoff, 1);
  assert.is(q.pop(), undefined);
  q.flush(999);
  assert.is(q.pop(), undefined);
  q.flush(1_000);
  assert.is(q.pop()?.key, 'ns/a');
});

test('an event that arrives while a pod is being scheduled sends its failure to backoff, not to the parked set', () => {
  const q = new SchedulingQueue();
  q.add('ns/a', 0, 0);
  const p = q.pop()!;
  q.moveAllToActiveOrBackoff(0); // e.g. a node was added mid-cycle
  q.failed(p.key, 0, true);
  assert.equal(q.counts(), { active: 0, backoff: 1, unschedulable: 0, inFlight: 0 });
});

test('parked pods leave after the maximum unschedulable duration even without an event', () => {
  const q = new SchedulingQueue({ maxInUnschedulableMs: 300_000 });
  q.add('ns/a', 0, 0);
  q.failed(q.pop()!.key, 0, true);
  q.flush(299_999);
  assert.is(q.pop(), undefined);
  q.flush(300_000);
  assert.is(q.pop()?.key, 'ns/a');
});

test('a deleted pod is forgotten wherever it waits', () => {
  const q = new SchedulingQueue();
  q.add('ns/a', 0, 0);
  q.add('ns/b', 0, 0);
  q.failed(q.pop()!.key, 0, true);
  q.delete('ns/a');
  q.delete('ns/b');
  q.moveAllToActiveOrBackoff(100_000);
  q.flush(1_000_000);
  assert.is(q.pop(), undefined);
  assert.is(q.size, 0);
});

test.run();
