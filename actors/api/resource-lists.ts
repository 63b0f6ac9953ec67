// Resource lists (`{cpu: 500m, memory: 1Gi}`) as exact quantities, with the arithmetic of the
// real quota helpers (apiserver pkg/quota/v1/resources.go) and the pod totals of component-helpers'
// PodRequests and PodLimits, which the quota evaluators and the LimitRanger share.
import { addQuantities, compareQuantities, formatQuantity, subtractQuantities, toQuantity, type Quantity } from './quantity.ts';
import { isPlainObject } from './types.ts';

/** Resource name → quantity, in insertion order. */
export type ResourceList = Map<string, Quantity>;

/** A decoded `{name: quantity}` object; entries that are not quantities are left out (validation refuses them). */
export function readResourceList(value: unknown): ResourceList {
  const list: ResourceList = new Map();
  if (!isPlainObject(value)) return list;
  for (const [name, text] of Object.entries(value)) {
    if (typeof text !== 'string' && typeof text !== 'number') continue;
    try {
      list.set(name, toQuantity(text));
    } catch { /* refused by validation */ }
  }
  return list;
}

/** The list as the API writes it: canonical quantity strings, names sorted as Go writes a map. */
export function writeResourceList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...list.keys()].sort()) out[name] = formatQuantity(list.get(name)!);
  return out;
}

/** quota.Add: every name of either list, summed where both have it. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [name, q] of a) out.set(name, b.has(name) ? addQuantities(q, b.get(name)!) : q);
  for (const [name, q] of b) if (!out.has(name)) out.set(name, q);
  return out;
}

/** quota.SubtractWithNonNegativeResult: `a - b` per name, never below zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [name, q] of a) {
    const d = b.has(name) ? subtractQuantities(q, b.get(name)!) : q;
    out.set(name, d.nanos < 0n ? { nanos: 0n, format: d.format } : d);
  }
  for (const [name, q] of b) if (!out.has(name)) out.set(name, { nanos: 0n, format: q.format });
  return out;
}

/** quota.Mask: only the names given. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const name of names) if (list.has(name)) out.set(name, list.get(name)!);
  return out;
}

/** quota.LessThanOrEqual: the names `a` has above `b` (none: a fits). */
export function exceeding(a: ResourceList, b: ResourceList): string[] {
  const names: string[] = [];
  for (const [name, limit] of b) if (a.has(name) && compareQuantities(a.get(name)!, limit) > 0) names.push(name);
  return names;
}

export const removeZeros = (list: ResourceList): ResourceList => new Map([...list].filter(([, q]) => q.nanos !== 0n));

export const negativeNames = (list: ResourceList): string[] => [...list].filter(([, q]) => q.nanos < 0n).map(([name]) => name);

/** quota.Equals: the same names with equal values. */
export function listsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [name, q] of a) if (!b.has(name) || compareQuantities(q, b.get(name)!) !== 0) return false;
  return true;
}

/** `cpu=1,pods=2`: names sorted (the quota admission's prettyPrint). */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()].sort().map((name) => `${name}=${formatQuantity(list.get(name)!)}`).join(',');
}

/** addResourceList: adds `other` into `list` (a name new to `list` takes `other`'s quantity and format). */
function addInto(list: ResourceList, other: ResourceList): void {
  for (const [name, q] of other) list.set(name, list.has(name) ? addQuantities(list.get(name)!, q) : q);
}

/** maxResourceList: the larger of each name into `list`. */
function maxInto(list: ResourceList, other: ResourceList): void {
  for (const [name, q] of other) if (!list.has(name) || compareQuantities(q, list.get(name)!) > 0) list.set(name, q);
}

interface ContainerResources {
  resources?: { requests?: unknown; limits?: unknown };
  restartPolicy?: string;
}

/**
 * A pod's effective requests or limits: its containers run together (sum), its init containers
 * one at a time (max), except restartable (sidecar) init containers, which keep running and so
 * add to the total and to every init container after them.
 */
export function podTotal(spec: unknown, which: 'requests' | 'limits'): ResourceList {
  const s = isPlainObject(spec) ? (spec as { containers?: unknown; initContainers?: unknown }) : {};
  const containers = (Array.isArray(s.containers) ? s.containers : []) as ContainerResources[];
  const inits = (Array.isArray(s.initContainers) ? s.initContainers : []) as ContainerResources[];
  const total: ResourceList = new Map();
  for (const c of containers) addInto(total, readResourceList(c?.resources?.[which]));
  const sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of inits) {
    const own = readResourceList(c?.resources?.[which]);
    if (c?.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      maxInto(initMax, sidecars);
    } else {
      const running: ResourceList = new Map();
      addInto(running, own);
      addInto(running, sidecars);
      maxInto(initMax, running);
    }
  }
  maxInto(total, initMax);
  return total;
}
