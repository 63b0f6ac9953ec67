// Hostile bodies: thousands of truncated, bit-flipped, spliced and random buffers. Each must either
// decode to an object that encodes back to itself, or fail with a 400 or 415 StatusError.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { StatusError } from '../../../../actors/api/status.ts';
import { decodeProtobuf, encodeProtobuf, PROTOBUF_MAGIC } from '../../../../actors/apiserver/codec/protobuf.ts';
import { listOf, objects } from './protobuf-fixtures.ts';

const SEED = 0x5eed_c0de;

/** mulberry32: a small seeded PRNG, so a failure reproduces from the seed printed with it. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]) => xs[int(xs.length)] };
}

type Rng = ReturnType<typeof prng>;

const seeds: Uint8Array[] = [
  ...Object.values(objects).map((o) => encodeProtobuf(o)),
  encodeProtobuf(listOf(objects.Pod, 2)),
  encodeProtobuf(listOf(objects.Node, 1)),
];

const randomBytes = (rng: Rng, n: number) => Uint8Array.from({ length: n }, () => rng.int(256));

const mutations: ((rng: Rng, body: Uint8Array) => Uint8Array)[] = [
  (rng, b) => b.slice(0, rng.int(b.length)),
  (rng, b) => {
    const out = b.slice();
    for (let i = 1 + rng.int(8); i > 0; i--) out[rng.int(out.length)] ^= 1 << rng.int(8);
    return out;
  },
  (rng, b) => {
    const out = b.slice();
    for (let i = 1 + rng.int(4); i > 0; i--) out[4 + rng.int(out.length - 4)] = rng.pick([0x00, 0x7f, 0x80, 0xff, rng.int(256)]);
    return out;
  },
  (rng, b) => {
    const at = 4 + rng.int(b.length - 4);
    return Uint8Array.from([...b.subarray(0, at), ...randomBytes(rng, 1 + rng.int(12)), ...b.subarray(at)]);
  },
  (rng, b) => {
    const other = rng.pick(seeds);
    return Uint8Array.from([...b.subarray(0, rng.int(b.length)), ...other.subarray(rng.int(other.length))]);
  },
  (rng) => Uint8Array.from([...PROTOBUF_MAGIC, ...randomBytes(rng, rng.int(200))]),
  (rng) => randomBytes(rng, rng.int(64)),
];

/** The one check: a decoded body is a plain object that survives encode and decode; anything else is a 400/415. */
function check(body: Uint8Array, label: string): 'ok' | number {
  let obj;
  try {
    obj = decodeProtobuf(body);
  } catch (e) {
    if (!(e instanceof StatusError)) throw new Error(`${label}: threw ${String(e)} for ${Buffer.from(body).toString('hex')}`);
    if (e.code !== 400 && e.code !== 415) throw new Error(`${label}: code ${e.code} (${e.message})`);
    return e.code;
  }
  assert.type(obj.apiVersion, 'string', label);
  assert.type(obj.kind, 'string', label);
  JSON.stringify(obj);
  assert.equal(decodeProtobuf(encodeProtobuf(obj)), obj, `${label}: encoding what was decoded changes it`);
  return 'ok';
}

test(`mutated bodies decode or fail with 400/415, never anything else (seed ${SEED})`, () => {
  const rng = prng(SEED);
  const outcomes = new Map<string, number>();
  for (let i = 0; i < 6000; i++) {
    const mutate = mutations[i % mutations.length];
    const body = mutate(rng, rng.pick(seeds));
    const outcome = String(check(body, `seed ${SEED} case ${i}`));
    outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
  }
  // Both paths must be exercised, or the test proves nothing.
  assert.ok((outcomes.get('ok') ?? 0) > 100, `decoded: ${outcomes.get('ok')}`);
  assert.ok((outcomes.get('400') ?? 0) > 100, `rejected: ${outcomes.get('400')}`);
});

test('every prefix of every valid body decodes or fails with a 400', () => {
  for (const body of seeds) for (let n = 0; n < body.length; n++) check(body.subarray(0, n), `prefix ${n}`);
});

test('a huge declared length fails without allocating it', () => {
  const body = Uint8Array.of(...PROTOBUF_MAGIC, 0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f);
  assert.is(check(body, 'huge length'), 400);
});

test.run();
