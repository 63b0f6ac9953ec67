// RBAC end to end in process: bootstrap roles, Roles and bindings granting what they say, the
// 403 wording, the escalation and bind checks, non-resource paths, and resource paths not served.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type Harness } from '../../../helpers/in-process-server.ts';

const TOKENS: [string, { username: string; groups: string[] }][] = [
  ['admin-token', { username: 'root', groups: ['system:masters', 'system:authenticated'] }],
  ['alice-token', { username: 'alice', groups: ['dev', 'system:authenticated'] }],
  ['bob-token', { username: 'bob', groups: ['system:authenticated'] }],
];
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const ADMIN = as('admin-token');
const ALICE = as('alice-token');
const BOB = as('bob-token');

async function cluster(): Promise<Harness> {
  return startServer({ authorizationMode: ['Node', 'RBAC'], tokens: new Map(TOKENS) });
}

const role = (name: string, rules: object[], ns = 'default') => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace: ns }, rules });
const binding = (name: string, roleRef: object, subjects: object[], ns = 'default') =>
  ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name, namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef }, subjects });
const user = (name: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

test('the bootstrap roles and bindings exist from the start', async () => {
  const h = await cluster();
  const roles = await h.get(`${RBAC}/clusterroles`, ADMIN);
  const names = roles.json.items.map((r: any) => r.metadata.name);
  for (const n of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:kube-scheduler', 'system:kube-controller-manager'])
    assert.ok(names.includes(n), n);
  const admin = roles.json.items.find((r: any) => r.metadata.name === 'cluster-admin');
  assert.is(admin.metadata.labels['kubernetes.io/bootstrapping'], 'rbac-defaults');
  const bindings = await h.get(`${RBAC}/clusterrolebindings/cluster-admin`, ADMIN);
  assert.equal(bindings.json.subjects, [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }]);
});

test('a user with no binding is forbidden, in the real wording', async () => {
  const h = await cluster();
  const r = await h.get('/api/v1/namespaces/default/pods', BOB);
  assert.is(r.status, 403);
  assert.is(r.json.message, 'pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default"');
  assert.equal(r.json.details, { group: '', kind: 'pods' });
  const s = await h.get('/api/v1/namespaces/default/secrets/x', BOB);
  assert.is(s.json.message, 'secrets "x" is forbidden: User "bob" cannot get resource "secrets" in API group "" in the namespace "default"');
  const n = await h.get('/api/v1/nodes', BOB);
  assert.is(n.json.message, 'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope');
});

test('a Role bound to a user grants exactly its rules, in its namespace only', async () => {
  const h = await cluster();
  assert.is((await h.post(`${RBAC}/namespaces/default/roles`, role('pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]), ADMIN)).status, 201);
  assert.is((await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('read-pods', { kind: 'Role', name: 'pod-reader' }, [user('alice')]), ADMIN)).status, 201);
  assert.is((await h.get('/api/v1/namespaces/default/pods', ALICE)).status, 200);
  assert.is((await h.get('/api/v1/namespaces/orch-system/pods', ALICE)).status, 403);
  assert.is((await h.get('/api/v1/pods', ALICE)).status, 403);
  assert.is((await h.post('/api/v1/namespaces/default/pods', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } }, ALICE)).status, 403);
  assert.is((await h.get('/api/v1/namespaces/default/pods/p/status', ALICE)).status, 403, 'a subresource is apart from its parent');
  assert.is((await h.get('/api/v1/namespaces/default/pods', BOB)).status, 403);
});

test('a group subject and a ClusterRole through a RoleBinding', async () => {
  const h = await cluster();
  await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('devs-view', { kind: 'ClusterRole', name: 'system:aggregate-to-view' }, [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'dev' }]), ADMIN);
  assert.is((await h.get('/apis/apps/v1/namespaces/default/deployments', ALICE)).status, 200);
  assert.is((await h.get('/api/v1/namespaces/default/secrets', ALICE)).status, 403, 'view does not read secrets');
  assert.is((await h.get('/apis/apps/v1/namespaces/kube-public/deployments', ALICE)).status, 403);
});

test('a binding to a missing role says so in the 403', async () => {
  const h = await cluster();
  await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('dangling', { kind: 'Role', name: 'nope' }, [user('alice')]), ADMIN);
  const r = await h.get('/api/v1/namespaces/default/pods', ALICE);
  assert.is(r.status, 403);
  assert.match(r.json.message, /: RBAC: role.rbac.authorization.k8s.io "nope" not found$/);
});

