// --request-timeout on the server's clock: a request not answered within it gets the real 504;
// `?timeout=` shortens the deadline, never lengthens it; watches are not timed; a handler past its
// deadline still finishes (and holds its in-flight place until it does), as in the real server.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { answer, CM, configMap, heldServer, type Answer } from './held-server.ts';

const TIMEOUT_STATUS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
  message: 'Timeout: request did not complete within requested timeout - context deadline exceeded', reason: 'Timeout', details: {}, code: 504 };

/** Settles `p` into a box, so a test can see whether it has answered yet. */
function watchAnswer(p: Promise<Answer>): { answer?: Answer } {
  const box: { answer?: Answer } = {};
  void p.then((a) => (box.answer = a));
  return box;
}

test('a request not answered within --request-timeout (1m0s) gets 504 Timeout, measured on the server clock', async () => {
  const h = await heldServer();
  h.hold();
  const pending = watchAnswer(h.send('GET', CM));
  await h.settle();
  h.clock.advance(59_999);
  await h.settle();
  assert.is(pending.answer, undefined, 'still waiting a millisecond before the deadline');
  h.clock.advance(1);
  await h.settle();
  assert.is(pending.answer?.status, 504);
  assert.equal(pending.answer?.json, TIMEOUT_STATUS);
  assert.is(pending.answer?.headers['retry-after'], undefined, 'retryAfterSeconds 0: no Retry-After');
  assert.is(h.server.inflight.current.readOnly, 1, 'the handler still runs and keeps its place');
  h.release();
  await h.settle();
  assert.is(h.server.inflight.current.readOnly, 0);
});

test('a request that arrived over HTTPS counts its deadline, and its in-flight place, from its arrival', async () => {
  const h = await heldServer({ maxRequestsInflight: 1, maxMutatingRequestsInflight: 1, enablePriorityAndFairness: false });
  h.hold();
  // It arrived, took its place, then waited 50 s for the event loop before its handler ran.
  const arrival = h.server.arrive({ method: 'GET', url: CM, headers: {} });
  assert.is(arrival.admission.state, 'admitted');
  assert.is(h.server.inflight.current.readOnly, 1, 'counted from arrival');
  assert.is(h.server.arrive({ method: 'GET', url: CM, headers: {} }).admission.state, 'refused', 'the next arrival is over the limit');
  h.clock.advance(50_000);
  const pending = watchAnswer(h.server.handle({ method: 'GET', url: CM, headers: {}, body: new Uint8Array(), arrival }).then(answer));
  await h.settle();
  h.clock.advance(9_999);
  await h.settle();
  assert.is(pending.answer, undefined);
  h.clock.advance(1);
  await h.settle();
  assert.is(pending.answer?.status, 504, 'a minute after arrival, not after the handler began');
  h.release();
  await h.settle();
  assert.is(h.server.inflight.current.readOnly, 1, 'its place is held until the answer is written');
  arrival.release();
  arrival.release();
  assert.is(h.server.inflight.current.readOnly, 0, 'given back once');
});

test('the deadline follows --request-timeout', async () => {
  const h = await heldServer({ requestTimeoutMs: 2_000 });
  h.hold();
  const pending = watchAnswer(h.send('GET', `${CM}/x`));
  await h.settle();
  h.clock.advance(2_000);
  await h.settle();
  assert.is(pending.answer?.status, 504);
  h.release();
});

test('?timeout= shortens the deadline; 0, or more than the maximum, leaves the maximum', async () => {
  const h = await heldServer();
  h.hold();
  const short = watchAnswer(h.send('GET', `${CM}?timeout=5s`));
  const zero = watchAnswer(h.send('GET', `${CM}?timeout=0s`));
  const long = watchAnswer(h.send('GET', `${CM}?timeout=10m`));
  await h.settle();
  h.clock.advance(5_000);
  await h.settle();
  assert.equal([short.answer?.status, zero.answer?.status, long.answer?.status], [504, undefined, undefined]);
  h.clock.advance(55_000);
  await h.settle();
  assert.equal([zero.answer?.status, long.answer?.status], [504, 504]);
  h.release();
});

test('a malformed ?timeout= is 400 with the real message, Go duration errors included', async () => {
  const h = await heldServer();
  const cases: [string, string][] = [
    ['abc', 'time: invalid duration "abc"'],
    ['10', 'time: missing unit in duration "10"'],
    ['5x', 'time: unknown unit "x" in duration "5x"'],
  ];
  for (const [value, why] of cases) {
    const r = await h.send('GET', `${CM}?timeout=${value}`);
    assert.is(r.status, 400, value);
    assert.is(r.json.reason, 'BadRequest');
    assert.is(r.json.message, `invalid timeout specified in the request URL - ${why}`);
  }
  assert.is((await h.send('GET', `${CM}?timeout=1m30s`)).status, 200);
  assert.is((await h.send('GET', `/api?timeout=32s`)).status, 200, 'kubectl\'s discovery timeout is accepted');
});

test('a watch is not timed by --request-timeout', async () => {
  const h = await heldServer({ requestTimeoutMs: 1_000 });
  const r = await h.server.handle({ method: 'GET', url: `${CM}?watch=true&timeout=1s`, headers: {}, body: new Uint8Array() });
  assert.is(r.status, 200);
  assert.ok(r.stream);
  h.clock.advance(10_000);
});

test('a create past its deadline answers 504, yet still lands once its handler finishes', async () => {
  const h = await heldServer({ requestTimeoutMs: 1_000 });
  h.hold();
  const pending = watchAnswer(h.send('POST', CM, configMap('late')));
  await h.settle();
  h.clock.advance(1_000);
  await h.settle();
  assert.is(pending.answer?.status, 504);
  h.release();
  await h.settle();
  assert.is((await h.send('GET', `${CM}/late`)).status, 200);
});

test('a 504 is counted among the requests the server terminated', async () => {
  const h = await heldServer({ requestTimeoutMs: 1_000 });
  h.hold();
  const pending = h.send('GET', CM);
  await h.settle();
  h.clock.advance(1_000);
  await pending;
  h.release();
  const text = (await h.send('GET', '/metrics')).text;
  assert.match(text, 'apiserver_request_terminations_total{verb="LIST",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="504"} 1');
  assert.match(text, 'apiserver_request_total{verb="LIST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="504"} 1');
});

test.run();
