// The ReplicaSet controller against a real API server on virtual time: it creates the missing
// pods (owned, named from the set), replaces pods that are deleted or
// finish, deletes the surplus in the real order, adopts matching orphans, and reports status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { deletionOrder, ReplicaSetController } from '../../../actors/controller-manager/controllers/replicaset.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const RS = lookupResource('apps', 'v1', 'replicasets')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function world() {
  const { clock, bus, server, client, run } = await virtualWorld({ seed: 3 });
  const informers = new SharedInformers(bus, clock, 'test');
  const controller = new ReplicaSetController({ bus, clock, informers, workers: 5, onError: (e) => { throw e; } });
  await controller.start();
  const rs = (name: string, replicas: number) => client.create(RS, { metadata: { name, namespace: 'default' }, spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  } } as KObject);
  const pods = async (app: string) => ((await client.list(PODS, 'default')).items as Rec[])
    .filter((p) => p.metadata.labels?.app === app && !p.metadata.deletionTimestamp);
  const settle = () => run(1_000);
  return { clock, client, rs, pods, settle, stop: () => { controller.stop(); informers.stop(); server.stop(); } };
}

test('a new set gets its pods, owned by it and named after it, and its status', async () => {
  const w = await world();
  const set = await w.rs('web', 7);
  await w.settle();
  const pods = await w.pods('web');
  assert.is(pods.length, 7);
  for (const p of pods) {
    assert.match(p.metadata.name, /^web-[a-z0-9]{5}$/);
    assert.equal(p.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: set.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  }
  const status = ((await w.client.get(RS, 'default', 'web')) as Rec).status;
  assert.equal([status.replicas, status.fullyLabeledReplicas, status.readyReplicas, status.observedGeneration], [7, 7, 0, 1]);
  w.stop();
});

test('a deleted or finished pod is replaced; scaling down deletes the surplus', async () => {
  const w = await world();
  await w.rs('web', 3);
  await w.settle();
  const [first, second] = await w.pods('web');
  await w.client.delete(PODS, 'default', first!.metadata.name);
  await w.client.patch(PODS, 'default', second!.metadata.name, { status: { phase: 'Succeeded' } }, 'merge', 'status');
  await w.settle();
  const after = await w.pods('web');
  assert.is(after.filter((p) => p.status?.phase !== 'Succeeded').length, 3, 'two replacements');
  assert.not.ok(after.some((p) => p.metadata.name === first!.metadata.name));
  await w.client.patch(RS, 'default', 'web', { spec: { replicas: 1 } }, 'merge');
  await w.settle();
  assert.is((await w.pods('web')).filter((p) => p.status?.phase !== 'Succeeded').length, 1);
  w.stop();
});

test('an orphan its selector matches is adopted and counts toward the replicas', async () => {
  const w = await world();
  await w.client.create(PODS, { metadata: { name: 'stray', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } as KObject);
  await w.rs('web', 2);
  await w.settle();
  const pods = await w.pods('web');
  assert.is(pods.length, 2);
  const stray = pods.find((p) => p.metadata.name === 'stray');
  assert.is(stray?.metadata.ownerReferences?.[0]?.name, 'web');
  w.stop();
});

test('the surplus goes in the real order: unscheduled, then Pending, then not Ready, then newest', () => {
  const pod = (name: string, node: string | undefined, phase: string, ready: boolean, created: string): KObject => ({
    metadata: { name, namespace: 'default', creationTimestamp: created },
    spec: node ? { nodeName: node } : {},
    status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: created }] },
  });
  const pods = [
    pod('ready-old', 'n1', 'Running', true, '2026-01-01T00:00:00Z'),
    pod('ready-new', 'n1', 'Running', true, '2026-01-01T00:05:00Z'),
    pod('running-unready', 'n1', 'Running', false, '2026-01-01T00:00:00Z'),
    pod('pending', 'n1', 'Pending', false, '2026-01-01T00:00:00Z'),
    pod('unscheduled', undefined, 'Pending', false, '2026-01-01T00:00:00Z'),
  ];
  assert.equal([...pods].sort(deletionOrder).map((p) => p.metadata.name), ['unscheduled', 'pending', 'running-unready', 'ready-new', 'ready-old']);
});

test.run();
