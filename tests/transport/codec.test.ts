import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decode, encode } from '../../transport/codec.ts';

const pod = {
  type: 'MODIFIED',
  object: {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', resourceVersion: '42', labels: { app: 'web' }, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }], nodeName: 'n1', priority: 0 },
    status: { phase: 'Running', podIP: '10.0.0.1', startTime: null },
  },
};

test('an event round-trips through the codec unchanged, as JSON would carry it', () => {
  assert.equal(decode(encode(pod)), pod);
  assert.equal(JSON.stringify(decode(encode(pod))), JSON.stringify(pod));
});

test('large integers, negative numbers, floats and nulls keep their values', () => {
  const v = { big: 2 ** 53 - 1, neg: -7, f: 0.25, n: null, empty: {}, list: [] };
  assert.equal(decode(encode(v)), v);
});

test('the encoding is smaller than JSON for a pod event', () => {
  assert.ok(encode(pod).length < Buffer.byteLength(JSON.stringify(pod)));
});

test('the same value encodes to the same bytes in every process (no learned structures)', () => {
  assert.equal([...encode(pod)], [...encode(structuredClone(pod))]);
});

test.run();
