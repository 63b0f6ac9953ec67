// The Deployment controller in a simulated cluster (node agents run the pods): a Deployment gets a
// ReplicaSet per template; a new template rolls out with never more than replicas + maxSurge pods
// and never fewer than replicas - maxUnavailable available; Recreate empties the old set first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import type { ApiClient } from '../../../actors/client/client.ts';
import { fenceposts, templateHash } from '../../../actors/controller-manager/controllers/deployment-rules.ts';
import type { SimCluster } from '../../../sim/cluster.ts';
import { simCluster } from '../../helpers/sim-cluster.ts';

const DEPLOYMENTS = lookupResource('apps', 'v1', 'deployments')!;
const RS = lookupResource('apps', 'v1', 'replicasets')!;
const PODS = lookupResource('', 'v1', 'pods')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const cluster = () => simCluster();

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

const image = (name: string, cpu = '100m') => ({ spec: { template: { spec: { containers: [{ name: 'c', image: name, resources: { requests: { cpu } } }] } } } });
const setsOf = async (client: ApiClient) => ((await client.list(RS, 'default')).items as Rec[])
  .sort((a, b) => a.metadata.annotations['deployment.kubernetes.io/revision'] - b.metadata.annotations['deployment.kubernetes.io/revision']);
const progressingOf = (d: Rec) => (d.status?.conditions ?? []).find((x: Rec) => x.type === 'Progressing');

/** Every change of the Deployment's Progressing condition: when, its status and reason, its lastUpdateTime. */
function watchProgress(c: SimCluster) {
  const seen: { atMs: number; status: string; reason: string; lastUpdateMs: number }[] = [];
  c.server.store.onChange((change) => {
    if (!change.key.endsWith('/deployments/default/web')) return;
    const p = progressingOf(change.object as Rec), was = change.prev && progressingOf(change.prev as Rec);
    if (p && (was?.reason !== p.reason || was.lastUpdateTime !== p.lastUpdateTime))
      seen.push({ atMs: c.clock.now(), status: p.status, reason: p.reason, lastUpdateMs: Date.parse(p.lastUpdateTime) });
  });
  return seen;
}

test('a healthy rollout goes NewReplicaSetCreated, ReplicaSetUpdated, then ends NewReplicaSetAvailable', async () => {
  const { c, client, run } = await cluster();
  const seen = watchProgress(c);
  await client.create(DEPLOYMENTS, deployment('nginx:1'));
  await run(30_000);
  await client.patch(DEPLOYMENTS, 'default', 'web', image('nginx:2'), 'strategic');
  await run(120_000);
  const reasons = seen.map((s) => s.reason).filter((r, i, all) => r !== all[i - 1]);
  assert.equal(reasons, ['NewReplicaSetCreated', 'ReplicaSetUpdated', 'NewReplicaSetAvailable', 'NewReplicaSetCreated', 'ReplicaSetUpdated', 'NewReplicaSetAvailable']);
  assert.ok(seen.every((s) => s.status === 'True'));
  c.stop();
});

test('a paused Deployment holds a new template back and follows replicas; resumed, it rolls the template out', async () => {
  const { c, client, run } = await cluster();
  await client.create(DEPLOYMENTS, deployment('nginx:1'));
  await run(30_000);
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { paused: true } }, 'merge');
  await run(2_000);
  let d = (await client.get(DEPLOYMENTS, 'default', 'web')) as Rec;
  assert.equal([progressingOf(d).status, progressingOf(d).reason, progressingOf(d).message], ['Unknown', 'DeploymentPaused', 'Deployment is paused']);
  await client.patch(DEPLOYMENTS, 'default', 'web', image('nginx:2'), 'strategic');
  await run(60_000);
  assert.equal((await setsOf(client)).map((rs) => rs.spec.replicas), [4], 'no set for the new template while paused');
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { replicas: 6 } }, 'merge');
  await run(30_000);
  const [only] = await setsOf(client);
  assert.equal([only!.spec.replicas, only!.status.readyReplicas, only!.spec.template.spec.containers[0].image], [6, 6, 'nginx:1'], 'scaled, on the old template');
  assert.equal(only!.metadata.annotations['deployment.kubernetes.io/desired-replicas'], '6');
  d = (await client.get(DEPLOYMENTS, 'default', 'web')) as Rec;
  assert.equal([d.status.replicas, d.status.updatedReplicas, progressingOf(d).reason], [6, 0, 'DeploymentPaused'], 'the old pods are not updated ones');

  const seen = watchProgress(c);
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { paused: false } }, 'merge');
  await run(180_000);
  assert.equal(seen.slice(0, 2).map((s) => [s.status, s.reason]), [['Unknown', 'DeploymentResumed'], ['True', 'NewReplicaSetCreated']]);
  assert.equal((await setsOf(client)).map((rs) => rs.spec.replicas), [0, 6]);
  const pods = ((await client.list(PODS, 'default')).items as Rec[]).filter((p) => !p.metadata.deletionTimestamp);
  assert.ok(pods.length === 6 && pods.every((p) => p.spec.containers[0].image === 'nginx:2'), pods.map((p) => p.spec.containers[0].image).join());
  d = (await client.get(DEPLOYMENTS, 'default', 'web')) as Rec;
  assert.equal([progressingOf(d).status, progressingOf(d).reason], ['True', 'NewReplicaSetAvailable']);
  c.stop();
});

