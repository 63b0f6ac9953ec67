// Watch events on the bus: in process the event itself, never encoded; encoded once when it
// leaves the process, and decoded once there.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../../actors/api/types.ts';
import { lookupResource } from '../../../../actors/api/resources.ts';
import { changeBody, eventOf, prevForFilter, prevState } from '../../../../actors/apiserver/watch/events.ts';
import type { Message } from '../../../../transport/bus.ts';

const PODS = lookupResource('', 'v1', 'pods')!;

const pod = (rv: string): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', resourceVersion: rv }, spec: { nodeName: 'n1' } });

/** The message another process receives: the bytes only. */
const remote = (data: Uint8Array): Message => ({ subject: 'orch.w.x', data: Uint8Array.from(data) });

test('in process the message carries the event itself, with the store\'s objects in it, and nothing is encoded', () => {
  const object = pod('7');
  const prev = pod('6');
  let encoded = 0;
  const body = changeBody({ type: 'MODIFIED', key: '/registry/core/pods/default/p', object, prev, revision: 7 }, PODS, { 'core/pods': 6 });
  const e = eventOf({ subject: 'orch.w.x', get data() { encoded++; return body.bytes; }, value: body.value });
  assert.is(e.object, object);
  assert.is(e.prev, prev);
  assert.equal(e.chain, { 'core/pods': 6 });
  assert.is(encoded, 0);
});

test('the bytes are made once, however many times they are read', () => {
  const body = changeBody({ type: 'ADDED', key: '/registry/core/pods/default/p', object: pod('8'), revision: 8 }, PODS);
  assert.is(body.bytes, body.bytes);
});

test('another process decodes the bytes to an equal event', () => {
  const object = pod('8');
  const e = eventOf(remote(changeBody({ type: 'ADDED', key: '/registry/core/pods/default/p', object, revision: 8 }, PODS).bytes));
  assert.is.not(e.object, object);
  assert.equal(e, { type: 'ADDED', revision: 8, object });
});

test('from elsewhere, selectors read a small view of the previous state; the whole of it is decoded only on demand', () => {
  const object = { ...pod('9'), metadata: { ...pod('9').metadata, labels: { app: 'b' } }, status: { phase: 'Running' } };
  const prev = { ...pod('8'), metadata: { ...pod('8').metadata, labels: { app: 'a' } }, status: { phase: 'Pending', podIP: '10.0.0.9', hostIP: '10.1.0.1' } };
  const e = eventOf(remote(changeBody({ type: 'MODIFIED', key: '/registry/core/pods/default/p', object, prev, revision: 9 }, PODS).bytes));
  assert.is(e.prev, undefined);
  assert.equal(prevForFilter(e), { metadata: { name: 'p', namespace: 'default', labels: { app: 'a' } }, spec: { nodeName: 'n1' }, status: { phase: 'Pending', podIP: '10.0.0.9' } });
  assert.equal(prevState(e), prev);
  assert.is(prevState(e), e.prev, 'decoded once');
});

test.run();
