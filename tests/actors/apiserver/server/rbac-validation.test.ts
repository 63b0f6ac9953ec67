// Validation and defaulting of the RBAC kinds, with the real server's field errors
// (kubernetes pkg/apis/rbac/validation and rbac/v1 defaults.go, 1.32).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeProtobuf } from '../../../../actors/apiserver/codec/protobuf.ts';
import { MERGE, startServer, type Reply } from '../../../helpers/in-process-server.ts';

const GROUP = 'rbac.authorization.k8s.io';
const BASE = `/apis/${GROUP}/v1`;
const ROLES = `${BASE}/namespaces/default/roles`;
const CLUSTER_ROLES = `${BASE}/clusterroles`;
const BINDINGS = `${BASE}/namespaces/default/rolebindings`;
const CLUSTER_BINDINGS = `${BASE}/clusterrolebindings`;
const PB = 'application/vnd.kubernetes.protobuf';

const role = (name: string, rules: unknown[]) => ({ apiVersion: `${GROUP}/v1`, kind: 'Role', metadata: { name }, rules });
const clusterRole = (name: string, rest: Record<string, unknown>) => ({ apiVersion: `${GROUP}/v1`, kind: 'ClusterRole', metadata: { name }, ...rest });
const binding = (kind: string, name: string, roleRef: unknown, subjects?: unknown[]) =>
  ({ apiVersion: `${GROUP}/v1`, kind, metadata: { name }, roleRef, ...(subjects ? { subjects } : {}) });
const ref = (kind: string, name: string) => ({ apiGroup: GROUP, kind, name });

/** The causes of a 422 as "field: message" lines. */
function causes(r: Reply): string[] {
  assert.is(r.status, 422, r.text);
  assert.is(r.json.reason, 'Invalid');
  return r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
}

test('RBAC objects are named by path segments: colons and capitals pass; "/", "%", "." and ".." do not', async () => {
  const h = await startServer();
  const rule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
  assert.is((await h.post(ROLES, role('system:Reader_1', [rule]))).status, 201);
  assert.is((await h.post(CLUSTER_ROLES, clusterRole('system:controller:Ops', { rules: [rule] }))).status, 201);
  assert.equal(causes(await h.post(ROLES, role('a%b', [rule]))), [`metadata.name: Invalid value: "a%b": may not contain '%'`]);
  assert.equal(causes(await h.post(ROLES, role('a/b%', [rule]))),
    [`metadata.name: Invalid value: "a/b%": may not contain '/'`, `metadata.name: Invalid value: "a/b%": may not contain '%'`]);
  assert.equal(causes(await h.post(CLUSTER_ROLES, clusterRole('..', { rules: [rule] }))), [`metadata.name: Invalid value: "..": may not be '..'`]);
  const b = await h.post(CLUSTER_BINDINGS, binding('ClusterRoleBinding', 'Admins:All', ref('ClusterRole', 'system:controller:Ops')));
  assert.is(b.status, 201, b.text);
});

test('a rule needs verbs, and a resource rule needs apiGroups and resources, in the real words', async () => {
  const h = await startServer();
  const r = await h.post(ROLES, role('r', [{ resources: ['pods'] }, {}]));
  assert.is(r.json.message, 'Role.rbac.authorization.k8s.io "r" is invalid: ['
    + 'rules[0].verbs: Required value: verbs must contain at least one value, '
    + 'rules[0].apiGroups: Required value: resource rules must supply at least one api group, '
    + 'rules[1].verbs: Required value: verbs must contain at least one value, '
    + 'rules[1].apiGroups: Required value: resource rules must supply at least one api group, '
    + 'rules[1].resources: Required value: resource rules must supply at least one resource]');
  assert.equal(r.json.details.causes[0], { reason: 'FieldValueRequired', message: 'Required value: verbs must contain at least one value', field: 'rules[0].verbs' });
});

test('non-resource URLs belong to cluster roles only, and never beside resources', async () => {
  const h = await startServer();
  assert.equal(causes(await h.post(ROLES, role('r', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'] }]))),
    ['rules[0].nonResourceURLs: Invalid value: []string{"/healthz", "/logs/*"}: namespaced rules cannot apply to non-resource URLs']);
  assert.is((await h.post(CLUSTER_ROLES, clusterRole('health', { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }))).status, 201);
  assert.equal(causes(await h.post(CLUSTER_ROLES, clusterRole('mixed', { rules: [{ verbs: ['get'], nonResourceURLs: ['/x'], resourceNames: ['n'] }] }))),
    ['rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs']);
});

test('an aggregation rule needs at least one selector; with one, a cluster role needs no rules', async () => {
  const h = await startServer();
  assert.equal(causes(await h.post(CLUSTER_ROLES, clusterRole('agg', { aggregationRule: { clusterRoleSelectors: [] } }))),
    ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']);
  const ok = await h.post(CLUSTER_ROLES, clusterRole('agg', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'true' } }] } }));
  assert.is(ok.status, 201, ok.text);
});

