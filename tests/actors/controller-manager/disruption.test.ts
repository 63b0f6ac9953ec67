// The disruption controller alone against a real API server on virtual time, with workloads and
// pods written by the test as their controllers and node agents would write them: what it
// computes for minAvailable and maxUnavailable (integers and percentages, over the controllers'
// replicas found in caches or through /scale), its condition and reasons, the disruptions it
// awaits and forgets after two minutes, what it refuses to compute, and what it leaves alone.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject, OwnerReference } from '../../../actors/api/types.ts';
import { coreRecorders, EVENTS, type CoreEvent } from '../../../actors/client/events/index.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { DisruptionController } from '../../../actors/controller-manager/controllers/disruption.ts';
import { newRegistry } from '../../../actors/api/metrics.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';
import { sample } from '../client/metric-values.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const PDBS = lookupResource('policy', 'v1', 'poddisruptionbudgets')!;
const RS = lookupResource('apps', 'v1', 'replicasets')!;
const DEPLOYMENTS = lookupResource('apps', 'v1', 'deployments')!;
const STATEFULSETS = lookupResource('apps', 'v1', 'statefulsets')!;
const CRDS = lookupResource('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TEMPLATE = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
const SELECTOR = { matchLabels: { app: 'web' } };

async function world() {
  const { clock, bus, client, run, server, random } = await virtualWorld({ seed: 5 });
  const informers = new SharedInformers(bus, clock, 'test');
  const registry = newRegistry();
  const controller = new DisruptionController({ bus, clock, informers, registry, onError: (e) => { throw e; }, events: coreRecorders(clock, random.fork('events')) });
  await controller.start();
  const ref = (o: KObject): OwnerReference => ({ apiVersion: o.apiVersion!, kind: o.kind!, name: o.metadata.name!, uid: o.metadata.uid!, controller: true });
  /** A pod of app=web owned by `owner` (none: a bare pod), Running and Ready unless told. */
  const pod = async (name: string, owner?: KObject, { ready = true, labels = { app: 'web' } as Record<string, string> } = {}) => {
    const p = await client.create(PODS, { metadata: { name, namespace: 'default', labels, ...(owner ? { ownerReferences: [ref(owner)] } : {}) },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] } } as KObject);
    await setReady(name, ready);
    return p;
  };
  const setReady = (name: string, ready: boolean) => client.patch(PODS, 'default', name, { status: { phase: 'Running',
    conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }] } }, 'strategic', 'status');
  const replicaSet = (name: string, replicas: number, owner?: KObject) => client.create(RS, { metadata: { name, namespace: 'default',
    ...(owner ? { ownerReferences: [ref(owner)] } : {}) }, spec: { replicas, selector: SELECTOR, template: TEMPLATE } } as KObject);
  const deployment = (name: string, replicas: number) => client.create(DEPLOYMENTS, { metadata: { name, namespace: 'default' },
    spec: { replicas, selector: SELECTOR, template: TEMPLATE } } as KObject);
  const budget = (spec: Rec, name = 'web') => client.create(PDBS, { metadata: { name, namespace: 'default' }, spec: { selector: SELECTOR, ...spec } } as KObject);
  const status = async (name = 'web') => ((await client.get(PDBS, 'default', name)) as Rec).status ?? {};
  const summary = async (name = 'web') => {
    const s = await status(name);
    return { expected: s.expectedPods, desired: s.desiredHealthy, healthy: s.currentHealthy, allowed: s.disruptionsAllowed };
  };
  const allowedCondition = async (name = 'web') => {
    const c = ((await status(name)).conditions ?? []).find((x: Rec) => x.type === 'DisruptionAllowed');
    return c && { status: c.status, reason: c.reason, message: c.message };
  };
  const settle = () => run(1_000);
  return { clock, client, run, settle, pod, setReady, replicaSet, deployment, budget, status, summary, allowedCondition, registry, server,
    stop: () => { controller.stop(); informers.stop(); server.stop(); } };
}

