// PodDisruptionBudgets (policy/v1): a status subresource and generations. printPodDisruptionBudget.
import type { KObject } from '../../../api/types.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, int, integer, nameColumn, nameOf } from '../tables-format.ts';

/** An IntOrString as its String(), or "N/A" when unset. */
function intOrString(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  return 'N/A';
}

export const podDisruptionBudget = defineKind({
  nameRule: 'subdomain',
  hasStatus: true,
  hasGeneration: true,
  printer: {
    columns: [
      nameColumn,
      column('Min Available', 'The minimum number of pods that must be available.'),
      column('Max Unavailable', 'The maximum number of pods that may be unavailable.'),
      column('Allowed Disruptions', 'Calculated number of pods that may be disrupted at this time.', integer),
      ageColumn,
    ],
    cells(o: KObject, nowMs: number) {
      const spec = fields(o.spec);
      return [nameOf(o), intOrString(spec.minAvailable), intOrString(spec.maxUnavailable), int(fields(o.status).disruptionsAllowed), age(o, nowMs)];
    },
  },
});
