// Protobuf bytes to the plain JSON shape, walking the message tables. Unknown field numbers are
// skipped; a known field with the wrong wire type, or contents that cannot be what the table says,
// is a 400. Recursion follows the tables, which have no cycles, so its depth is bounded.
import { badRequest, StatusError } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
import { isMessage, isScalar, isVarint, isZero, type Field, type Message, type Special, type ValueType } from './protobuf-schema.ts';
import { WELL_KNOWN } from './protobuf-well-known.ts';
import { ProtoReader, WIRE, type WireType } from './protobuf-wire.ts';

type Obj = Record<string, unknown>;

const utf8 = new TextDecoder();

/** Decodes the rest of `r` as `msg`, merging into `into` (repeated occurrences of a message merge, as in Protobuf). */
export function decodeMessage(r: ProtoReader, msg: Message, into: Obj = {}): Obj {
  while (!r.done) {
    const { no, wire } = r.tag();
    const field = msg.byNo.get(no);
    if (field) readField(r, wire, field, msg, into);
    else r.skip(wire);
  }
  for (const f of msg.always) into[f.json] ??= f.list ? [] : emptyOf(f.type as Message);
  return into;
}

const NOTHING = new Uint8Array(0);

/** A message the wire left out, as an empty one decodes: with its own always-present fields. */
function emptyOf(msg: Message): Obj {
  return decodeMessage(new ProtoReader(NOTHING), msg);
}

function readField(r: ProtoReader, wire: WireType, f: Field, msg: Message, into: Obj): void {
  if (f.map) {
    expectWire(wire, WIRE.bytes, f, msg);
    const map = (into[f.json] ??= {}) as Obj;
    readMapEntry(r.message(), f, msg, map);
    return;
  }
  if (f.list) {
    const list = (into[f.json] ??= []) as unknown[];
    // Numbers in a repeated field may also come packed into one length-delimited run.
    if (wire === WIRE.bytes && isVarint(f.type)) {
      const packed = r.message();
      while (!packed.done) list.push(readValue(packed, f.type, f, msg));
      return;
    }
    expectWire(wire, wireOf(f.type), f, msg);
    list.push(readValue(r, f.type, f, msg) ?? null);
    return;
  }
  expectWire(wire, wireOf(f.type), f, msg);
  if (isMessage(f.type)) {
    const existing = into[f.json];
    const target = f.inline ? into : isPlainObject(existing) ? existing : {};
    const decoded = decodeMessage(r.message(), f.type, target);
    if (!f.inline) into[f.json] = decoded;
    return;
  }
  const v = readValue(r, f.type, f, msg);
  if (v === undefined || (!f.keep && isScalar(f.type) && isZero(v))) delete into[f.json];
  else into[f.json] = v;
}

/** One value of a field whose wire type has been checked. undefined means "absent" (a zero Time). */
function readValue(r: ProtoReader, type: ValueType, f: Field, msg: Message): unknown {
  if (isMessage(type)) return decodeMessage(r.message(), type);
  switch (type) {
    case 'string':
      return r.string();
    case 'bytes':
      return base64(r.bytes());
    case 'json':
      return parseJson(r.bytes(), f, msg);
    case 'bool':
      return r.bool();
    case 'int32':
      return r.int32();
    case 'int64':
      return r.int64();
    default:
      return readWellKnown(r.message(), type, f, msg);
  }
}

/** Errors inside Time, RawExtension, ... also name the field that holds them. */
function readWellKnown(r: ProtoReader, type: Special, f: Field, msg: Message): unknown {
  const known = WELL_KNOWN[type];
  try {
    return known.toJson(decodeMessage(r, known.message), where(f, msg));
  } catch (e) {
    if (e instanceof StatusError && !e.message.includes(where(f, msg))) throw badRequest(`${e.message}, in ${where(f, msg)}`);
    throw e;
  }
}

/** A map entry {key=1, value=2}; a missing key is "", a missing value the zero of its type. */
function readMapEntry(r: ProtoReader, f: Field, msg: Message, map: Obj): void {
  let key = '';
  let value: unknown;
  while (!r.done) {
    const { no, wire } = r.tag();
    if (no === 1) {
      expectWire(wire, WIRE.bytes, f, msg);
      key = r.string();
    } else if (no === 2) {
      expectWire(wire, wireOf(f.type), f, msg);
      value = readValue(r, f.type, f, msg);
    } else r.skip(wire);
  }
  value ??= isMessage(f.type) ? {} : f.type === 'quantity' ? '0' : f.type === 'stringList' ? [] : '';
  // A key such as "__proto__" must become an ordinary property, never the object's prototype.
  Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
}

function parseJson(bytes: Uint8Array, f: Field, msg: Message): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    throw badRequest(`invalid protobuf body: ${where(f, msg)} does not hold valid JSON`);
  }
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function wireOf(type: ValueType): WireType {
  return isVarint(type) ? WIRE.varint : WIRE.bytes;
}

function expectWire(got: WireType, want: WireType, f: Field, msg: Message): void {
  if (got !== want) throw badRequest(`invalid protobuf body: ${where(f, msg)} has wire type ${got}, expected ${want}`);
}

const where = (f: Field, msg: Message) => `field ${f.no} (${f.json}) of ${msg.name}`;