test('a Deployment of 3 with minAvailable 2 allows 1 disruption, SufficientPods; a pod not Ready takes it to 0, InsufficientPods', async () => {
  const w = await world();
  const d = await w.deployment('web', 3);
  const rs = await w.replicaSet('web-1', 3, d);
  for (const n of ['a', 'b', 'c']) await w.pod(n, rs);
  const pdb = await w.budget({ minAvailable: 2 });
  await w.settle();
  assert.equal(await w.summary(), { expected: 3, desired: 2, healthy: 3, allowed: 1 });
  assert.equal(await w.allowedCondition(), { status: 'True', reason: 'SufficientPods', message: '' });
  assert.is((await w.status()).observedGeneration, pdb.metadata.generation);
  await w.setReady('b', false);
  await w.settle();
  assert.equal(await w.summary(), { expected: 3, desired: 2, healthy: 2, allowed: 0 });
  assert.equal(await w.allowedCondition(), { status: 'False', reason: 'InsufficientPods', message: '' });
  w.stop();
});

test('percentages round up: minAvailable of the controllers\' replicas, maxUnavailable taken from them', async () => {
  const w = await world();
  const d = await w.deployment('web', 4);
  const rs = await w.replicaSet('web-1', 4, d);
  for (const n of ['a', 'b', 'c']) await w.pod(n, rs);
  await w.budget({ minAvailable: '50%' }, 'half');
  await w.budget({ maxUnavailable: '30%', selector: SELECTOR }, 'most');
  await w.budget({ maxUnavailable: 1 }, 'one');
  await w.settle();
  // Four replicas expected though three pods exist: 50% of 4 is 2; 30% of 4 rounds up to 2 unavailable.
  assert.equal(await w.summary('half'), { expected: 4, desired: 2, healthy: 3, allowed: 1 });
  assert.equal(await w.summary('most'), { expected: 4, desired: 2, healthy: 3, allowed: 1 });
  assert.equal(await w.summary('one'), { expected: 4, desired: 3, healthy: 3, allowed: 0 });
  await w.budget({ minAvailable: '34%', selector: SELECTOR }, 'third');
  await w.settle();
  assert.equal(await w.summary('third'), { expected: 4, desired: 2, healthy: 3, allowed: 1 }, '34% of 4 is 1.36: 2');
  w.stop();
});

test('a change of a workload\'s replicas alone recomputes the budgets of its namespace', async () => {
  const w = await world();
  const rs = await w.replicaSet('web', 3);
  for (const n of ['a', 'b', 'c']) await w.pod(n, rs);
  await w.budget({ maxUnavailable: 1 });
  await w.settle();
  assert.equal(await w.summary(), { expected: 3, desired: 2, healthy: 3, allowed: 1 });
  await w.client.patch(RS, 'default', 'web', { spec: { replicas: 5 } }, 'merge');
  await w.settle();
  assert.equal(await w.summary(), { expected: 5, desired: 4, healthy: 3, allowed: 0 });
  w.stop();
});

test('StatefulSets and custom resources with a scale subresource count by their replicas', async () => {
  const w = await world();
  const ss = await w.client.create(STATEFULSETS, { metadata: { name: 'db', namespace: 'default' },
    spec: { replicas: 2, serviceName: 'db', selector: SELECTOR, template: TEMPLATE } } as KObject);
  await w.pod('db-0', ss);
  await w.client.create(CRDS, { metadata: { name: 'pools.example.com' }, spec: { group: 'example.com', scope: 'Namespaced',
    names: { plural: 'pools', kind: 'Pool' }, versions: [{ name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } }] } } as KObject);
  await w.settle();
  const POOLS = { ...PDBS, group: 'example.com', version: 'v1', resource: 'pools', kind: 'Pool' };
  const pool = await w.client.create(POOLS, { metadata: { name: 'p', namespace: 'default' }, spec: { replicas: 3 } } as KObject);
  await w.pod('p-a', pool);
  await w.budget({ maxUnavailable: '50%' });
  await w.settle();
  assert.equal(await w.summary(), { expected: 5, desired: 2, healthy: 2, allowed: 0 }, '2 of the StatefulSet and 3 of the Pool; 50% of 5 rounds up to 3');
  w.stop();
});

