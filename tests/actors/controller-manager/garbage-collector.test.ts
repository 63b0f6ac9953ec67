// The garbage collector against a real API server on virtual time (with the ReplicaSet controller,
// and the Deployment controller where a test says): deleting a set deletes its pods; a dependent
// that keeps one owner only loses the reference to the gone one. Orphan: the owner goes once its
// dependents no longer name it. Foreground: the owner stays until every dependent that blocks it
// is gone, down a Deployment's whole tree; dependents that do not block, or keep another owner,
// do not hold it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const RS = lookupResource('apps', 'v1', 'replicasets')!;
const DEPLOYMENTS = lookupResource('apps', 'v1', 'deployments')!;
const RS_URL = '/apis/apps/v1/namespaces/default/replicasets';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `started: false`: the controllers start when the test calls `start()`. */
async function world(controllers = ['replicaset-controller', 'garbage-collector'], { started = true } = {}) {
  const { clock, bus, random, server, client, run } = await virtualWorld({ seed: 9 });
  const cm = new ControllerManager({ bus, clock, random, options: { leaderElect: false, controllers },
    onError: (c, e) => { throw new Error(`${c}: ${e}`); } });
  if (started) await cm.start();
  const rs = (name: string) => client.create(RS, { metadata: { name, namespace: 'default' }, spec: {
    replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  } } as KObject);
  const pods = async () => ((await client.list(PODS, 'default')).items as Rec[]);
  const sets = async () => ((await client.list(RS, 'default')).items as Rec[]);
  /** Deletes with DeleteOptions in the body, as kubectl sends them. */
  const del = (url: string, options: Rec) => client.request('DELETE', url, options) as Promise<Rec>;
  /** The keys the store removed, in order. */
  const removed: string[] = [];
  server.store.onChange((c) => { if (c.type === 'DELETED') removed.push(c.key.split('/').slice(-3).join('/')); });
  return { client, rs, pods, sets, del, removed, settle: () => run(2_000), start: () => cm.start(), stop: () => { void cm.stop(); server.stop(); } };
}

/** A finalizer nobody removes until the test does: it keeps a dependent terminating. */
const HOLD = 'example.com/hold';
const hold = (w: Awaited<ReturnType<typeof world>>, pod: Rec) =>
  w.client.patch(PODS, 'default', pod.metadata.name, { metadata: { finalizers: [HOLD] } }, 'merge');
const release = (w: Awaited<ReturnType<typeof world>>, name: string) =>
  w.client.patch(PODS, 'default', name, { metadata: { finalizers: null } }, 'merge');

test('deleting a ReplicaSet deletes its pods', async () => {
  const w = await world();
  await w.rs('web');
  await w.rs('api');
  await w.settle();
  assert.is((await w.pods()).length, 4);
  await w.client.delete(RS, 'default', 'web');
  await w.settle();
  assert.equal((await w.pods()).map((p) => p.metadata.labels.app).sort(), ['api', 'api']);
  w.stop();
});

test('a dependent with another owner left loses only the reference to the gone one', async () => {
  const w = await world();
  const web = await w.rs('web');
  const other = await w.client.create(RS, { metadata: { name: 'other', namespace: 'default' }, spec: {
    replicas: 0, selector: { matchLabels: { app: 'nothing' } }, template: { metadata: { labels: { app: 'nothing' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  } } as KObject);
  const ref = (o: KObject) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: o.metadata.name, uid: o.metadata.uid });
  await w.client.create(PODS, { metadata: { name: 'shared', namespace: 'default', ownerReferences: [ref(web), ref(other)] }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } as KObject);
  await w.settle();
  await w.client.delete(RS, 'default', 'other');
  await w.settle();
  const shared = (await w.client.get(PODS, 'default', 'shared')) as Rec;
  assert.equal(shared.metadata.ownerReferences.map((r: Rec) => r.name), ['web']);
  w.stop();
});

test('Orphan: the set goes once its pods no longer name it, and the pods stay', async () => {
  const w = await world();
  await w.rs('web');
  await w.settle();
  const before = (await w.pods()).map((p) => p.metadata.name).sort();
  const answer = await w.del(`${RS_URL}/web`, { propagationPolicy: 'Orphan' });
  assert.equal(answer.metadata.finalizers, ['orphan']);
  assert.ok(answer.metadata.deletionTimestamp);
  await w.settle();
  assert.equal(await w.sets(), []);
  const pods = await w.pods();
  assert.equal(pods.map((p) => p.metadata.name).sort(), before, 'the same pods, none replaced and none deleted');
  assert.equal(pods.map((p) => p.metadata.ownerReferences), [undefined, undefined]);
  w.stop();
});

test('orphanDependents=true orphans as propagationPolicy Orphan does', async () => {
  const w = await world();
  await w.rs('web');
  await w.settle();
  await w.del(`${RS_URL}/web`, { orphanDependents: true });
  await w.settle();
  assert.equal(await w.sets(), []);
  assert.equal((await w.pods()).map((p) => p.metadata.ownerReferences), [undefined, undefined]);
  w.stop();
});

test('Orphan keeps the references a dependent holds to its other owners', async () => {
  const w = await world();
  const web = await w.rs('web');
  const other = await w.rs('other');
  await w.settle();
  const pod = (await w.pods()).find((p) => p.metadata.labels.app === 'web')!;
  const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'other', uid: other.metadata.uid };
  await w.client.patch(PODS, 'default', pod.metadata.name, { metadata: { ownerReferences: [...pod.metadata.ownerReferences, ref] } }, 'merge');
  await w.del(`${RS_URL}/web`, { propagationPolicy: 'Orphan' });
  await w.settle();
  const kept = (await w.client.get(PODS, 'default', pod.metadata.name)) as Rec;
  assert.equal(kept.metadata.ownerReferences, [ref]);
  assert.not.ok((await w.sets()).some((s) => s.metadata.uid === web.metadata.uid));
  w.stop();
});