test('paused mid-rollout and scaled, the sets share replicas + maxSurge in proportion to their sizes', async () => {
  const { c, client, run } = await cluster();
  await client.create(DEPLOYMENTS, deployment('nginx:1'));
  await run(30_000);
  // The new template's pods fit on no node: the rollout stops with the new set at 2 and the old at 3.
  await client.patch(DEPLOYMENTS, 'default', 'web', image('nginx:2', '100'), 'strategic');
  await run(30_000);
  assert.equal((await setsOf(client)).map((rs) => rs.spec.replicas), [3, 2]);
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { paused: true, replicas: 8 } }, 'merge');
  await run(30_000);
  // 8 + 2 surge = 10 for 5: twice each set's size.
  const sets = await setsOf(client);
  assert.equal(sets.map((rs) => rs.spec.replicas), [6, 4]);
  assert.equal(sets.map((rs) => rs.metadata.annotations['deployment.kubernetes.io/max-replicas']), ['10', '10']);
  c.stop();
});

test('a rollout whose pods never become Ready exceeds its progress deadline at the deadline, not before', async () => {
  const { c, client, run } = await cluster();
  await client.create(DEPLOYMENTS, deployment('nginx:1'));
  await run(30_000);
  const seen = watchProgress(c);
  await client.patch(DEPLOYMENTS, 'default', 'web', image('nginx:2', '100'), 'strategic');
  await run(30_000);
  const lastProgress = seen[seen.length - 1]!;
  assert.equal([lastProgress.status, lastProgress.reason], ['True', 'ReplicaSetUpdated']);
  // The default deadline, 600 s from the last progress recorded.
  const deadline = lastProgress.lastUpdateMs + 600_000;
  await run(deadline - c.clock.now() - 1_000);
  assert.is(progressingOf((await client.get(DEPLOYMENTS, 'default', 'web')) as Rec).reason, 'ReplicaSetUpdated', 'not timed out before the deadline');
  await run(5_000);
  const d = (await client.get(DEPLOYMENTS, 'default', 'web')) as Rec;
  assert.equal([progressingOf(d).status, progressingOf(d).reason], ['False', 'ProgressDeadlineExceeded']);
  assert.match(progressingOf(d).message, /^ReplicaSet "web-\w+" has timed out progressing\.$/);
  const timedOut = seen.find((s) => s.reason === 'ProgressDeadlineExceeded')!;
  assert.ok(timedOut.atMs > deadline && timedOut.atMs <= deadline + 2_000, `timed out ${timedOut.atMs - deadline} ms after the deadline`);
  assert.is(seen.filter((s) => s.reason === 'ProgressDeadlineExceeded').length, 1);
  c.stop();
});

test('fenceposts and template hashes'
, () => {
  assert.equal(fenceposts({}, 10), { surge: 3, unavailable: 2 }, '25% rounded up and down');
  assert.equal(fenceposts({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }, 10), { surge: 0, unavailable: 1 }, 'never both 0');
  assert.is(templateHash({ a: 1, b: [1, 2] }), templateHash({ b: [1, 2], a: 1 }), 'key order does not matter');
  assert.is.not(templateHash({ a: 1 }), templateHash({ a: 2 }));
  assert.match(templateHash({}), /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
});

test.run();
