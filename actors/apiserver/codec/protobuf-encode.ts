// The plain JSON shape to Protobuf bytes, walking the message tables: fields in number order,
// map entries sorted by key (as Go writes them, so equal objects give equal bytes). JSON fields
// the tables do not know are not written. A value of the wrong type is a bug in the caller: 500.
import { internal } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
import { isMessage, isScalar, isZero, type Field, type Message, type ValueType } from './protobuf-schema.ts';
import { WELL_KNOWN } from './protobuf-well-known.ts';
import { ProtoWriter, WIRE } from './protobuf-wire.ts';

type Obj = Record<string, unknown>;

const utf8 = new TextEncoder();
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_LIMIT = 2 ** 63;

const cannotEncode = (where: string, expected: string) => internal(`cannot encode ${where} as Protobuf: expected ${expected}`);

/** Writes the fields of `obj` that `msg` defines. `where` names obj in errors, e.g. "Deployment.spec". */
export function encodeMessage(obj: Obj, msg: Message, w: ProtoWriter, where: string): void {
  for (const f of msg.fields) {
    if (f.inline) {
      const sub = new ProtoWriter();
      encodeMessage(obj, f.type as Message, sub, where);
      if (sub.length > 0) w.tag(f.no, WIRE.bytes).embed(sub);
      continue;
    }
    const v = obj[f.json];
    if (v === undefined || v === null) continue;
    if (f.map) writeMap(w, f, v, where);
    else if (f.list) {
      if (!Array.isArray(v)) throw cannotEncode(`${where}.${f.json}`, 'an array');
      for (const item of v) writeValue(w, f.no, f.type, item, `${where}.${f.json}`);
    } else if (f.keep || !isScalar(f.type) || !isZero(v)) writeValue(w, f.no, f.type, v, `${where}.${f.json}`);
  }
}

function writeMap(w: ProtoWriter, f: Field, v: unknown, where: string): void {
  if (!isPlainObject(v)) throw cannotEncode(`${where}.${f.json}`, 'an object');
  for (const key of Object.keys(v).sort()) {
    const entry = new ProtoWriter().tag(1, WIRE.bytes).string(key);
    writeValue(entry, 2, f.type, v[key], `${where}.${f.json}[${key}]`);
    w.tag(f.no, WIRE.bytes).embed(entry);
  }
}

function writeValue(w: ProtoWriter, no: number, type: ValueType, v: unknown, where: string): void {
  if (isMessage(type)) {
    if (!isPlainObject(v)) throw cannotEncode(where, 'an object');
    return writeMessage(w, no, type, v, where);
  }
  switch (type) {
    case 'string':
      if (typeof v !== 'string') throw cannotEncode(where, 'a string');
      w.tag(no, WIRE.bytes).string(v);
      return;
    case 'bytes':
      if (typeof v !== 'string') throw cannotEncode(where, 'a base64 string');
      w.tag(no, WIRE.bytes).bytes(Buffer.from(v, 'base64'));
      return;
    case 'json':
      w.tag(no, WIRE.bytes).bytes(utf8.encode(JSON.stringify(v)));
      return;
    case 'bool':
      if (typeof v !== 'boolean') throw cannotEncode(where, 'a boolean');
      w.tag(no, WIRE.varint).bool(v);
      return;
    case 'int32':
      if (!Number.isInteger(v) || (v as number) < INT32_MIN || (v as number) > INT32_MAX) throw cannotEncode(where, 'a 32-bit integer');
      w.tag(no, WIRE.varint).int(v as number);
      return;
    case 'int64':
      // Past 2^53 numbers are still whole; they were decoded (or parsed from JSON) with that precision.
      if (!Number.isInteger(v) || Math.abs(v as number) > INT64_LIMIT) throw cannotEncode(where, 'a 64-bit integer');
      w.tag(no, WIRE.varint).int(v as number);
      return;
    default: {
      const known = WELL_KNOWN[type];
      return writeMessage(w, no, known.message, known.fromJson(v, where), where);
    }
  }
}

function writeMessage(w: ProtoWriter, no: number, msg: Message, v: Obj, where: string): void {
  const sub = new ProtoWriter();
  encodeMessage(v, msg, sub, where);
  w.tag(no, WIRE.bytes).embed(sub);
}
