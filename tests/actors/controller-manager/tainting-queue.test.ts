// The tainting queue: a token bucket of burst 1 (x/time/rate semantics), membership that outlives
// processing, and the swap that never grants an extra token.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TaintingQueue, TokenBucket } from '../../../actors/controller-manager/tainting-queue.ts';

test('a bucket starts full and refills at its rate; ten 100 ms refills of 0.1/s make no token, a hundred make one', () => {
  const b = new TokenBucket(0.1, 1, 0);
  assert.ok(b.tryAccept(0));
  for (let t = 100; t < 10_000; t += 100) assert.not.ok(b.tryAccept(t), `no token at ${t} ms`);
  assert.ok(b.tryAccept(10_000));
  assert.not.ok(new TokenBucket(0, 1, 0).tryAccept(1e9), 'rate 0 never gives a token');
});

test('a pass takes nodes while tokens last, in arrival order; a processed node stays a member until removed', async () => {
  const q = new TaintingQueue(0.1, 0);
  const taken: string[] = [];
  assert.ok(q.add('n1', 'u1', 0));
  assert.ok(q.add('n2', 'u2', 0));
  assert.not.ok(q.add('n1', 'u1', 0), 'already queued');
  await q.try(() => 0, async (e) => (taken.push(e.name), { done: true }));
  assert.equal(taken, ['n1']);
  await q.try(() => 5_000, async (e) => (taken.push(e.name), { done: true }));
  assert.equal(taken, ['n1']);
  await q.try(() => 10_000, async (e) => (taken.push(e.name), { done: true }));
  assert.equal(taken, ['n1', 'n2']);
  assert.not.ok(q.add('n1', 'u1', 11_000), 'processed, still a member');
  assert.ok(q.remove('n1'));
  assert.ok(q.add('n1', 'u1', 11_000));
});

test('swapping the rate: a bucket with a token keeps the new one full; an empty one leaves it drained; the same rate changes nothing', async () => {
  const full = new TaintingQueue(0.1, 0);
  full.swapLimiter(0.01, 0);
  const seen: number[] = [];
  full.add('a', '', 0);
  await full.try(() => 0, async () => (seen.push(0), { done: true }));
  assert.equal(seen, [0]);
  const drained = new TaintingQueue(0, 0);
  drained.swapLimiter(0.1, 0);
  drained.add('b', '', 0);
  for (const t of [0, 5_000, 9_900, 10_000]) await drained.try(() => t, async () => (seen.push(t), { done: true }));
  assert.equal(seen, [0, 10_000]);
  assert.is(drained.qps, 0.1);
});

test('an action that fails puts the node back after its retry delay', async () => {
  const q = new TaintingQueue(100, 0);
  let calls = 0;
  q.add('n', '', 0);
  await q.try(() => 0, async () => (calls++, { done: false, retryMs: 50 }));
  await q.try(() => 40, async () => (calls++, { done: true }));
  assert.is(calls, 1);
  await q.try(() => 51, async () => (calls++, { done: true }));
  assert.is(calls, 2);
  assert.is(q.size, 0);
});

test('a pass waits for each write before the next, reading the time again; a node taken out meanwhile is not put back', async () => {
  const q = new TaintingQueue(1_000, 0);
  let now = 0;
  const seen: string[] = [];
  for (const n of ['a', 'b', 'c']) q.add(n, '', 0);
  await q.try(() => now, async (e) => {
    seen.push(`${e.name}@${now}`);
    await Promise.resolve();
    now += 400;
    if (e.name === 'a') q.remove('b');
    return { done: e.name !== 'c', retryMs: 50 };
  });
  assert.equal(seen, ['a@0', 'c@400']);
  assert.is(q.size, 1, 'c, back for its retry');
  await q.try(() => now, async (e) => (seen.push(`${e.name}@${now}`), { done: true }));
  assert.equal(seen, ['a@0', 'c@400'], 'its retry is due at 851 ms');
  now = 851;
  await q.try(() => now, async (e) => (seen.push(`${e.name}@${now}`), { done: true }));
  assert.equal(seen, ['a@0', 'c@400', 'c@851']);
});

test.run();
