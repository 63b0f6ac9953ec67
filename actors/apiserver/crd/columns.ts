// The Table of a custom resource (apiextensions pkg/registry/customresource/tableconvertor, and
// serveDefaultColumnsIfEmpty in pkg/apiserver/helpers.go): Name, then the version's
// additionalPrinterColumns, or Age alone when it has none. A string column prints what its
// JSONPath finds as kubectl's jsonpath prints it; integer, number and boolean columns carry the
// value when its type fits (integers from numbers by truncation), else nothing; a date column
// prints the age of an RFC 3339 time, `<invalid>` for other text.
import type { KObject } from '../../api/types.ts';
import type { Json } from '../../api/types.ts';
import { humanDuration, parseTimestampMs } from '../registry/human-duration.ts';
import { column, type Printer } from '../registry/tables-format.ts';
import { goPrint, isInt64 } from './field-errors.ts';
import { findAll, parseJsonPath, type JsonPath } from './jsonpath.ts';
import type { CustomResourceColumnDefinition } from './types.ts';

const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const CREATED_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const AGE: CustomResourceColumnDefinition = { name: 'Age', type: 'date', description: CREATED_DESCRIPTION, jsonPath: '.metadata.creationTimestamp' };

/** The printer of a version: its columns (with priorities) and one row's cells at `nowMs`. */
export function customPrinter(columns: readonly CustomResourceColumnDefinition[] | undefined): Printer {
  const defs = columns && columns.length > 0 ? columns : [AGE];
  const paths: (JsonPath | undefined)[] = defs.map((c) => {
    const p = parseJsonPath(c.jsonPath);
    return 'error' in p ? undefined : p;
  });
  const headers = [
    column('Name', NAME_DESCRIPTION, { format: 'name' }),
    ...defs.map((c) =>
      column(c.name, c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`, {
        type: c.type,
        format: c.format ?? '',
        priority: c.priority ?? 0,
      }),
    ),
  ];
  return {
    columns: headers,
    cells(obj: KObject, nowMs: number): unknown[] {
      const row: unknown[] = [obj.metadata?.name ?? ''];
      defs.forEach((c, i) => {
        const path = paths[i];
        const found = path ? findAll(path, obj as unknown as Json) : [];
        row.push(found.length === 0 ? null : cell(c.type, found[0] as Json, nowMs));
      });
      return row;
    },
  };
}

function cell(type: string, value: Json, nowMs: number): unknown {
  if (type === 'string') return typeof value === 'string' ? value : goPrint(value);
  if (value === null) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? (isInt64(value) ? value : Math.trunc(value)) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const ms = parseTimestampMs(value);
      return ms === undefined ? '<invalid>' : humanDuration(nowMs - ms);
    }
    default:
      return null;
  }
}
