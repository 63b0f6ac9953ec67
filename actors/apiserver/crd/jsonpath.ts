// The JSONPath of printer columns, as client-go's jsonpath reads `{<path>}` with missing keys
// allowed: fields (`.spec.replicas`, `.metadata.labels.app\.kubernetes\.io/name`, `['a.b']`),
// indices and slices (`[0]`, `[-1]`, `[1:3]`), wildcards (`[*]`, `.*`), recursive descent (`..x`)
// and filters (`[?(@.type=="Ready")]`, `[?(@.ready)]`, with == != < > <= >=).
import { isPlainObject, type Json } from '../../api/types.ts';
import { jsonEqual } from '../patch/json-value.ts';

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'all' }
  | { kind: 'recurse'; name: string }
  | { kind: 'index'; start?: number; end?: number; single: boolean }
  | { kind: 'filter'; path: string[]; op?: string; value?: Json };

export type JsonPath = Step[];

const FIELD = /^((?:\\.|[^.[\]\\])+)/;
const FILTER = /^\[\?\(\s*@((?:\.[\w\-/]+)*)\s*(?:(==|!=|<=|>=|<|>)\s*(.+?))?\s*\)\]/;

/** Parses a column's path (`.status.phase`); an error names what could not be read. */
export function parseJsonPath(text: string): JsonPath | { error: string } {
  const steps: Step[] = [];
  let rest = text.trim().replace(/^\{(.*)\}$/s, '$1').replace(/^\$/, '');
  while (rest.length > 0) {
    if (rest.startsWith('..')) {
      const m = FIELD.exec(rest.slice(2));
      if (!m) return { error: `unrecognized identifier in ${text}` };
      steps.push({ kind: 'recurse', name: unescape(m[1] as string) });
      rest = rest.slice(2 + (m[1] as string).length);
    } else if (rest.startsWith('.*')) {
      steps.push({ kind: 'all' });
      rest = rest.slice(2);
    } else if (rest.startsWith('.')) {
      const m = FIELD.exec(rest.slice(1));
      if (!m) {
        rest = rest.slice(1);
        continue;
      }
      steps.push({ kind: 'field', name: unescape(m[1] as string) });
      rest = rest.slice(1 + (m[1] as string).length);
    } else if (rest.startsWith('[')) {
      const parsed = bracket(rest);
      if ('error' in parsed) return { error: `${parsed.error} in ${text}` };
      steps.push(parsed.step);
      rest = rest.slice(parsed.length);
    } else return { error: `unrecognized character in action: ${JSON.stringify(rest[0])}` };
  }
  return steps;
}

const unescape = (s: string) => s.replace(/\\(.)/g, '$1');

function bracket(rest: string): { step: Step; length: number } | { error: string } {
  const filter = FILTER.exec(rest);
  if (filter) {
    const path = (filter[1] ?? '').split('.').filter(Boolean);
    const step: Step = { kind: 'filter', path };
    if (filter[2]) {
      step.op = filter[2];
      step.value = literal(filter[3] as string);
    }
    return { step, length: filter[0].length };
  }
  const end = rest.indexOf(']');
  if (end < 0) return { error: 'unclosed array expect ]' };
  const inner = rest.slice(1, end).trim();
  const quoted = /^(['"])(.*)\1$/.exec(inner);
  if (quoted) return { step: { kind: 'field', name: quoted[2] as string }, length: end + 1 };
  if (inner === '*') return { step: { kind: 'all' }, length: end + 1 };
  const slice = /^(-?\d+)?(?::(-?\d+)?)?$/.exec(inner);
  if (!slice || inner === '') return { error: `invalid array index ${inner}` };
  const step: Step = { kind: 'index', single: !inner.includes(':') };
  if (slice[1] !== undefined) step.start = Number(slice[1]);
  if (slice[2] !== undefined) step.end = Number(slice[2]);
  return { step, length: end + 1 };
}

function literal(text: string): Json {
  const t = text.trim();
  const quoted = /^(['"])(.*)\1$/.exec(t);
  if (quoted) return quoted[2] as string;
  if (t === 'true' || t === 'false') return t === 'true';
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** Every value the path finds in `root` (missing keys find nothing). */
export function findAll(path: JsonPath, root: Json): Json[] {
  let current: Json[] = [root];
  for (const step of path) current = current.flatMap((v) => apply(step, v));
  return current;
}

function apply(step: Step, v: Json): Json[] {
  switch (step.kind) {
    case 'field':
      return isPlainObject(v) && Object.hasOwn(v, step.name) ? [(v as { [k: string]: Json })[step.name] as Json] : [];
    case 'all':
      return Array.isArray(v) ? v : isPlainObject(v) ? Object.values(v as { [k: string]: Json }) : [];
    case 'recurse':
      return recurse(v, step.name);
    case 'index': {
      if (!Array.isArray(v)) return [];
      const fix = (i: number) => (i < 0 ? i + v.length : i);
      if (step.single) {
        const i = fix(step.start ?? 0);
        return i >= 0 && i < v.length ? [v[i] as Json] : [];
      }
      return v.slice(fix(step.start ?? 0), step.end === undefined ? v.length : fix(step.end));
    }
    case 'filter':
      return Array.isArray(v) ? v.filter((item) => matches(step, item)) : [];
  }
}

function recurse(v: Json, name: string): Json[] {
  const out: Json[] = [];
  const visit = (x: Json) => {
    if (isPlainObject(x)) {
      const o = x as { [k: string]: Json };
      if (Object.hasOwn(o, name)) out.push(o[name] as Json);
      Object.values(o).forEach(visit);
    } else if (Array.isArray(x)) x.forEach(visit);
  };
  visit(v);
  return out;
}

function matches(step: Extract<Step, { kind: 'filter' }>, item: Json): boolean {
  let found: Json[] = [item];
  for (const name of step.path) found = found.flatMap((x) => apply({ kind: 'field', name }, x));
  if (!step.op) return found.length > 0;
  const left = found[0];
  if (left === undefined) return false;
  const right = step.value as Json;
  switch (step.op) {
    case '==':
      return jsonEqual(left, right);
    case '!=':
      return !jsonEqual(left, right);
    default: {
      if (typeof left !== typeof right || (typeof left !== 'number' && typeof left !== 'string')) return false;
      const [a, b] = [left as number | string, right as number | string];
      return step.op === '<' ? a < b : step.op === '>' ? a > b : step.op === '<=' ? a <= b : a >= b;
    }
  }
}
