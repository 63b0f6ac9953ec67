// Checks a decoded body against its kind's schema the way the real server's decoding does: fields
// of the wrong JSON type are errors in Go's words, fields the type does not have are "unknown"
// (reported for fieldValidation, then dropped), nulls become what Go decodes them to, and required
// fields of present objects are listed.
// Runs on every write: models are precomputed, paths are only spelled out for findings, and the
// body is copied only along the branches that lose an unknown field.
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject, type Json } from '../../api/types.ts';
import { base64Error, quantityError, timeError } from './scalars.ts';
import { goNameOf, model, modelForKind, type Field, type FieldType, type Model } from './schema-source.ts';

export { describeKind } from './schema-source.ts';

export interface SchemaReport {
  /** Paths of fields the kind does not have: `spec.bogusField`, `spec.containers[0].foo`. */
  unknown: string[];
  /** What Go's JSON decoding rejects; the caller answers 400 with the first message. */
  typeErrors: StatusCause[];
  /** Required fields absent (or null) from objects that are present. */
  missing: StatusCause[];
  /**
   * The body as the typed object holds it: without its unknown fields, a null field of a struct
   * gone (Go leaves it zero, which encodes as nothing), a null map value or list item the element's
   * zero value; free-form data (RawExtension) as it was. The same object when nothing changed.
   */
  pruned: Json;
}

export interface SchemaOptions {
  /**
   * Keep the nulls of struct fields and map values: a server-side apply configuration is checked
   * as the untyped object it stays until merged, where a null means "unset this field".
   */
  keepNulls?: boolean;
}

type JsonObject = { [key: string]: Json };

const OBJECT_META = 'V1ObjectMeta';

/** Every object's type meta and metadata, whether or not its model lists them. */
const ALWAYS_KNOWN: ReadonlyMap<string, Field> = new Map<string, Field>([
  ['apiVersion', { name: 'apiVersion', type: { kind: 'string' }, required: false, description: undefined }],
  ['kind', { name: 'kind', type: { kind: 'string' }, required: false, description: undefined }],
  ['metadata', { name: 'metadata', type: { kind: 'model', model: OBJECT_META }, required: false, description: undefined }],
]);

/**
 * The client model class of a kind (`V1Pod`, `CoreV1Event`), which list-keys.ts and the patch code
 * take. For a kind without a model, the name it would have.
 */
