// The namespace controller against a real API server on virtual time: deleting a namespace
// deletes what is in it, then the namespace itself; a pod still finishing keeps it Terminating.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import { StatusError } from '../../../actors/api/status.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const NAMESPACES = lookupResource('', 'v1', 'namespaces')!;
const CONFIGMAPS = lookupResource('', 'v1', 'configmaps')!;
const PODS = lookupResource('', 'v1', 'pods')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('a deleted namespace is emptied, then removed; a pod in its grace period holds it until it goes', async () => {
  const { clock, bus, random, client, run, stop } = await virtualWorld();
  const cm = new ControllerManager({ bus, clock, random, options: { leaderElect: false, controllers: ['namespace-controller'] },
    onError: (c, e) => { throw new Error(`${c}: ${e}`); } });
  await cm.start();
  await client.create(NAMESPACES, { metadata: { name: 'team' } } as KObject);
  await client.create(CONFIGMAPS, { metadata: { name: 'settings', namespace: 'team' }, data: { a: 'b' } } as KObject);
  await client.create(PODS, { metadata: { name: 'web', namespace: 'team' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] } } as KObject);
  await client.delete(NAMESPACES, undefined, 'team');
  await run(10_000);
  assert.is((await client.list(CONFIGMAPS, 'team')).items.length, 0, 'the config map went at once');
  const ns = (await client.get(NAMESPACES, undefined, 'team')) as Rec;
  assert.is(ns.status.phase, 'Terminating', 'the bound pod is still in its grace period (no node agent finishes it)');
  // The pod's agent would finish it; here the test does.
  await client.delete(PODS, 'team', 'web', { gracePeriodSeconds: 0 });
  await run(10_000);
  const gone = await client.get(NAMESPACES, undefined, 'team').then(() => undefined, (e: unknown) => e);
  assert.ok(gone instanceof StatusError && gone.code === 404, 'the namespace is gone');
  void cm.stop();
  stop();
});

test.run();
