import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../../actors/api/types.ts';
import type { ResourceType } from '../../../../actors/api/resources.ts';
import { kindOf } from '../../../../actors/apiserver/registry/kinds/index.ts';
import * as tables from '../../../../actors/apiserver/registry/tables.ts';

/** The printer of a built-in resource, by plural and group. */
const kind = (resource: string, group: string) => kindOf({ group, resource } as ResourceType);
const tableColumns = (resource: string, group: string) => tables.tableColumns(kind(resource, group));
const tableCells = (resource: string, group: string, o: KObject, nowMs: number) => tables.tableCells(kind(resource, group), o, nowMs);
import { RESOURCES } from '../../../../actors/api/resources.ts';

const NOW = Date.parse('2024-05-03T12:00:00Z');
const CREATED = '2024-05-01T09:00:00Z'; // 2d3h before NOW

function obj(name: string, fields: Record<string, unknown> = {}, meta: Partial<KObject['metadata']> = {}): KObject {
  return { metadata: { name, creationTimestamp: CREATED, ...meta }, ...fields };
}
const names = (resource: string, group = '') => tableColumns(resource, group).map((c) => c.name);
const wideNames = (resource: string, group = '') => tableColumns(resource, group).filter((c) => c.priority > 0).map((c) => c.name);

test('every stored resource has as many cells as columns, and a name column', () => {
  for (const t of RESOURCES.filter((r) => !r.virtual)) {
    const cols = tableColumns(t.resource, t.group);
    assert.is(tableCells(t.resource, t.group, obj('x'), NOW).length, cols.length, t.resource);
    assert.ok(cols.some((c) => c.name === 'Name' && c.format === 'name'), t.resource);
  }
});

test('a resource without a printer gets the default Name and Created At columns', () => {
  const cols = tableColumns('widgets', 'example.com');
  assert.equal(cols.map(({ name, type, format, priority }) => ({ name, type, format, priority })),
    [{ name: 'Name', type: 'string', format: 'name', priority: 0 }, { name: 'Created At', type: 'date', format: '', priority: 0 }]);
  assert.equal(tableCells('widgets', 'example.com', obj('w1'), NOW), ['w1', '2024-05-01T09:00:00Z']);
  assert.equal(tableCells('widgets', 'example.com', obj('w2', {}, { creationTimestamp: undefined }), NOW), ['w2', '0001-01-01T00:00:00Z']);
});

test('the returned columns are the caller\'s to change', () => {
  tableColumns('pods', '').pop();
  assert.is(tableColumns('pods', '').length, 9);
});

test('a cordoned ready node reads Ready,SchedulingDisabled with its roles', () => {
  assert.equal(names('nodes'), ['Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime']);
  const node = obj('node-1', {
    spec: { unschedulable: true },
    status: {
      conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'True' }],
      addresses: [{ type: 'Hostname', address: 'node-1' }, { type: 'InternalIP', address: '10.0.0.5' }],
      nodeInfo: { kubeletVersion: 'v1.32.0', osImage: 'Debian GNU/Linux 12', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.0' },
    },
  }, { labels: { 'node-role.kubernetes.io/control-plane': '', 'node-role.kubernetes.io/etcd': 'true', 'kubernetes.io/hostname': 'node-1' } });
  assert.equal(tableCells('nodes', '', node, NOW),
    ['node-1', 'Ready,SchedulingDisabled', 'control-plane,etcd', '2d3h', 'v1.32.0', '10.0.0.5', '<none>', 'Debian GNU/Linux 12', '6.1.0', 'containerd://1.7.0']);
});

test('node status is NotReady or Unknown from the Ready condition, roles <none> without role labels', () => {
  const notReady = obj('n', { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } });
  assert.equal(tableCells('nodes', '', notReady, NOW).slice(0, 3), ['n', 'NotReady', '<none>']);
  const fresh = obj('n', { spec: { unschedulable: true } }, { labels: { 'kubernetes.io/role': 'worker' } });
  assert.equal(tableCells('nodes', '', fresh, NOW), ['n', 'Unknown,SchedulingDisabled', 'worker', '2d3h', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
});

test('a controller revision names its controller as kind.group/name and carries the revision number', () => {
  const cols = tableColumns('controllerrevisions', 'apps');
  assert.equal(cols.map((c) => [c.name, c.format, c.priority]), [['Name', 'name', 0], ['Controller', '', 0], ['Revision', '', 0], ['Age', '', 0]]);
  const rev = obj('ds-1-6d4b8c7f9', { revision: 3, data: {} }, {
    ownerReferences: [
      { apiVersion: 'v1', kind: 'Pod', name: 'not-the-controller', uid: 'u0' },
      { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds-1', uid: 'u1', controller: true },
    ],
  });
  assert.equal(tableCells('controllerrevisions', 'apps', rev, NOW), ['ds-1-6d4b8c7f9', 'daemonset.apps/ds-1', 3, '2d3h']);
  assert.is(tableCells('controllerrevisions', 'apps', obj('r', { revision: 1 }), NOW)[1], '<none>');
  const coreOwner = obj('r', { revision: 1 }, { ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: 'rc', uid: 'u', controller: true }] });
  assert.is(tableCells('controllerrevisions', 'apps', coreOwner, NOW)[1], 'replicationcontroller/rc');
});

