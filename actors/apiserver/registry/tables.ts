// The server-side Table form (`Accept: ...;as=Table;g=meta.k8s.io;v=v1`): the columns and cells of
// a kind's printer (kinds/*.ts, after kubernetes pkg/printers/internalversion/printers.go, 1.32),
// and for a kind without one the default convertor's Name and Created At
// (apiserver pkg/registry/rest/table.go).
//
// The server always prints wide: priority-1 columns and their cells are always there, and
// kubectl hides them unless asked for `-o wide`.
import type { KObject } from '../../api/types.ts';
import { GO_ZERO_TIME_MS, parseTimestampMs } from './human-duration.ts';
import type { Kind } from './kind.ts';
import { column, CREATED_DOC, nameColumn } from './tables-format.ts';

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

const DEFAULT_COLUMNS: readonly ColumnDefinition[] = [nameColumn, column('Created At', CREATED_DOC, { type: 'date' })];

/** The Table's columnDefinitions for a kind: fresh objects the caller may change. */
export function tableColumns(kind: Kind): ColumnDefinition[] {
  return (kind.printer?.columns ?? DEFAULT_COLUMNS).map((c) => ({ ...c }));
}

/** A list's items in the order its rows are printed: the printer's, else as listed. */
export function tableOrder(kind: Kind, items: KObject[]): KObject[] {
  const order = kind.printer?.order;
  return order ? [...items].sort(order) : items;
}

/** One row's cells for `obj`, in column order; ages are measured at `nowMs`. */
export function tableCells(kind: Kind, obj: KObject, nowMs: number): unknown[] {
  if (kind.printer) return kind.printer.cells(obj, nowMs);
  return [obj.metadata.name ?? '', formatRfc3339(parseTimestampMs(obj.metadata.creationTimestamp) ?? GO_ZERO_TIME_MS)];
}

/** Go's Time.UTC().Format(time.RFC3339): whole seconds, "Z"; the zero time is 0001-01-01T00:00:00Z. */
function formatRfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
