// Label and field selectors: parsed once, matched per object. Parsing errors are 400s.
import { badRequest } from './status.ts';
import type { KObject } from './types.ts';

type LabelRequirement =
  | { op: 'in' | 'notin'; key: string; values: string[] }
  | { op: 'exists' | '!'; key: string };

export type Matcher = (obj: KObject) => boolean;

const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Splits on commas that are not inside a `(...)` value set. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms.map((t) => t.trim());
}

/** Words the real parser reads as operators, never as keys. */
const KEYWORDS = new Set(['in', 'notin']);

function checkKey(key: string, selector: string): string {
  if (KEYWORDS.has(key)) throw badRequest(`unable to parse requirement: found '${key}', expected: !, identifier in selector "${selector}"`);
  if (!KEY.test(key) || key.length > 316) throw badRequest(`unable to parse requirement: invalid label key "${key}" in selector "${selector}"`);
  return key;
}

function checkValue(value: string, selector: string): string {
  if (value.length > 63 || !VALUE.test(value)) throw badRequest(`unable to parse requirement: invalid label value "${value}" in selector "${selector}"`);
  return value;
}

function parseLabelTerm(term: string, selector: string): LabelRequirement {
  let m: RegExpExecArray | null;
  if ((m = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term))) {
    if (m[3].trim() === '') throw badRequest(`unable to parse requirement: values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty in selector "${selector}"`);
    const values = m[3].split(',').map((v) => checkValue(v.trim(), selector));
    return { op: m[2] as 'in' | 'notin', key: checkKey(m[1], selector), values };
  }
  if ((m = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term))) {
    const key = checkKey(m[1], selector);
    const value = checkValue(m[3], selector);
    return { op: m[2] === '!=' ? 'notin' : 'in', key, values: [value] };
  }
  if ((m = /^!\s*(\S+)$/.exec(term))) return { op: '!', key: checkKey(m[1], selector) };
  if (/^\S+$/.test(term)) return { op: 'exists', key: checkKey(term, selector) };
  throw badRequest(`unable to parse requirement: found '${term}', expected: in, notin, =, ==, !=, gt, lt in selector "${selector}"`);
}

export function parseLabelSelector(selector: string | undefined): Matcher | undefined {
  if (selector === undefined || selector.trim() === '') return undefined;
  const reqs = splitTerms(selector).map((t) => {
    if (t === '') throw badRequest(`unable to parse requirement: empty term in selector "${selector}"`);
    return parseLabelTerm(t, selector);
  });
  return (obj) => {
    const labels = obj.metadata.labels ?? {};
    return reqs.every((r) => {
      const has = Object.prototype.hasOwnProperty.call(labels, r.key);
      switch (r.op) {
        case 'exists': return has;
        case '!': return !has;
        case 'in': return has && r.values.includes(labels[r.key]);
        case 'notin': return !has || !r.values.includes(labels[r.key]);
      }
    });
  };
}

/** How to read a selectable field from an object; every kind has metadata.name and metadata.namespace. */
export type FieldGetter = (obj: KObject) => string;

export interface FieldTerm {
  field: string;
  value: string;
  negated: boolean;
}

/** Unescapes `\,` `\=` `\\` as real servers do for field selector values. */
function unescape(v: string): string {
  return v.replace(/\\(.)/g, '$1');
}

export function parseFieldTerms(selector: string | undefined): FieldTerm[] {
  if (selector === undefined || selector.trim() === '') return [];
  return selector.split(/(?<!\\),/).map((raw) => {
    const term = raw.trim();
    const m = /^([^!=]+?)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${term}'; can't understand '${term}'`);
    return { field: m[1].trim(), value: unescape(m[3]), negated: m[2] === '!=' };
  });
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