test('deployments read ready/desired with wide containers, images and selector', () => {
  assert.equal(names('deployments', 'apps'), ['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
  assert.equal(wideNames('deployments', 'apps'), ['Containers', 'Images', 'Selector']);
  const d = obj('web', {
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'edge'] }] },
      template: { spec: { containers: [{ name: 'app', image: 'nginx:1.25' }, { name: 'log', image: 'fluentbit' }] } } },
    status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
  });
  assert.equal(tableCells('deployments', 'apps', d, NOW), ['web', '2/3', 3, 2, '2d3h', 'app,log', 'nginx:1.25,fluentbit', 'app=web,tier in (edge,front)']);
  assert.is(tableCells('deployments', 'apps', obj('empty', { spec: {} }), NOW)[7], '');
});

test('replica sets, daemon sets and stateful sets print their counts', () => {
  assert.equal(names('replicasets', 'apps'), ['Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers', 'Images', 'Selector']);
  const rs = obj('web-5d8', { spec: { replicas: 2, selector: { matchExpressions: [{ key: 'canary', operator: 'DoesNotExist' }] },
    template: { spec: { containers: [{ name: 'app', image: 'nginx' }] } } }, status: { replicas: 2, readyReplicas: 1 } });
  assert.equal(tableCells('replicasets', 'apps', rs, NOW), ['web-5d8', 2, 2, 1, '2d3h', 'app', 'nginx', '!canary']);
  assert.is(tableCells('replicasets', 'apps', obj('x', { spec: {} }), NOW)[7], '<none>');

  assert.equal(names('daemonsets', 'apps'),
    ['Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers', 'Images', 'Selector']);
  const ds = obj('ds-1', { spec: { selector: { matchLabels: { app: 'agent' } }, template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux' },
    containers: [{ name: 'agent', image: 'agent:2' }] } } },
  status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 } });
  assert.equal(tableCells('daemonsets', 'apps', ds, NOW), ['ds-1', 3, 3, 2, 3, 2, 'kubernetes.io/os=linux', '2d3h', 'agent', 'agent:2', 'app=agent']);

  assert.equal(names('statefulsets', 'apps'), ['Name', 'Ready', 'Age', 'Containers', 'Images']);
  const sts = obj('db', { spec: { replicas: 3, template: { spec: { containers: [{ name: 'pg', image: 'postgres:16' }] } } }, status: { readyReplicas: 1 } });
  assert.equal(tableCells('statefulsets', 'apps', sts, NOW), ['db', '1/3', '2d3h', 'pg', 'postgres:16']);
});

test('services print type, cluster IP, external IP and ports as kubectl shows them', () => {
  assert.equal(names('services'), ['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector']);
  const svc = (spec: Record<string, unknown>, status: Record<string, unknown> = {}) => tableCells('services', '', obj('s', { spec, status }), NOW);
  assert.equal(svc({ type: 'ClusterIP', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], selector: { app: 'web' },
    ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }, { port: 53, protocol: 'UDP' }] }),
  ['s', 'ClusterIP', '10.96.0.10', '<none>', '80/TCP,53/UDP', '2d3h', 'app=web']);
  assert.equal(svc({ type: 'NodePort', clusterIP: '10.96.0.11', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] }).slice(1, 5),
    ['NodePort', '10.96.0.11', '<none>', '80:30080/TCP']);
  assert.is(svc({ type: 'LoadBalancer', clusterIP: '10.96.0.12' })[3], '<pending>');
  assert.is(svc({ type: 'LoadBalancer' }, { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { hostname: 'lb.example' }] } })[3], '1.2.3.4,lb.example');
  assert.equal(svc({ type: 'ExternalName', externalName: 'db.example' }).slice(1, 5), ['ExternalName', '<none>', 'db.example', '<none>']);
});

test('config maps, secrets, service accounts and namespaces print their counts and phase', () => {
  assert.equal(tableCells('configmaps', '', obj('cm', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }), NOW), ['cm', 3, '2d3h']);
  assert.equal(names('secrets'), ['Name', 'Type', 'Data', 'Age']);
  assert.equal(tableCells('secrets', '', obj('s', { type: 'Opaque', data: { a: 'MQ==' }, stringData: { a: '1', b: '2' } }), NOW), ['s', 'Opaque', 2, '2d3h']);
  assert.equal(tableCells('serviceaccounts', '', obj('default', { secrets: [{ name: 't' }] }), NOW), ['default', 1, '2d3h']);
  assert.equal(tableCells('namespaces', '', obj('kube', { status: { phase: 'Terminating' } }), NOW), ['kube', 'Terminating', '2d3h']);
});

