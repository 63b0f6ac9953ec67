// The garbage collector against a real API server on virtual time (with the ReplicaSet controller):
// deleting a set deletes its pods; a dependent that keeps one owner only loses the reference to
// the gone one; a reference whose owner exists (even one the cache has not seen) is left alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { apiServerOptions } from '../../../actors/apiserver/options.ts';
import { ApiServer } from '../../../actors/apiserver/server.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import { Kernel } from '../../../sim/kernel.ts';
import { seededRandom } from '../../../sim/random.ts';
import { virtualClock } from '../../../sim/virtual-clock.ts';
import { MemoryBus } from '../../../transport/memory-bus.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const RS = lookupResource('apps', 'v1', 'replicasets')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function world() {
  const clock = virtualClock();
  const kernel = new Kernel({ clock });
  const bus = new MemoryBus({ clock });
  const server = new ApiServer(apiServerOptions({}), { clock, random: seededRandom(9).fork('apiserver'), bus });
  await server.start();
  const client = new ApiClient(bus, 'test');
  const cm = new ControllerManager({ bus, clock, random: seededRandom(9), options: { leaderElect: false, controllers: ['replicaset-controller', 'garbage-collector'] },
    onError: (c, e) => { throw new Error(`${c}: ${e}`); } });
  await cm.start();
  const rs = (name: string) => client.create(RS, { metadata: { name, namespace: 'default' }, spec: {
    replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  } } as KObject);
  const pods = async () => ((await client.list(PODS, 'default')).items as Rec[]);
  return { client, rs, pods, settle: () => kernel.run({ until: clock.now() + 2_000 }), stop: () => { void cm.stop(); server.stop(); } };
}

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

test.run();
