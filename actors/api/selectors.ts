// Label and field selectors: parsed once, matched per object. Parsing errors are 400s.
import { parseInt64, parseRequirements, SelectorSyntaxError, type Requirement } from './label-selector-parser.ts';
import { badRequest } from './status.ts';
import type { KObject } from './types.ts';

export type Matcher = (obj: KObject) => boolean;

/** A label's value, or undefined when absent (never an inherited Object member such as `constructor`). */
function labelOf(obj: KObject, key: string): string | undefined {
  const labels = obj.metadata.labels;
  if (labels === undefined) return undefined;
  const v = labels[key];
  return typeof v === 'string' ? v : undefined;
}

/** One requirement as a closure: one label read and, for sets of one value, one comparison. */
function requirementMatcher({ key, operator, values }: Requirement): Matcher {
  const only = values.length === 1 ? values[0] : undefined;
  switch (operator) {
    case 'exists': return (o) => labelOf(o, key) !== undefined;
    case '!': return (o) => labelOf(o, key) === undefined;
    case 'in': case '=': case '==':
      if (only !== undefined) return (o) => labelOf(o, key) === only;
      return (o) => {
        const v = labelOf(o, key);
        return v !== undefined && values.includes(v);
      };
    case 'notin': case '!=':
      if (only !== undefined) return (o) => labelOf(o, key) !== only;
      return (o) => {
        const v = labelOf(o, key);
        return v === undefined || !values.includes(v);
      };
    case 'gt': case 'lt': {
      const bound = parseInt64(only!)!;
      const greater = operator === 'gt';
      return (o) => {
        const v = labelOf(o, key);
        const n = v === undefined ? undefined : parseInt64(v);
        return n !== undefined && (greater ? n > bound : n < bound);
      };
    }
  }
}

/**
 * Parses a `labelSelector` once into a matcher; undefined selects everything. A selector the
 * real parser refuses is a 400 with its message (`unable to parse requirement: ...`).
 */
export function parseLabelSelector(selector: string | undefined): Matcher | undefined {
  if (selector === undefined) return undefined;
  let requirements: Requirement[];
  try {
    requirements = parseRequirements(selector);
  } catch (e) {
    if (e instanceof SelectorSyntaxError) throw badRequest(e.message);
    throw e;
  }
  const checks = requirements.map(requirementMatcher);
  if (checks.length === 0) return undefined;
  if (checks.length === 1) return checks[0];
  if (checks.length === 2) {
    const [a, b] = checks as [Matcher, Matcher];
    return (o) => a(o) && b(o);
  }
  return (o) => {
    for (let i = 0; i < checks.length; i++) if (!checks[i]!(o)) return false;
    return true;
  };
}

/** How to read a selectable field from an object; every kind has metadata.name and metadata.namespace. */
export type FieldGetter = (obj: KObject) => string;

export interface FieldTerm {
  field: string;
  value: string;
  negated: boolean;
}

/** Splits on the commas no backslash escapes; the backslashes stay, for unescapeValue. */
function splitFieldTerms(selector: string): string[] {
  const terms: string[] = [];
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    if (selector[i] === '\\') i++;
    else if (selector[i] === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** The first operator in the term splits it, `!=` and `==` before `=`; neither side is trimmed. */
function splitTerm(term: string): { field: string; op: string; value: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return { field: term.slice(0, i), op, value: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** `\\`, `\,` and `\=` stand for themselves; any other escape, or a bare `=` or `,`, is refused. */
function unescapeValue(v: string): string {
  if (!/[\\,=]/.test(v)) return v;
  let out = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '\\') {
      const next = v[++i];
      if (next === undefined) throw badRequest('invalid field selector: invalid escape sequence: \\');
      if (next !== '\\' && next !== ',' && next !== '=') throw badRequest(`invalid field selector: invalid escape sequence: \\${next}`);
      out += next;
    } else if (c === ',' || c === '=') {
      // Go prints the rune as its number.
      throw badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else out += c;
  }
  return out;
}

/**
 * Parses a `fieldSelector` as apimachinery's fields.ParseSelector does: terms split on unescaped
 * commas, empty terms skipped, each split at its first operator; errors are 400s in its words.
 */
export function parseFieldTerms(selector: string | undefined): FieldTerm[] {
  if (selector === undefined || selector === '') return [];
  const terms: FieldTerm[] = [];
  // Sorted as the real parser sorts them, so the same bad term is the one reported.
  for (const part of splitFieldTerms(selector).sort()) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw badRequest(`invalid selector: '${selector}'; can't understand '${part}'`);
    terms.push({ field: split.field, value: unescapeValue(split.value), negated: split.op === '!=' });
  }
  return terms;
}

/** The value a field selector requires `field` to equal (a term `field=v` or `field==v`), if any; a selector that does not parse requires nothing. */
export function requiredFieldValue(selector: string | undefined, field: string): string | undefined {
  try {
    return parseFieldTerms(selector).find((t) => t.field === field && !t.negated)?.value;
  } catch {
    return undefined;
  }
}

export function fieldMatcher(terms: FieldTerm[], fields: Record<string, FieldGetter>): Matcher | undefined {
  if (terms.length === 0) return undefined;
  const checks = terms.map((t) => {
    const get = fields[t.field];
    if (!get) throw badRequest(`field label not supported: ${t.field}`);
    return { get, t };
  });
  return (obj) => checks.every(({ get, t }) => (get(obj) === t.value) !== t.negated);
}
