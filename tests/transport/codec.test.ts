import { spawnSync } from 'node:child_process';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { pack, unpack } from 'msgpackr';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CodecError, createCodec, decode, encode } from '../../transport/codec.ts';
import { SHARED_STRUCTURES } from '../../transport/structures.ts';
import { TYPESCRIPT_LOADER_FLAGS } from '../../sim/cli/typescript-loader.ts';

const object = {
  apiVersion: 'v1', kind: 'Pod',
  metadata: {
    labels: { 'orchsim.io/workload': 'web' }, name: 'web', namespace: 'default', uid: 'u-1', creationTimestamp: '2026-01-01T00:00:00Z', resourceVersion: '42',
    managedFields: [{ manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:01Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {} } } } }, subresource: 'status' }],
  },
  spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }], nodeName: 'n1', priority: 0 },
  status: { phase: 'Running', podIP: '10.0.0.1', startTime: null },
};
const previous = { ...object, status: { phase: 'Pending' } };
/** A watch event as the API server publishes it (watch/events.ts). */
const pod = {
  type: 'MODIFIED',
  revision: 42,
  object,
  chain: { '/pods': 41, '/pods/default': 40, 'node/n1': 12 },
  prevView: { metadata: { name: 'web', namespace: 'default', labels: { 'orchsim.io/workload': 'web' } }, spec: { nodeName: 'n1' } },
  prevRaw: encode(previous),
};

/** An object with `keys`, in that order, and values of every kind. */
const withKeys = (keys: readonly string[]) => Object.fromEntries(keys.map((k, i) => [k, [i, `v${i}`, null, { n: i }, [i], i * 1e10, true][i % 7]]));

/** Bytes as they compare in uvu: Buffer and Uint8Array are different classes to it. */
const bytes = (b: Uint8Array) => [...b];
/** JSON with every byte array as a list of numbers (JSON gives a Buffer and a Uint8Array different forms). */
const json = (value: unknown) => JSON.stringify(value, function (this: Record<string, unknown>, key) {
  const raw = this[key];
  return raw instanceof Uint8Array ? [...raw] : raw;
});

test('an event round-trips through the codec unchanged, as JSON would carry it', () => {
  const { prevRaw, ...rest } = decode<typeof pod>(encode(pod));
  const { prevRaw: sent, ...expected } = pod;
  assert.equal(rest, expected);
  assert.is(JSON.stringify(rest), JSON.stringify(expected));
  assert.equal(bytes(prevRaw), bytes(sent));
  assert.equal(decode(prevRaw), previous);
});

test('every shape of the table round-trips, as its record id: one byte for the first 32, two after', () => {
  SHARED_STRUCTURES.forEach((keys, i) => {
    const value = withKeys(keys);
    const data = encode(value);
    assert.equal(decode(data), value, `entry ${i}: ${JSON.stringify(keys)}`);
    assert.equal(Object.keys(decode(data) as object), [...keys]);
    if (i < 32) assert.is(data[3], 0x40 + i, `entry ${i} is a one-byte id`);
    else assert.equal([data[3], data[4]], [0x60 + ((i - 32) & 0x1f), (i - 32) >> 5], `entry ${i} is a two-byte id`);
  });
});

test('a request with a binary body and its response round-trip, the bytes intact', () => {
  const body = new Uint8Array([0, 1, 2, 0xc1, 0xff, ...Buffer.from('{"kind":"Pod"}')]);
  const req = { method: 'POST', url: '/api/v1/namespaces/default/pods?fieldManager=x', headers: { 'user-agent': 'kubelet', accept: 'application/json', 'content-type': 'application/json' }, body };
  const got = decode<typeof req>(encode(req));
  assert.equal({ ...got, body: bytes(got.body) }, { ...req, body: bytes(body) });
  const res = { status: 201, headers: { 'content-type': 'application/json', warning: ['a', 'b'] }, body: new Uint8Array() };
  const back = decode<typeof res>(encode(res));
  assert.equal({ ...back, body: bytes(back.body) }, { ...res, body: [] });
});

