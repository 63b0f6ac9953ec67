import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { StatusError } from '../../../../actors/api/status.ts';
import { ProtoReader, ProtoWriter, WIRE } from '../../../../actors/apiserver/codec/protobuf-wire.ts';

const bytes = (w: ProtoWriter) => [...w.finish()];
const reader = (...b: number[]) => new ProtoReader(Uint8Array.from(b));

function code400(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.instance(e, StatusError);
    assert.is((e as StatusError).code, 400);
    return (e as StatusError).message;
  }
  throw new Error('expected a 400');
}

test('varints are written as the Protobuf documentation shows them', () => {
  assert.equal(bytes(new ProtoWriter().uint(1)), [0x01]);
  assert.equal(bytes(new ProtoWriter().uint(300)), [0xac, 0x02]);
  assert.equal(bytes(new ProtoWriter().tag(1, WIRE.varint).uint(150)), [0x08, 0x96, 0x01]);
  assert.equal(bytes(new ProtoWriter().int(-1)), [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
});

test('unsigned and signed integers survive a round trip up to 2^53', () => {
  for (const n of [0, 1, 127, 128, 16383, 16384, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 35 + 7, Number.MAX_SAFE_INTEGER]) {
    assert.is(new ProtoReader(new ProtoWriter().uint(n).finish()).uint64(), n);
    assert.is(new ProtoReader(new ProtoWriter().int(n).finish()).int64(), n);
    assert.is(new ProtoReader(new ProtoWriter().int(-n).finish()).int64(), -n);
  }
});

test('a negative int32 arrives sign-extended to ten bytes and reads back', () => {
  for (const n of [-1, -2, -2147483648, 2147483647]) {
    const encoded = new ProtoWriter().int(n).finish();
    assert.is(encoded.length, n < 0 ? 10 : 5);
    assert.is(new ProtoReader(encoded).int32(), n);
  }
});

test('bools, fixed widths and strings survive a round trip', () => {
  const w = new ProtoWriter().bool(true).bool(false).fixed32(0xdeadbeef).fixed64(2 ** 40 + 3).string('héllo ✓');
  const r = new ProtoReader(w.finish());
  assert.is(r.bool(), true);
  assert.is(r.bool(), false);
  assert.is(r.fixed32(), 0xdeadbeef);
  assert.is(r.fixed64(), 2 ** 40 + 3);
  assert.is(r.string(), 'héllo ✓');
  assert.ok(r.done);
});

test('an embedded message is read through its own window and cannot read past it', () => {
  const inner = new ProtoWriter().tag(1, WIRE.bytes).string('in');
  const r = new ProtoReader(new ProtoWriter().tag(1, WIRE.bytes).embed(inner).tag(2, WIRE.varint).uint(5).finish());
  assert.equal(r.tag(), { no: 1, wire: WIRE.bytes });
  const sub = r.message();
  assert.equal(sub.tag(), { no: 1, wire: WIRE.bytes });
  assert.is(sub.string(), 'in');
  assert.ok(sub.done);
  assert.match(code400(() => sub.tag()), /truncated varint/);
  assert.equal(r.tag(), { no: 2, wire: WIRE.varint });
  assert.is(r.uint64(), 5);
});

test('every wire type can be skipped', () => {
  const w = new ProtoWriter().tag(1, WIRE.varint).int(-7).tag(2, WIRE.fixed64).fixed64(9).tag(3, WIRE.bytes).string('xyz').tag(4, WIRE.fixed32).fixed32(1).tag(5, WIRE.varint).uint(42);
  const r = new ProtoReader(w.finish());
  for (let i = 0; i < 4; i++) r.skip(r.tag().wire);
  assert.equal(r.tag(), { no: 5, wire: WIRE.varint });
  assert.is(r.uint64(), 42);
});

test('malformed input is a 400 that says what is wrong', () => {
  assert.match(code400(() => reader(0x80, 0x80).uint64()), /truncated varint at byte 0/);
  assert.match(code400(() => reader(...Array(10).fill(0xff), 0x01).uint64()), /longer than 10 bytes/);
  assert.match(code400(() => reader(0x00).tag()), /invalid field number/);
  assert.match(code400(() => reader(0x0b).tag()), /unsupported wire type 3/);
  assert.match(code400(() => reader(0x0f).tag()), /unsupported wire type 7/);
  assert.match(code400(() => reader(0x80, 0x80, 0x80, 0x80, 0x10).tag()), /invalid field number/);
  assert.match(code400(() => reader(0x05, 0x61).bytes()), /length runs past the end/);
  assert.match(code400(() => reader(0xff, 0xff, 0xff, 0xff, 0xff, 0x01).bytes()), /length runs past the end/);
  assert.match(code400(() => reader(1, 2, 3).fixed32()), /expected 4 more bytes/);
  assert.match(code400(() => reader(1, 2, 3).skip(WIRE.fixed64)), /expected 8 more bytes/);
});

test('a writer grows past its first buffer', () => {
  const big = 'x'.repeat(100_000);
  const r = new ProtoReader(new ProtoWriter().tag(1, WIRE.bytes).string(big).finish());
  r.tag();
  assert.is(r.string(), big);
});

test.run();
