// ControllerRevisions (apps/v1, seed 000): an immutable snapshot; `revision` is not negative and
// `data` never changes once created. printControllerRevision.
import type { KObject, OwnerReference } from '../../../api/types.ts';
import { deepEqual } from '../deep-equal.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, int, nameColumn } from '../tables-format.ts';
import { immutable, notNegative } from './rules.ts';


/** `daemonset.apps/ds-1` from the controlling owner reference, or "<none>" (formatResourceName). */
function controllerName(o: KObject): string {
  const ref: OwnerReference | undefined = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = ref.kind ?? '';
  if (!group && !kind) return ref.name;
  return `${(group ? `${kind}.${group}` : kind).toLowerCase()}/${ref.name}`;
}

export const controllerRevision = defineKind({
  nameRule: 'subdomain',
  hasStatus: false,
  hasGeneration: false,
  validate: (obj) => (typeof obj.revision === 'number' && obj.revision < 0 ? [notNegative('revision', obj.revision)] : []),
  // Seed 000: once created, data cannot be changed by any request.
  validateUpdate: (obj, old) => (deepEqual(obj.data, old.data) ? [] : [immutable('data', obj.data ?? null)]),
  printer: {
    columns: [
      nameColumn,
      column('Controller', 'Controller of the object'),
      // The real column says string although the cell is the revision number.
      column('Revision', 'Revision indicates the revision of the state represented by Data.'),
      ageColumn,
    ],
    cells: (o, nowMs) => [o.metadata.name ?? '', controllerName(o), int(o.revision), age(o, nowMs)],
  },
});
