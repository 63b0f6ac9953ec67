// The events the controllers record, as the real ones do, against a real API server on virtual
// time: the pod control's SuccessfulCreate and SuccessfulDelete on ReplicaSets and DaemonSets
// (combined once ten differ), the Deployment's ScalingReplicaSet, the StatefulSet's own words, and
// the node controller's and taint eviction's events about nodes and their pods.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { microTime, timestamp } from '../../../actors/api/env.ts';
import { NODE_LEASE_NAMESPACE } from '../../../actors/api/namespaces.ts';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { EVENTS, type CoreEvent } from '../../../actors/client/events/index.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import type { ControllerName } from '../../../actors/controller-manager/options.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const type = (group: string, resource: string) => lookupResource(group, 'v1', resource)!;
const [PODS, NODES, LEASES] = [type('', 'pods'), type('', 'nodes'), type('coordination.k8s.io', 'leases')];
const [DEPLOYMENTS, REPLICASETS, STATEFULSETS, DAEMONSETS] = ['deployments', 'replicasets', 'statefulsets', 'daemonsets'].map((r) => type('apps', r));
const S = 1_000;

async function world(controllers: ControllerName[]) {
  const { clock, kernel, bus, random, server, client } = await virtualWorld({ seed: 5 });
  const cm = new ControllerManager({ bus, clock, random: random.fork('cm'), options: { leaderElect: false, controllers }, onError: (c, e) => { throw new Error(`${c}: ${e}`); } });
  await cm.start();
  const t0 = clock.now();
  const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } });
  /** Every event stored about objects of `kind`, oldest write first, as `name type reason: message (xcount)`. */
  const events = async (kind: string) => ((await client.list(EVENTS, undefined)).items as CoreEvent[])
    .filter((e) => e.involvedObject.kind === kind)
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => `${e.involvedObject.name} ${e.type} ${e.reason}: ${e.message}${(e.count ?? 1) > 1 ? ` (x${e.count})` : ''}`);
  const node = async (name: string) => {
    const now = timestamp(clock.now());
    await client.create(NODES, { metadata: { name }, status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: now, lastTransitionTime: now }],
      allocatable: { cpu: '8', memory: '32Gi', pods: '110' } } } as KObject);
    await client.create(LEASES, { metadata: { name, namespace: NODE_LEASE_NAMESPACE }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(clock.now()) } } as KObject);
  };
  return { clock, client, cm, template, events, node, until: (ms: number) => kernel.run({ until: t0 + ms }), stop: () => { void cm.stop(); server.stop(); } };
}

test('a Deployment scaled up and down: ScalingReplicaSet on the Deployment, Created and Deleted pod on its ReplicaSet', async () => {
  const w = await world(['deployment-controller', 'replicaset-controller']);
  await w.client.create(DEPLOYMENTS, { metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: w.template('web') } } as KObject);
  await w.until(10 * S);
  const [rs] = (await w.client.list(REPLICASETS, 'default')).items;
  const set = rs!.metadata.name!;
  const pods = (await w.client.list(PODS, 'default')).items.map((p) => p.metadata.name!).sort();
  assert.equal(await w.events('Deployment'), [`web Normal ScalingReplicaSet: Scaled up replica set ${set} from 0 to 3`]);
  assert.equal((await w.events('ReplicaSet')).sort(), pods.map((p) => `${set} Normal SuccessfulCreate: Created pod: ${p}`));
  await w.client.patch(DEPLOYMENTS, 'default', 'web', { spec: { replicas: 1 } });
  await w.until(20 * S);
  assert.equal((await w.events('Deployment')).at(-1), `web Normal ScalingReplicaSet: Scaled down replica set ${set} from 3 to 1`);
  const left = new Set((await w.client.list(PODS, 'default')).items.filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name!));
  assert.equal((await w.events('ReplicaSet')).filter((l) => l.includes('SuccessfulDelete')).sort(),
    pods.filter((p) => !left.has(p)).map((p) => `${set} Normal SuccessfulDelete: Deleted pod: ${p}`));
  const scaled = ((await w.client.list(EVENTS, 'default')).items as CoreEvent[]).find((e) => e.reason === 'ScalingReplicaSet')!;
  assert.equal(scaled.source, { component: 'deployment-controller' }, 'a controller manager\'s controllers name no host');
  assert.equal([scaled.reportingComponent, scaled.reportingInstance, scaled.involvedObject.apiVersion], ['deployment-controller', '', 'apps/v1']);
  w.stop();
});

