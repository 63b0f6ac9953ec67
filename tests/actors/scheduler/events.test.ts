// The events the scheduler records, as the real one records them through the events API: Scheduled
// once a binding lands, FailedScheduling with the fit error (repeats counted as a series), and
// Preempted on each victim with its preemptor as the related object.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { EVENTS, type CoreEvent } from '../../../actors/client/events/index.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { NodeConditionTaints } from '../../../actors/controller-manager/controllers/node-condition-taints.ts';
import { Scheduler } from '../../../actors/scheduler/scheduler.ts';
import { priorityClasses } from '../../helpers/priority-classes.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const NODES = lookupResource('', 'v1', 'nodes')!;
const PODS = lookupResource('', 'v1', 'pods')!;

async function world(events = true) {
  const { clock, bus, random, server, client, run } = await virtualWorld({ seed: 3 });
  const scheduler = new Scheduler({ bus, clock, random: random.fork('scheduler'), identity: 'scheduler-0', events, onError: (e) => { throw e; } });
  const node = (name: string, cpu: string) => client.create(NODES, { metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    status: { allocatable: { cpu, memory: '16Gi', pods: '110' }, capacity: { cpu, memory: '16Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] } } as KObject);
  const classFor = priorityClasses(client);
  const pod = async (name: string, cpu: string, priority?: number) => client.create(PODS, { metadata: { name, namespace: 'default' },
    spec: { ...(priority !== undefined ? { priorityClassName: await classFor(priority) } : {}),
      containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }], terminationGracePeriodSeconds: 0 } } as KObject);
  // New nodes carry the not-ready taint until the node lifecycle controller sees them Ready.
  const informers = new SharedInformers(bus, clock, 'test');
  const taints = new NodeConditionTaints({ bus, informers, onError: (e) => { throw e; } });
  await taints.start();
  const stored = async () => ((await client.list(EVENTS, 'default')).items as CoreEvent[]).sort((a, b) => (a.eventTime! < b.eventTime! ? -1 : 1));
  return { clock, client, scheduler, node, pod, stored, run, stop: () => { scheduler.stop(); taints.stop(); informers.stop(); server.stop(); } };
}

test('a pod bound gets Scheduled, in the shape the events API stores: event time, action, reporting component and instance, no source or count', async () => {
  const w = await world();
  await w.node('n1', '4');
  await w.scheduler.start();
  const p = await w.pod('web', '1');
  await w.run(5_000);
  const [e, ...rest] = await w.stored();
  assert.equal(rest, []);
  assert.equal([e!.type, e!.reason, e!.message, e!.action], ['Normal', 'Scheduled', 'Successfully assigned default/web to n1', 'Binding']);
  assert.equal([e!.reportingComponent, e!.reportingInstance], ['default-scheduler', 'default-scheduler-scheduler-0']);
  assert.equal([e!.source, e!.firstTimestamp ?? null, e!.lastTimestamp ?? null, e!.count, e!.series], [{}, null, null, undefined, undefined]);
  assert.match(e!.eventTime!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.equal({ ...e!.involvedObject, resourceVersion: undefined }, { kind: 'Pod', namespace: 'default', name: 'web', uid: p.metadata.uid, apiVersion: 'v1', resourceVersion: undefined });
  w.stop();
});

test('a pod that fits nowhere gets FailedScheduling with the fit error; repeats count as a series, written at the first repeat, on refresh and when finished', async () => {
  const w = await world();
  await w.node('n1', '1');
  await w.scheduler.start();
  await w.pod('big', '4');
  const seen = async () => (await w.stored()).map((e) => [e.reason, e.message, e.series?.count]);
  const fit = '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';
  await w.run(2 * 60_000);
  assert.equal(await seen(), [['FailedScheduling', fit, undefined]]);
  // Tried again every 5 minutes (podMaxInUnschedulablePodsDuration). The first failure wrote the
  // pod's condition, so the second is about a newer version of it: a new event; the third is the
  // same again, and makes it a series of 2.
  await w.run(10 * 60_000);
  assert.equal(await seen(), [['FailedScheduling', fit, undefined], ['FailedScheduling', fit, 2]]);
  await w.run(16 * 60_000);
  assert.equal(await seen(), [['FailedScheduling', fit, undefined], ['FailedScheduling', fit, 2]], 'later repeats are only counted');
  await w.run(12 * 60_000);
  const [, series] = await w.stored();
  assert.ok(series!.series!.count >= 5, `the 30-minute refresh wrote the count: ${series!.series!.count}`);
  assert.is(w.scheduler.counts.unschedulable, 9, 'nine failed attempts in 40 minutes, two events');
  await w.client.delete(PODS, 'default', 'big');
  await w.run(14 * 60_000);
  assert.is((await w.stored())[1]!.series!.count, 8, 'six minutes unobserved, the series is finished: written with its whole count');
  w.stop();
});

test('preemption: each victim gets Preempted, by the preemptor\'s uid, on the node, with the preemptor as related object', async () => {
  const w = await world();
  await w.node('n1', '2');
  await w.scheduler.start();
  const low = await w.pod('low', '2', 1);
  await w.run(5_000);
  const high = await w.pod('high', '2', 1000);
  await w.run(60_000);
  const preempted = (await w.stored()).find((e) => e.reason === 'Preempted')!;
  assert.is(preempted.message, `Preempted by pod ${high.metadata.uid} on node n1`);
  assert.is(preempted.involvedObject.uid, low.metadata.uid);
  assert.is(preempted.related!.uid, high.metadata.uid);
  assert.equal([preempted.type, preempted.action], ['Normal', 'Preempting']);
  w.stop();
});

test('with events turned off the scheduler records none', async () => {
  const w = await world(false);
  await w.node('n1', '4');
  await w.scheduler.start();
  await w.pod('web', '1');
  await w.pod('big', '8');
  await w.run(60_000);
  assert.is(w.scheduler.counts.scheduled, 1);
  assert.equal(await w.stored(), []);
  w.stop();
});

test.run();