export function modelName(apiVersion: string, kind: string): string {
  const found = modelForKind(apiVersion, kind);
  if (found) return found;
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  return `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
}

/** Checks `body` as an object of the kind; a kind without a model accepts anything. */
export function checkSchema(apiVersion: string, kind: string, body: Json, options: SchemaOptions = {}): SchemaReport {
  const report: SchemaReport = { unknown: [], typeErrors: [], missing: [], pruned: body };
  const name = modelForKind(apiVersion, kind);
  return name ? walkModel(name, body, options, ALWAYS_KNOWN) : report;
}

/**
 * Checks `body` as a value of the client model `name` (`V1ObjectMeta` inside a custom resource),
 * its paths relative to the value; an unknown model accepts anything.
 */
export function checkModel(name: string, body: Json): SchemaReport {
  return walkModel(name, body, {});
}

function walkModel(name: string, body: Json, options: SchemaOptions, extra?: ReadonlyMap<string, Field>): SchemaReport {
  const report: SchemaReport = { unknown: [], typeErrors: [], missing: [], pruned: body };
  const root = model(name);
  if (!root) return report;
  const walker = new Walker(report, options.keepNulls === true);
  if (!isPlainObject(body)) {
    walker.typeError(body, `${root.goPackage}.${root.goName}`, null);
    return report;
  }
  report.pruned = walker.object(root, body as JsonObject, extra);
  return report;
}

const FIELD = 0;
const INDEX = 1;
const KEY = 2;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_LIMIT = 2 ** 63;

function jsonKind(v: Json): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** Go's spelling of a field type, for `of type []v1.Container`. */
function goType(t: FieldType): string {
  switch (t.kind) {
    case 'string':
    case 'time':
      return 'string';
    case 'bytes':
      return '[]uint8';
    case 'boolean':
      return 'bool';
    case 'integer':
      return t.format;
    case 'number':
      return 'float64';
    case 'intOrString':
      return 'int32';
    case 'quantity':
      return 'resource.Quantity';
    case 'raw':
      return 'runtime.RawExtension';
    case 'model': {
      const m = model(t.model);
      return m ? `${m.goPackage}.${m.goName}` : goNameOf(t.model);
    }
    case 'array':
      return `[]${goType(t.items)}`;
    case 'map':
      return `map[string]${goType(t.values)}`;
  }
}

class Walker {
  // The path to the value being checked: names, array indices and map keys, with their kinds.
  private readonly names: (string | number)[] = [];
  private readonly kinds: number[] = [];

  constructor(private readonly report: SchemaReport, private readonly keepNulls: boolean) {}

  /** `spec.containers[0].name`, with `last` (a field name) appended when given. */
  private path(last?: string): string {
    let out = '';
    for (let i = 0; i < this.names.length; i++) {
      const name = this.names[i] as string | number;
      if (this.kinds[i] === INDEX) out += `[${name}]`;
      else out += out ? `.${name}` : String(name);
    }
    if (last !== undefined) out += out ? `.${last}` : last;
    return out;
  }

  /** Go's field stack: struct field names only, no indices or map keys. */
  private goFields(): string {
    const out: string[] = [];
    for (let i = 0; i < this.names.length; i++) if (this.kinds[i] === FIELD) out.push(String(this.names[i]));
    return out.join('.');
  }

  /**
   * Records Go's UnmarshalTypeError for the value at the current path: `json: cannot unmarshal string
   * into Go struct field PodSpec.spec.containers of type []v1.Container`. Numbers that are the right
   * kind but do not fit are named with their text (`number 1.5`), as Go does. `message` replaces
   * the text for types that parse their own (quantities, times).
   */
  typeError(value: Json, type: string, owner: Model | null, message?: string, withNumber = false): void {
    let text = message;
    if (text === undefined) {
      const what = withNumber ? `number ${String(value)}` : jsonKind(value);
      const where = owner && this.names.length > 0 ? `Go struct field ${owner.goName}.${this.goFields()}` : 'Go value';
      text = `json: cannot unmarshal ${what} into ${where} of type ${type}`;
    }
    this.report.typeErrors.push({ reason: 'FieldValueTypeInvalid', message: text, field: this.path() });
  }

  object(m: Model, obj: JsonObject, extra?: ReadonlyMap<string, Field>): JsonObject {
    let out: JsonObject | null = null;
    for (const key in obj) {
      const field = m.fields.get(key) ?? extra?.get(key);
      if (!field) {
        this.report.unknown.push(this.path(key));
        out ??= { ...obj };
        delete out[key];
        continue;
      }
      const value = obj[key] as Json;
      if (value === null && !this.keepNulls) {
        out ??= { ...obj };
        delete out[key];
        continue;
      }
      this.names.push(key);
      this.kinds.push(FIELD);
      const next = this.value(field.type, value, m);
      this.names.pop();
      this.kinds.pop();
      if (next !== value) {
        out ??= { ...obj };
        out[key] = next;
      }
    }
    for (const name of m.required) {
      const v = obj[name];
      if (v === undefined || v === null) this.report.missing.push({ reason: 'FieldValueRequired', message: 'Required value', field: this.path(name) });
    }
    return out ?? obj;
  }

  /** Checks one value; returns it, or a copy without unknown fields. `owner` is the enclosing struct. */
  private value(t: FieldType, v: Json, owner: Model): Json {
    if (v === null) return v;
    switch (t.kind) {
      case 'string':
        if (typeof v !== 'string') this.typeError(v, 'string', owner);
        return v;
      case 'boolean':
        if (typeof v !== 'boolean') this.typeError(v, 'bool', owner);
        return v;
      case 'number':
        if (typeof v !== 'number') this.typeError(v, 'float64', owner);
        return v;
      case 'integer':
        this.integer(v, t.format, owner);
        return v;
      case 'intOrString':
        if (typeof v !== 'string') this.integer(v, 'int32', owner);
        return v;
      case 'bytes': {
        if (typeof v !== 'string') this.typeError(v, '[]uint8', owner);
        else {
          const error = base64Error(v);
          if (error) this.typeError(v, '[]uint8', owner, error);
        }
        return v;
      }
      case 'time': {
        if (typeof v !== 'string') this.typeError(v, 'string', owner);
        else {
          const error = timeError(v, t.micro);
          if (error) this.typeError(v, 'string', owner, error);
        }
        return v;
      }
      case 'quantity': {
        const error = quantityError(v);
        if (error) this.typeError(v, 'resource.Quantity', owner, error);
        return v;
      }
      case 'raw':
        return v;
      case 'model': {
        const inner = model(t.model);
        if (!isPlainObject(v) || !inner) {
          if (!isPlainObject(v)) this.typeError(v, goType(t), owner);
          return v;
        }
        return this.object(inner, v as JsonObject);
      }
      case 'array':
        return this.array(t, v, owner);
      case 'map':
        return this.map(t, v, owner);
    }
  }

  private integer(v: Json, format: 'int32' | 'int64', owner: Model): void {
    if (typeof v !== 'number') {
      this.typeError(v, format, owner);
      return;
    }
    const fits = Number.isInteger(v) && (format === 'int32' ? v >= INT32_MIN && v <= INT32_MAX : Math.abs(v) < INT64_LIMIT);
    if (!fits) this.typeError(v, format, owner, undefined, true);
  }

  private array(t: Extract<FieldType, { kind: 'array' }>, v: Json, owner: Model): Json {
    if (!Array.isArray(v)) {
      this.typeError(v, goType(t), owner);
      return v;
    }
    let out: Json[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const item = v[i] as Json;
      this.names.push(i);
      this.kinds.push(INDEX);
      const next = item === null ? this.zero(t.items) : this.value(t.items, item, owner);
      this.names.pop();
      this.kinds.pop();
      if (next !== item) {
        out ??= v.slice();
        out[i] = next;
      }
    }
    return out ?? v;
  }

  /**
   * Go decodes a null list item into the element type's zero value: `{}` for a struct (whose
   * required fields are then missing), `""` for a string. Nothing after decoding sees a null item.
   */
  private zero(t: FieldType): Json {
    switch (t.kind) {
      case 'string':
        return '';
      case 'boolean':
        return false;
      case 'number':
      case 'integer':
      case 'intOrString':
        return 0;
      case 'quantity':
        return '0';
      case 'model': {
        const inner = model(t.model);
        return inner ? this.object(inner, {}) : {};
      }
      default:
        return null; // times, bytes, raw extensions, lists and maps: Go's nil
    }
  }

  private map(t: Extract<FieldType, { kind: 'map' }>, v: Json, owner: Model): Json {
    if (!isPlainObject(v)) {
      this.typeError(v, goType(t), owner);
      return v;
    }
    const obj = v as JsonObject;
    let out: JsonObject | null = null;
    for (const key in obj) {
      const item = obj[key] as Json;
      this.names.push(key);
      this.kinds.push(KEY);
      const next = item === null && !this.keepNulls ? this.zero(t.values) : this.value(t.values, item, owner);
      this.names.pop();
      this.kinds.pop();
      if (next !== item) {
        out ??= { ...obj };
        out[key] = next;
      }
    }
    return out ?? obj;
  }
}
