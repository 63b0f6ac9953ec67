// The Deployment controller in a simulated cluster (node agents run the pods): a Deployment gets a
// ReplicaSet per template; a new template rolls out with never more than replicas + maxSurge pods
// and never fewer than replicas - maxUnavailable available; Recreate empties the old set first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { fenceposts, templateHash } from '../../../actors/controller-manager/controllers/deployment.ts';
import { SimCluster } from '../../../sim/cluster.ts';
import { parseScenario } from '../../../sim/scenario/load.ts';

const DEPLOYMENTS = lookupResource('apps', 'v1', 'deployments')!;
const RS = lookupResource('apps', 'v1', 'replicasets')!;
const PODS = lookupResource('', 'v1', 'pods')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function cluster() {
  const c = new SimCluster(parseScenario('duration: 1h\nnodePools: [{ name: n, count: 3, capacity: { cpu: "8", memory: 32Gi } }]\n', { name: 'd', dir: '.' }), 1);
  await c.start();
  const client = new ApiClient(c.bus, 'test');
  const run = (ms: number) => c.kernel.run({ until: c.clock.now() + ms });
  await run(5_000);
  return { c, client, run };
}

const deployment = (image: string, strategy?: Rec): KObject => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 4, selector: { matchLabels: { app: 'web' } }, ...(strategy ? { strategy } : {}),
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image, resources: { requests: { cpu: '100m' } } }] } } },
} as KObject);

/** Active pods and available (Ready) pods of the deployment at every change. */
function watchCounts(c: SimCluster) {
  const seen = { maxActive: 0, minReadyAfterStart: Infinity, rolling: false };
  c.server.store.onChange((change) => {
    if (!change.key.includes('/pods/') || !seen.rolling) return;
    void c.server.store.list('/registry/core/pods/default/').then(({ items }) => {
      const active = items.filter((p) => !p.metadata.deletionTimestamp && (p.metadata.labels as Rec | undefined)?.app === 'web');
      const ready = active.filter((p) => ((p.status as Rec | undefined)?.conditions ?? []).some((x: Rec) => x.type === 'Ready' && x.status === 'True'));
      seen.maxActive = Math.max(seen.maxActive, active.length);
      seen.minReadyAfterStart = Math.min(seen.minReadyAfterStart, ready.length);
    });
  });
  return seen;
}

test('a rolling update replaces every pod within maxSurge 1 and maxUnavailable 1 (25% of 4)', async () => {
  const { c, client, run } = await cluster();
  await client.create(DEPLOYMENTS, deployment('nginx:1'));
  await run(30_000);
  const first = (await client.list(RS, 'default')).items as Rec[];
  assert.equal(first.map((rs) => [rs.metadata.name, rs.spec.replicas, rs.metadata.annotations['deployment.kubernetes.io/revision']]), [[`web-${first[0]!.metadata.labels['pod-template-hash']}`, 4, '1']]);
  const seen = watchCounts(c);
  seen.rolling = true;
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2', resources: { requests: { cpu: '100m' } } }] } } } }, 'strategic');
  await run(120_000);
  const sets = ((await client.list(RS, 'default')).items as Rec[]).sort((a, b) => a.metadata.annotations['deployment.kubernetes.io/revision'] - b.metadata.annotations['deployment.kubernetes.io/revision']);
  assert.equal(sets.map((rs) => rs.spec.replicas), [0, 4]);
  const pods = ((await client.list(PODS, 'default')).items as Rec[]).filter((p) => !p.metadata.deletionTimestamp);
  assert.ok(pods.length === 4 && pods.every((p) => p.spec.containers[0].image === 'nginx:2'), pods.map((p) => p.spec.containers[0].image).join());
  assert.ok(seen.maxActive <= 5, `at most replicas + maxSurge pods at once, saw ${seen.maxActive}`);
  assert.ok(seen.minReadyAfterStart >= 3, `at least replicas - maxUnavailable available, saw ${seen.minReadyAfterStart}`);
  const status = ((await client.get(DEPLOYMENTS, 'default', 'web')) as Rec).status;
  assert.equal([status.replicas, status.updatedReplicas, status.availableReplicas], [4, 4, 4]);
  assert.equal(status.conditions.map((c: Rec) => [c.type, c.status, c.reason]),
    [['Available', 'True', 'MinimumReplicasAvailable'], ['Progressing', 'True', 'NewReplicaSetAvailable']]);
  c.stop();
});

test('Recreate: the old set goes to zero before the new one grows', async () => {
  const { c, client, run } = await cluster();
  await client.create(DEPLOYMENTS, deployment('nginx:1', { type: 'Recreate' }));
  await run(30_000);
  const seen = watchCounts(c);
  seen.rolling = true;
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2', resources: { requests: { cpu: '100m' } } }] } } } }, 'strategic');
  await run(120_000);
  assert.is(seen.minReadyAfterStart, 0, 'all old pods were gone before new ones came');
  assert.ok(seen.maxActive <= 4);
  const pods = ((await client.list(PODS, 'default')).items as Rec[]).filter((p) => !p.metadata.deletionTimestamp);
  assert.ok(pods.length === 4 && pods.every((p) => p.spec.containers[0].image === 'nginx:2'));
  c.stop();
});

test('fenceposts and template hashes', () => {
  assert.equal(fenceposts({}, 10), { surge: 3, unavailable: 2 }, '25% rounded up and down');
  assert.equal(fenceposts({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }, 10), { surge: 0, unavailable: 1 }, 'never both 0');
  assert.is(templateHash({ a: 1, b: [1, 2] }), templateHash({ b: [1, 2], a: 1 }), 'key order does not matter');
  assert.is.not(templateHash({ a: 1 }), templateHash({ a: 2 }));
  assert.match(templateHash({}), /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
});

test.run();