test('shapes outside the table encode as plain maps, whatever their keys and nesting', () => {
  const values: unknown[] = [
    { type: 'ADDED', revision: 1 }, // a prefix of table entries
    { type: 'ADDED', revision: 1, object: {}, chain: {}, extra: 1 }, // a longer list
    { revision: 1, type: 'ADDED', object: {}, chain: {} }, // a table entry's keys in another order
    { a: { b: { c: { d: [{ e: 1 }, { f: 2, g: [{}, []] }] } } } },
    [{ x: 1 }, { x: 1, y: 2 }, { y: 2, x: 1 }, 'str', 3, null],
    { 'k:{"ip":"10.0.3.7"}': {}, 'quote"back\\slash': 1, 'ünïcode ✓': 'ok', '': 'empty key', ' ': 0 },
  ];
  for (const v of values) assert.equal(decode(encode(v)), v);
  assert.is(encode({ novel: 1, shape: 2 })[3], 0xde, 'a map, not a record defined inline');
  const decoded = decode<Record<string, unknown>>(encode({ revision: 1, type: 'ADDED' }));
  assert.equal(Object.keys(decoded), ['revision', 'type']);
  assert.not.instance(decode(encode({ novel: 1 })), Map);
});

test('undefined and null fields keep their keys, in table shapes and out of them', () => {
  const values = [
    { type: undefined, revision: null, object: {}, chain: undefined },
    { a: undefined, b: null, c: [undefined, null] },
    { name: undefined },
  ];
  for (const v of values) {
    const got = decode<object>(encode(v));
    assert.equal(got, v);
    assert.equal(Object.keys(got), Object.keys(v));
  }
});

test('large integers, negatives, the integers record ids would shadow, floats and non-finite numbers keep their values', () => {
  const v = {
    big: 2 ** 53 - 1, negBig: -(2 ** 53 - 1), u32: 2 ** 32, u40: 2 ** 40, i32: -(2 ** 31) - 1, zero: 0, neg: -7,
    shadowed: [63, 64, 65, 100, 127, 128, 255, 256], f: 0.25, tiny: 1e-300, inf: Infinity, ninf: -Infinity, nan: NaN,
  };
  const got = decode<typeof v>(encode(v));
  assert.equal(got, v);
  for (const n of Object.values(got).flat()) assert.type(n, 'number');
});

test('nested maps with numeric-looking keys keep their keys and JavaScript order', () => {
  const v = { '10': 'ten', '2': { '0': [], '1': {}, '01': 'leading zero', '-1': 'neg', '1.5': 'float' }, '1': 'one', x: { '4294967295': 'max', '4294967296': 'past' } };
  const got = decode<typeof v>(encode(v));
  assert.equal(got, v);
  assert.equal(Object.keys(got), Object.keys(v));
  assert.equal(Object.keys(got['2']), Object.keys(v['2']));
});

test('empty objects and arrays round-trip everywhere', () => {
  for (const v of [{}, [], [{}], [[]], { a: {}, b: [] }, { metadata: {} }, { containers: [], tolerations: [] }]) assert.equal(decode(encode(v)), v);
  assert.is(encode({}).length, 4, 'the empty object is a table entry: a one-byte id after the header');
});

test('a shape decoded many times stays right once msgpackr compiles its reader', () => {
  const other = createCodec();
  for (let i = 0; i < 10; i++) {
    const v = { ...pod, revision: i, chain: { [`node/n${i}`]: i } };
    assert.equal(other.decode(encode(v)), v);
  }
});

test('a separately built codec decodes the first one\'s bytes, also after it encoded thousands of novel shapes', () => {
  const first = createCodec();
  for (let i = 0; i < 5_000; i++) first.encode({ [`key-${i}`]: i, [`other-${i % 97}`]: { [`k:{"ip":"10.0.${i >> 8}.${i & 0xff}"}`]: {} }, name: 'x' });
  const data = first.encode(pod);
  const second = createCodec();
  assert.equal(second.decode(data), decode(data));
  assert.equal(bytes(second.encode(second.decode(data))), bytes(data), 'and encodes what it decoded to the same bytes');
  assert.equal(bytes(first.encode({ fresh: { shape: [1] } })), bytes(second.encode({ fresh: { shape: [1] } })));
});

