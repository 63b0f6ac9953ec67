// The per-node checks of a CRD's OpenAPI schema (apiextensions validation.go,
// ValidateCustomResourceDefinitionOpenAPISchema): what v1 does not support, defaults where they
// are forbidden, list and map types and their keys, and x-kubernetes-validations (static checks,
// then compilation where the subtree has no schema error). Schema errors come before CEL errors.
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
import { compileRule } from '../cel/compile.ts';
import { child, forbidden, GoText, goQuote, index, invalid, key, notSupported, required, type BadValue } from './field-errors.ts';
import { validFieldPath } from './field-path.ts';
import type { Structural } from './structural.ts';
import type { JSONSchemaProps, ValidationRule } from './types.ts';

interface Context {
  allowDefaults: boolean;
  disallowReason: string;
  insideMeta: boolean;
  /** The first ancestor across which old and new values cannot be correlated, if any. */
  uncorrelatable?: string;
}

export interface SchemaFindings {
  schema: StatusCause[];
  cel: StatusCause[];
}

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** Checks the whole schema; `structural` is given when rules may be compiled (the schema is structural). */
export function checkSchema(schema: JSONSchemaProps, path: string, structural: Structural | undefined): SchemaFindings {
  return node(schema, path, { allowDefaults: true, disallowReason: '', insideMeta: false }, true, structural);
}

const noDefaults = (c: Context, reason: string): Context => ({ ...c, allowDefaults: false, disallowReason: reason });
const uncorrelatable = (c: Context, path: string): Context => (c.uncorrelatable ? c : { ...c, uncorrelatable: path });
const schemaList = (v: unknown): JSONSchemaProps[] => (Array.isArray(v) ? v.filter(isPlainObject) : []) as JSONSchemaProps[];