test('twelve pods created for one ReplicaSet: nine events as they are, the tenth on combined into one counted event', async () => {
  const w = await world(['replicaset-controller']);
  await w.client.create(REPLICASETS, { metadata: { name: 'big', namespace: 'default' },
    spec: { replicas: 12, selector: { matchLabels: { app: 'big' } }, template: w.template('big') } } as KObject);
  await w.until(10 * S);
  const lines = await w.events('ReplicaSet');
  assert.is(lines.length, 10);
  assert.ok(lines.slice(0, 9).every((l) => l.startsWith('big Normal SuccessfulCreate: Created pod: big-')));
  assert.match(lines[9]!, /^big Normal SuccessfulCreate: \(combined from similar events\): Created pod: big-\w{5} \(x3\)$/);
  w.stop();
});

test('a StatefulSet records its pods in its own words; a DaemonSet as the pod control does', async () => {
  // The node lifecycle controller takes the new node's not-ready taint off, which no daemon pod tolerates.
  const w = await world(['statefulset-controller', 'daemonset-controller', 'node-lifecycle-controller']);
  await w.node('n1');
  await w.client.create(STATEFULSETS, { metadata: { name: 'db', namespace: 'default' },
    spec: { replicas: 2, podManagementPolicy: 'Parallel', serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: w.template('db') } } as KObject);
  await w.client.create(DAEMONSETS, { metadata: { name: 'agent', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: w.template('agent') } } as KObject);
  await w.until(10 * S);
  assert.equal((await w.events('StatefulSet')).sort(), [
    'db Normal SuccessfulCreate: create Pod db-0 in StatefulSet db successful',
    'db Normal SuccessfulCreate: create Pod db-1 in StatefulSet db successful',
  ]);
  const daemon = (await w.client.list(PODS, 'default')).items.find((p) => p.metadata.name!.startsWith('agent-'))!;
  assert.equal(await w.events('DaemonSet'), [`agent Normal SuccessfulCreate: Created pod: ${daemon.metadata.name}`]);
  w.stop();
});

test('the node controller and taint eviction: nodes registered, not ready, their pods too, evictions marked or called off, a node removed', async () => {
  const w = await world(['node-lifecycle-controller', 'taint-eviction-controller']);
  const nodes = ['n1', 'n2', 'n3', 'n4', 'n5'];
  for (const n of nodes) await w.node(n);
  for (const n of ['n1', 'n2']) {
    await w.client.create(PODS, { metadata: { name: `p-${n}`, namespace: 'default' }, spec: { nodeName: n, containers: [{ name: 'c', image: 'nginx' }] } } as KObject);
    await w.client.patch(PODS, 'default', `p-${n}`, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } }, 'merge', 'status');
  }
  // The agents of n3 to n5 (and of n2, once it is back) renew their Leases every 10 s; n1's never does.
  const alive = new Set(['n3', 'n4', 'n5']);
  const renew = async () => {
    for (const n of alive) {
      const lease = await w.client.get(LEASES, NODE_LEASE_NAMESPACE, n);
      await w.client.update(LEASES, { ...lease, spec: { ...(lease.spec as object), renewTime: microTime(w.clock.now()) } });
    }
    w.clock.setTimeout(() => void renew(), 10 * S);
  };
  void renew();
  await w.until(10 * S);
  assert.equal(await w.events('Node'), nodes.map((n) => `${n} Normal RegisteredNode: Node ${n} event: Registered Node ${n} in Controller`));
  // After the 40 s grace period n1 and n2 are Unknown, their pods not Ready.
  await w.until(60 * S);
  assert.equal((await w.events('Node')).slice(5).sort(), ['n1', 'n2'].map((n) => `${n} Normal NodeNotReady: Node ${n} status is now: NodeNotReady`));
  assert.equal((await w.events('Pod')).sort(), ['p-n1 Warning NodeNotReady: Node is not ready', 'p-n2 Warning NodeNotReady: Node is not ready']);
  // n2 comes back before its pod's 300 s of toleration are up; n1 does not.
  const now = timestamp(w.clock.now());
  await w.client.patch(NODES, undefined, 'n2', { status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: now, lastTransitionTime: now }] } }, 'strategic', 'status');
  alive.add('n2');
  await w.until(500 * S);
  const evictions = (await w.events('Pod')).filter((l) => l.includes('TaintManagerEviction'));
  assert.equal(evictions.sort(), ['p-n1 Normal TaintManagerEviction: Marking for deletion Pod default/p-n1', 'p-n2 Normal TaintManagerEviction: Cancelling deletion of Pod default/p-n2']);
  alive.delete('n5');
  await w.client.delete(NODES, undefined, 'n5');
  await w.until(520 * S);
  assert.equal((await w.events('Node')).at(-1), 'n5 Normal RemovingNode: Node n5 event: Removing Node n5 from Controller');
  const registered = ((await w.client.list(EVENTS, 'default')).items as CoreEvent[]).find((e) => e.reason === 'RegisteredNode')!;
  assert.equal(registered.source, { component: 'node-controller' });
  assert.is(registered.involvedObject.uid, (await w.client.get(NODES, undefined, registered.involvedObject.name!)).metadata.uid, 'the node\'s own uid, where the kubelet writes its name');
  w.stop();
});

test.run();
