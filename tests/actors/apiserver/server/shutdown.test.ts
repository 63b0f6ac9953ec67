// The graceful termination, in process on a manual clock: /readyz fails at once while /healthz and
// /livez pass and requests are served through --shutdown-delay-duration; then new requests are
// turned away (429, Retry-After: 5, Connection: close with --shutdown-send-retry-after; otherwise
// the listener closes and stragglers get 503) while those in flight finish; then watches end and
// the listener closes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ShutdownListener } from '../../../../actors/apiserver/lifecycle.ts';
import { openWatch } from '../../../helpers/watch-stream.ts';
import { CM, configMap, heldServer, type Answer } from './held-server.ts';

function fakeListener(): ShutdownListener & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    stopListening: () => void calls.push('stopListening'),
    whenIdle: async () => void calls.push('whenIdle'),
    close: async () => void calls.push('close'),
  };
}

function settled<T>(p: Promise<T>): { done: boolean } {
  const box = { done: false };
  void p.then(() => (box.done = true));
  return box;
}

const READYZ_FAILED = '[+]ping ok\n[+]log ok\n[+]etcd ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n';

test('on stop /readyz fails at once, naming the shutdown check; /healthz and /livez pass; requests are served during the delay', async () => {
  const h = await heldServer({ shutdownDelayMs: 10_000, shutdownSendRetryAfter: true });
  const listener = fakeListener();
  void h.server.shutdown(listener);
  const readyz = await h.send('GET', '/readyz');
  assert.equal([readyz.status, readyz.text], [500, READYZ_FAILED]);
  assert.match(String(readyz.headers['content-type']), /^text\/plain/);
  const one = await h.send('GET', '/readyz/shutdown');
  assert.equal([one.status, one.text], [500, 'internal server error: process is shutting down\n']);
  for (const path of ['/healthz', '/livez']) assert.equal([(await h.send('GET', path)).status, (await h.send('GET', path)).text], [200, 'ok'], path);
  h.clock.advance(9_000);
  assert.is((await h.send('POST', CM, configMap('during-delay'))).status, 201);
  assert.is((await h.send('GET', `${CM}/during-delay`)).status, 200);
  assert.equal(listener.calls, []);
  assert.is(h.server.lifecycle.phase, 'Draining/Delay');
});

test('with --shutdown-send-retry-after: after the delay new requests get 429 with Retry-After and Connection: close, in-flight ones finish, then watches end and the listener closes', async () => {
  const h = await heldServer({ shutdownDelayMs: 10_000, shutdownSendRetryAfter: true });
  const listener = fakeListener();
  const watch = await openWatch(h.server, `${CM}?watch=true`);
  const done = settled(h.server.shutdown(listener));
  h.hold();
  const inFlight = h.send('GET', CM);
  await h.settle();
  h.clock.advance(10_000);
  await h.settle();
  assert.is(h.server.lifecycle.phase, 'Draining/NotAccepting');
  const refused: Answer = await h.send('GET', CM);
  assert.is(refused.status, 429);
  assert.is(refused.headers['retry-after'], '5');
  assert.is(refused.headers.connection, 'close');
  assert.equal([refused.json.reason, refused.json.message], ['TooManyRequests', 'The apiserver is shutting down, please try again later.']);
  assert.is((await h.send('GET', `${CM}?watch=true`)).status, 429, 'new watches are turned away too');
  assert.is((await h.send('GET', '/healthz')).status, 200, 'probes are exempt');
  assert.is((await h.send('GET', '/readyz')).status, 500);
  assert.is((await h.send('GET', '/metrics')).status, 200, 'scrapes are exempt');
  assert.equal(listener.calls, [], 'the listener stays open while requests drain');
  assert.is(watch.ended, false);
  assert.is(done.done, false);
  h.release();
  assert.is((await inFlight).status, 200, 'the request in flight completes');
  await h.settle();
  assert.is(watch.ended, true, 'watches are ended cleanly');
  assert.equal(listener.calls, ['whenIdle', 'close']);
  assert.is(done.done, true);
  assert.is(h.server.lifecycle.phase, 'Stopped');
});

test('without --shutdown-send-retry-after the listener closes after the delay and stragglers get 503 with Retry-After: 1', async () => {
  const h = await heldServer({ shutdownDelayMs: 2_000, shutdownSendRetryAfter: false });
  const listener = fakeListener();
  const done = settled(h.server.shutdown(listener));
  h.hold();
  const inFlight = h.send('POST', CM, configMap('in-flight'));
  await h.settle();
  h.clock.advance(2_000);
  await h.settle();
  assert.equal(listener.calls, ['stopListening']);
  const straggler = await h.send('GET', CM);
  assert.equal([straggler.status, straggler.headers['retry-after'], straggler.json.reason, straggler.json.message],
    [503, '1', 'ServiceUnavailable', 'apiserver is shutting down']);
  assert.is(done.done, false);
  h.release();
  assert.is((await inFlight).status, 201);
  await h.settle();
  assert.equal(listener.calls, ['stopListening', 'whenIdle', 'close']);
  assert.is(done.done, true);
});

test('without a delay the server drains as soon as its clock moves; a second shutdown is the same one', async () => {
  const h = await heldServer();
  const listener = fakeListener();
  const first = h.server.shutdown(listener);
  assert.is(h.server.shutdown(listener), first);
  const done = settled(first);
  h.clock.advance(0);
  await h.settle();
  assert.is(done.done, true);
  assert.equal(listener.calls, ['stopListening', 'whenIdle', 'close']);
});

test.run();
