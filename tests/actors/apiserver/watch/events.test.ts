// Watch events on the bus: encoded once; in process never decoded, from elsewhere decoded once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../../actors/api/types.ts';
import { lookupResource } from '../../../../actors/api/resources.ts';
import { decodeEvent, encodeChange, prevForFilter, prevState } from '../../../../actors/apiserver/watch/events.ts';

const PODS = lookupResource('', 'v1', 'pods')!;

const pod = (rv: string): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', resourceVersion: rv }, spec: { nodeName: 'n1' } });

test('the bytes this process encoded give back the very event, with the store\'s objects in it', () => {
  const object = pod('7');
  const prev = pod('6');
  const data = encodeChange({ type: 'MODIFIED', key: '/registry/core/pods/default/p', object, prev, revision: 7 }, PODS, { 'core/pods': 6 });
  const e = decodeEvent(data);
  assert.is(e.object, object);
  assert.is(e.prev, prev);
  assert.equal(e.chain, { 'core/pods': 6 });
  assert.is(decodeEvent(data), e, 'every subscriber of those bytes shares one event');
});

test('the same bytes from another process (a new buffer) are decoded to an equal event', () => {
  const object = pod('8');
  const data = encodeChange({ type: 'ADDED', key: '/registry/core/pods/default/p', object, revision: 8 }, PODS);
  const e = decodeEvent(Uint8Array.from(data));
  assert.is.not(e.object, object);
  assert.equal(e, { type: 'ADDED', revision: 8, object });
});

test('from elsewhere, selectors read a small view of the previous state; the whole of it is decoded only on demand', () => {
  const object = { ...pod('9'), metadata: { ...pod('9').metadata, labels: { app: 'b' } }, status: { phase: 'Running' } };
  const prev = { ...pod('8'), metadata: { ...pod('8').metadata, labels: { app: 'a' } }, status: { phase: 'Pending', podIP: '10.0.0.9', hostIP: '10.1.0.1' } };
  const e = decodeEvent(Uint8Array.from(encodeChange({ type: 'MODIFIED', key: '/registry/core/pods/default/p', object, prev, revision: 9 }, PODS)));
  assert.is(e.prev, undefined);
  assert.equal(prevForFilter(e), { metadata: { name: 'p', namespace: 'default', labels: { app: 'a' } }, spec: { nodeName: 'n1' }, status: { phase: 'Pending', podIP: '10.0.0.9' } });
  assert.equal(prevState(e), prev);
  assert.is(prevState(e), e.prev, 'decoded once');
});

test.run();
