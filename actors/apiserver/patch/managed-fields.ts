// metadata.managedFields in and out: who manages which fields (apimachinery
// pkg/util/managedfields/internal: managedfields.go, stripmeta.go, conflict.go printManager).
import type { ManagedFieldsEntry } from '../../api/types.ts';
import { FieldSet } from './field-set.ts';
import { isObject } from './json-value.ts';

export interface Manager {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  subresource?: string;
  fields: FieldSet;
}

/** Managers by identity: an applier is one entry whatever the version; an updater one per version. */
export type Managers = Map<string, Manager>;

/** The identity the real server keys managers by: the entry without fields and time. */
export function managerIdentity(m: Pick<Manager, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  const id: Record<string, string> = { manager: m.manager, operation: m.operation };
  if (m.operation === 'Update') id.apiVersion = m.apiVersion;
  if (m.subresource) id.subresource = m.subresource;
  return JSON.stringify(id);
}

/** How conflict messages name a manager: `"kubectl"`, `"kubectl-create" using v1`. */
export function describeManager(m: Manager): string {
  let text = JSON.stringify(m.manager);
  if (m.subresource) text += ` with subresource ${JSON.stringify(m.subresource)}`;
  return m.operation === 'Update' ? `${text} using ${m.apiVersion}` : text;
}

/** `managedFields: []` or `[{}]` in a write asks the server to forget all managers. */
export function isResetRequest(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  return entries.length === 0 || (entries.length === 1 && isObject(entries[0]) && Object.keys(entries[0]).length === 0);
}

/**
 * Decodes entries; undefined when any entry is malformed (the server then ignores them).
 * `stored`: the entries of a stored object (see FieldSet.fromFieldsV1).
 */
export function decodeManagers(entries: unknown, stored = false): Managers | undefined {
  const managers: Managers = new Map();
  if (entries === undefined || entries === null) return managers;
  if (!Array.isArray(entries)) return undefined;
  for (const e of entries as unknown[]) {
    if (!isObject(e)) return undefined;
    const { manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource } = e;
    if (operation !== 'Apply' && operation !== 'Update') return undefined;
    if (typeof apiVersion !== 'string' || apiVersion === '' || fieldsType !== 'FieldsV1') return undefined;
    const m: Manager = { manager: typeof manager === 'string' ? manager : '', operation, apiVersion, fields: FieldSet.fromFieldsV1(fieldsV1, stored) };
    if (typeof time === 'string') m.time = time;
    if (typeof subresource === 'string' && subresource) m.subresource = subresource;
    managers.set(managerIdentity(m), m);
  }
  return managers;
}

/** Encodes managers in the server's order: appliers first, then by time, manager, version. */
export function encodeManagers(managers: Managers): ManagedFieldsEntry[] | undefined {
  const list = [...managers.values()].filter((m) => !m.fields.isEmpty());
  if (list.length === 0) return undefined;
  if (list.length > 1) {
    // Each time parsed once, not twice per comparison: every write of an object encodes its managers.
    const seconds = new Map(list.map((m) => [m, m.time ? Math.floor(Date.parse(m.time) / 1000) || 0 : 0]));
    list.sort((p, q) => compareManagers(p, q, seconds));
  }
  return list.map((m) => {
    const entry: ManagedFieldsEntry = { manager: m.manager, operation: m.operation, apiVersion: m.apiVersion };
    if (m.time !== undefined) entry.time = m.time;
    entry.fieldsType = 'FieldsV1';
    entry.fieldsV1 = m.fields.toFieldsV1();
    if (m.subresource) entry.subresource = m.subresource;
    return entry;
  });
}

function compareManagers(p: Manager, q: Manager, seconds: Map<Manager, number>): number {
  return (
    cmp(p.operation, q.operation) ||
    seconds.get(p)! - seconds.get(q)! ||
    cmp(p.manager, q.manager) ||
    cmp(p.apiVersion, q.apiVersion) ||
    cmp(p.subresource ?? '', q.subresource ?? '')
  );
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// Fields no manager owns: type meta and the metadata the server sets (stripmeta.go).
const SYSTEM_FIELDS = FieldSet.of([
  ['f:apiVersion'],
  ['f:kind'],
  ['f:metadata'],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map(
    (f) => ['f:metadata', `f:${f}`],
  ),
]);

export const withoutSystemFields = (fields: FieldSet): FieldSet => fields.difference(SYSTEM_FIELDS);
