// The in-flight limits of seed 001 (Limits): --max-requests-inflight read-only and
// --max-mutating-requests-inflight mutating requests at once (429 with the real message and
// Retry-After: 1 beyond), or with priority and fairness their sum shared by priority levels,
// which queue (flowcontrol/ has its own tests); watches are not counted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CM, configMap, heldServer, type Answer } from './held-server.ts';

const TWO_POOLS = { enablePriorityAndFairness: false, maxRequestsInflight: 2, maxMutatingRequestsInflight: 1 };

function tooMany(r: Answer): void {
  assert.is(r.status, 429);
  assert.is(r.headers['retry-after'], '1');
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Too many requests, please try again later.',
    reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429 });
}

test('beyond --max-requests-inflight a read gets 429 TooManyRequests with Retry-After: 1; mutating requests have their own pool', async () => {
  const h = await heldServer(TWO_POOLS);
  h.hold();
  const reads = [h.send('GET', CM), h.send('GET', `${CM}/a`)];
  await h.settle();
  assert.is(h.store.waiting, 2);
  tooMany(await h.send('GET', CM));
  const write = h.send('POST', CM, configMap('a'));
  await h.settle();
  assert.is(h.server.inflight.current.mutating, 1, 'the read-only pool being full does not stop a write');
  tooMany(await h.send('POST', CM, configMap('b')));
  h.release();
  assert.equal((await Promise.all(reads)).map((r) => r.status), [200, 404]);
  assert.is((await write).status, 201);
  assert.is((await h.send('GET', `${CM}/a`)).status, 200, 'served again once the places are free');
  assert.is((await h.send('GET', `${CM}/b`)).status, 404, 'the refused create stored nothing');
  assert.equal(h.server.inflight.current, { readOnly: 0, mutating: 0 });
});

test('with priority and fairness a request beyond its priority level\'s seats waits in a queue instead of being refused', async () => {
  // The default 400 + 200: anonymous requests go to global-default, which starts with 56 seats.
  const h = await heldServer({ enablePriorityAndFairness: true });
  const level = h.server.flowControl!.levels.get('global-default')!;
  assert.is(level.currentCL, 56);
  h.hold();
  const reads = Array.from({ length: 60 }, () => h.send('GET', CM));
  await h.settle();
  assert.is(h.store.waiting, 56, 'as many executing as the level has seats');
  assert.is(level.queues.waiting, 4, 'the rest queued, none refused');
  assert.is(h.server.inflight.current.readOnly, 56);
  h.release();
  assert.ok((await Promise.all(reads)).every((r) => r.status === 200));
  assert.equal(h.server.inflight.current, { readOnly: 0, mutating: 0 });
});

test('0 means no limit for that pool (the real filter has no channel for it)', async () => {
  const h = await heldServer({ enablePriorityAndFairness: false, maxRequestsInflight: 0, maxMutatingRequestsInflight: 1 });
  h.hold();
  const reads = Array.from({ length: 50 }, () => h.send('GET', CM));
  const write = h.send('POST', CM, configMap('a'));
  await h.settle();
  assert.is(h.store.waiting, 51);
  tooMany(await h.send('DELETE', `${CM}/a`));
  h.release();
  assert.ok((await Promise.all(reads)).every((r) => r.status === 200));
  assert.is((await write).status, 201);
});

test('watches are not counted: they open while the read-only pool is full, and do not fill it', async () => {
  const h = await heldServer({ ...TWO_POOLS, maxRequestsInflight: 1 });
  const watches = await Promise.all(Array.from({ length: 5 }, () => h.server.handle({ method: 'GET', url: `${CM}?watch=true`, headers: {}, body: new Uint8Array() })));
  assert.ok(watches.every((w) => w.status === 200 && w.stream !== undefined));
  h.hold();
  const read = h.send('GET', CM);
  await h.settle();
  const more = await h.server.handle({ method: 'GET', url: `${CM}?watch=1&resourceVersion=0`, headers: {}, body: new Uint8Array() });
  assert.is(more.status, 200, 'a watch opens while the pool is full');
  tooMany(await h.send('GET', CM));
  h.release();
  assert.is((await read).status, 200);
});

test('members of system:masters are served beyond the limit; others are not', async () => {
  const tokens = new Map([['root', { username: 'root', groups: ['system:masters', 'system:authenticated'] }],
    ['dev', { username: 'dev', groups: ['system:authenticated'] }]]);
  const h = await heldServer({ ...TWO_POOLS, tokens });
  h.hold();
  const held = [h.send('GET', CM), h.send('GET', CM)];
  await h.settle();
  tooMany(await h.send('GET', CM, undefined, { authorization: 'Bearer dev' }));
  const root = h.send('GET', CM, undefined, { authorization: 'Bearer root' });
  await h.settle();
  assert.is(h.store.waiting, 3, 'the super-user is let through');
  h.release();
  assert.is((await root).status, 200);
  await Promise.all(held);
});

test('health probes are exempt under priority and fairness, counted by the max-in-flight filter', async () => {
  // 1 + 0 seats: global-default gets none, so an anonymous read waits (and the max-in-flight pool is full).
  for (const apf of [true, false]) {
    const h = await heldServer(apf ? { enablePriorityAndFairness: true, maxRequestsInflight: 1, maxMutatingRequestsInflight: 0 } : { ...TWO_POOLS, maxRequestsInflight: 1 });
    h.hold();
    const read = h.send('GET', `${CM}?timeout=4s`);
    await h.settle();
    const probe = await h.send('GET', '/readyz');
    assert.is(probe.status, apf ? 200 : 429, `priority and fairness ${apf}`);
    h.release();
    if (apf) h.clock.advance(1_000); // the queued read's wait limit: a quarter of its 4 s deadline
    assert.is((await read).status, apf ? 429 : 200);
  }
});

test('requests over the bus pass the same limit as HTTPS (one handle for both)', async () => {
  const h = await heldServer(TWO_POOLS);
  const { REQUEST_SUBJECT } = await import('../../../../actors/apiserver/bus-endpoint.ts');
  const { payload, valueOf } = await import('../../../../transport/payload.ts');
  h.hold();
  const held = [h.send('GET', CM), h.send('GET', CM)];
  await h.settle();
  const reply = valueOf<{ status: number; headers: Record<string, string> }>(
    await h.server.bus.request(REQUEST_SUBJECT, payload({ method: 'GET', url: CM, headers: {}, body: new Uint8Array() }), 5_000));
  assert.is(reply.status, 429);
  assert.is(reply.headers['retry-after'], '1');
  h.release();
  await Promise.all(held);
});

test.run();
