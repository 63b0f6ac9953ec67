// The custom resource strategy's validation (apiextensions pkg/registry/customresource strategy.go,
// status_strategy.go, validator.go), in its order: type meta (alone when wrong), the schema's
// value validations (ratcheted on update: a finding on a value the update did not change is
// dropped), scale replicas, embedded resources, list types (on update only when the old object
// was clean), and the rules, which do not run while a blocking finding stands.
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject, type Json } from '../../api/types.ts';
import { jsonEqual } from '../patch/json-value.ts';
import { validateRules, type RuleIndex } from '../cel/validate.ts';
import { validateEmbedded } from './embedded.ts';
import { goPrint, invalid, isInt64 } from './field-errors.ts';
import { validateListTypes } from './list-types.ts';
import { toCauses, type OpenAPIError } from './openapi-errors.ts';
import type { Structural } from './structural.ts';
import type { CustomResourceSubresourceScale } from './types.ts';
import { validateValue, type ValueNode } from './value-validator.ts';

type JsonObject = { [key: string]: Json };

export interface ObjectValidation {
  group: string;
  version: string;
  kind: string;
  structural: Structural;
  values: ValueNode;
  /** The validator of properties.status, for the status subresource. */
  statusValues?: ValueNode;
  rules: RuleIndex;
  scale?: CustomResourceSubresourceScale;
}

const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);

function typeMeta(v: ObjectValidation, obj: JsonObject): StatusCause[] {
  const out: StatusCause[] = [];
  const apiVersion = `${v.group}/${v.version}`;
  if (obj.kind !== v.kind) out.push(invalid('kind', (obj.kind ?? '') as Json, `must be ${v.kind}`));
  if (obj.apiVersion !== apiVersion) out.push(invalid('apiVersion', (obj.apiVersion ?? '') as Json, `must be ${apiVersion}`));
  return out;
}

/** Create (no `old`) and update of the main resource. Metadata is the caller's (generic) business. */
export function validateObject(v: ObjectValidation, obj: JsonObject, old?: JsonObject): StatusCause[] {
  const meta = typeMeta(v, obj);
  if (meta.length > 0) return meta;
  const out = toCauses('', ratchet(validateValue(v.values, obj), obj, old, v.structural));
  out.push(...scaleSpec(v.scale, obj), ...scaleStatus(v.scale, obj));
  validateEmbedded(obj, v.structural, '', out);
  if (!old || validateListTypes(old, v.structural).length === 0) out.push(...validateListTypes(obj, v.structural));
  return withRules(v, out, obj, old);
}

/** Update through the status subresource: status by its own schema (paths under `status`). */
export function validateStatusUpdate(v: ObjectValidation, obj: JsonObject, old: JsonObject): StatusCause[] {
  const meta = typeMeta(v, obj);
  if (meta.length > 0) return meta;
  const out: StatusCause[] = [];
  if (Object.hasOwn(obj, 'status') && v.statusValues) {
    const statusSchema = v.structural.properties?.get('status');
    const found = ratchet(validateValue(v.statusValues, obj.status as Json), obj.status as Json, old.status as Json | undefined, statusSchema);
    out.push(...toCauses('status', found));
  }
  out.push(...scaleStatus(v.scale, obj));
  const listErrors = validateListTypes(obj, v.structural);
  if (listErrors.length > 0 && validateListTypes(old, v.structural).length === 0) out.push(...listErrors);
  return withRules(v, out, obj, old);
}

function withRules(v: ObjectValidation, out: StatusCause[], obj: JsonObject, old: JsonObject | undefined): StatusCause[] {
  if (v.rules.size === 0) return out;
  if (out.some((c) => BLOCKING.has(c.reason ?? '')))
    return [...out, invalid('', null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation')];
  return [...out, ...validateRules(v.rules, v.structural, obj, old)];
}

// Ratcheting: a finding stands unless the value it concerns (for Required, the object missing the
// field) correlates with an equal old value. Correlation follows fields and map keys, and list
// items only in list-type=map lists, by their keys.
function ratchet(found: OpenAPIError[], obj: Json, old: Json | undefined, s: Structural | undefined): OpenAPIError[] {
  if (old === undefined || found.length === 0) return found;
  return found.filter((e) => {
    if (e.code === 'composite') return true;
    const path = e.code === 'required' ? e.name.slice(0, Math.max(0, e.name.lastIndexOf('.'))) : e.name;
    const pair = correlate(obj, old, s, segments(path));
    return !pair || !jsonEqual(pair[0], pair[1]);
  });
}

function segments(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : (m[1] as string));
  return out;
}

function correlate(obj: Json | undefined, old: Json | undefined, s: Structural | undefined, path: (string | number)[]): [Json | undefined, Json | undefined] | undefined {
  let a = obj;
  let b = old;
  let schema = s;
  for (const seg of path) {
    if (typeof seg === 'number') {
      if (!Array.isArray(a) || !Array.isArray(b) || schema?.listType !== 'map') return [a, b];
      const item = a[seg];
      const keys = schema.listMapKeys ?? [];
      const sameKeys = (x: Json) => isPlainObject(x) && isPlainObject(item) && keys.every((k) => jsonEqual((x as JsonObject)[k], (item as JsonObject)[k]));
      a = item;
      b = b.find(sameKeys);
      schema = schema.items;
    } else {
      if (!isPlainObject(a)) return undefined;
      a = (a as JsonObject)[seg];
      b = isPlainObject(b) ? (b as JsonObject)[seg] : undefined;
      schema = schema?.properties?.get(seg) ?? schema?.additionalProperties?.schema;
    }
    if (b === undefined && a !== undefined) return undefined;
  }
  return [a, b];
}

// NestedInt64 at the scale paths: a value of another type, negative, or above int32.
function replicasErrors(obj: JsonObject, path: string | undefined): StatusCause[] {
  if (!path) return [];
  let v: Json | undefined = obj;
  const fields = path.replace(/^\./, '').split('.');
  const at = (n: number) => `.${fields.slice(0, n).join('.')}`;
  for (let i = 0; i < fields.length; i++) {
    if (v === undefined || v === null) return [];
    if (!isPlainObject(v)) return [invalid(path, 0, `${at(i)} accessor error: ${goPrint(v)} is of the type ${goType(v)}, expected map[string]interface{}`)];
    v = (v as JsonObject)[fields[i] as string];
  }
  if (v === undefined) return [];
  if (typeof v !== 'number' || !isInt64(v)) return [invalid(path, 0, `${at(fields.length)} accessor error: ${goPrint(v)} is of the type ${goType(v)}, expected int64`)];
  if (v < 0) return [invalid(path, v, 'should be a non-negative integer')];
  if (v > 2147483647) return [invalid(path, v, 'should be less than or equal to 2147483647')];
  return [];
}

/** %T of a decoded JSON value. */
function goType(v: Json): string {
  if (typeof v === 'number') return isInt64(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return v === null ? '<nil>' : typeof v === 'object' ? 'map[string]interface {}' : typeof v;
}

const scaleSpec = (scale: CustomResourceSubresourceScale | undefined, obj: JsonObject) => replicasErrors(obj, scale?.specReplicasPath);
const scaleStatus = (scale: CustomResourceSubresourceScale | undefined, obj: JsonObject) => replicasErrors(obj, scale?.statusReplicasPath);
