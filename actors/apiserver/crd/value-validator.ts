// kube-openapi's schema validator (pkg/validation/validate) compiled once per schema: a tree of
// nodes with their bounds parsed and patterns compiled, walked once per object. It reports what
// the real validator reports, in its order (type, anyOf/oneOf/allOf/not, string, format, number,
// list, enum, object) and with its tie-breaks: anyOf and oneOf keep the failures of the branch
// that matched most (kube-openapi's MatchCount, counted here as there).
import { isPlainObject, type Json } from '../../api/types.ts';
import { goQuote, isInt64 } from './field-errors.ts';
import { checkedFormat, matchesFormat } from './formats.ts';
import {
  compositeError,
  enumError,
  invalidType,
  itemsError,
  patternError,
  propertiesError,
  requiredError,
  tooLongError,
  tooShortError,
  unallowedPropertyError,
  uniqueError,
  type OpenAPIError,
} from './openapi-errors.ts';
import { isPatternError, compilePattern, type Pattern } from './regex.ts';
import { checkEnum, checkNumber, isJsonInteger } from './value-checks.ts';
import type { JSONSchemaProps } from './types.ts';

type JsonObject = { [key: string]: Json };

export interface ValueNode {
  types: string[];
  nullable: boolean;
  format: string;
  enum?: Json[];
  multipleOf?: number;
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
  maxLength?: number;
  minLength?: number;
  patternText: string;
  pattern?: Pattern | { error: string };
  items?: ValueNode;
  minItems?: number;
  maxItems?: number;
  uniqueItems: boolean;
  properties?: Map<string, ValueNode>;
  required: string[];
  additional?: { node?: ValueNode; allows: boolean };
  minProperties?: number;
  maxProperties?: number;
  allOf: ValueNode[];
  anyOf: ValueNode[];
  oneOf: ValueNode[];
  not?: ValueNode;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const schemas = (v: unknown): ValueNode[] => (Array.isArray(v) ? v.filter(isPlainObject).map((s) => compileValue(s as JSONSchemaProps)) : []);

/** ConvertJSONSchemaProps then NewSchemaValidator: unsupported formats dropped, int-or-string typed as both. */
export function compileValue(s: JSONSchemaProps): ValueNode {
  const types = s['x-kubernetes-int-or-string'] === true ? ['integer', 'string'] : typeof s.type === 'string' && s.type ? [s.type] : [];
  const node: ValueNode = {
    types,
    nullable: s.nullable === true,
    format: checkedFormat(typeof s.format === 'string' ? s.format : undefined),
    exclusiveMaximum: s.exclusiveMaximum === true,
    exclusiveMinimum: s.exclusiveMinimum === true,
    patternText: typeof s.pattern === 'string' ? s.pattern : '',
    uniqueItems: s.uniqueItems === true,
    required: Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string') : [],
    allOf: schemas(s.allOf),
    anyOf: schemas(s.anyOf),
    oneOf: schemas(s.oneOf),
  };
  if (Array.isArray(s.enum) && s.enum.length > 0) node.enum = s.enum;
  for (const k of ['multipleOf', 'maximum', 'minimum', 'maxLength', 'minLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const) {
    const n = num(s[k]);
    if (n !== undefined) node[k] = n;
  }
  if (node.patternText) node.pattern = compilePattern(node.patternText);
  if (isPlainObject(s.items)) node.items = compileValue(s.items as JSONSchemaProps);
  if (isPlainObject(s.properties)) {
    node.properties = new Map();
    for (const [k, v] of Object.entries(s.properties)) if (isPlainObject(v)) node.properties.set(k, compileValue(v as JSONSchemaProps));
  }
  if (typeof s.additionalProperties === 'boolean') node.additional = { allows: s.additionalProperties };
  else if (isPlainObject(s.additionalProperties)) node.additional = { node: compileValue(s.additionalProperties as JSONSchemaProps), allows: true };
  if (isPlainObject(s.not)) node.not = compileValue(s.not as JSONSchemaProps);
  return node;
}

/** Every finding for `data` (deduplicated by message, as Result.AddErrors does). */
export function validateValue(node: ValueNode, data: Json | undefined, path = ''): OpenAPIError[] {
  const out: OpenAPIError[] = [];
  validate(node, data, path, out);
  if (out.length <= 1) return out;
  const seen = new Set<string>();
  return out.filter((e) => (seen.has(e.message) ? false : (seen.add(e.message), true)));
}

type Kind = 'string' | 'boolean' | 'integer' | 'number' | 'array' | 'object';

function kindOf(v: Json): Kind {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return isInt64(v) ? 'integer' : 'number';
  return Array.isArray(v) ? 'array' : 'object';
}

/** Validates one value; returns kube-openapi's MatchCount for it. */
function validate(n: ValueNode, data: Json | undefined, path: string, out: OpenAPIError[]): number {
  if (data === null || data === undefined) {
    let count = 1;
    if (n.types.length > 0 && !n.types.includes('null') && !n.nullable) {
      out.push(invalidType(path, n.types.join(','), 'null'));
      count = 0;
    }
    if (n.enum) out.push(enumError(path, null, n.enum));
    return count;
  }
  const kind = kindOf(data);
  let count = 0;
  if (n.types.length > 0 || n.format) count += checkType(n, data, kind, path, out) + 1;
  count += combinators(n, data, path, out) + 1;
  if (kind === 'string') {
    checkString(n, data as string, path, out);
    count++;
    if (n.format) {
      if (!matchesFormat(n.format, data as string)) out.push(invalidType(path, n.format, data as string));
      count++;
    }
  }
  if (kind === 'integer' || kind === 'number') {
    checkNumber(n, data as number, kind === 'integer', path, out);
    count += 2;
  }
  if (kind === 'array') count += checkArray(n, data as Json[], path, out) + 1;
  if (n.enum && !checkEnum(data, n.enum)) out.push(enumError(path, data, n.enum));
  count++;
  if (kind === 'object') count += checkObject(n, data as JsonObject, path, out) + 1;
  return count + 1;
}

// typeValidator.Validate: numbers of integral value pass as integers, integers as numbers.
function checkType(n: ValueNode, data: Json, kind: Kind, path: string, out: OpenAPIError[]): number {
  const format = kind === 'integer' ? 'int64' : kind === 'number' ? 'float64' : '';
  const floatInt = kind === 'number' && isJsonInteger(data as number) && n.types.includes('integer');
  const intFloat = kind === 'integer' && n.types.includes('number');
  const fits = n.types.includes(kind) || floatInt || intFloat;
  if (kind !== 'string' && kind !== 'array' && n.format && !(fits || format === n.format)) {
    out.push(invalidType(path, n.format, format));
    return 0;
  }
  const numeric = n.types.includes('number') || n.types.includes('integer');
  if (!numeric && n.format && (kind === 'string' || kind === 'array')) return 1;
  if (!fits) {
    out.push(invalidType(path, n.types.join(','), kind));
    return 0;
  }
  return 1;
}

function checkString(n: ValueNode, s: string, path: string, out: OpenAPIError[]): void {
  if (n.maxLength !== undefined || n.minLength !== undefined) {
    const length = runeCount(s);
    if (n.maxLength !== undefined && length > n.maxLength) return void out.push(tooLongError(path, n.maxLength, s));
    if (n.minLength !== undefined && length < n.minLength) return void out.push(tooShortError(path, n.minLength, s));
  }
  if (!n.pattern) return;
  if (isPatternError(n.pattern)) out.push(patternError(path, `${n.patternText}, but pattern is invalid: ${n.pattern.error}`, s));
  else if (!n.pattern.test(s)) out.push(patternError(path, n.patternText, s));
}

/** utf8.RuneCountInString: code points, not UTF-16 units. */
function runeCount(s: string): number {
  let count = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    count++;
  }
  return count;
}

function checkArray(n: ValueNode, list: Json[], path: string, out: OpenAPIError[]): number {
  let count = 0;
  if (n.items) for (let i = 0; i < list.length; i++) count += validate(n.items, list[i], `${path}[${i}]`, out);
  if (n.minItems !== undefined && list.length < n.minItems) out.push(itemsError(path, n.minItems, list.length, false));
  if (n.maxItems !== undefined && list.length > n.maxItems) out.push(itemsError(path, n.maxItems, list.length, true));
  if (n.uniqueItems) {
    const seen = new Set<string>();
    for (const item of list) {
      const text = canonical(item);
      if (seen.has(text)) {
        out.push(uniqueError(path));
        break;
      }
      seen.add(text);
    }
  }
  return count;
}

function canonical(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as JsonObject)[k] as Json)}`).join(',')}}`;
  return JSON.stringify(v);
}