test('pods without a controller are left out of a percentage, counted under an integer minAvailable', async () => {
  const w = await world();
  const rs = await w.replicaSet('web', 2);
  await w.pod('a', rs);
  await w.pod('b', rs);
  await w.pod('bare');
  await w.budget({ minAvailable: '100%' }, 'all');
  await w.budget({ minAvailable: 2 }, 'two');
  await w.settle();
  assert.equal(await w.summary('all'), { expected: 2, desired: 2, healthy: 3, allowed: 1 });
  assert.equal(await w.summary('two'), { expected: 3, desired: 2, healthy: 3, allowed: 1 });
  w.stop();
});

test('a pod whose controller cannot be found fails the sync: SyncFailed with the real message, no disruption allowed', async () => {
  const w = await world();
  const rs = await w.replicaSet('web', 3);
  for (const n of ['a', 'b']) await w.pod(n, rs);
  await w.budget({ maxUnavailable: 1 });
  await w.settle();
  assert.equal(await w.summary(), { expected: 3, desired: 2, healthy: 2, allowed: 0 });
  await w.client.delete(RS, 'default', 'web');
  await w.settle();
  assert.equal(await w.allowedCondition(), { status: 'False', reason: 'SyncFailed', message: 'found no controllers for pod "a"' });
  const s = await w.status();
  assert.is(s.disruptionsAllowed, 0);
  assert.is(s.observedGeneration, 1, 'the generation the last good sync observed');
  w.stop();
});

test('a controller of a kind the server does not serve, or without a scale subresource, fails with the real messages', async () => {
  const w = await world();
  await w.pod('a', { apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't', uid: 'u1' } } as KObject);
  await w.budget({ maxUnavailable: 1 }, 'unknown');
  await w.settle();
  assert.equal(await w.allowedCondition('unknown'), { status: 'False', reason: 'SyncFailed', message: 'no matches for kind "Thing" in version "example.com/v1"' });
  await w.client.delete(PDBS, 'default', 'unknown');
  await w.client.delete(PODS, 'default', 'a', { gracePeriodSeconds: 0 });
  const owner = await w.client.create(PDBS, { metadata: { name: 'owner', namespace: 'default' }, spec: { selector: { matchLabels: { none: 'x' } } } } as KObject);
  await w.pod('b', owner);
  await w.budget({ minAvailable: '50%' });
  await w.settle();
  assert.equal(await w.allowedCondition(), { status: 'False', reason: 'SyncFailed', message: 'poddisruptionbudgets.policy does not implement the scale subresource' });
  w.stop();
});

