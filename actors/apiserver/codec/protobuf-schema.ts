// How message definitions are written: each field is one row, [number, JSON name, type, ...flags],
// with the number from the Kubernetes generated.proto files. The codec walks these tables;
// nothing here reads or writes bytes.

/**
 * Plain wire values. bytes are base64 strings in JSON, as Go's encoding/json writes []byte;
 * json is bytes that hold JSON text (RawExtension.raw, FieldsV1.Raw), the parsed value in JSON.
 */
export type Scalar = 'string' | 'bytes' | 'json' | 'bool' | 'int32' | 'int64';

/**
 * Kubernetes messages whose JSON form is not an object:
 * - time: meta/v1 Time {seconds=1, nanos=2}, an RFC 3339 string such as "2024-01-02T03:04:05Z";
 * - microTime: meta/v1 MicroTime, the same message, with microseconds: "2024-01-02T03:04:05.123456Z";
 * - quantity: resource.Quantity {string=1}, its string;
 * - intOrString: intstr.IntOrString {type=1, intVal=2, strVal=3}, a number (type 0) or a string (type 1);
 * - rawJson: runtime.RawExtension {raw=1} and meta/v1 FieldsV1 {Raw=1}, the parsed JSON of the bytes
 *   (ControllerRevision.data, managedFields[].fieldsV1);
 * - stringList: authorization/v1 and authentication/v1 ExtraValue, authentication/v1 AttestationValue
 *   {items=1}, an array of strings.
 */
export type Special = 'time' | 'microTime' | 'quantity' | 'intOrString' | 'rawJson' | 'stringList';

export type ValueType = Scalar | Special | Message;

/**
 * - list: a repeated field, an array in JSON;
 * - map: map<string, type>, an object in JSON (on the wire, entries {key=1, value=2});
 * - keep: the zero value means something, because the Go field is a pointer or has no omitempty
 *   (replicas: 0, allowed: false). Zero values of other scalars are dropped on decode and not
 *   written on encode, which is what Go's omitempty does. On a list or message field, keep means
 *   JSON always carries it ([] or {}) even when the wire has nothing;
 * - inline: an embedded Go struct (LocalObjectReference in ConfigMapKeySelector, VolumeSource in
 *   Volume): its own message on the wire, its fields directly in the parent's JSON object.
 */
export type Flag = 'list' | 'map' | 'keep' | 'inline';

export interface Field {
  readonly no: number;
  readonly json: string;
  readonly type: ValueType;
  readonly list: boolean;
  readonly map: boolean;
  readonly keep: boolean;
  readonly inline: boolean;
}

export interface Message {
  readonly name: string;
  /** In field-number order, which is the order Go writes them. */
  readonly fields: readonly Field[];
  readonly byNo: ReadonlyMap<number, Field>;
  /** The list and message fields flagged keep: JSON always has them, [] or {} at least. */
  readonly always: readonly Field[];
}

export type FieldRow = readonly [no: number, json: string, type: ValueType, ...flags: Flag[]];

export function isMessage(t: ValueType): t is Message {
  return typeof t === 'object';
}

const SCALARS: ReadonlySet<ValueType> = new Set<Scalar>(['string', 'bytes', 'json', 'bool', 'int32', 'int64']);

export function isScalar(t: ValueType): t is Scalar {
  return SCALARS.has(t);
}

/** Numbers and bools travel as varints (wire type 0); everything else is length-delimited (2). */
export function isVarint(t: ValueType): boolean {
  return t === 'bool' || t === 'int32' || t === 'int64';
}

/** What Go's omitempty leaves out: zero scalars. Well-known types and messages are never "empty". */
export function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

/** Defines a message. A malformed table is a bug in this codebase, so it throws at load time. */
export function message(name: string, rows: readonly FieldRow[]): Message {
  const fields = rows.map(([no, json, type, ...flags]): Field => {
    const field = {
      no,
      json,
      type,
      list: flags.includes('list'),
      map: flags.includes('map'),
      keep: flags.includes('keep'),
      inline: flags.includes('inline'),
    };
    if (!Number.isInteger(no) || no < 1) throw new Error(`${name}.${json}: bad field number ${no}`);
    if (field.list && field.map) throw new Error(`${name}.${json}: a field is a list or a map, not both`);
    if (field.inline && (!isMessage(type) || field.list || field.map)) throw new Error(`${name}.${json}: only a single message can be inline`);
    return field;
  });
  fields.sort((a, b) => a.no - b.no);
  const byNo = new Map<number, Field>();
  for (const f of fields) {
    if (byNo.has(f.no)) throw new Error(`${name}: field number ${f.no} is defined twice`);
    byNo.set(f.no, f);
  }
  const always = fields.filter((f) => f.keep && !f.map && (f.list || isMessage(f.type)));
  return { name, fields, byNo, always };
}

/** A list kind (NamespaceList, ...): meta/v1 ListMeta metadata=1, repeated items=2. */
export function listOf(item: Message, listMeta: Message): Message {
  return message(`${item.name}List`, [
    [1, 'metadata', listMeta, 'keep'],
    [2, 'items', item, 'list', 'keep'],
  ]);
}