test('Foreground: the set stays until its pods are gone, then goes', async () => {
  const w = await world();
  await w.rs('web');
  await w.rs('api');
  await w.settle();
  const answer = await w.del(`${RS_URL}/web`, { propagationPolicy: 'Foreground' });
  assert.equal(answer.metadata.finalizers, ['foregroundDeletion']);
  await w.settle();
  assert.equal((await w.pods()).map((p) => p.metadata.labels.app), ['api', 'api']);
  assert.equal((await w.sets()).map((s) => s.metadata.name), ['api']);
  const web = w.removed.filter((k) => k.endsWith('/web') || k.includes('/web-'));
  assert.equal(web.length, 3);
  assert.is(web.at(-1), 'replicasets/default/web', 'the set is removed after its pods');
  w.stop();
});

test('Foreground waits for a blocking dependent that is still terminating', async () => {
  const w = await world();
  await w.rs('web');
  await w.settle();
  const [held] = await w.pods();
  await hold(w, held!);
  await w.del(`${RS_URL}/web`, { propagationPolicy: 'Foreground' });
  await w.settle();
  const left = await w.pods();
  assert.equal(left.map((p) => p.metadata.name), [held!.metadata.name]);
  assert.ok(left[0]!.metadata.deletionTimestamp, 'the collector deleted it; its finalizer holds it');
  const set = (await w.sets())[0]!;
  assert.equal(set.metadata.finalizers, ['foregroundDeletion']);
  assert.ok(set.metadata.deletionTimestamp);
  await release(w, held!.metadata.name);
  await w.settle();
  assert.equal(await w.pods(), []);
  assert.equal(await w.sets(), []);
  w.stop();
});

test('Foreground does not wait for a dependent whose reference does not block its owner', async () => {
  const w = await world();
  await w.rs('web');
  await w.settle();
  const [held] = await w.pods();
  const refs = held!.metadata.ownerReferences.map((r: Rec) => ({ ...r, blockOwnerDeletion: false }));
  await w.client.patch(PODS, 'default', held!.metadata.name, { metadata: { finalizers: [HOLD], ownerReferences: refs } }, 'merge');
  await w.del(`${RS_URL}/web`, { propagationPolicy: 'Foreground' });
  await w.settle();
  assert.equal(await w.sets(), []);
  const left = await w.pods();
  assert.equal(left.map((p) => p.metadata.name), [held!.metadata.name]);
  assert.ok(left[0]!.metadata.deletionTimestamp, 'it was deleted all the same');
  w.stop();
});

test('Foreground takes the reference off a dependent that keeps another owner, and does not delete it', async () => {
  const w = await world();
  await w.rs('web');
  const other = await w.rs('other');
  await w.settle();
  const pod = (await w.pods()).find((p) => p.metadata.labels.app === 'web')!;
  const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'other', uid: other.metadata.uid };
  await w.client.patch(PODS, 'default', pod.metadata.name, { metadata: { ownerReferences: [...pod.metadata.ownerReferences, ref] } }, 'merge');
  await w.del(`${RS_URL}/web`, { propagationPolicy: 'Foreground' });
  await w.settle();
  assert.equal((await w.sets()).map((s) => s.metadata.name), ['other']);
  const kept = (await w.client.get(PODS, 'default', pod.metadata.name)) as Rec;
  assert.not.ok(kept.metadata.deletionTimestamp);
  assert.equal(kept.metadata.ownerReferences, [ref]);
  w.stop();
});