test('roleRef.apiGroup and the apiGroup of User and Group subjects default to rbac.authorization.k8s.io', async () => {
  const h = await startServer();
  const r = await h.post(BINDINGS, binding('RoleBinding', 'rb', { kind: 'Role', name: 'r' },
    [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'sa' }]));
  assert.is(r.status, 201, r.text);
  assert.equal(r.json.roleRef, { kind: 'Role', name: 'r', apiGroup: GROUP });
  assert.equal(r.json.subjects, [{ kind: 'User', name: 'alice', apiGroup: GROUP }, { kind: 'Group', name: 'devs', apiGroup: GROUP }, { kind: 'ServiceAccount', name: 'sa' }]);
});

test('roleRef must name a Role or ClusterRole of the RBAC group; a cluster role binding only a ClusterRole', async () => {
  const h = await startServer();
  assert.equal(causes(await h.post(BINDINGS, binding('RoleBinding', 'rb', { apiGroup: 'example.com', kind: 'Pod', name: 'a/b' }))), [
    'roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
    'roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"',
    `roleRef.name: Invalid value: "a/b": may not contain '/'`,
  ]);
  assert.equal(causes(await h.post(CLUSTER_BINDINGS, binding('ClusterRoleBinding', 'crb', { kind: 'Role' }))), [
    'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
    'roleRef.name: Required value',
  ]);
  // Without any roleRef, Go decodes the zero struct, which defaulting gives its group.
  assert.equal(causes(await h.post(BINDINGS, binding('RoleBinding', 'none', undefined))), [
    'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
    'roleRef.name: Required value',
  ]);
});

test('subjects: known kinds only, a named service account with no group, named users and groups of the RBAC group', async () => {
  const h = await startServer();
  const r = await h.post(BINDINGS, binding('RoleBinding', 'rb', ref('Role', 'r'), [
    { kind: 'ServiceAccount', name: 'Builder', apiGroup: 'v1' },
    { kind: 'User', name: '', apiGroup: GROUP },
    { kind: 'Group', name: 'devs', apiGroup: 'example.com' },
    { kind: 'Robot', name: 'r2' },
  ]));
  assert.equal(causes(r), [
    'subjects[0].name: Invalid value: "Builder": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    'subjects[0].apiGroup: Unsupported value: "v1": supported values: ""',
    'subjects[1].name: Required value',
    'subjects[1].name: Invalid value: "": user name cannot be empty',
    'subjects[2].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
    'subjects[3].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
  ]);
});

test('a service account subject needs a namespace in a cluster role binding, not in a role binding', async () => {
  const h = await startServer();
  const sa = [{ kind: 'ServiceAccount', name: 'builder' }];
  assert.is((await h.post(BINDINGS, binding('RoleBinding', 'rb', ref('Role', 'r'), sa))).status, 201);
  assert.equal(causes(await h.post(CLUSTER_BINDINGS, binding('ClusterRoleBinding', 'crb', ref('ClusterRole', 'view'), sa))),
    ['subjects[0].namespace: Required value']);
});

test('a binding\'s roleRef cannot change on update; its subjects can', async () => {
  const h = await startServer();
  const created = await h.post(BINDINGS, binding('RoleBinding', 'rb', ref('Role', 'r'), [{ kind: 'User', name: 'alice' }]));
  assert.is(created.status, 201);
  const moved = await h.put(`${BINDINGS}/rb`, { ...created.json, roleRef: ref('ClusterRole', 'admin') });
  assert.is(moved.status, 422);
  assert.is(moved.json.message, 'RoleBinding.rbac.authorization.k8s.io "rb" is invalid: roleRef: Invalid value: '
    + 'rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"admin"}: cannot change roleRef');
  const patched = await h.patch(`${BINDINGS}/rb`, { roleRef: { name: 'other' } }, MERGE);
  assert.equal(causes(patched), ['roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"other"}: cannot change roleRef']);
  const regrouped = await h.patch(`${BINDINGS}/rb`, { subjects: [{ kind: 'Group', name: 'devs' }] }, MERGE);
  assert.is(regrouped.status, 200, regrouped.text);
  assert.equal(regrouped.json.subjects, [{ kind: 'Group', name: 'devs', apiGroup: GROUP }]);
});

test('a cluster role binding sent as Protobuf is validated like JSON', async () => {
  const h = await startServer();
  const before = h.revision();
  const body = encodeProtobuf({ ...binding('ClusterRoleBinding', 'crb', ref('Role', 'r'), [{ kind: 'ServiceAccount', name: 'sa' }]) } as never);
  const r = await h.call('POST', CLUSTER_BINDINGS, { body, headers: { 'content-type': PB } });
  assert.equal(causes(r), ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"', 'subjects[0].namespace: Required value']);
  assert.is(h.revision(), before);
});

test.run();
