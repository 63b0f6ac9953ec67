// The StatefulSet controller against a real API server on virtual time, with the test playing the
// node agent (binding pods, marking them Running and Ready, finishing their termination): ordered
// creation and removal, Parallel, rolling updates by ordinal down to the partition, OnDelete, the
// history as ControllerRevisions with rollbacks renumbered; then in a simulated cluster, run by the
// controller manager as `--controllers '*'` enables it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { StatefulSetController } from '../../../actors/controller-manager/controllers/statefulset.ts';
import { controllerManagerOptions } from '../../../actors/controller-manager/options.ts';
import { SimCluster } from '../../../sim/cluster.ts';
import { parseScenario } from '../../../sim/scenario/load.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const STS = lookupResource('apps', 'v1', 'statefulsets')!;
const REVISIONS = lookupResource('apps', 'v1', 'controllerrevisions')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const isReady = (p: Rec) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: Rec) => c.type === 'Ready' && c.status === 'True');

async function world() {
  const { clock, bus, server, client, run } = await virtualWorld({ seed: 5 });
  const informers = new SharedInformers(bus, clock, 'test');
  const controller = new StatefulSetController({ bus, clock, informers, workers: 5, onError: (e) => { throw e; } });
  await controller.start();
  /** Pod events in order: `+web-0` made, `ready web-0`, `~web-2` terminating, `-web-2` gone. */
  const trace: string[] = [];
  server.store.onChange(({ type, key, object, prev }) => {
    if (!key.includes('/pods/')) return;
    const name = object.metadata.name!;
    if (type === 'ADDED') trace.push(`+${name}`);
    else if (type === 'DELETED') trace.push(`-${name}`);
    else if (object.metadata.deletionTimestamp && !prev?.metadata.deletionTimestamp) trace.push(`~${name}`);
    else if (isReady(object) && !(prev && isReady(prev))) trace.push(`ready ${name}`);
  });
  const settle = (ms = 1_000) => run(ms);
  const pods = async () => ((await client.list(PODS, 'default')).items as Rec[]).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const names = async () => (await pods()).map((p) => `${p.metadata.name}${p.metadata.deletionTimestamp ? ' (terminating)' : ''}`);
  const status = async (name = 'web') => ((await client.get(STS, 'default', name)) as Rec).status;
  /** Binds the pod, so deleting it waits for its grace period, as for a pod on a node. */
  const bind = (name: string) => client.request('POST', `/api/v1/namespaces/default/pods/${name}/binding`,
    { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: 'default' }, target: { kind: 'Node', name: 'n1' } });
  const ready = (name: string, phase = 'Running') => client.patch(PODS, 'default', name, { status: { phase, conditions: [{ type: 'Ready', status: phase === 'Running' ? 'True' : 'False' }] } }, 'merge', 'status');
  /** The node agent finishing a pod's termination. */
  const finish = (name: string) => client.delete(PODS, 'default', name, { gracePeriodSeconds: 0 });
  /** Plays the node agent until nothing changes: pods become Ready, terminating ones go. */
  const converge = async () => {
    for (let round = 0; round < 50; round++) {
      await settle();
      const todo = (await pods()).filter((p) => p.metadata.deletionTimestamp || !isReady(p));
      if (todo.length === 0) return;
      for (const p of todo) await (p.metadata.deletionTimestamp ? finish(p.metadata.name) : ready(p.metadata.name));
    }
    throw new Error('the set never settled');
  };
  return { clock, client, trace, settle, pods, names, status, bind, ready, finish, converge,
    stop: () => { controller.stop(); informers.stop(); server.stop(); } };
}

const statefulSet = (replicas: number, spec: Rec = {}): KObject => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas, serviceName: 'web-svc', selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } }, ...spec },
} as KObject);
const image = (tag: string, spec: Rec = {}) => ({ spec: { ...spec, template: { spec: { containers: [{ name: 'c', image: `nginx:${tag}` }] } } } });
/** Each pod as `name image revision`. */
const pods = (list: Rec[]) => list.map((p) => `${p.metadata.name} ${p.spec.containers[0].image.slice(6)} ${p.metadata.labels['controller-revision-hash']}`);

