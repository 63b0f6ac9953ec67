// The Protobuf wire format, as far as Kubernetes messages use it: varints, length-delimited
// fields and the two fixed widths. The reader trusts nothing: every length is checked against
// the bytes that are really there before anything is sliced, and every failure is a 400.
import { badRequest } from '../../api/status.ts';

/** Wire types (the low three bits of a tag). Groups (3, 4) are not used by Kubernetes. */
export const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;
export type WireType = (typeof WIRE)[keyof typeof WIRE];

const TWO_32 = 4294967296;
const MAX_FIELD_NUMBER = 536870911; // 2^29 - 1
const utf8 = new TextDecoder();
const utf8Encoder = new TextEncoder();

const malformed = (what: string, at: number) => badRequest(`invalid protobuf body: ${what} at byte ${at}`);

/** Reads one message: a window [start, end) of a buffer. Sub-messages are new readers on sub-windows. */
export class ProtoReader {
  private pos: number;
  // The last varint, as two unsigned 32-bit halves: JavaScript numbers cannot hold 64 bits.
  private lo = 0;
  private hi = 0;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  /** The next tag. Field numbers are 1..2^29-1; only wire types 0, 1, 2 and 5 are accepted. */
  tag(): { no: number; wire: WireType } {
    const at = this.pos;
    this.varint();
    const no = this.lo >>> 3;
    const wire = this.lo & 7;
    if (this.hi !== 0 || no === 0 || no > MAX_FIELD_NUMBER) throw malformed('invalid field number', at);
    if (wire !== 0 && wire !== 1 && wire !== 2 && wire !== 5) throw malformed(`unsupported wire type ${wire}`, at);
    return { no, wire };
  }

  uint64(): number {
    this.varint();
    return this.hi * TWO_32 + this.lo;
  }

  /** A two's-complement 64-bit integer; beyond 2^53 it loses precision, as JSON.parse would. */
  int64(): number {
    this.varint();
    if (this.hi < 0x80000000) return this.hi * TWO_32 + this.lo;
    const lo = (~this.lo + 1) >>> 0;
    const hi = (~this.hi + (lo === 0 ? 1 : 0)) >>> 0;
    return -(hi * TWO_32 + lo);
  }

  /** Negative int32 values arrive sign-extended to ten bytes; the low 32 bits carry the value. */
  int32(): number {
    this.varint();
    return this.lo | 0;
  }

  bool(): boolean {
    this.varint();
    return this.lo !== 0 || this.hi !== 0;
  }

  fixed32(): number {
    this.need(4);
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 4);
    this.pos += 4;
    return view.getUint32(0, true);
  }

  fixed64(): number {
    this.need(8);
    const view = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8);
    this.pos += 8;
    return view.getUint32(4, true) * TWO_32 + view.getUint32(0, true);
  }

  /** The bytes of a length-delimited field: a view, not a copy. */
  bytes(): Uint8Array {
    const n = this.length();
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  string(): string {
    return utf8.decode(this.bytes());
  }

  /** A reader over the next length-delimited field, for an embedded message. */
  message(): ProtoReader {
    const n = this.length();
    const sub = new ProtoReader(this.buf, this.pos, this.pos + n);
    this.pos += n;
    return sub;
  }

  /** Steps over a field this reader's caller does not know, as real servers do. */
  skip(wire: WireType): void {
    if (wire === WIRE.varint) this.varint();
    else if (wire === WIRE.fixed64) this.advance(8);
    else if (wire === WIRE.fixed32) this.advance(4);
    else this.advance(this.length());
  }

  private length(): number {
    const at = this.pos;
    this.varint();
    if (this.hi !== 0 || this.lo > this.end - this.pos) throw malformed('length runs past the end of the message', at);
    return this.lo;
  }

  private need(n: number): void {
    if (this.end - this.pos < n) throw malformed(`expected ${n} more bytes`, this.pos);
  }

  private advance(n: number): void {
    this.need(n);
    this.pos += n;
  }

  private varint(): void {
    const at = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw malformed('truncated varint', at);
      const b = this.buf[this.pos++];
      const bits = b & 0x7f;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= (bits & 0x0f) << 28;
        hi = bits >>> 4;
      } else hi |= bits << (7 * i - 32); // bits past 64 fall off, as in Go's decoder
      if (b < 0x80) {
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    throw malformed('varint longer than 10 bytes', at);
  }
}

/** Builds one message. Embedded messages are built in their own writer, then copied in with their length. */
export class ProtoWriter {
  private buf = new Uint8Array(64);
  private len = 0;

  get length(): number {
    return this.len;
  }

  tag(no: number, wire: WireType): this {
    return this.uint(no * 8 + wire);
  }

  /** A non-negative integer up to 2^53 as a varint. */
  uint(n: number): this {
    return this.varint64(n % TWO_32, Math.floor(n / TWO_32));
  }

  /** Any safe integer as a varint; negatives take ten bytes, as Go writes int32 and int64. */
  int(n: number): this {
    const hi = Math.floor(n / TWO_32);
    return this.varint64(n - hi * TWO_32, hi >>> 0);
  }

  bool(v: boolean): this {
    return this.uint(v ? 1 : 0);
  }

  fixed32(n: number): this {
    this.reserve(4);
    new DataView(this.buf.buffer).setUint32(this.len, n >>> 0, true);
    this.len += 4;
    return this;
  }

  fixed64(n: number): this {
    this.reserve(8);
    const view = new DataView(this.buf.buffer);
    view.setUint32(this.len, n % TWO_32 >>> 0, true);
    view.setUint32(this.len + 4, Math.floor(n / TWO_32) >>> 0, true);
    this.len += 8;
    return this;
  }

  /** Length prefix, then the bytes. */
  bytes(b: Uint8Array): this {
    this.uint(b.length);
    this.reserve(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }

  string(s: string): this {
    return this.bytes(utf8Encoder.encode(s));
  }

  /** Length prefix, then everything another writer holds: an embedded message. */
  embed(sub: ProtoWriter): this {
    return this.bytes(sub.buf.subarray(0, sub.len));
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }

  private varint64(lo: number, hi: number): this {
    this.reserve(10);
    lo >>>= 0;
    while (hi !== 0 || lo > 0x7f) {
      this.buf[this.len++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    this.buf[this.len++] = lo;
    return this;
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    grown.set(this.buf.subarray(0, this.len));
    this.buf = grown;
  }
}