test('another process decodes this one\'s bytes with nothing exchanged first, and encodes the value to the same bytes', () => {
  for (let i = 0; i < 1_000; i++) encode({ [`novel-${i}`]: { [`nested-${i}`]: [i] } });
  const values = [pod, { novel: { shape: [1, { deeper: true }] } }, withKeys(SHARED_STRUCTURES[SHARED_STRUCTURES.length - 1])];
  const input = values.map((v) => Buffer.from(encode(v)).toString('hex')).join('\n');
  const child = `
    const { decode, encode } = await import(${JSON.stringify(new URL('../../transport/codec.ts', import.meta.url).href)});
    const json = ${json.toString()};
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const out = input.split('\\n').map((hex) => {
      const value = decode(Buffer.from(hex, 'hex'));
      return { json: json(value), hex: Buffer.from(encode(value)).toString('hex') };
    });
    process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, [...TYPESCRIPT_LOADER_FLAGS, '--input-type=module', '-e', child], { input, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { json: string; hex: string }[];
  values.forEach((v, i) => {
    assert.is(out[i].json, json(v));
    assert.is(out[i].hex, input.split('\n')[i]);
  });
});

test('the same value encodes to the same bytes, whatever was encoded before (reports hash traces)', () => {
  const before = bytes(encode(pod));
  assert.equal(bytes(encode(structuredClone(pod))), before);
  // Past the codec's periodic reset of msgpackr's lookup trie, with novel shapes in between.
  for (let i = 0; i < 10_000; i++) encode({ [`unique-${i}`]: i, name: 'n' });
  assert.equal(bytes(encode(pod)), before);
  assert.equal(bytes(createCodec().encode(pod)), before);
});

test('a process with another table refuses the bytes loudly instead of misreading them', () => {
  const data = encode(pod);
  const other = createCodec([...SHARED_STRUCTURES, ['some', 'new', 'shape']]);
  assert.is.not(other.tag, createCodec().tag);
  assert.throws(() => other.decode(data), (e: Error) => e instanceof CodecError && /table [0-9a-f]{4}, this process has table/.test(e.message));
  assert.throws(() => decode(other.encode(pod)), (e: Error) => e instanceof CodecError);
  assert.throws(() => decode(pack(pod)), (e: Error) => e instanceof CodecError && /no codec header/.test(e.message));
  assert.throws(() => decode(new Uint8Array()), (e: Error) => e instanceof CodecError);
  assert.throws(() => unpack(data), 'a plain MessagePack decoder refuses it');
});

test('the table is frozen, without duplicates, and never grows', () => {
  assert.ok(Object.isFrozen(SHARED_STRUCTURES) && SHARED_STRUCTURES.every((k) => Object.isFrozen(k)));
  const seen = new Set(SHARED_STRUCTURES.map((k) => JSON.stringify(k)));
  assert.is(seen.size, SHARED_STRUCTURES.length);
  const codec = createCodec();
  const tag = codec.tag;
  for (let i = 0; i < 100; i++) codec.encode({ a: i, b: { c: i } });
  assert.is(codec.encode({ a: 1, b: { c: 1 } })[3], 0xde, 'a shape seen 100 times is still a map');
  assert.is(createCodec().tag, tag);
});

test('the codec\'s memory stays bounded under keys that never repeat', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const codec = createCodec();
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 200_000; i++) codec.encode({ '.': {}, [`k:{"ip":"${i}"}`]: {} });
  gc();
  // Without the trie reset this grows by about 50 MB.
  assert.ok(process.memoryUsage().heapUsed - before < 10e6, `${((process.memoryUsage().heapUsed - before) / 1e6).toFixed(1)} MB`);
});

test('the encoding is smaller than JSON for a pod event', () => {
  assert.ok(encode(pod).length < Buffer.byteLength(JSON.stringify(pod)));
});

test.run();
