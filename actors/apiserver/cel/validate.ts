// Running x-kubernetes-validations rules on an object (apiextensions
// pkg/apiserver/schema/cel/validation.go): every non-null value whose schema carries rules is
// checked with `self` bound to it and, on update, `oldSelf` to the value it replaces where the two
// correlate (object fields by name, map entries by key, list-type=map items by their keys; never
// set or atomic list items). Transition rules run only where an old value correlates. A rule that
// fails on a value the update left unchanged is not reported (validation ratcheting).
import { isCelError, type CelInput } from '@bufbuild/cel';
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject, type Json } from '../../api/types.ts';
import { jsonEqual } from '../patch/json-value.ts';
import { child, duplicate, forbidden, index, invalid, key, required } from '../crd/field-errors.ts';
import { validFieldPath } from '../crd/field-path.ts';
import type { Structural } from '../crd/structural.ts';
import { compileRule, type CompiledRule } from './compile.ts';
import { rootToCel, toCel } from './values.ts';

type JsonObject = { [key: string]: Json };

/** Every schema node's compiled rules, compiled once per CRD version. */
export type RuleIndex = ReadonlyMap<Structural, CompiledRule[]>;

export function compileRules(root: Structural): RuleIndex {
  const index = new Map<Structural, CompiledRule[]>();
  const visit = (s: Structural | undefined, isRoot: boolean) => {
    if (!s) return;
    if (s.validations.length > 0) index.set(s, s.validations.map((r) => compileRule(r, s, isRoot)));
    s.properties?.forEach((p) => visit(p, false));
    visit(s.additionalProperties?.schema, false);
    visit(s.items, false);
  };
  visit(root, true);
  return index;
}

export function validateRules(rules: RuleIndex, root: Structural, obj: Json, old: Json | undefined): StatusCause[] {
  const out: StatusCause[] = [];
  if (rules.size > 0) walk(rules, root, obj, old, '', true, out);
  return out;
}

function walk(rules: RuleIndex, s: Structural, v: Json, old: Json | undefined, path: string, isRoot: boolean, out: StatusCause[]): void {
  if (v === null || v === undefined) return;
  const own = rules.get(s);
  if (own) for (const r of own) evaluate(r, s, v, old, path, isRoot, out);
  if (Array.isArray(v)) {
    if (!s.items) return;
    const olds = s.listType === 'map' && Array.isArray(old) ? byKeys(old, s.listMapKeys ?? []) : undefined;
    v.forEach((item, i) => walk(rules, s.items as Structural, item, olds?.get(itemKey(item, s.listMapKeys ?? [])), index(path, i), false, out));
    return;
  }
  if (!isPlainObject(v)) return;
  const obj = v as JsonObject;
  const oldObj = isPlainObject(old) ? (old as JsonObject) : undefined;
  for (const k in obj) {
    const prop = s.properties?.get(k);
    const schema = prop ?? s.additionalProperties?.schema;
    if (!schema) continue;
    const correlated = s.mapType === undefined || s.mapType === 'granular' || s.mapType === 'atomic' ? oldObj?.[k] : undefined;
    walk(rules, schema, obj[k] as Json, correlated, prop ? child(path, k) : key(path, k), false, out);
  }
}

const itemKey = (item: Json, keys: readonly string[]): string =>
  JSON.stringify(keys.map((k) => (isPlainObject(item) ? ((item as JsonObject)[k] ?? null) : null)));

function byKeys(list: Json[], keys: readonly string[]): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const item of list) if (!out.has(itemKey(item, keys))) out.set(itemKey(item, keys), item);
  return out;
}

const ruleText = (r: CompiledRule) => (r.rule.message?.trim() ? r.rule.message.trim() : r.rule.rule.trim());

function evaluate(r: CompiledRule, s: Structural, v: Json, old: Json | undefined, path: string, isRoot: boolean, out: StatusCause[]): void {
  const type = s.type;
  if (r.error) return void out.push(invalid(path, type, `rule compile error: ${r.error}`));
  if (!r.program || (r.usesOldSelf && old === undefined)) return;
  const bindings: Record<string, CelInput> = { self: isRoot ? rootToCel(v, s) : toCel(v, s) };
  if (r.usesOldSelf && old !== undefined) bindings.oldSelf = isRoot ? rootToCel(old, s) : toCel(old, s);
  const result = r.program(bindings);
  if (isCelError(result)) return void out.push(invalid(path, type, evaluationError(result.message, r)));
  if (typeof result !== 'boolean') return void out.push(invalid(path, type, `cel expression must evaluate to a bool evaluating rule: ${ruleText(r)}`));
  if (result) return;
  if (!r.usesOldSelf && old !== undefined && jsonEqual(v, old)) return;
  const target = r.rule.fieldPath ? fieldPathOf(r.rule.fieldPath, s, path) : path;
  out.push(failure(target, type, messageOf(r, bindings), r.rule.reason));
}

function evaluationError(message: string, r: CompiledRule): string {
  const noField = /^field not found: (.*)$/.exec(message);
  if (noField) return `no such key: ${noField[1]} evaluating rule: ${ruleText(r)}`;
  if (message.startsWith('found no matching overload'))
    return `'no such overload': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(r)}`;
  return `${message} evaluating rule: ${ruleText(r)}`;
}

function fieldPathOf(text: string, s: Structural, path: string): string {
  const found = validFieldPath(text, s);
  return 'error' in found || !found.path ? path : child(path, found.path);
}

// messageExpression's text when it gives a non-empty single-line string, else the rule's message.
function messageOf(r: CompiledRule, bindings: Record<string, CelInput>): string {
  if (r.message) {
    const m = r.message(bindings);
    if (typeof m === 'string' && m.trim() && !/[\r\n]/.test(m)) return m;
  }
  return r.rule.message?.trim() ? r.rule.message.trim() : `failed rule: ${r.rule.rule.trim()}`;
}

function failure(path: string, type: string, detail: string, reason: string | undefined): StatusCause {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(path, detail);
    case 'FieldValueRequired':
      return required(path, detail);
    case 'FieldValueDuplicate':
      return duplicate(path, type);
    default:
      return invalid(path, type, detail);
  }
}
