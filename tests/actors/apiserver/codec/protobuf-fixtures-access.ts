// Objects of the access-control kinds the Protobuf codec serves (rbac/v1, service accounts,
// authentication/v1 and the authorization/v1 reviews), in their JSON shape, with every field the
// codec knows set at least once. As in protobuf-fixtures.ts, no omitempty field holds its zero
// value, since Go's encoding would leave it out.
import type { KObject } from '../../../../actors/api/types.ts';

const RBAC = 'rbac.authorization.k8s.io/v1';

const role: KObject = {
  apiVersion: RBAC,
  kind: 'Role',
  metadata: { name: 'pod-reader', namespace: 'default', labels: { team: 'a' } },
  rules: [
    { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods', 'pods/log'] },
    { verbs: ['update'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'] },
  ],
};

const clusterRole: KObject = {
  apiVersion: RBAC,
  kind: 'ClusterRole',
  metadata: { name: 'system:monitoring' },
  rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics/*'] }],
  aggregationRule: {
    clusterRoleSelectors: [
      { matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } },
      { matchExpressions: [{ key: 'tier', operator: 'In', values: ['ops'] }] },
    ],
  },
};

const roleBinding: KObject = {
  apiVersion: RBAC,
  kind: 'RoleBinding',
  metadata: { name: 'read-pods', namespace: 'default' },
  subjects: [
    { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
    { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
    { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
  ],
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
};

const clusterRoleBinding: KObject = {
  apiVersion: RBAC,
  kind: 'ClusterRoleBinding',
  metadata: { name: 'monitoring' },
  subjects: [{ kind: 'ServiceAccount', name: 'prometheus', namespace: 'monitoring' }],
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:monitoring' },
};

const serviceAccount: KObject = {
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name: 'builder', namespace: 'ci' },
  secrets: [{ kind: 'Secret', namespace: 'ci', name: 'builder-token', uid: 'u-9', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'data' }],
  imagePullSecrets: [{ name: 'registry' }],
  automountServiceAccountToken: false,
};

const tokenRequest: KObject = {
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenRequest',
  metadata: { name: 'builder', namespace: 'ci' },
  spec: {
    audiences: ['https://kubernetes.default.svc', 'vault'],
    expirationSeconds: 3600,
    boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'build-1', uid: 'u-pod' },
    attestations: { 'example.com/node': ['node-1'] },
  },
  status: { token: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln', expirationTimestamp: '2024-01-02T04:04:05Z' },
};

const userInfo = { username: 'system:serviceaccount:ci:builder', uid: 'u-sa', groups: ['system:serviceaccounts', 'system:authenticated'],
  extra: { 'authentication.kubernetes.io/pod-name': ['build-1'] } };

const tokenReview: KObject = {
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenReview',
  metadata: {},
  spec: { token: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln', audiences: ['vault'] },
  status: { authenticated: true, user: userInfo, audiences: ['vault'], error: 'partly' },
};

const selfSubjectReview: KObject = {
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'SelfSubjectReview',
  metadata: {},
  status: { userInfo },
};

const localSubjectAccessReview: KObject = {
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'LocalSubjectAccessReview',
  metadata: { namespace: 'ci' },
  spec: { resourceAttributes: { namespace: 'ci', verb: 'create', resource: 'pods' }, user: 'alice', groups: ['devs'], uid: 'u-a', extra: { scopes: ['x'] } },
  status: { allowed: false, denied: true, reason: 'no binding', evaluationError: 'role "r" not found' },
};

const selfSubjectRulesReview: KObject = {
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SelfSubjectRulesReview',
  metadata: {},
  spec: { namespace: 'default' },
  status: {
    resourceRules: [
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
      { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['web-0'] },
    ],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*'] }],
    incomplete: true,
    evaluationError: 'webhook unreachable',
  },
};

export const accessObjects: Record<string, KObject> = {
  Role: role,
  ClusterRole: clusterRole,
  RoleBinding: roleBinding,
  ClusterRoleBinding: clusterRoleBinding,
  ServiceAccount: serviceAccount,
  TokenRequest: tokenRequest,
  TokenReview: tokenReview,
  SelfSubjectReview: selfSubjectReview,
  LocalSubjectAccessReview: localSubjectAccessReview,
  SelfSubjectRulesReview: selfSubjectRulesReview,
};