function node(s: JSONSchemaProps, path: string, ctx: Context, isRoot: boolean, st: Structural | undefined): SchemaFindings {
  const f: SchemaFindings = { schema: standard(s, path, ctx), cel: [] };
  const add = (sub: SchemaFindings) => {
    f.schema.push(...sub.schema);
    f.cel.push(...sub.cel);
  };
  if (s.uniqueItems === true) f.schema.push(forbidden(child(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const hasProperties = isPlainObject(s.properties) && Object.keys(s.properties).length > 0;
  if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
    if (hasProperties && (s.additionalProperties === false || isPlainObject(s.additionalProperties)))
      f.schema.push(forbidden(child(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    const sub = ctx.insideMeta ? noDefaults(ctx, 'inside additionalProperties applying to object metadata') : ctx;
    if (isPlainObject(s.additionalProperties)) add(node(s.additionalProperties as JSONSchemaProps, child(path, 'additionalProperties'), sub, false, st?.additionalProperties?.schema));
  }
  if (hasProperties)
    for (const [name, p] of Object.entries(s.properties as Record<string, JSONSchemaProps>)) {
      if (!isPlainObject(p)) continue;
      let sub = s['x-kubernetes-map-type'] === undefined || ['granular', 'atomic'].includes(s['x-kubernetes-map-type']) ? ctx : uncorrelatable(ctx, path);
      if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) {
        sub = { ...sub, insideMeta: true };
        if (isRoot) sub = noDefaults(sub, `in top-level ${name}`);
      }
      add(node(p, key(child(path, 'properties'), name), sub, false, st?.properties?.get(name)));
    }
  if (isPlainObject(s.not)) add(node(s.not as JSONSchemaProps, child(path, 'not'), ctx, false, undefined));
  for (const [field, list] of [['allOf', s.allOf], ['oneOf', s.oneOf], ['anyOf', s.anyOf]] as const)
    schemaList(list).forEach((c, i) => add(node(c, index(child(path, field), i), ctx, false, undefined)));
  if (isPlainObject(s.items)) {
    const sub = s['x-kubernetes-list-type'] === 'map' ? ctx : uncorrelatable(ctx, path);
    add(node(s.items as JSONSchemaProps, child(path, 'items'), sub, false, st?.items));
  }
  f.schema.push(...extensions(s, path));
  if (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0) {
    const rules = s['x-kubernetes-validations'];
    f.schema.push(...staticRuleChecks(rules, path, st));
    if (f.schema.length === 0 && st) f.cel.push(...compiledRuleChecks(rules, path, st, isRoot, ctx));
  }
  return f;
}

// specStandardValidatorV3.validate: what v1 schemas may not hold at all.
function standard(s: JSONSchemaProps, path: string, ctx: Context): StatusCause[] {
  const out: StatusCause[] = [];
  if (typeof s.type === 'string' && s.type && !TYPES.includes(s.type)) out.push(notSupported(child(path, 'type'), s.type, TYPES));
  if (s.default !== undefined && !ctx.allowDefaults)
    out.push(forbidden(child(path, 'default'), ctx.disallowReason ? `must not be set ${ctx.disallowReason}` : 'must not be set'));
  const unsupported: [keyof JSONSchemaProps, string, string][] = [
    ['id', 'id', 'id is not supported'],
    ['additionalItems', 'additionalItems', 'additionalItems is not supported'],
    ['patternProperties', 'patternProperties', 'patternProperties is not supported'],
    ['definitions', 'definitions', 'definitions is not supported'],
    ['dependencies', 'dependencies', 'dependencies is not supported'],
    ['$ref', '$ref', '$ref is not supported'],
  ];
  for (const [field, name, why] of unsupported) if (s[field] !== undefined && s[field] !== '') out.push(forbidden(child(path, name), why));
  if (s.type === 'null') out.push(forbidden(child(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items)) out.push(forbidden(child(path, 'items'), 'items must be a schema object and not an array'));
  if (ctx.insideMeta && s['x-kubernetes-embedded-resource'] === true)
    out.push(forbidden(child(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  return out;
}

const goStrings = (list: readonly string[]) => new GoText(`[]string{${list.map(goQuote).join(', ')}}`);
const stringPointer = (v: string | undefined): BadValue => (v === undefined ? null : v);

// x-kubernetes-preserve-unknown-fields, -map-type, -list-type and -list-map-keys.
function extensions(s: JSONSchemaProps, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const type = typeof s.type === 'string' ? s.type : '';
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'] : [];
  const items = isPlainObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    out.push(invalid(child(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  const typeMust = (want: string, why: string) => {
    if (type !== want) out.push(type ? invalid(child(path, 'type'), type, why) : required(child(path, 'type'), why));
  };
  if (mapType !== undefined) typeMust('object', 'must be object if x-kubernetes-map-type is specified');
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') out.push(notSupported(child(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  if (listType !== undefined && type !== 'array') typeMust('array', 'must be array if x-kubernetes-list-type is specified');
  else if (listType === 'set' && items) {
    if (items.type === 'array' && items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic')
      out.push(invalid(child(child(path, 'items'), 'x-kubernetes-list-type'), items['x-kubernetes-list-type'], 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic')
      out.push(invalid(child(child(path, 'items'), 'x-kubernetes-map-type'), stringPointer(items['x-kubernetes-list-type']), 'must be atomic as item of a list with x-kubernetes-list-type=set'));
  }
  if (listType !== undefined && !['atomic', 'set', 'map'].includes(listType)) out.push(notSupported(child(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  if (keys.length > 0) {
    if (listType === undefined) out.push(required(child(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') out.push(invalid(child(path, 'x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') out.push(...mapListChecks(s, items, keys, path));
  if (items && (listType === 'set' || listType === 'map')) out.push(...mapSetKeyChecks(items, listType, keys, path));
  return out;
}

function mapListChecks(s: JSONSchemaProps, items: JSONSchemaProps | undefined, keys: string[], path: string): StatusCause[] {
  const out: StatusCause[] = [];
  if (keys.length === 0) out.push(required(child(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
  if (s.items === undefined) out.push(required(child(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
  if (!items) return out;
  if (items.type !== 'object') out.push(invalid(child(child(path, 'items'), 'type'), items.type ?? '', "must be object if parent array's x-kubernetes-list-type is map"));
  else {
    const seen = new Set<string>();
    for (const k of keys) {
      const p = isPlainObject(items.properties) ? items.properties[k] : undefined;
      if (!p) out.push(invalid(child(path, 'x-kubernetes-list-map-keys'), goStrings(keys), 'entries must all be names of item properties'));
      else if (p.type === 'array' || p.type === 'object')
        out.push(invalid(child(key(child(child(path, 'items'), 'properties'), k), 'type'), items.type, "must be a scalar type if parent array's x-kubernetes-list-type is map"));
      if (seen.has(k)) out.push(invalid(child(path, 'x-kubernetes-list-map-keys'), goStrings(keys), 'must not contain duplicate entries'));
      seen.add(k);
    }
  }
  return out;
}

// validateMapListKeysMapSet: set and map items are never null; map keys are required or defaulted.
function mapSetKeyChecks(items: JSONSchemaProps, listType: string, keys: string[], path: string): StatusCause[] {
  const out: StatusCause[] = [];
  if (items.nullable === true) out.push(forbidden(child(child(path, 'items'), 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType !== 'map') return out;
  const requiredKeys = new Set(Array.isArray(items.required) ? items.required : []);
  for (const k of keys) {
    const p = isPlainObject(items.properties) ? items.properties[k] : undefined;
    if (!p) continue;
    const at = key(child(child(path, 'items'), 'properties'), k);
    if (!requiredKeys.has(k) && p.default === undefined)
      out.push(required(child(at, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
    if (p.nullable === true) out.push(forbidden(child(at, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
  }
  return out;
}

function staticRuleChecks(rules: ValidationRule[], path: string, st: Structural | undefined): StatusCause[] {
  const out: StatusCause[] = [];
  rules.forEach((r, i) => {
    const at = index(child(path, 'x-kubernetes-validations'), i);
    const rule = typeof r?.rule === 'string' ? r.rule.trim() : '';
    const message = typeof r?.message === 'string' ? r.message : '';
    if (!rule) out.push(required(child(at, 'rule'), 'rule is not specified'));
    else if (message && !message.trim()) out.push(invalid(child(at, 'message'), message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(message.trim())) out.push(invalid(child(at, 'message'), message, 'message must not contain line breaks'));
    else if (/[\n\r]/.test(rule) && !message.trim()) out.push(required(child(at, 'message'), 'message must be specified if rule contains line breaks'));
    if (typeof r?.messageExpression === 'string' && r.messageExpression && !r.messageExpression.trim())
      out.push(required(child(at, 'messageExpression'), 'messageExpression must be non-empty if specified'));
    if (r?.reason !== undefined && !REASONS.includes(r.reason)) out.push(notSupported(child(at, 'reason'), r.reason, REASONS));
    const fp = typeof r?.fieldPath === 'string' ? r.fieldPath : '';
    if (fp && !fp.trim()) out.push(invalid(child(at, 'fieldPath'), fp, 'fieldPath must be non-empty if specified'));
    if (/[\n\r]/.test(fp)) out.push(invalid(child(at, 'fieldPath'), fp, 'fieldPath must not contain line breaks'));
    if (fp && st && 'error' in validFieldPath(fp, st)) out.push(invalid(child(at, 'fieldPath'), fp, 'fieldPath must be a valid path'));
  });
  return out;
}

/** %#v of an apiextensions.ValidationRule, as the real server quotes a rule that does not compile. */
export function goRule(r: ValidationRule): GoText {
  const ptr = (v: unknown, type: string) => (v === undefined ? `(*${type})(nil)` : `(*${type})(0xc000000000)`);
  return new GoText(
    `apiextensions.ValidationRule{Rule:${goQuote(r.rule ?? '')}, Message:${goQuote(r.message ?? '')}, MessageExpression:${goQuote(r.messageExpression ?? '')}, ` +
      `Reason:${ptr(r.reason, 'apiextensions.FieldValueErrorReason')}, FieldPath:${goQuote(r.fieldPath ?? '')}, OptionalOldSelf:${ptr(r.optionalOldSelf, 'bool')}}`,
  );
}

function compiledRuleChecks(rules: ValidationRule[], path: string, st: Structural, isRoot: boolean, ctx: Context): StatusCause[] {
  const out: StatusCause[] = [];
  rules.forEach((r, i) => {
    const at = index(child(path, 'x-kubernetes-validations'), i);
    const compiled = compileRule(r, st, isRoot);
    if (compiled.error) out.push(invalid(child(at, 'rule'), goRule(r), compiled.error));
    if (compiled.messageError) out.push(invalid(child(at, 'messageExpression'), goRule(r), compiled.messageError));
    if (compiled.usesOldSelf && ctx.uncorrelatable !== undefined)
      out.push(invalid(child(at, 'rule'), r.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatable}`));
    else if (!compiled.usesOldSelf && r.optionalOldSelf !== undefined)
      out.push(invalid(child(at, 'optionalOldSelf'), r.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
  });
  return out;
}
