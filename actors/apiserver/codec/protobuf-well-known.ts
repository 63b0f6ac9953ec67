// The Kubernetes messages whose JSON form is not an object (see Special in protobuf-schema.ts):
// each is a small message on the wire plus a pair of conversions to and from its JSON value.
import { badRequest, internal } from '../../api/status.ts';
import { message, type Message, type Special } from './protobuf-schema.ts';

type Obj = Record<string, unknown>;

export interface WellKnown {
  readonly message: Message;
  /** The JSON value of a decoded message; undefined means "absent" (a zero Time). Throws a 400. */
  toJson(m: Obj, where: string): unknown;
  /** The message fields for a JSON value. A value of the wrong shape is a bug here: it throws a 500. */
  fromJson(v: unknown, where: string): Obj;
}

const cannotEncode = (where: string, expected: string) => internal(`cannot encode ${where} as Protobuf: expected ${expected}`);

// Go's time.Time runs from year 1 to 9999 in JSON; year 1 exactly is its zero value, written as null.
const ZERO_TIME_SECONDS = -62135596800;
const MAX_TIME_SECONDS = 253402300799;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.(\d{1,9}))?(?:Z|[+-]\d{2}:\d{2})$/;

const TIME_MESSAGE = message('Time', [
  [1, 'seconds', 'int64', 'keep'],
  [2, 'nanos', 'int32', 'keep'],
]);

/**
 * A Time message as RFC 3339 in UTC, or with `micro` a MicroTime one with 6 fraction digits (cut,
 * not rounded, as Go formats them); undefined for Go's zero time. Time drops the nanos, as
 * metav1.Time's decoder does; MicroTime carries any beyond a second over, as time.Unix does.
 */
function timeText(m: Obj, where: string, micro: boolean): string | undefined {
  if (m.seconds === undefined && m.nanos === undefined) return undefined;
  const rawNanos = micro ? ((m.nanos as number | undefined) ?? 0) : 0;
  const seconds = ((m.seconds as number | undefined) ?? 0) + Math.floor(rawNanos / 1e9);
  const nanos = rawNanos - Math.floor(rawNanos / 1e9) * 1e9;
  if (seconds === ZERO_TIME_SECONDS && !nanos) return undefined;
  if (seconds < ZERO_TIME_SECONDS || seconds > MAX_TIME_SECONDS) throw badRequest(`invalid protobuf body: ${where} is a time outside years 1 to 9999`);
  const fraction = micro ? `.${String(nanos).padStart(9, '0').slice(0, 6)}` : '';
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, `${fraction}Z`);
}

/** The seconds and nanoseconds of an RFC 3339 time with up to 9 fraction digits. */
function parseTime(v: unknown, where: string): Obj {
  const match = typeof v === 'string' ? RFC3339.exec(v) : null;
  const ms = match ? Date.parse(v as string) : NaN;
  if (!match || Number.isNaN(ms)) throw cannotEncode(where, 'an RFC 3339 time');
  return { seconds: Math.floor(ms / 1000), nanos: match[1] ? Number(match[1].padEnd(9, '0')) : 0 };
}

// JSON Time has whole seconds (RFC 3339 without fraction), as metav1.Time marshals it; MicroTime,
// the same message, exactly 6 fraction digits ("2024-01-02T03:04:05.123456Z").
const time: WellKnown = { message: TIME_MESSAGE, toJson: (m, where) => timeText(m, where, false), fromJson: parseTime };
const microTime: WellKnown = { message: TIME_MESSAGE, toJson: (m, where) => timeText(m, where, true), fromJson: parseTime };

const quantity: WellKnown = {
  message: message('Quantity', [[1, 'string', 'string', 'keep']]),
  // An empty Quantity message is the zero quantity, which JSON writes as "0".
  toJson: (m) => (m.string as string | undefined) ?? '0',
  fromJson(v, where) {
    if (typeof v === 'string') return { string: v };
    if (typeof v === 'number' && Number.isFinite(v)) return { string: String(v) };
    throw cannotEncode(where, 'a quantity string');
  },
};

const intOrString: WellKnown = {
  message: message('IntOrString', [
    [1, 'type', 'int64', 'keep'],
    [2, 'intVal', 'int32', 'keep'],
    [3, 'strVal', 'string', 'keep'],
  ]),
  toJson(m, where) {
    const type = (m.type as number | undefined) ?? 0;
    if (type === 0) return (m.intVal as number | undefined) ?? 0;
    if (type === 1) return (m.strVal as string | undefined) ?? '';
    throw badRequest(`invalid protobuf body: ${where} is an IntOrString of unknown type ${type}`);
  },
  fromJson(v, where) {
    if (typeof v === 'string') return { type: 1, strVal: v };
    if (Number.isInteger(v)) return { type: 0, intVal: v };
    throw cannotEncode(where, 'an integer or a string');
  },
};

/** RawExtension and FieldsV1: both hold JSON bytes in field 1. */
const rawJson: WellKnown = {
  message: message('RawExtension', [[1, 'raw', 'json']]),
  toJson: (m) => m.raw,
  fromJson: (v) => ({ raw: v }),
};

const stringList: WellKnown = {
  message: message('ExtraValue', [[1, 'items', 'string', 'list']]),
  toJson: (m) => m.items ?? [],
  fromJson(v, where) {
    if (!Array.isArray(v)) throw cannotEncode(where, 'an array of strings');
    return { items: v };
  },
};

export const WELL_KNOWN: Readonly<Record<Special, WellKnown>> = { time, microTime, quantity, intOrString, rawJson, stringList };
