// --event-ttl: an Event is deleted that long after its last write (each write renews it, as an
// etcd lease per write does), on the server's clock; other kinds are never expired.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CM, configMap, heldServer } from './held-server.ts';

const EVENTS = '/api/v1/namespaces/default/events';
const event = (name: string, message: string) => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name }, message, reason: 'Tested',
  involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'cm' },
});

test('an Event goes --event-ttl after its last write; a write renews it; other objects stay', async () => {
  const h = await heldServer({ eventTtlMs: 60_000 });
  assert.is((await h.send('POST', EVENTS, event('e1', 'first'))).status, 201);
  assert.is((await h.send('POST', CM, configMap('cm'))).status, 201);
  h.clock.advance(40_000);
  await h.settle();
  const current = (await h.send('GET', `${EVENTS}/e1`)).json;
  assert.is((await h.send('PUT', `${EVENTS}/e1`, { ...current, message: 'again' })).status, 200, 'written 40 s in: its TTL starts over');
  h.clock.advance(59_999);
  await h.settle();
  assert.is((await h.send('GET', `${EVENTS}/e1`)).status, 200, 'a millisecond before the renewed TTL');
  h.clock.advance(1);
  await h.settle();
  assert.is((await h.send('GET', `${EVENTS}/e1`)).status, 404, 'gone at 60 s after the last write');
  assert.is((await h.send('GET', `${CM}/cm`)).status, 200, 'a ConfigMap is not an Event: it stays');
});

test('the default --event-ttl is one hour; a deleted Event leaves no timer behind', async () => {
  const h = await heldServer();
  await h.send('POST', EVENTS, event('e2', 'x'));
  const timers = h.clock.pending();
  await h.send('DELETE', `${EVENTS}/e2`);
  await h.settle();
  assert.is(h.clock.pending(), timers - 1);
  await h.send('POST', EVENTS, event('e3', 'x'));
  h.clock.advance(3_600_000 - 1);
  await h.settle();
  assert.is((await h.send('GET', `${EVENTS}/e3`)).status, 200);
  h.clock.advance(1);
  await h.settle();
  assert.is((await h.send('GET', `${EVENTS}/e3`)).status, 404);
});

test.run();
