// The rbac.authorization.k8s.io/v1 kinds: Roles, ClusterRoles, RoleBindings, ClusterRoleBindings.
// Their names are path segments, not DNS subdomains; a binding's roleRef never changes and it and
// its User and Group subjects belong to the RBAC group unless they say otherwise (pkg/apis/rbac/v1
// defaults.go). Bindings print their role and subjects (printRoleBinding); roles have no printer
// in the real server and get the default Name and Created At columns.
import type { KObject } from '../../../api/types.ts';
import { child, fill, items, zero } from '../defaults-fields.ts';
import { defineKind, type Kind, type KindRules } from '../kind.ts';
import {
  RBAC_GROUP, validateBindingUpdate, validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding,
} from '../rbac-validation.ts';
import { age, ageColumn, column, fields, list, nameColumn, nameOf, type Printer, text, wide } from '../tables-format.ts';

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
      return [nameOf(o), `${text(ref.kind)}/${text(ref.name)}`, age(o, nowMs),
        ...subjectCells(o.subjects)];
    },
  };
}

/** RoleBindings and ClusterRoleBindings alike. A ServiceAccount subject's group stays "". */
function defaultBinding(binding: KObject): void {
  fill(child(binding, 'roleRef'), [zero('apiGroup', RBAC_GROUP)]);
  for (const subject of items(binding, 'subjects'))
    if (subject.kind === 'User' || subject.kind === 'Group') fill(subject, [zero('apiGroup', RBAC_GROUP)]);
}

const rbacKind = (rules: Omit<KindRules, 'nameRule' | 'hasStatus' | 'hasGeneration'>): Kind =>
  defineKind({ nameRule: 'path', hasStatus: false, hasGeneration: false, ...rules });

export const role = rbacKind({ validate: validateRole });
export const clusterRole = rbacKind({ validate: validateClusterRole });
export const roleBinding = rbacKind({ validate: validateRoleBinding, validateUpdate: validateBindingUpdate, defaults: defaultBinding,
  printer: bindingPrinter('roleBinding', ROLE_REF_DOC) });
export const clusterRoleBinding = rbacKind({ validate: validateClusterRoleBinding, validateUpdate: validateBindingUpdate, defaults: defaultBinding,
  printer: bindingPrinter('clusterRoleBinding', CLUSTER_ROLE_REF_DOC) });
