// rbac.authorization.k8s.io/v1 kinds (k8s.io/api rbac/v1 generated.proto), which kubectl create
// role, clusterrole, rolebinding and clusterrolebinding send as Protobuf.
import { LabelSelector, ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

// verbs and rules carry no omitempty in Go: JSON always has them.
const PolicyRule = message('PolicyRule', [
  [1, 'verbs', 'string', 'list', 'keep'],
  [2, 'apiGroups', 'string', 'list'],
  [3, 'resources', 'string', 'list'],
  [4, 'resourceNames', 'string', 'list'],
  [5, 'nonResourceURLs', 'string', 'list'],
]);

// A Subject's apiGroup is omitempty (a ServiceAccount's is ""); kind and name are not.
const Subject = message('Subject', [
  [1, 'kind', 'string', 'keep'],
  [2, 'apiGroup', 'string'],
  [3, 'name', 'string', 'keep'],
  [4, 'namespace', 'string'],
]);

const RoleRef = message('RoleRef', [
  [1, 'apiGroup', 'string', 'keep'],
  [2, 'kind', 'string', 'keep'],
  [3, 'name', 'string', 'keep'],
]);

export const Role = message('Role', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'rules', PolicyRule, 'list', 'keep'],
]);

export const ClusterRole = message('ClusterRole', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'rules', PolicyRule, 'list', 'keep'],
  [3, 'aggregationRule', message('AggregationRule', [[1, 'clusterRoleSelectors', LabelSelector, 'list']])],
]);

/** RoleBinding and ClusterRoleBinding share one shape; only validation tells them apart. */
function binding(name: string) {
  return message(name, [
    [1, 'metadata', ObjectMeta, 'keep'],
    [2, 'subjects', Subject, 'list'],
    [3, 'roleRef', RoleRef, 'keep'],
  ]);
}

export const RoleBinding = binding('RoleBinding');
export const ClusterRoleBinding = binding('ClusterRoleBinding');
