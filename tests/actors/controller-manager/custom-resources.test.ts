// The controllers that act on whatever the server serves, with custom resources, on virtual time:
// the garbage collector finds a custom kind by discovery within its resync period and collects
// what a custom object owned once it is deleted; the namespace controller deletes a terminating
// namespace's custom objects before it lets the namespace go.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource, type ResourceType } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import { RESYNC_MS } from '../../../actors/controller-manager/controllers/garbage-collector.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const CRDS = lookupResource('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
const CONFIGMAPS = lookupResource('', 'v1', 'configmaps')!;
const NAMESPACES = lookupResource('', 'v1', 'namespaces')!;
const WIDGETS: ResourceType = { group: 'example.com', version: 'v1', resource: 'widgets', singular: 'widget', kind: 'Widget', scope: 'Namespaced',
  shortNames: [], categories: [], verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], subresources: [], virtual: false };

async function world(controllers: string[]) {
  const { clock, bus, random, server, client, run } = await virtualWorld({ seed: 3 });
  await client.create(CRDS, { metadata: { name: 'widgets.example.com' }, spec: { group: 'example.com', scope: 'Namespaced',
    names: { plural: 'widgets', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } } as KObject);
  await run(1_000);
  const cm = new ControllerManager({ bus, clock, random, options: { leaderElect: false, controllers }, onError: (c, e) => { throw new Error(`${c}: ${e}`); } });
  await cm.start();
  return { client, run, clock, stop: () => { void cm.stop(); server.stop(); } };
}

const names = (items: KObject[]) => items.map((o) => o.metadata.name);

test('the garbage collector collects what a custom object owned once it is gone', async () => {
  const w = await world(['garbage-collector']);
  const owner = await w.client.create(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'default' } } as KObject);
  const ref = { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w1', uid: owner.metadata.uid!, controller: true };
  await w.client.create(CONFIGMAPS, { metadata: { name: 'owned', namespace: 'default', ownerReferences: [ref] } } as KObject);
  await w.client.create(CONFIGMAPS, { metadata: { name: 'free', namespace: 'default' } } as KObject);
  await w.run(RESYNC_MS + 1_000);
  await w.client.delete(WIDGETS, 'default', 'w1');
  await w.run(2_000);
  assert.equal(names((await w.client.list(CONFIGMAPS, 'default')).items).filter((n) => n !== 'kube-root-ca.crt'), ['free']);
  w.stop();
});

test('a deleted namespace loses its custom objects before it goes', async () => {
  const w = await world(['namespace-controller']);
  await w.client.create(NAMESPACES, { metadata: { name: 'team' } } as KObject);
  await w.client.create(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1', namespace: 'team' } } as KObject);
  await w.client.delete(NAMESPACES, undefined, 'team');
  await w.run(10_000);
  assert.equal((await w.client.list(WIDGETS, 'team')).items, []);
  const gone = await w.client.get(NAMESPACES, undefined, 'team').then(() => false, () => true);
  assert.ok(gone, 'the namespace is gone');
  w.stop();
});

test.run();
