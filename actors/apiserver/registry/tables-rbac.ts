// Printers for rbac.authorization.k8s.io bindings (printers.go printRoleBinding,
// printClusterRoleBinding). Roles and cluster roles have no printer in the real server: they get
// the default Name and Created At columns, as here.
import type { KObject } from '../../api/types.ts';
import { translateTimestampSince } from './human-duration.ts';
import { ageColumn, column, fields, list, nameColumn, type Printer, text, wide } from './tables-format.ts';

// The column docs are rbac/v1beta1's roleRef docs, which is what 1.32's printers.go quotes.
const ROLE_REF_DOC = 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';
const CLUSTER_ROLE_REF_DOC = 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';

/**
 * The subjects' names by kind, each list joined with ", ": users, groups, and service accounts
 * as namespace/name (rbac.SubjectsStrings). Subjects of other kinds are not shown.
 */
function subjectCells(subjects: unknown): [users: string, groups: string, serviceAccounts: string] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const s of list(subjects).map((x) => fields(x))) {
    if (s.kind === 'User') users.push(text(s.name));
    else if (s.kind === 'Group') groups.push(text(s.name));
    else if (s.kind === 'ServiceAccount') serviceAccounts.push(`${text(s.namespace)}/${text(s.name)}`);
  }
  return [users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
}

/** Name, Role (Kind/name), Age, and the wide Users, Groups and ServiceAccounts. */
function bindingPrinter(what: string, roleRefDoc: string): Printer {
  return {
    columns: [
      nameColumn,
      column('Role', roleRefDoc),
      ageColumn,
      column('Users', `Users in the ${what}`, wide),
      column('Groups', `Groups in the ${what}`, wide),
      column('ServiceAccounts', `ServiceAccounts in the ${what}`, wide),
    ],
    cells(o: KObject, nowMs: number) {
      const ref = fields(o.roleRef);
      return [o.metadata.name ?? '', `${text(ref.kind)}/${text(ref.name)}`, translateTimestampSince(o.metadata.creationTimestamp, nowMs),
        ...subjectCells(o.subjects)];
    },
  };
}

/** Printers keyed by resource. */
export const RBAC_PRINTERS: Readonly<Record<string, Printer>> = {
  rolebindings: bindingPrinter('roleBinding', ROLE_REF_DOC),
  clusterrolebindings: bindingPrinter('clusterRoleBinding', CLUSTER_ROLE_REF_DOC),
};
