// What every printer shares: reading a decoded object without trusting its shape, the common
// columns, and the label and selector strings of apimachinery's labels package.
import { isPlainObject, type KObject } from '../../api/types.ts';
import type { ColumnDefinition } from './tables.ts';
import { translateTimestampSince } from './human-duration.ts';

/** A kind's server-side printer: its columns (wide ones included) and one row's cells. */
export interface Printer {
  columns: readonly ColumnDefinition[];
  cells(obj: KObject, nowMs: number): unknown[];
  /** The order a list's rows are printed in, when the real printer sorts them. */
  order?(a: KObject, b: KObject): number;
}

export type Fields = Record<string, unknown>;

/** The object at `path`, or an empty one: a missing struct reads as Go's zero value. */
export function fields(value: unknown, ...path: string[]): Fields {
  let v = value;
  for (const key of path) v = isPlainObject(v) ? v[key] : undefined;
  return isPlainObject(v) ? v : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function int(value: unknown, fallback = 0): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function column(name: string, description: string, opts: { type?: string; format?: string; priority?: number } = {}): ColumnDefinition {
  return Object.freeze({ name, type: opts.type ?? 'string', format: opts.format ?? '', description, priority: opts.priority ?? 0 });
}

/** The Name cell. */
export const nameOf = (o: KObject): string => o.metadata.name ?? '';

/** The Age cell: how long ago the object was created, as the printers show it. */
export const age = (o: KObject, nowMs: number): string => translateTimestampSince(o.metadata.creationTimestamp, nowMs);

export const wide = { priority: 1 };
export const integer = { type: 'integer' };

export const NAME_DOC = 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically.';
export const CREATED_DOC = 'CreationTimestamp is a timestamp representing the server time when this object was created. It is represented in RFC3339 form and is in UTC.';
export const nameColumn = column('Name', NAME_DOC, { format: 'name' });
export const ageColumn = column('Age', CREATED_DOC);
export const containersColumn = column('Containers', 'Names of each container in the template.', wide);
export const imagesColumn = column('Images', 'Images referenced by each container in the template.', wide);

/** The names and images of containers, comma separated (layoutContainerCells). */
export function containerCells(containers: unknown): [names: string, images: string] {
  const cs = list(containers).map((c) => fields(c));
  return [cs.map((c) => text(c.name)).join(','), cs.map((c) => text(c.image)).join(',')];
}

/** `a=1,b=2`, sorted, or "<none>" (labels.FormatLabels). */
export function formatLabels(labels: unknown): string {
  const pairs = Object.entries(fields(labels)).map(([k, v]) => `${k}=${text(v)}`).sort(byCodeUnit);
  return pairs.length ? pairs.join(',') : '<none>';
}

/**
 * A LabelSelector as a selector string, requirements sorted by key ("app=web,tier in (a,b)"), ""
 * for a missing or empty selector, undefined when it cannot be converted (LabelSelectorAsSelector).
 */
export function labelSelectorString(selector: unknown): string | undefined {
  if (!isPlainObject(selector)) return '';
  const reqs: { key: string; text: string }[] = [];
  for (const [key, value] of Object.entries(fields(selector.matchLabels))) reqs.push({ key, text: `${key}=${text(value)}` });
  for (const e of list(selector.matchExpressions)) {
    const expr = fields(e);
    const req = requirement(text(expr.key), text(expr.operator), list(expr.values).map(text));
    if (req === undefined) return undefined;
    reqs.push({ key: text(expr.key), text: req });
  }
  // Array.prototype.sort is stable, so equal keys keep matchLabels before matchExpressions.
  return reqs.sort((a, b) => byCodeUnit(a.key, b.key)).map((r) => r.text).join(',');
}

/** As labelSelectorString, but "<none>" when empty and "<error>" when invalid (metav1.FormatLabelSelector). */
export function formatLabelSelector(selector: unknown): string {
  const s = labelSelectorString(selector);
  if (s === undefined) return '<error>';
  return s === '' ? '<none>' : s;
}

function requirement(key: string, operator: string, values: string[]): string | undefined {
  const sorted = [...values].sort(byCodeUnit).join(',');
  switch (operator) {
    case 'In': return values.length ? `${key} in (${sorted})` : undefined;
    case 'NotIn': return values.length ? `${key} notin (${sorted})` : undefined;
    case 'Exists': return values.length ? undefined : key;
    case 'DoesNotExist': return values.length ? undefined : `!${key}`;
    default: return undefined;
  }
}

/** Go's string order (bytewise; the same as UTF-16 order for the ASCII of label keys). */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
