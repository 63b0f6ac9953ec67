// Classification against the bootstrap configuration, as the real server classifies: the first
// FlowSchema in matching order (precedence, then name) whose rules match the request's user,
// verb, resource and namespace (or path) names its priority level.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { UserInfo } from '../../../../actors/apiserver/auth/authorizer.ts';
import { requestDigest } from '../../../../actors/apiserver/flowcontrol/index.ts';
import { requestInfo } from '../../../../actors/apiserver/request-info.ts';
import { heldServer } from '../server/held-server.ts';

const h = await heldServer();
const fc = h.server.flowControl!;

const AUTHENTICATED = 'system:authenticated';
const ADMIN: UserInfo = { username: 'admin', groups: ['system:masters', AUTHENTICATED] };
const NODE: UserInfo = { username: 'system:node:n1', groups: ['system:nodes', AUTHENTICATED] };
const SCHEDULER: UserInfo = { username: 'system:kube-scheduler', groups: [AUTHENTICATED] };
const CONTROLLERS: UserInfo = { username: 'system:kube-controller-manager', groups: [AUTHENTICATED] };
const SYSTEM_SA: UserInfo = { username: 'system:serviceaccount:orch-system:replicaset-controller',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:orch-system', AUTHENTICATED] };
const APP_SA: UserInfo = { username: 'system:serviceaccount:default:app', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', AUTHENTICATED] };
const DEV: UserInfo = { username: 'dev', groups: [AUTHENTICATED] };
const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const NOBODY: UserInfo = { username: 'nobody', groups: [] };

/** The flow schema and priority level of a request. */
function classify(user: UserInfo, method: string, url: string): string {
  const s = fc.classify(requestDigest(requestInfo({ method, url, headers: {}, body: new Uint8Array() }), user));
  return `${s.name} -> ${s.level}`;
}

test('system:masters is exempt whatever it asks, and so are anyone\'s health probes', () => {
  assert.is(classify(ADMIN, 'DELETE', '/api/v1/nodes/n1'), 'exempt -> exempt');
  assert.is(classify(ADMIN, 'GET', '/metrics'), 'exempt -> exempt');
  assert.is(classify(ANONYMOUS, 'GET', '/readyz'), 'probes -> exempt');
  assert.is(classify(DEV, 'GET', '/livez/ping'), 'probes -> exempt', 'a rule path covers what lies under it');
  assert.is(classify(DEV, 'POST', '/healthz'), 'global-default -> global-default', 'probes are GETs only');
});

test('nodes report their health in node-high and do the rest in system', () => {
  assert.is(classify(NODE, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1'), 'system-node-high -> node-high');
  assert.is(classify(NODE, 'PATCH', '/api/v1/nodes/n1/status'), 'system-node-high -> node-high');
  assert.is(classify(NODE, 'GET', '/api/v1/nodes/n1'), 'system-node-high -> node-high');
  assert.is(classify(NODE, 'GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1'), 'system-nodes -> system');
  assert.is(classify(NODE, 'GET', '/version'), 'system-nodes -> system');
});

test('leader election before the rest of the scheduler and controller manager traffic', () => {
  assert.is(classify(SCHEDULER, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/orch-system/leases/orch-scheduler'), 'system-leader-election -> leader-election');
  assert.is(classify(SCHEDULER, 'GET', '/apis/coordination.k8s.io/v1/namespaces/orch-system/leases'), 'kube-scheduler -> workload-high', 'list: a verb the rule does not name');
  assert.is(classify(SCHEDULER, 'POST', '/api/v1/namespaces/default/pods/p/binding'), 'kube-scheduler -> workload-high');
  assert.is(classify(CONTROLLERS, 'POST', '/apis/apps/v1/namespaces/default/replicasets'), 'kube-controller-manager -> workload-high');
});

test('service accounts of the system namespace go high, the others low, everyone else to global-default', () => {
  assert.is(classify(SYSTEM_SA, 'GET', '/apis/coordination.k8s.io/v1/namespaces/orch-system/leases/x'), 'system-leader-election -> leader-election');
  assert.is(classify(SYSTEM_SA, 'PUT', '/apis/apps/v1/namespaces/default/replicasets/r/status'), 'kube-system-service-accounts -> workload-high');
  assert.is(classify(APP_SA, 'GET', '/api/v1/namespaces/default/configmaps'), 'service-accounts -> workload-low');
  assert.is(classify(DEV, 'GET', '/api/v1/namespaces/default/configmaps'), 'global-default -> global-default');
  assert.is(classify(ANONYMOUS, 'POST', '/api/v1/namespaces/default/configmaps'), 'global-default -> global-default');
});

test('a request no schema matches falls to catch-all', () => {
  assert.is(classify(NOBODY, 'GET', '/api/v1/namespaces/default/configmaps'), 'catch-all -> catch-all');
});

test('a schema of a lower precedence wins; a namespace list does not match cluster-scoped requests unless clusterScope says so', async () => {
  const FS = '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas';
  const schema = (name: string, precedence: number, rule: Record<string, unknown>) => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema',
    metadata: { name }, spec: { priorityLevelConfiguration: { name: 'workload-low' }, matchingPrecedence: precedence,
      rules: [{ subjects: [{ kind: 'User', user: { name: 'dev' } }], resourceRules: [rule] }] } });
  assert.is((await h.send('POST', FS, schema('dev-configmaps', 500, { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], namespaces: ['team'] }))).status, 201);
  assert.is((await h.send('POST', FS, schema('dev-nodes', 500, { verbs: ['*'], apiGroups: ['*'], resources: ['nodes'], clusterScope: true }))).status, 201);
  assert.is((await h.send('POST', FS, schema('b-dev-all', 600, { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }))).status, 201);
  assert.is(classify(DEV, 'GET', '/api/v1/namespaces/team/configmaps'), 'dev-configmaps -> workload-low');
  assert.is(classify(DEV, 'GET', '/api/v1/namespaces/other/configmaps'), 'b-dev-all -> workload-low');
  assert.is(classify(DEV, 'GET', '/api/v1/configmaps'), 'global-default -> global-default', 'across namespaces: no namespace, and no clusterScope');
  assert.is(classify(DEV, 'GET', '/api/v1/nodes'), 'dev-nodes -> workload-low');
  // Same precedence: the name decides.
  assert.is((await h.send('POST', FS, schema('a-dev-all', 500, { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }))).status, 201);
  assert.is(classify(DEV, 'GET', '/api/v1/namespaces/team/configmaps'), 'a-dev-all -> workload-low');
});

test('a schema whose priority level does not exist is left out, and says so in its Dangling condition', async () => {
  const FS = '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas';
  const created = await h.send('POST', FS, { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'orphan' },
    spec: { priorityLevelConfiguration: { name: 'nowhere' }, matchingPrecedence: 2,
      rules: [{ subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] } });
  assert.is(created.status, 201);
  assert.is(classify(DEV, 'GET', '/version'), 'global-default -> global-default');
  h.clock.advance(0);
  await h.settle();
  const orphan = await h.send('GET', `${FS}/orphan`);
  assert.equal(orphan.json.status.conditions.map((c: Record<string, string>) => [c.type, c.status, c.reason, c.message]),
    [['Dangling', 'True', 'NotFound', 'This FlowSchema references the PriorityLevelConfiguration object named "nowhere" but there is no such object']]);
  const fine = await h.send('GET', `${FS}/global-default`);
  assert.equal(fine.json.status.conditions[0].status, 'False');
  assert.equal(fine.json.status.conditions[0].reason, 'Found');
});

test.run();