test('OrderedReady makes ordinal i+1 only once 0..i are Running and Ready, each pod with its identity', async () => {
  const w = await world();
  const set = await w.client.create(STS, statefulSet(3));
  await w.settle();
  assert.equal(await w.names(), ['web-0']);
  const [pod] = await w.pods();
  const revision = (await w.status()).updateRevision;
  assert.match(revision, /^web-[a-z0-9]+$/);
  assert.equal(pod!.metadata.labels, { app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-0', 'apps.kubernetes.io/pod-index': '0', 'controller-revision-hash': revision });
  assert.equal(pod!.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: set.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.equal([pod!.spec.hostname, pod!.spec.subdomain], ['web-0', 'web-svc']);

  await w.ready('web-0', 'Pending');
  await w.settle(30_000);
  assert.equal(await w.names(), ['web-0'], 'a pod not Running and Ready holds its successors back');
  await w.ready('web-0');
  await w.settle();
  assert.equal(await w.names(), ['web-0', 'web-1']);
  await w.ready('web-1');
  await w.settle();
  await w.ready('web-2');
  await w.settle();
  assert.equal(w.trace, ['+web-0', 'ready web-0', '+web-1', 'ready web-1', '+web-2', 'ready web-2']);
  const s = await w.status();
  assert.equal([s.replicas, s.readyReplicas, s.availableReplicas, s.currentReplicas, s.updatedReplicas, s.observedGeneration], [3, 3, 3, 3, 3, 1]);
  assert.equal([s.currentRevision, s.updateRevision, s.collisionCount ?? 0], [revision, revision, 0]);
  w.stop();
});

test('scaling down removes the highest ordinal first, one at a time, each after the last finished terminating', async () => {
  const w = await world();
  await w.client.create(STS, statefulSet(3));
  for (const name of ['web-0', 'web-1', 'web-2']) {
    await w.settle();
    await w.bind(name);
    await w.ready(name);
  }
  await w.settle();
  await w.client.patch(STS, 'default', 'web', { spec: { replicas: 1 } }, 'merge');
  await w.settle(60_000);
  assert.equal(await w.names(), ['web-0', 'web-1', 'web-2 (terminating)'], 'web-1 waits while web-2 terminates');
  await w.finish('web-2');
  await w.settle();
  assert.equal(await w.names(), ['web-0', 'web-1 (terminating)']);
  await w.finish('web-1');
  await w.settle();
  assert.equal(await w.names(), ['web-0']);
  assert.equal(w.trace.filter((t) => /^[~-]/.test(t)), ['~web-2', '-web-2', '~web-1', '-web-1']);
  assert.is((await w.status()).replicas, 1);
  w.stop();
});

test('Parallel makes and removes every pod at once, Ready or not', async () => {
  const w = await world();
  await w.client.create(STS, statefulSet(3, { podManagementPolicy: 'Parallel' }));
  await w.settle();
  assert.equal(await w.names(), ['web-0', 'web-1', 'web-2'], 'none Ready, all made');
  for (const name of ['web-0', 'web-1', 'web-2']) await w.bind(name);
  await w.client.patch(STS, 'default', 'web', { spec: { replicas: 0 } }, 'merge');
  await w.settle();
  assert.equal(await w.names(), ['web-0 (terminating)', 'web-1 (terminating)', 'web-2 (terminating)']);
  w.stop();
});

test('a rolling update replaces the highest ordinal first, one at a time after each is Ready, down to the partition', async () => {
  const w = await world();
  await w.client.create(STS, statefulSet(3));
  await w.converge();
  const r1 = (await w.status()).updateRevision;
  await w.client.patch(STS, 'default', 'web', image('2', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }), 'strategic');
  await w.settle();
  const r2 = (await w.status()).updateRevision;
  assert.not.equal(r2, r1);
  assert.equal(pods(await w.pods()), [`web-0 1 ${r1}`, `web-1 1 ${r1}`, `web-2 2 ${r2}`]);
  await w.settle(30_000);
  assert.equal(pods(await w.pods()), [`web-0 1 ${r1}`, `web-1 1 ${r1}`, `web-2 2 ${r2}`], 'web-1 waits for web-2 to be Ready');
  await w.converge();
  assert.equal(pods(await w.pods()), [`web-0 1 ${r1}`, `web-1 1 ${r1}`, `web-2 2 ${r2}`], 'the partition keeps web-0 and web-1');
  let s = await w.status();
  assert.equal([s.currentRevision, s.updateRevision, s.currentReplicas, s.updatedReplicas], [r1, r2, 2, 1]);
  await w.client.delete(PODS, 'default', 'web-0');
  await w.converge();
  assert.equal(pods(await w.pods())[0], `web-0 1 ${r1}`, 'a pod below the partition comes back at the current revision');

  await w.client.patch(STS, 'default', 'web', { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }, 'merge');
  await w.converge();
  assert.equal(pods(await w.pods()), [`web-0 2 ${r2}`, `web-1 2 ${r2}`, `web-2 2 ${r2}`]);
  assert.equal(w.trace.filter((t) => t.startsWith('-')), ['-web-2', '-web-0', '-web-1', '-web-0']);
  s = await w.status();
  assert.equal([s.currentRevision, s.updateRevision, s.currentReplicas, s.updatedReplicas, s.observedGeneration], [r2, r2, 3, 3, 3]);
  w.stop();
});

test('under Parallel too, a rolling update waits for each replaced pod to be Ready before the next', async () => {
  const w = await world();
  await w.client.create(STS, statefulSet(2, { podManagementPolicy: 'Parallel' }));
  await w.converge();
  const r1 = (await w.status()).updateRevision;
  await w.client.patch(STS, 'default', 'web', image('2'), 'strategic');
  await w.settle(30_000);
  const r2 = (await w.status()).updateRevision;
  assert.equal(pods(await w.pods()), [`web-0 1 ${r1}`, `web-1 2 ${r2}`], 'web-0 stays while the new web-1 is not Ready');
  await w.ready('web-1');
  await w.settle();
  assert.equal(pods(await w.pods()), [`web-0 2 ${r2}`, `web-1 2 ${r2}`]);
  w.stop();
});

test('going back to a template renumbers its revision newest; unused revisions beyond the limit go', async () => {
  const w = await world();
  await w.client.create(STS, statefulSet(2));
  await w.converge();
  const revisions = async () => ((await w.client.list(REVISIONS, 'default')).items as Rec[])
    .map((r) => `${r.metadata.name} ${r.data.spec.template.spec.containers[0].image} ${r.revision}`).sort();
  const [first] = await revisions();
  const v1 = first!.split(' ')[0]!;
  assert.equal(await revisions(), [`${v1} nginx:1 1`]);
  await w.client.patch(STS, 'default', 'web', image('2'), 'strategic');
  await w.converge();
  const v2 = (await w.status()).updateRevision;
  assert.equal(await revisions(), [`${v1} nginx:1 1`, `${v2} nginx:2 2`].sort());
  await w.client.patch(STS, 'default', 'web', image('1'), 'strategic');
  await w.converge();
  assert.equal(await revisions(), [`${v1} nginx:1 3`, `${v2} nginx:2 2`].sort(), 'the old revision comes back as number 3');
  assert.equal(pods(await w.pods()), [`web-0 1 ${v1}`, `web-1 1 ${v1}`]);
  assert.equal([(await w.status()).currentRevision, (await w.status()).updateRevision], [v1, v1]);

  await w.client.patch(STS, 'default', 'web', { spec: { revisionHistoryLimit: 0, ...image('3').spec } }, 'strategic');
  await w.converge();
  await w.settle();
  const v3 = (await w.status()).updateRevision;
  assert.equal(await revisions(), [`${v3} nginx:3 4`], 'with a limit of 0 only the revision in use stays');
  w.stop();
});

test('OnDelete: a new template reaches only the pods someone deletes', async () => {
  const w = await world();
  await w.client.create(STS, statefulSet(2, { updateStrategy: { type: 'OnDelete' } }));
  await w.converge();
  const r1 = (await w.status()).updateRevision;
  await w.client.patch(STS, 'default', 'web', image('2'), 'strategic');
  await w.settle(60_000);
  const r2 = (await w.status()).updateRevision;
  assert.equal(pods(await w.pods()), [`web-0 1 ${r1}`, `web-1 1 ${r1}`], 'nothing is replaced on its own');
  let s = await w.status();
  assert.equal([s.currentRevision, s.currentReplicas, s.updatedReplicas], [r1, 2, 0]);
  await w.client.delete(PODS, 'default', 'web-0');
  await w.converge();
  assert.equal(pods(await w.pods()), [`web-0 2 ${r2}`, `web-1 1 ${r1}`]);
  await w.client.delete(PODS, 'default', 'web-1');
  await w.converge();
  assert.equal(pods(await w.pods()), [`web-0 2 ${r2}`, `web-1 2 ${r2}`]);
  s = await w.status();
  // As the real controller (1.32, kubernetes#73492): OnDelete never moves currentRevision on.
  assert.equal([s.currentRevision, s.updateRevision, s.currentReplicas, s.updatedReplicas], [r1, r2, 0, 2]);
  w.stop();
});

test('a Failed pod is deleted and made again under the same name', async () => {
  const w = await world();
  await w.client.create(STS, statefulSet(1));
  await w.converge();
  const [before] = await w.pods();
  await w.ready('web-0', 'Failed');
  await w.settle();
  const [after] = await w.pods();
  assert.is(after!.metadata.name, 'web-0');
  assert.is.not(after!.metadata.uid, before!.metadata.uid);
  assert.is(after!.status.phase, 'Pending');
  w.stop();
});

test('the controller manager runs it by default (--concurrent-statefulset-syncs 5): a set comes up in order on real node agents', async () => {
  assert.is(controllerManagerOptions().concurrentStatefulsetSyncs, 5);
  assert.not.throws(() => controllerManagerOptions({ controllers: ['*', '-statefulset-controller'] }));
  const c = new SimCluster(parseScenario('duration: 1h\nnodePools: [{ name: n, count: 3, capacity: { cpu: "8", memory: 32Gi } }]\n', { name: 'sts', dir: '.' }), 1);
  await c.start();
  const client = new ApiClient(c.bus, 'test');
  const trace: string[] = [];
  c.server.store.onChange(({ type, key, object, prev }) => {
    if (!key.includes('/pods/default/')) return;
    if (type === 'ADDED') trace.push(`+${object.metadata.name}`);
    else if (isReady(object) && !(prev && isReady(prev))) trace.push(`ready ${object.metadata.name}`);
  });
  await c.kernel.run({ until: c.clock.now() + 5_000 });
  await client.create(STS, statefulSet(3));
  await c.kernel.run({ until: c.clock.now() + 60_000 });
  assert.equal(trace, ['+web-0', 'ready web-0', '+web-1', 'ready web-1', '+web-2', 'ready web-2']);
  const s = ((await client.get(STS, 'default', 'web')) as Rec).status;
  assert.equal([s.replicas, s.readyReplicas, s.currentReplicas], [3, 3, 3]);
  c.stop();
});

test.run();