test('an evicted pod stays out of the healthy count until it is being deleted; one never deleted is forgotten after two minutes', async () => {
  const w = await world();
  const rs = await w.replicaSet('web', 3);
  for (const n of ['a', 'b', 'c']) await w.pod(n, rs);
  await w.budget({ minAvailable: 1 });
  await w.settle();
  assert.equal(await w.summary(), { expected: 3, desired: 1, healthy: 3, allowed: 2 });
  const evict = (name: string) => w.client.request('POST', `/api/v1/namespaces/default/pods/${name}/eviction`,
    { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } });
  // What an eviction whose delete then failed (an admission webhook's refusal, say) leaves behind.
  const pdb = await w.client.get(PDBS, 'default', 'web');
  await w.client.update(PDBS, { ...pdb, status: { ...(pdb.status as Rec), disruptionsAllowed: 1, disruptedPods: { a: new Date(w.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z') } } }, 'status');
  await w.settle();
  let s = await w.status();
  assert.equal(Object.keys(s.disruptedPods), ['a']);
  const deadline = Date.parse(s.disruptedPods.a) + 120_000;
  assert.equal([s.currentHealthy, s.disruptionsAllowed], [2, 1]);
  // A real eviction: the pod is being deleted, so the map lets it go and it no longer counts.
  await evict('b');
  assert.equal(Object.keys((await w.status()).disruptedPods).sort(), ['a', 'b'], 'the eviction records the pod it approved');
  await w.settle();
  s = await w.status();
  assert.equal(Object.keys(s.disruptedPods), ['a']);
  assert.equal([s.currentHealthy, s.disruptionsAllowed], [1, 0]);
  await w.run(deadline - w.clock.now() - 1);
  assert.ok((await w.status()).disruptedPods.a, 'still awaited just before DeletionTimeout');
  await w.run(1);
  s = await w.status();
  assert.is(s.disruptedPods, undefined, 'forgotten at DeletionTimeout, without any other event');
  assert.equal([s.currentHealthy, s.disruptionsAllowed], [2, 1]);
  w.stop();
});

test('a DisruptionTarget condition left on a pod nobody deletes is set back to False after two minutes', async () => {
  const w = await world();
  await w.pod('p');
  await w.client.patch(PODS, 'default', 'p', { status: { conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting', lastTransitionTime: new Date(w.clock.now()).toISOString().replace(/\.\d+Z/, 'Z') }] } }, 'strategic', 'status');
  await w.run(119_000);
  const target = async () => (((await w.client.get(PODS, 'default', 'p')) as Rec).status.conditions as Rec[]).find((c) => c.type === 'DisruptionTarget')!;
  assert.is((await target()).status, 'True');
  await w.run(2_000);
  const c = await target();
  assert.equal([c.status, c.reason, c.message], ['False', undefined, undefined]);
  w.stop();
});

test('pods no budget selects never reach the work queue', async () => {
  const w = await world();
  await w.budget({ minAvailable: 1, selector: { matchLabels: { app: 'db' } } }, 'db');
  await w.settle();
  const adds = await sample(w.registry, 'workqueue_adds_total', { name: 'disruption' });
  for (const n of ['a', 'b', 'c']) await w.pod(n, undefined, { labels: { app: 'web' } });
  await w.pod('unlabelled', undefined, { labels: {} });
  await w.settle();
  assert.is(await sample(w.registry, 'workqueue_adds_total', { name: 'disruption' }), adds);
  await w.pod('d', undefined, { labels: { app: 'db' } });
  await w.settle();
  assert.ok((await sample(w.registry, 'workqueue_adds_total', { name: 'disruption' }))! > adds!);
  assert.equal(await w.summary('db'), { expected: 1, desired: 1, healthy: 1, allowed: 0 });
  w.stop();
});

test('a budget with no selector selects no pods; an empty one every pod of its namespace', async () => {
  const w = await world();
  for (const n of ['a', 'b']) await w.pod(n, undefined, { labels: { app: `x-${n}` } });
  await w.client.create(PDBS, { metadata: { name: 'none', namespace: 'default' }, spec: { minAvailable: 1 } } as KObject);
  await w.budget({ minAvailable: 1, selector: {} }, 'all');
  await w.settle();
  assert.equal(await w.summary('none'), { expected: 0, desired: 1, healthy: 0, allowed: 0 });
  assert.equal(await w.summary('all'), { expected: 2, desired: 1, healthy: 2, allowed: 1 });
  w.stop();
});

test('the controller records the real Events, from controllermanager: NoPods on a budget selecting nothing, UnmanagedPods for pods without a controller under a percentage', async () => {
  const w = await world();
  await w.pod('bare');
  await w.budget({ minAvailable: '50%' }, 'half');
  await w.budget({ minAvailable: 1, selector: { matchLabels: { app: 'nothing' } } }, 'empty');
  await w.settle();
  const events = ((await w.client.list(EVENTS, 'default')).items as CoreEvent[])
    .map((e) => `${e.involvedObject.kind}/${e.involvedObject.name} ${e.source?.component} ${e.type} ${e.reason}: ${e.message}`).sort();
  assert.equal(events, [
    'PodDisruptionBudget/empty controllermanager Normal NoPods: No matching pods found',
    'PodDisruptionBudget/half controllermanager Warning UnmanagedPods: Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) '
      + 'were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. '
      + 'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
  ]);
  w.stop();
});

test.run();
