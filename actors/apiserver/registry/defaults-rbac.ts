// RBAC defaults (kubernetes pkg/apis/rbac/v1 defaults.go): a binding's roleRef and its User and
// Group subjects belong to rbac.authorization.k8s.io unless they say otherwise.
import type { KObject } from '../../api/types.ts';
import { child, fill, items, zero } from './defaults-fields.ts';
import { RBAC_GROUP } from './rbac-validation.ts';

/** RoleBindings and ClusterRoleBindings alike. A ServiceAccount subject's group stays "". */
export function defaultBinding(binding: KObject): void {
  fill(child(binding, 'roleRef'), [zero('apiGroup', RBAC_GROUP)]);
  for (const subject of items(binding, 'subjects'))
    if (subject.kind === 'User' || subject.kind === 'Group') fill(subject, [zero('apiGroup', RBAC_GROUP)]);
}
