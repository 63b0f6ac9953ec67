// Printers for the one-resource groups orchsim serves: coordination.k8s.io leases and policy pod
// disruption budgets (printers.go printLease, printPodDisruptionBudget).
import type { KObject } from '../../api/types.ts';
import { translateTimestampSince } from './human-duration.ts';
import { ageColumn, column, fields, int, integer, nameColumn, type Printer, text } from './tables-format.ts';

const lease: Printer = {
  columns: [nameColumn, column('Holder', 'holderIdentity contains the identity of the holder of a current lease.'), ageColumn],
  cells: (o, nowMs) => [o.metadata.name ?? '', text(fields(o.spec).holderIdentity), translateTimestampSince(o.metadata.creationTimestamp, nowMs)],
};

const podDisruptionBudget: Printer = {
  columns: [
    nameColumn,
    column('Min Available', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'Calculated number of pods that may be disrupted at this time.', integer),
    ageColumn,
  ],
  cells(o: KObject, nowMs: number) {
    const spec = fields(o.spec);
    return [o.metadata.name ?? '', intOrString(spec.minAvailable), intOrString(spec.maxUnavailable),
      int(fields(o.status).disruptionsAllowed), translateTimestampSince(o.metadata.creationTimestamp, nowMs)];
  },
};

/** An IntOrString as its String(), or "N/A" when unset. */
function intOrString(v: unknown): string {
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  return 'N/A';
}

/** Printers keyed by `group/resource`. */
export const GROUP_PRINTERS: Readonly<Record<string, Printer>> = {
  'coordination.k8s.io/leases': lease,
  'policy/poddisruptionbudgets': podDisruptionBudget,
};
