// The client and the server's in-flight limit: a 429 with Retry-After is sent again after that
// many seconds of the client's clock, a bounded number of times (client-go's 10 by default);
// without a clock the 429 is the caller's to handle.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import { StatusError } from '../../../actors/api/status.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { RateLimiter } from '../../../actors/client/rate-limiter.ts';
import { configMap, heldServer } from '../apiserver/server/held-server.ts';

const CMS = lookupResource('', 'v1', 'configmaps')!;
const ONE_WRITE = { enablePriorityAndFairness: false, maxRequestsInflight: 10, maxMutatingRequestsInflight: 1 };
const cm = (name: string) => ({ ...configMap(name), metadata: { name, namespace: 'default' } });

/** Resolves to the outcome of `p` without throwing: the object's name, or the error's code. */
function outcome(p: Promise<{ metadata: { name?: string } }>): { value?: string | number } {
  const box: { value?: string | number } = {};
  p.then((o) => (box.value = o.metadata.name), (e: unknown) => (box.value = e instanceof StatusError ? e.code : String(e)));
  return box;
}

test('a 429 is sent again after Retry-After (1 s) on the client clock, and then succeeds', async () => {
  const h = await heldServer(ONE_WRITE);
  const client = new ApiClient(h.server.bus, 'test', 30_000, undefined, { clock: h.clock });
  h.hold();
  const first = outcome(client.create(CMS, cm('first')));
  await h.settle();
  const before = h.server.requests;
  const second = outcome(client.create(CMS, cm('second')));
  await h.settle();
  assert.is(h.server.requests, before + 1, 'refused once, now waiting');
  h.release();
  await h.settle();
  assert.is(first.value, 'first');
  h.clock.advance(999);
  await h.settle();
  assert.is(h.server.requests, before + 1, 'no retry before the second is up');
  h.clock.advance(1);
  await h.settle();
  assert.is(h.server.requests, before + 2);
  assert.is(second.value, 'second');
});

test('retries are bounded: after maxRetries the 429 reaches the caller', async () => {
  const h = await heldServer(ONE_WRITE);
  const client = new ApiClient(h.server.bus, 'test', 30_000, undefined, { clock: h.clock, maxRetries: 2 });
  h.hold();
  const holder = outcome(client.create(CMS, cm('holder')));
  await h.settle();
  const before = h.server.requests;
  const refused = outcome(client.create(CMS, cm('refused')));
  for (let i = 0; i < 5; i++) {
    await h.settle();
    h.clock.advance(1_000);
  }
  await h.settle();
  assert.is(refused.value, 429);
  assert.is(h.server.requests - before, 3, 'the first try and two retries');
  h.release();
  await h.settle();
  assert.is(holder.value, 'holder');
});

test('without a clock the 429 is thrown at once, as a TooManyRequests StatusError', async () => {
  const h = await heldServer(ONE_WRITE);
  const client = new ApiClient(h.server.bus, 'test');
  h.hold();
  void client.create(CMS, cm('holder')).catch(() => {});
  await h.settle();
  try {
    await client.create(CMS, cm('refused'));
    assert.unreachable('the create should fail');
  } catch (e) {
    assert.instance(e, StatusError);
    assert.equal([(e as StatusError).code, (e as StatusError).reason, (e as StatusError).message], [429, 'TooManyRequests', 'Too many requests, please try again later.']);
  }
  h.release();
});

test('a client with a rate limiter waits on the limiter\'s clock, and each try takes a token', async () => {
  const h = await heldServer(ONE_WRITE);
  const limiter = new RateLimiter(h.clock, 1, 2);
  const client = new ApiClient(h.server.bus, 'test', 30_000, limiter);
  h.hold();
  const first = outcome(client.create(CMS, cm('a')));
  await h.settle();
  const second = outcome(client.create(CMS, cm('b')));
  await h.settle();
  h.release();
  await h.settle();
  h.clock.advance(1_000);
  await h.settle();
  assert.equal([first.value, second.value], ['a', 'b']);
});

test.run();