test('pod templates print containers, images and pod labels, with no age', () => {
  assert.equal(names('podtemplates'), ['Name', 'Containers', 'Images', 'Pod Labels']);
  const pt = obj('t', { template: { metadata: { labels: { b: '2', a: '1' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
  assert.equal(tableCells('podtemplates', '', pt, NOW), ['t', 'c', 'i', 'a=1,b=2']);
});

test('events start with Last Seen and name the involved object as kind/name', () => {
  assert.equal(names('events'), ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
  assert.equal(wideNames('events'), ['Subobject', 'Source', 'First Seen', 'Count', 'Name']);
  const ev = obj('web.17c', {
    involvedObject: { kind: 'Pod', name: 'web', fieldPath: 'spec.containers{app}' }, reason: 'Pulled', type: 'Normal',
    message: ' Container image "nginx" already present on machine\n', source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: '2024-05-03T11:00:00Z', lastTimestamp: '2024-05-03T11:55:00Z', count: 4,
  });
  assert.equal(tableCells('events', '', ev, NOW),
    ['5m', 'Normal', 'Pulled', 'pod/web', 'spec.containers{app}', 'kubelet, node-1', 'Container image "nginx" already present on machine', '60m', 4, 'web.17c']);
  const newApi = obj('e2', { involvedObject: { kind: 'Node' }, eventTime: '2024-05-03T11:59:30.000000Z', reportingComponent: 'scheduler', type: 'Warning' });
  assert.equal(tableCells('events', '', newApi, NOW), ['30s', 'Warning', '', 'node', '', 'scheduler', '', '30s', 1, 'e2']);
  const series = obj('e3', { eventTime: '2024-05-03T11:00:00.000000Z', series: { count: 7, lastObservedTime: '2024-05-03T11:58:00.000000Z' } });
  assert.equal(tableCells('events', '', series, NOW).slice(7, 9), ['60m', 7]);
  assert.is(tableCells('events', '', series, NOW)[0], '2m');
});

test('leases show their holder and disruption budgets their bounds', () => {
  assert.equal(tableCells('leases', 'coordination.k8s.io', obj('node-1', { spec: { holderIdentity: 'node-1' } }), NOW), ['node-1', 'node-1', '2d3h']);
  assert.equal(tableCells('leases', 'coordination.k8s.io', obj('free', { spec: {} }), NOW), ['free', '', '2d3h']);
  assert.equal(names('poddisruptionbudgets', 'policy'), ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age']);
  const pdb = obj('web', { spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } });
  assert.equal(tableCells('poddisruptionbudgets', 'policy', pdb, NOW), ['web', '50%', 'N/A', 1, '2d3h']);
  assert.equal(tableCells('poddisruptionbudgets', 'policy', obj('db', { spec: { maxUnavailable: 1 } }), NOW).slice(1, 4), ['N/A', '1', 0]);
});

const RBAC = 'rbac.authorization.k8s.io';

test('roles and cluster roles print only Name and Created At, as the real server has no printer for them', () => {
  for (const resource of ['roles', 'clusterroles']) {
    assert.equal(tableColumns(resource, RBAC).map((c) => [c.name, c.type, c.priority]), [['Name', 'string', 0], ['Created At', 'date', 0]]);
    assert.equal(tableCells(resource, RBAC, obj('pod-reader', { rules: [{ verbs: ['get'] }] }), NOW), ['pod-reader', '2024-05-01T09:00:00Z']);
  }
});

test('bindings print Role as Kind/name and Age, and wide Users, Groups and namespace/name ServiceAccounts', () => {
  for (const [resource, what] of [['rolebindings', 'roleBinding'], ['clusterrolebindings', 'clusterRoleBinding']]) {
    const cols = tableColumns(resource, RBAC);
    assert.equal(cols.map((c) => [c.name, c.priority]),
      [['Name', 0], ['Role', 0], ['Age', 0], ['Users', 1], ['Groups', 1], ['ServiceAccounts', 1]]);
    assert.is(cols[3].description, `Users in the ${what}`);
    assert.ok(cols.every((c) => c.type === 'string'));
  }
  assert.match(tableColumns('rolebindings', RBAC)[1].description, /^RoleRef can reference a Role in the current namespace/);
  assert.match(tableColumns('clusterrolebindings', RBAC)[1].description, /^RoleRef can only reference a ClusterRole/);
  const binding = obj('read-pods', {
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
    subjects: [
      { kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' }, { kind: 'Group', name: 'devs' },
      { kind: 'User', name: 'bob' }, { kind: 'ServiceAccount', name: 'ctl', namespace: 'kube-system' }, { kind: 'Robot', name: 'r2' },
    ],
  });
  assert.equal(tableCells('rolebindings', RBAC, binding, NOW),
    ['read-pods', 'ClusterRole/view', '2d3h', 'alice, bob', 'devs', 'ci/builder, kube-system/ctl']);
});

test('a binding without subjects prints empty subject cells, and an empty roleRef as "/"', () => {
  assert.equal(tableCells('clusterrolebindings', RBAC, obj('lonely', { roleRef: { kind: 'ClusterRole', name: 'admin' } }), NOW),
    ['lonely', 'ClusterRole/admin', '2d3h', '', '', '']);
  assert.equal(tableCells('rolebindings', RBAC, obj('odd'), NOW), ['odd', '/', '2d3h', '', '', '']);
});

test.run();
