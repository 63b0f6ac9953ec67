// The reviews under RBAC: what `kubectl auth can-i [--list]` and `auth whoami` ask, and the
// access reviews about other users, each answered by the same chain that authorizes requests.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type Harness } from '../../../helpers/in-process-server.ts';

const TOKENS: [string, { username: string; uid: string; groups: string[] }][] = [
  ['admin-token', { username: 'root', uid: 'u0', groups: ['system:masters', 'system:authenticated'] }],
  ['alice-token', { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'] }],
  ['node-token', { username: 'system:node:n1', uid: 'u2', groups: ['system:nodes', 'system:authenticated'] }],
];
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const ADMIN = as('admin-token');
const ALICE = as('alice-token');
const AUTHZ = '/apis/authorization.k8s.io/v1';

async function cluster(): Promise<Harness> {
  const h = await startServer({ authorizationMode: ['Node', 'RBAC'], tokens: new Map(TOKENS) });
  await h.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { metadata: { name: 'reader' },
    rules: [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'], resourceNames: ['web'] }] }, ADMIN);
  await h.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', { metadata: { name: 'alice-reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }] }, ADMIN);
  return h;
}

test('SelfSubjectReview says who the requester is', async () => {
  const h = await cluster();
  const r = await h.post('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, ALICE);
  assert.is(r.status, 201);
  assert.equal(r.json.status.userInfo, { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'] });
});

test('SelfSubjectRulesReview lists the rules of the namespace and the cluster', async () => {
  const h = await cluster();
  const r = await h.post(`${AUTHZ}/selfsubjectrulesreviews`, { spec: { namespace: 'default' } }, ALICE);
  assert.is(r.status, 201);
  const rules = r.json.status.resourceRules;
  assert.ok(rules.some((x: any) => x.resources.join() === 'pods,pods/log' && x.verbs.join() === 'get,list'));
  assert.ok(rules.some((x: any) => x.resourceNames?.join() === 'web'));
  assert.ok(rules.some((x: any) => x.resources.includes('selfsubjectaccessreviews')), 'system:basic-user is cluster-wide');
  assert.ok(r.json.status.nonResourceRules.some((x: any) => x.nonResourceURLs.includes('/version')));
  assert.is(r.json.status.incomplete, false);
  const elsewhere = await h.post(`${AUTHZ}/selfsubjectrulesreviews`, { spec: { namespace: 'orch-system' } }, ALICE);
  assert.not.ok(elsewhere.json.status.resourceRules.some((x: any) => x.resources.includes('pods')));
  const node = await h.post(`${AUTHZ}/selfsubjectrulesreviews`, { spec: { namespace: 'default' } }, as('node-token'));
  assert.is(node.json.status.incomplete, true);
  assert.is(node.json.status.evaluationError, 'node authorizer does not support user rule resolution');
});

test('access reviews agree with the requests they describe', async () => {
  const h = await cluster();
  const sar = (spec: object) => h.post(`${AUTHZ}/subjectaccessreviews`, { spec }, ADMIN);
  const ask = async (verb: string, resource: string, extra: object = {}) =>
    (await sar({ user: 'alice', groups: ['dev', 'system:authenticated'], resourceAttributes: { verb, resource, namespace: 'default', ...extra } })).json.status.allowed;
  assert.is(await ask('list', 'pods'), true);
  assert.is((await h.get('/api/v1/namespaces/default/pods', ALICE)).status, 200);
  assert.is(await ask('delete', 'pods', { name: 'p' }), false);
  assert.is((await h.del('/api/v1/namespaces/default/pods/p', ALICE)).status, 403);
  assert.is(await ask('get', 'deployments', { group: 'apps', name: 'web' }), true);
  assert.is(await ask('get', 'deployments', { group: 'apps', name: 'db' }), false);
  assert.is(await ask('get', 'pods', { subresource: 'log', name: 'p' }), true);
  const none = await sar({ resourceAttributes: { verb: 'get', resource: 'pods' } });
  assert.is(none.status, 422);
  assert.match(none.json.message, /at least one of user or group must be specified/);
  // A user without the right to create SubjectAccessReviews may not ask about others.
  assert.is((await h.post(`${AUTHZ}/subjectaccessreviews`, { spec: { user: 'root', resourceAttributes: { verb: 'get', resource: 'pods' } } }, ALICE)).status, 403);
});

test('a LocalSubjectAccessReview must name its own namespace', async () => {
  const h = await cluster();
  const ok = await h.post(`${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { spec: { user: 'alice', resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } } }, ADMIN);
  assert.is(ok.status, 201);
  assert.is(ok.json.status.allowed, true);
  const other = await h.post(`${AUTHZ}/namespaces/default/localsubjectaccessreviews`, { spec: { user: 'alice', resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'kube' } } }, ADMIN);
  assert.is(other.status, 400);
  assert.is(other.json.message, 'spec.resourceAttributes.namespace must match namespace: default');
});

test.run();