test('nobody grants what they do not hold: the escalation check', async () => {
  const h = await cluster();
  await h.post(`${RBAC}/namespaces/default/roles`, role('role-admin', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'get', 'list'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), ADMIN);
  await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('alice-roles', { kind: 'Role', name: 'role-admin' }, [user('alice')]), ADMIN);
  // Rules alice holds: fine.
  assert.is((await h.post(`${RBAC}/namespaces/default/roles`, role('getter', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]), ALICE)).status, 201);
  // Rules she does not: 403 listing them.
  const r = await h.post(`${RBAC}/namespaces/default/roles`, role('deleter', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'delete'] }, { apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]), ALICE);
  assert.is(r.status, 403);
  assert.is(r.json.message, 'roles.rbac.authorization.k8s.io "deleter" is forbidden: user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n'
    + '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["secrets"], Verbs:["list"]}');
  assert.is((await h.get(`${RBAC}/namespaces/default/roles/deleter`, ADMIN)).status, 404, 'nothing was written');
  // Dry run is checked alike.
  assert.is((await h.post(`${RBAC}/namespaces/default/roles?dryRun=All`, role('deleter', [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }]), ALICE)).status, 403);
  // Binding a role she holds: fine; binding cluster-admin: forbidden; binding a missing role: 404.
  assert.is((await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('b1', { kind: 'Role', name: 'getter' }, [user('bob')]), ALICE)).status, 201);
  assert.is((await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('b2', { kind: 'ClusterRole', name: 'cluster-admin' }, [user('bob')]), ALICE)).status, 403);
  assert.is((await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('b3', { kind: 'Role', name: 'missing' }, [user('bob')]), ALICE)).status, 404);
  assert.is((await h.get('/api/v1/namespaces/default/pods', BOB)).status, 403, 'getter grants get, not list');
});

test('the escalate and bind verbs let a user grant what they do not hold', async () => {
  const h = await cluster();
  await h.post(`${RBAC}/namespaces/default/roles`, role('granter', [
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create'] },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] },
    { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['bind'], resourceNames: ['edit'] }]), ADMIN);
  await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('alice-granter', { kind: 'Role', name: 'granter' }, [user('alice')]), ADMIN);
  assert.is((await h.post(`${RBAC}/namespaces/default/roles`, role('all-secrets', [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }]), ALICE)).status, 201);
  assert.is((await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('bob-edit', { kind: 'ClusterRole', name: 'edit' }, [user('bob')]), ALICE)).status, 201);
  assert.is((await h.post(`${RBAC}/namespaces/default/rolebindings`, binding('bob-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, [user('bob')]), ALICE)).status, 403);
});

test('anonymous requests reach health, version and discovery only', async () => {
  const h = await cluster();
  for (const path of ['/healthz', '/livez', '/readyz', '/version', '/api', '/apis', '/api/v1', '/apis/apps/v1', '/openapi/v3'])
    assert.is((await h.get(path)).status, 200, path);
  const m = await h.get('/metrics');
  assert.is(m.status, 403);
  assert.is(m.json.message, 'forbidden: User "system:anonymous" cannot get path "/metrics"');
  assert.is((await h.get('/api/v1/namespaces')).status, 403);
  assert.is((await h.get('/api/v1/namespaces/default/secrets')).status, 403);
  assert.is((await h.del('/api/v1/nodes/n1')).status, 403);
  // An authenticated user may review itself.
  const ssar = await h.post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } } }, BOB);
  assert.is(ssar.status, 201);
  assert.is(ssar.json.status.allowed, false);
});

test('a resource or subresource not served is authorized as the resource its path names: 403 to who may not ask, 404 or 405 to who may', async () => {
  const h = await cluster();
  const cases: [string, string, string][] = [
    ['GET', '/api/v1/namespaces/default/pods/p/log', 'pods "p" is forbidden: User "bob" cannot get resource "pods/log" in API group "" in the namespace "default"'],
    ['GET', '/apis/widgets.example.com/v1/namespaces/default/gadgets', 'gadgets.widgets.example.com is forbidden: User "bob" cannot list resource "gadgets" in API group "widgets.example.com" in the namespace "default"'],
    ['GET', '/api/v2/nodes?watch=true', 'nodes is forbidden: User "bob" cannot watch resource "nodes" in API group "" at the cluster scope'],
    ['DELETE', '/api/v1/secrets', 'secrets is forbidden: User "bob" cannot deletecollection resource "secrets" in API group "" at the cluster scope'],
    ['POST', '/api/v1/namespaces/default/pods/p/exec/more', 'pods "p" is forbidden: User "bob" cannot create resource "pods/exec" in API group "" in the namespace "default"'],
  ];
  for (const [method, path, message] of cases) {
    const refused = await h.call(method, path, { headers: BOB });
    assert.equal([refused.status, refused.json.message], [403, message], `${method} ${path}`);
    assert.is((await h.call(method, path, { headers: ADMIN })).status, method === 'DELETE' ? 405 : 404, `${method} ${path} as an administrator`);
  }
});

test('system:masters may do anything, even under AlwaysDeny', async () => {
  const h = await startServer({ authorizationMode: ['AlwaysDeny'], tokens: new Map(TOKENS) });
  assert.is((await h.get('/api/v1/namespaces/default/secrets', ADMIN)).status, 200);
  assert.is((await h.get('/api/v1/namespaces/default/secrets', BOB)).status, 403);
});

test.run();
