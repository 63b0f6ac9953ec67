// Watch events on the bus: encoded once; in process never decoded, from elsewhere decoded once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../../actors/api/types.ts';
import { decodeEvent, encodeChange } from '../../../../actors/apiserver/watch/events.ts';

const pod = (rv: string): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', resourceVersion: rv }, spec: { nodeName: 'n1' } });

test('the bytes this process encoded give back the very event, with the store\'s objects in it', () => {
  const object = pod('7');
  const prev = pod('6');
  const data = encodeChange({ type: 'MODIFIED', key: '/registry/core/pods/default/p', object, prev, revision: 7 }, { 'core/pods': 6 });
  const e = decodeEvent(data);
  assert.is(e.object, object);
  assert.is(e.prev, prev);
  assert.equal(e.chain, { 'core/pods': 6 });
  assert.is(decodeEvent(data), e, 'every subscriber of those bytes shares one event');
});

test('the same bytes from another process (a new buffer) are decoded to an equal event', () => {
  const object = pod('8');
  const data = encodeChange({ type: 'ADDED', key: '/registry/core/pods/default/p', object, revision: 8 });
  const e = decodeEvent(Uint8Array.from(data));
  assert.is.not(e.object, object);
  assert.equal(e, { type: 'ADDED', revision: 8, object });
});

test.run();
