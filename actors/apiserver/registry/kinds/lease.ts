// Leases (coordination.k8s.io/v1): a PUT on a missing name creates one, as node agents and leader
// elections renew them. printLease.
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, nameColumn, nameOf, text } from '../tables-format.ts';

export const lease = defineKind({
  nameRule: 'subdomain',
  hasStatus: false,
  hasGeneration: false,
  allowCreateOnUpdate: true,
  printer: {
    columns: [nameColumn, column('Holder', 'holderIdentity contains the identity of the holder of a current lease.'), ageColumn],
    cells: (o, nowMs) => [nameOf(o), text(fields(o.spec).holderIdentity), age(o, nowMs)],
  },
});
