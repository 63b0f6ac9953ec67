// The pod garbage collector against a real API server on virtual time: terminated pods beyond the
// threshold go oldest first, whether they terminated before the collector started or after; pods
// of a deleted node go after the 40 s quarantine.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import { PodGarbageCollector } from '../../../actors/controller-manager/controllers/pod-gc.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const NODES = lookupResource('', 'v1', 'nodes')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function world(threshold: number) {
  const { clock, kernel, bus, random, server, client, run } = await virtualWorld({ seed: 5 });
  const collected: [string, string, number][] = [];
  const t0 = clock.now();
  const cm = new ControllerManager({ bus, clock, random, options: { leaderElect: false, controllers: ['pod-garbage-collector'], terminatedPodGcThreshold: threshold },
    onError: (c, e) => { throw new Error(`${c}: ${e}`); } });
  const pod = async (name: string, extra: Rec = {}, phase?: string) => {
    const created = await client.create(PODS, { metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra } } as KObject);
    if (phase) await client.patch(PODS, 'default', name, { status: { phase } }, 'merge', 'status');
    await run(1_000);
    return created;
  };
  const names = async () => ((await client.list(PODS, 'default')).items as Rec[]).map((p) => p.metadata.name).sort();
  return { bus, clock, kernel, client, cm, collected, t0, pod, names, run, stop: () => { void cm.stop(); server.stop(); } };
}

test('terminated pods beyond the threshold are deleted, oldest first; running ones are kept', async () => {
  const w = await world(2);
  for (const [i, phase] of ['Succeeded', 'Failed', 'Succeeded', 'Succeeded'].entries()) await w.pod(`done-${i}`, {}, phase);
  await w.pod('running', {}, 'Running');
  await w.cm.start();
  await w.run(25_000);
  assert.equal(await w.names(), ['done-2', 'done-3', 'running']);
  w.stop();
});

test('pods that terminate while the collector runs count from their events; a pod deleted meanwhile no longer counts', async () => {
  const w = await world(0);
  const collected: string[] = [];
  const gc = new PodGarbageCollector({ bus: w.bus, clock: w.clock, informers: new SharedInformers(w.bus, w.clock, 'pod-gc-test'), terminatedPodGcThreshold: 2,
    onCollect: (pod, why) => collected.push(`${pod} ${why}`), onError: (e) => { throw e; } });
  await gc.start();
  for (const name of ['a', 'b', 'c', 'd']) await w.pod(name);
  await w.run(25_000);
  assert.equal(collected, [], 'nothing terminated yet');
  for (const name of ['a', 'b', 'c']) await w.client.patch(PODS, 'default', name, { status: { phase: 'Succeeded' } }, 'merge', 'status');
  await w.client.delete(PODS, 'default', 'a', { gracePeriodSeconds: 0 });
  await w.run(20_000);
  assert.equal(collected, [], 'b and c terminated, a is gone: two, not over the threshold of 2');
  await w.client.patch(PODS, 'default', 'd', { status: { phase: 'Failed' } }, 'merge', 'status');
  await w.run(20_000);
  assert.equal(collected, ['default/b terminated'], 'three terminated: the oldest goes');
  assert.equal(await w.names(), ['c', 'd']);
  gc.stop();
  w.stop();
});

test('pods of a node that is gone are deleted after the quarantine, not before', async () => {
  const w = await world(100);
  await w.client.create(NODES, { metadata: { name: 'n1' } } as KObject);
  await w.pod('on-n1', { nodeName: 'n1' });
  await w.pod('unbound');
  await w.cm.start();
  await w.client.delete(NODES, undefined, 'n1');
  await w.run(21_000);
  assert.equal(await w.names(), ['on-n1', 'unbound'], 'first seen missing at 20 s: quarantined');
  await w.run(40_000);
  assert.equal(await w.names(), ['unbound'], 'collected once its node had been missing 40 s; a pod on no node is not an orphan');
  w.stop();
});

test.run();