function checkObject(n: ValueNode, obj: JsonObject, path: string, out: OpenAPIError[]): number {
  let count = 0;
  if (n.minProperties !== undefined || n.maxProperties !== undefined) {
    const size = Object.keys(obj).length;
    if (n.minProperties !== undefined && size < n.minProperties) out.push(propertiesError(path, n.minProperties, size, false));
    if (n.maxProperties !== undefined && size > n.maxProperties) out.push(propertiesError(path, n.maxProperties, size, true));
  }
  if (n.additional && !n.additional.allows) {
    for (const k in obj) if (!n.properties?.has(k)) out.push(unallowedPropertyError(path, k));
  } else if (n.additional?.node) {
    for (const k in obj) if (!n.properties?.has(k)) count += validate(n.additional.node, obj[k], `${path}.${k}`, out);
  }
  if (n.properties)
    for (const [name, p] of n.properties) {
      if (Object.hasOwn(obj, name)) count += validate(p, obj[name], path ? `${path}.${name}` : name, out);
    }
  for (const k of n.required) if (!Object.hasOwn(obj, k)) out.push(requiredError(`${path}.${k}`));
  return count;
}

interface Branch {
  errors: OpenAPIError[];
  count: number;
}

function branch(n: ValueNode, data: Json, path: string): Branch {
  const errors: OpenAPIError[] = [];
  return { count: validate(n, data, path, errors), errors };
}