test('Foreground runs down a Deployment\'s tree: its set is deleted in the foreground too, and both wait for the pods', async () => {
  const w = await world(['deployment-controller', 'replicaset-controller', 'garbage-collector']);
  await w.client.create(DEPLOYMENTS, { metadata: { name: 'shop', namespace: 'default' }, spec: {
    replicas: 2, selector: { matchLabels: { app: 'shop' } }, template: { metadata: { labels: { app: 'shop' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  } } as KObject);
  await w.settle();
  const pods = await w.pods();
  assert.is(pods.length, 2);
  await hold(w, pods[0]!);
  await w.del('/apis/apps/v1/namespaces/default/deployments/shop', { propagationPolicy: 'Foreground' });
  await w.settle();
  const set = (await w.sets())[0]!;
  assert.equal(set.metadata.finalizers, ['foregroundDeletion'], 'the set waits for its pods in the foreground');
  const d = (await w.client.get(DEPLOYMENTS, 'default', 'shop')) as Rec;
  assert.equal(d.metadata.finalizers, ['foregroundDeletion'], 'the deployment waits for its set');
  await release(w, pods[0]!.metadata.name);
  await w.settle();
  assert.equal(await w.pods(), []);
  assert.equal(await w.sets(), []);
  assert.equal((await w.client.list(DEPLOYMENTS, 'default')).items, []);
  assert.equal(w.removed.slice(-2).map((k) => k.split('/')[0]), ['replicasets', 'deployments'], 'the set goes before the deployment');
  w.stop();
});

test('Orphan on a Deployment leaves its set, which keeps its pods', async () => {
  const w = await world(['deployment-controller', 'replicaset-controller', 'garbage-collector']);
  await w.client.create(DEPLOYMENTS, { metadata: { name: 'shop', namespace: 'default' }, spec: {
    replicas: 2, selector: { matchLabels: { app: 'shop' } }, template: { metadata: { labels: { app: 'shop' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  } } as KObject);
  await w.settle();
  await w.del('/apis/apps/v1/namespaces/default/deployments/shop', { propagationPolicy: 'Orphan' });
  await w.settle();
  assert.equal((await w.client.list(DEPLOYMENTS, 'default')).items, []);
  const [set] = await w.sets();
  assert.is(set!.metadata.ownerReferences, undefined);
  assert.equal((await w.pods()).map((p) => p.metadata.ownerReferences[0].uid), [set!.metadata.uid, set!.metadata.uid]);
  w.stop();
});

test('a later Background delete of a set being orphaned takes the finalizer off: it goes at once and the collector deletes its pods', async () => {
  // The collector starts after both deletes, as if it had not yet come to orphan the pod.
  const w = await world(['garbage-collector'], { started: false });
  const web = await w.rs('web');
  const ref = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: web.metadata.uid, controller: true, blockOwnerDeletion: true };
  await w.client.create(PODS, { metadata: { name: 'p', namespace: 'default', ownerReferences: [ref] }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } as KObject);
  assert.equal((await w.del(`${RS_URL}/web`, { propagationPolicy: 'Orphan' })).metadata.finalizers, ['orphan']);
  assert.is((await w.del(`${RS_URL}/web`, { propagationPolicy: 'Background' })).status, 'Success');
  assert.equal(await w.sets(), []);
  await w.start();
  await w.settle();
  assert.equal(await w.pods(), []);
  w.stop();
});

test('any kind but Events: a ConfigMap deleted in the foreground takes its Secret with it; one orphaned leaves it', async () => {
  const w = await world(['garbage-collector']);
  const CMS = lookupResource('', 'v1', 'configmaps')!;
  const SECRETS = lookupResource('', 'v1', 'secrets')!;
  const owned = async (owner: string) => {
    const cm = await w.client.create(CMS, { metadata: { name: owner, namespace: 'default' }, data: { k: 'v' } } as KObject);
    await w.client.create(SECRETS, { metadata: { name: `${owner}-secret`, namespace: 'default',
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner, uid: cm.metadata.uid!, blockOwnerDeletion: true }] } } as KObject);
  };
  await owned('fore');
  await owned('orphaning');
  await w.settle();
  await w.del('/api/v1/namespaces/default/configmaps/fore', { propagationPolicy: 'Foreground' });
  await w.del('/api/v1/namespaces/default/configmaps/orphaning', { propagationPolicy: 'Orphan' });
  await w.settle();
  assert.equal((await w.client.list(CMS, 'default')).items.map((o) => o.metadata.name), [], 'both ConfigMaps gone');
  const secrets = (await w.client.list(SECRETS, 'default')).items;
  assert.equal(secrets.map((o) => [o.metadata.name, o.metadata.ownerReferences]), [['orphaning-secret', undefined]]);
  w.stop();
});

test.run();
