// Is a schema structural? (apiextensions pkg/apiserver/schema/validation.go and complete.go): every
// specified node has a type, except under x-kubernetes-int-or-string and
// x-kubernetes-preserve-unknown-fields; nothing but value validations inside anyOf, allOf, oneOf
// and not, and what they name is specified beside them; metadata may restrict only name and
// generateName; additionalProperties never at the root. The errors are sorted by their text, as
// the real server sorts them.
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
import { child, forbidden, index, invalid, key, required } from './field-errors.ts';
import { compilePattern, isPatternError } from './regex.ts';
import type { Structural } from './structural.ts';
import type { JSONSchemaProps } from './types.ts';

type Level = 'root' | 'item' | 'field';

const byText = (a: StatusCause, b: StatusCause) => {
  const ta = `${a.field}: ${a.message}`;
  const tb = `${b.field}: ${b.message}`;
  return ta < tb ? -1 : ta > tb ? 1 : 0;
};

export function validateStructural(s: Structural, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  invariants(s, 'root', path, out);
  completeness(s.source, s, path, path, out);
  return out.sort(byText);
}

function invariants(s: Structural, lvl: Level, path: string, out: StatusCause[]): void {
  if (s.type === 'array' && !s.items) out.push(required(child(path, 'items'), 'must be specified'));
  if (s.items) invariants(s.items, 'item', child(path, 'items'), out);
  if (s.properties) for (const [k, p] of s.properties) invariants(p, 'field', key(child(path, 'properties'), k), out);
  if (s.additionalProperties) {
    if (lvl === 'root') out.push(forbidden(child(path, 'additionalProperties'), 'must not be used at the root'));
    if (s.additionalProperties.schema) invariants(s.additionalProperties.schema, 'field', child(path, 'additionalProperties'), out);
  }
  if (s.intOrString && s.preserveUnknownFields)
    out.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (s.intOrString && s.embeddedResource)
    out.push(invalid(child(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  valueValidation(s.source, isIntOrStringAnyOf(s.source.anyOf), isIntOrStringAnyOf(firstAllOf(s.source)?.anyOf), path, out);
  typeInvariants(s, lvl, path, out);
}

function typeInvariants(s: Structural, lvl: Level, path: string, out: StatusCause[]): void {
  const checkMetadata = lvl === 'root' || s.embeddedResource;
  if (s.embeddedResource && s.type !== 'object') {
    const why = 'must be object if x-kubernetes-embedded-resource is true';
    out.push(s.type ? invalid(child(path, 'type'), s.type, why) : required(child(path, 'type'), why));
  } else if (!s.type && !s.intOrString && !s.preserveUnknownFields) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[lvl];
    out.push(required(child(path, 'type'), `must not be empty ${where}`));
  }
  if (s.embeddedResource && s.additionalProperties)
    out.push(forbidden(child(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && s.type && s.type !== 'object') out.push(invalid(child(path, 'type'), s.type, 'must be object at the root'));
  for (const name of ['kind', 'apiVersion']) {
    const p = s.properties?.get(name);
    if (p && checkMetadata && p.type !== 'string') out.push(invalid(child(key(child(path, 'properties'), name), 'type'), p.type, 'must be string'));
  }
  const metadata = s.properties?.get('metadata');
  if (metadata) {
    const mpath = key(child(path, 'properties'), 'metadata');
    if (checkMetadata && metadata.type !== 'object') out.push(invalid(child(mpath, 'type'), metadata.type, 'must be object'));
    if (lvl === 'root' && !onlyNames(metadata.source))
      out.push(forbidden(mpath, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  }
  if (s.embeddedResource && !s.preserveUnknownFields && !s.properties)
    out.push(required(child(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
}

/** The root's metadata schema may say nothing but its type, a default, and name/generateName. */
function onlyNames(m: JSONSchemaProps): boolean {
  for (const [k, v] of Object.entries(m)) {
    if (!present(v) || k === 'type' || k === 'default') continue;
    if (k === 'properties' && isPlainObject(v)) {
      const names = Object.keys(v);
      if (names.length === 0 || names.every((n) => n === 'name' || n === 'generateName')) continue;
    }
    return false;
  }
  return true;
}

const firstAllOf = (s: JSONSchemaProps): JSONSchemaProps | undefined => (Array.isArray(s.allOf) ? s.allOf[0] : undefined);

function isIntOrStringAnyOf(anyOf: JSONSchemaProps[] | undefined): boolean {
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return false;
  const only = (c: JSONSchemaProps | undefined, t: string) => isPlainObject(c) && Object.keys(c).length === 1 && c.type === t;
  return only(anyOf[0], 'integer') && only(anyOf[1], 'string');
}

const clauses = (v: unknown): JSONSchemaProps[] => (Array.isArray(v) ? v.filter(isPlainObject) : []) as JSONSchemaProps[];

function valueValidation(v: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: string, out: StatusCause[]): void {
  if (!skipAnyOf) clauses(v.anyOf).forEach((c, i) => nested(c, false, index(child(path, 'anyOf'), i), out));
  clauses(v.allOf).forEach((c, i) => nested(c, skipFirstAllOfAnyOf && i === 0, index(child(path, 'allOf'), i), out));
  clauses(v.oneOf).forEach((c, i) => nested(c, false, index(child(path, 'oneOf'), i), out));
  if (isPlainObject(v.not)) nested(v.not as JSONSchemaProps, false, child(path, 'not'), out);
  if (typeof v.pattern === 'string' && v.pattern) {
    const p = compilePattern(v.pattern);
    if (isPatternError(p)) out.push(invalid(child(path, 'pattern'), v.pattern, `must be a valid regular expression, but isn't: ${p.error}`));
  }
}

const NESTED_FORBIDDEN: [keyof JSONSchemaProps, string][] = [
  ['type', 'must be empty to be structural'],
  ['additionalProperties', 'must be undefined to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

function present(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '') return false;
  return !(Array.isArray(v) && v.length === 0);
}

// A clause of anyOf, allOf, oneOf or not: value validations only.
function nested(v: JSONSchemaProps, skipAnyOf: boolean, path: string, out: StatusCause[]): void {
  valueValidation(v, skipAnyOf, false, path, out);
  if (isPlainObject(v.items)) nested(v.items as JSONSchemaProps, false, child(path, 'items'), out);
  if (isPlainObject(v.properties))
    for (const [k, p] of Object.entries(v.properties)) if (isPlainObject(p)) nested(p, false, key(child(path, 'properties'), k), out);
  for (const [field, why] of NESTED_FORBIDDEN) if (present(v[field])) out.push(forbidden(child(path, field), why));
  if (isPlainObject(v.properties) && Object.hasOwn(v.properties, 'metadata'))
    out.push(forbidden(key(child(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
}

// Whatever a root clause names (properties, items) must be specified beside it.
function completeness(v: JSONSchemaProps, s: Structural | undefined, sPath: string, vPath: string, out: StatusCause[]): void {
  const each = (c: JSONSchemaProps, p: string) => nestedCompleteness(c, s, sPath, p, out);
  if (isPlainObject(v.not)) each(v.not as JSONSchemaProps, child(vPath, 'not'));
  clauses(v.allOf).forEach((c, i) => each(c, index(child(vPath, 'allOf'), i)));
  clauses(v.anyOf).forEach((c, i) => each(c, index(child(vPath, 'anyOf'), i)));
  clauses(v.oneOf).forEach((c, i) => each(c, index(child(vPath, 'oneOf'), i)));
}

function nestedCompleteness(v: JSONSchemaProps, s: Structural | undefined, sPath: string, vPath: string, out: StatusCause[]): void {
  if (!s) return void out.push(required(sPath, `because it is defined in ${vPath}`));
  completeness(v, s, sPath, vPath, out);
  if (isPlainObject(v.items)) nestedCompleteness(v.items as JSONSchemaProps, s.items, child(sPath, 'items'), child(vPath, 'items'), out);
  if (isPlainObject(v.properties))
    for (const [k, p] of Object.entries(v.properties)) {
      if (!isPlainObject(p)) continue;
      const sField = s.properties?.get(k);
      const vField = key(child(vPath, 'properties'), k);
      if (!sField) out.push(required(key(child(sPath, 'properties'), k), `because it is defined in ${vField}`));
      else nestedCompleteness(p, sField, key(child(sPath, 'properties'), k), vField, out);
    }
}