// schemaPropsValidator: anyOf keeps the failures of the branch that matched most; oneOf likewise
// while none is valid; allOf merges every branch's findings; not fails when its schema passes.
function combinators(n: ValueNode, data: Json, path: string, out: OpenAPIError[]): number {
  if (n.anyOf.length === 0 && n.oneOf.length === 0 && n.allOf.length === 0 && !n.not) return 0;
  let count = 0;
  const merge = (b: Branch) => {
    out.push(...b.errors);
    count += b.count;
  };
  if (n.anyOf.length > 0) {
    let best: Branch | undefined;
    let success: Branch | undefined;
    for (const s of n.anyOf) {
      const b = branch(s, data, path);
      if (b.errors.length === 0) {
        success = b;
        best = undefined;
        break;
      }
      if (!best || b.count > best.count) best = b;
    }
    if (!success) out.push(compositeError(`${goQuote(path)} must validate at least one schema (anyOf)`));
    if (best) merge(best);
    else if (success) merge(success);
  }
  if (n.oneOf.length > 0) {
    let best: Branch | undefined;
    let success: Branch | undefined;
    let valid = 0;
    for (const s of n.oneOf) {
      const b = branch(s, data, path);
      if (b.errors.length === 0) {
        valid++;
        best = undefined;
        success ??= b;
        continue;
      }
      if (valid === 0 && (!best || b.count > best.count)) best = b;
    }
    if (valid !== 1) {
      const why = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
      out.push(compositeError(`${goQuote(path)} must validate one and only one schema (oneOf). ${why}`));
      if (best) merge(best);
    } else if (success) merge(success);
  }
  if (n.allOf.length > 0) {
    let valid = 0;
    for (const s of n.allOf) {
      const b = branch(s, data, path);
      if (b.errors.length === 0) valid++;
      merge(b);
    }
    if (valid !== n.allOf.length) out.push(compositeError(`${goQuote(path)} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
  }
  if (n.not && branch(n.not, data, path).errors.length === 0) out.push(compositeError(`${goQuote(path)} must not validate the schema (not)`));
  return count;
}

