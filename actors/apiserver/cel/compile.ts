// Compiling x-kubernetes-validations rules (apiextensions pkg/apiserver/schema/cel/compilation.go)
// with @bufbuild/cel: parse once, check the names the rule uses against the schema (`self`,
// `oldSelf`, macro variables, fields a structural node declares, functions the environment
// offers), and plan a reusable program. @bufbuild/cel has no type checker, so a rule's result
// type is checked when it runs, and `self.?field` (optional syntax) does not parse.
import { celEnv, parse, plan, type CelEnv, type CelResult } from '@bufbuild/cel';
import { fieldSchema, type Structural } from '../crd/structural.ts';
import type { ValidationRule } from '../crd/types.ts';
import { KUBERNETES_FUNCS } from './library.ts';

export type Program = (bindings: Record<string, unknown>) => CelResult;

type Expr = ReturnType<typeof parse>['expr'];

export interface CompiledRule {
  rule: ValidationRule;
  program?: Program;
  /** Why the rule does not compile: "compilation failed: ERROR: <input>:1:6: ...". */
  error?: string;
  message?: Program;
  messageError?: string;
  usesOldSelf: boolean;
}

const ENV: CelEnv = celEnv({ funcs: KUBERNETES_FUNCS });

/** Rules longer than this are refused before parsing (the real limit is the CRD's own size). */
export const MAX_RULE_LENGTH = 64 * 1024;

// A variable's schema: a Structural, or 'dyn' when nothing is known about it.
type Scope = ReadonlyMap<string, Structural | 'dyn'>;

export function compileRule(rule: ValidationRule, s: Structural, isResourceRoot: boolean): CompiledRule {
  const out: CompiledRule = { rule, usesOldSelf: false };
  const scope: Scope = new Map<string, Structural | 'dyn'>([
    ['self', isResourceRoot ? withTypeMeta(s) : s],
    ['oldSelf', isResourceRoot ? withTypeMeta(s) : s],
  ]);
  const rule1 = compileExpression(rule.rule, scope);
  if ('error' in rule1) out.error = `compilation failed: ${rule1.error}`;
  else {
    out.program = rule1.program;
    out.usesOldSelf = rule1.names.has('oldSelf');
  }
  if (typeof rule.messageExpression === 'string' && rule.messageExpression.trim()) {
    const message = compileExpression(rule.messageExpression, scope);
    if ('error' in message) out.messageError = `messageExpression compilation failed: ${message.error}`;
    else out.message = message.program;
  }
  return out;
}

/**
 * An expression over variables no schema describes (admission's `object`, `oldObject` and
 * `request`): its program, or why it does not compile ("compilation failed: ERROR: ...").
 */
export function compileExpressionOver(text: string, variables: readonly string[]): { program: Program } | { error: string } {
  const compiled = compileExpression(text, new Map(variables.map((v) => [v, 'dyn' as const])));
  return 'error' in compiled ? { error: `compilation failed: ${compiled.error}` } : { program: compiled.program };
}

function compileExpression(text: string, scope: Scope): { program: Program; names: Set<string> } | { error: string } {
  if (text.length > MAX_RULE_LENGTH) return { error: `ERROR: <input>:1:1: expression is longer than ${MAX_RULE_LENGTH} characters` };
  let parsed;
  try {
    parsed = parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { error: `ERROR: ${message.replace(/^(<input>:\d+:\d+: )/, '$1Syntax error: ')}` };
  }
  const names = new Set<string>();
  const problem = check(parsed.expr, scope, names);
  if (problem) return { error: `ERROR: <input>:1:1: ${problem}` };
  return { program: plan(ENV, parsed) as Program, names };
}

/** The root as rules see it: apiVersion and kind strings, metadata with name and generateName. */
function withTypeMeta(s: Structural): Structural {
  const str: Structural = { ...s, type: 'string', properties: undefined, additionalProperties: undefined, items: undefined, validations: [], required: [] };
  const metadata: Structural = { ...str, type: 'object', properties: new Map([['name', str], ['generateName', str]]) };
  const properties = new Map(s.properties ?? []);
  properties.set('apiVersion', str);
  properties.set('kind', str);
  properties.set('metadata', metadata);
  return { ...s, properties, preserveUnknownFields: s.preserveUnknownFields };
}

const OPERATOR = /^(_|@|!|not_strictly_false)/;

// Walks the expression: undeclared variables and functions, and fields a structural object does
// not declare, are compile errors as the real type checker reports them. Returns the first one.
function check(e: Expr | undefined, scope: Scope, names: Set<string>): string | undefined {
  const kind = e?.exprKind;
  if (!kind) return undefined;
  switch (kind.case) {
    case 'identExpr':
      names.add(kind.value.name);
      return scope.has(kind.value.name) ? undefined : `undeclared reference to '${kind.value.name}' (in container '')`;
    case 'selectExpr':
      return check(kind.value.operand, scope, names) ?? fieldProblem(typeOf(kind.value.operand, scope), kind.value.field);
    case 'callExpr': {
      const fn = kind.value.function;
      if (!OPERATOR.test(fn) && !ENV.funcs.find(fn)) return `undeclared reference to '${fn}' (in container '')`;
      for (const a of [kind.value.target, ...kind.value.args]) {
        const p = check(a, scope, names);
        if (p) return p;
      }
      return undefined;
    }
    case 'comprehensionExpr': {
      const c = kind.value;
      const p = check(c.iterRange, scope, names) ?? check(c.accuInit, scope, names);
      if (p) return p;
      const inner = new Map(scope);
      const range = typeOf(c.iterRange, scope);
      inner.set(c.iterVar, range === 'dyn' ? 'dyn' : range.items ?? (range.properties || range.additionalProperties ? keySchema(range) : 'dyn'));
      if (c.iterVar2) inner.set(c.iterVar2, 'dyn');
      inner.set(c.accuVar, 'dyn');
      return check(c.loopCondition, inner, names) ?? check(c.loopStep, inner, names) ?? check(c.result, inner, names);
    }
    case 'listExpr':
      for (const x of kind.value.elements) {
        const p = check(x, scope, names);
        if (p) return p;
      }
      return undefined;
    case 'structExpr':
      for (const x of kind.value.entries) {
        const p = (x.keyKind.case === 'mapKey' ? check(x.keyKind.value, scope, names) : undefined) ?? check(x.value, scope, names);
        if (p) return p;
      }
      return undefined;
    default:
      return undefined;
  }
}

const keySchema = (s: Structural): Structural => ({ ...s, type: 'string', properties: undefined, additionalProperties: undefined, items: undefined });

/** The schema of a variable or field selection, when the rule reads it straight from `self`. */
function typeOf(e: Expr | undefined, scope: Scope): Structural | 'dyn' {
  const kind = e?.exprKind;
  if (kind?.case === 'identExpr') return scope.get(kind.value.name) ?? 'dyn';
  if (kind?.case === 'selectExpr' && !kind.value.testOnly) {
    const parent = typeOf(kind.value.operand, scope);
    return parent === 'dyn' ? 'dyn' : fieldSchema(parent, kind.value.field) ?? 'dyn';
  }
  return 'dyn';
}

function fieldProblem(parent: Structural | 'dyn', field: string): string | undefined {
  if (parent === 'dyn' || parent.preserveUnknownFields || parent.additionalProperties) return undefined;
  if (parent.type !== 'object') return parent.type ? `type '${parent.type === 'integer' ? 'int' : parent.type}' does not support field selection` : undefined;
  return parent.properties?.has(field) ? undefined : `undefined field '${field}'`;
}
