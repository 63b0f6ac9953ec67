// The server-side Table form (`Accept: ...;as=Table;g=meta.k8s.io;v=v1`): the columns and cells of
// the API server's printers (kubernetes pkg/printers/internalversion/printers.go, 1.32), and for
// any other resource the default convertor's Name and Created At (apiserver pkg/registry/rest/table.go).
//
// The server always prints wide: priority-1 columns and their cells are always there, and
// kubectl hides them unless asked for `-o wide`.
import type { KObject } from '../../api/types.ts';
import { GO_ZERO_TIME_MS, parseTimestampMs } from './human-duration.ts';
import { APPS_PRINTERS } from './tables-apps.ts';
import { CORE_PRINTERS } from './tables-core.ts';
import { column, CREATED_DOC, nameColumn, type Printer } from './tables-format.ts';
import { GROUP_PRINTERS } from './tables-groups.ts';
import { POD_PRINTER } from './tables-pods.ts';
import { RBAC_PRINTERS } from './tables-rbac.ts';
import { FLOWCONTROL_PRINTERS } from './tables-flowcontrol.ts';

export interface ColumnDefinition {
  name: string;
  /** An OpenAPI type: string, integer, number, boolean, or date. */
  type: string;
  /** "name" for the column that names the object; otherwise usually empty. */
  format: string;
  description: string;
  /** 0 for the default view; 1 (or more) only with `-o wide`. */
  priority: number;
}

const PRINTERS: ReadonlyMap<string, Printer> = new Map([
  ['/pods', POD_PRINTER],
  ...Object.entries(CORE_PRINTERS).map(([resource, p]) => [`/${resource}`, p] as const),
  ...Object.entries(APPS_PRINTERS).map(([resource, p]) => [`apps/${resource}`, p] as const),
  ...Object.entries(RBAC_PRINTERS).map(([resource, p]) => [`rbac.authorization.k8s.io/${resource}`, p] as const),
  ...Object.entries(FLOWCONTROL_PRINTERS).map(([resource, p]) => [`flowcontrol.apiserver.k8s.io/${resource}`, p] as const),
  ...Object.entries(GROUP_PRINTERS),
]);

const DEFAULT_COLUMNS: readonly ColumnDefinition[] = [nameColumn, column('Created At', CREATED_DOC, { type: 'date' })];

function printerFor(resource: string, group: string): Printer | undefined {
  return PRINTERS.get(`${group}/${resource}`);
}

/** The Table's columnDefinitions for a resource: fresh objects the caller may change. */
export function tableColumns(resource: string, group: string): ColumnDefinition[] {
  return (printerFor(resource, group)?.columns ?? DEFAULT_COLUMNS).map((c) => ({ ...c }));
}

/** A list's items in the order its rows are printed: the printer's, else as listed. */
export function tableOrder(resource: string, group: string, items: KObject[]): KObject[] {
  const order = printerFor(resource, group)?.order;
  return order ? [...items].sort(order) : items;
}

/** One row's cells for `obj`, in column order; ages are measured at `nowMs`. */
export function tableCells(resource: string, group: string, obj: KObject, nowMs: number): unknown[] {
  const printer = printerFor(resource, group);
  if (printer) return printer.cells(obj, nowMs);
  return [obj.metadata.name ?? '', formatRfc3339(parseTimestampMs(obj.metadata.creationTimestamp) ?? GO_ZERO_TIME_MS)];
}

/** Go's Time.UTC().Format(time.RFC3339): whole seconds, "Z"; the zero time is 0001-01-01T00:00:00Z. */
function formatRfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
