// The scheduler actor against a real API server over the in-process bus, on virtual time: it
// binds pods through pods/binding at its QPS limit, explains what it could not do in the pod's
// PodScheduled condition with the real FitError text, retries when the cluster changes, serves
// only its own schedulerName, and preempts lower-priority pods.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { NodeConditionTaints } from '../../../actors/controller-manager/controllers/node-condition-taints.ts';
import type { SchedulerOptions } from '../../../actors/scheduler/options.ts';
import { Scheduler, type Decision } from '../../../actors/scheduler/scheduler.ts';
import { priorityClasses } from '../../helpers/priority-classes.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const NODES = lookupResource('', 'v1', 'nodes')!;
const PODS = lookupResource('', 'v1', 'pods')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function world(options: Partial<SchedulerOptions> = {}, seed = 3) {
  const { clock, bus, random: root, server, client, run } = await virtualWorld({ seed });
  const decisions: Decision[] = [];
  const bound = new Map<string, number>();
  const t0 = clock.now();
  const scheduler = new Scheduler({ bus, clock, random: root.fork('scheduler'), options, onDecision: (d) => decisions.push(d),
    onBound: (pod) => bound.set(pod, clock.now() - t0), onError: (e) => { throw e; } });
  const node = (name: string, cpu: string, memory = '16Gi', extra: { labels?: Record<string, string>; taints?: unknown[] } = {}) =>
    client.create(NODES, { metadata: { name, labels: { 'kubernetes.io/hostname': name, ...extra.labels } },
      spec: extra.taints ? { taints: extra.taints } : {},
      status: { allocatable: { cpu, memory, pods: '110' }, capacity: { cpu, memory, pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] } } as KObject);
  const classFor = priorityClasses(client);
  const pod = async (name: string, cpu: string, { priority, ...extra }: Rec = {}) =>
    client.create(PODS, { metadata: { name, namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu, memory: '64Mi' } } }], terminationGracePeriodSeconds: 0,
        ...(priority !== undefined ? { priorityClassName: await classFor(priority) } : {}), ...extra } } as KObject);
  // New nodes carry the not-ready taint until the node lifecycle controller sees them Ready.
  const informers = new SharedInformers(bus, clock, 'test');
  const taints = new NodeConditionTaints({ bus, informers, onError: (e) => { throw e; } });
  await taints.start();
  const get = (name: string) => client.get(PODS, 'default', name) as Promise<Rec>;
  return { clock, server, client, scheduler, decisions, bound, node, pod, get, run, stop: () => { scheduler.stop(); taints.stop(); informers.stop(); server.stop(); } };
}

test('pods are bound through pods/binding, each once, spread by LeastAllocated', async () => {
  const w = await world();
  await w.node('n1', '4');
  await w.node('n2', '4');
  await w.scheduler.start();
  for (let i = 0; i < 6; i++) await w.pod(`p${i}`, '500m');
  await w.run(5_000);
  const nodes = await Promise.all([0, 1, 2, 3, 4, 5].map(async (i) => (await w.get(`p${i}`)).spec.nodeName));
  assert.equal(nodes.filter((n) => n === 'n1').length, 3, `spread evenly: ${nodes}`);
  assert.equal(nodes.filter((n) => n === 'n2').length, 3);
  assert.is(w.scheduler.counts.scheduled, 6);
  assert.is(w.scheduler.counts.bindFailures, 0);
  w.stop();
});

test('explanations are kept for the newest explanationsKept decisions only', async () => {
  const w = await world({ explanationsKept: 3 });
  await w.node('n1', '4');
  await w.scheduler.start();
  for (let i = 0; i < 5; i++) {
    await w.pod(`p${i}`, '100m');
    await w.run(1_000);
  }
  assert.equal([0, 1, 2, 3, 4].map((i) => w.scheduler.explain(`default/p${i}`)?.node), [undefined, undefined, 'n1', 'n1', 'n1']);
  w.stop();
});

test('bindings go out at the client QPS limit after the burst', async () => {
  const w = await world({ orchApiQps: 10, orchApiBurst: 5 });
  await w.node('n1', '100');
  await w.scheduler.start();
  for (let i = 0; i < 25; i++) await w.pod(`p${i}`, '10m');
  await w.run(10_000);
  assert.is(w.bound.size, 25);
  const times = [...w.bound.values()].sort((a, b) => a - b);
  // Five at once, then one every 100 ms: the last of 25 goes 2 s after the first.
  assert.is(times[4]! - times[0]!, 0);
  assert.is(times[24]! - times[0]!, 2_000);
  w.stop();
});

test('a pod that fits nowhere gets the FitError text in its PodScheduled condition, and is scheduled once a node fits', async () => {
  const w = await world();
  await w.node('n1', '2');
  await w.node('n2', '2', '16Gi', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
  await w.scheduler.start();
  await w.pod('big', '3');
  await w.run(3_000);
  const pod = await w.get('big');
  assert.is(pod.spec.nodeName, undefined);
  const cond = pod.status.conditions.find((c: Rec) => c.type === 'PodScheduled');
  assert.is(cond.status, 'False');
  assert.is(cond.reason, 'Unschedulable');
  assert.ok(cond.message.startsWith('0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}.'), cond.message);
  assert.match(cond.message, /preemption: 0\/2 nodes are available/);
  const d = w.scheduler.explain('default/big')!;
  assert.is(d.result, 'unschedulable');
  assert.equal(d.filtered.TaintToleration, { 'node(s) had untolerated taint {dedicated: gpu}': 1 });
  await w.node('n3', '8');
  await w.run(15_000);
  assert.is((await w.get('big')).spec.nodeName, 'n3');
  assert.is(w.scheduler.explain('default/big')!.node, 'n3');
  w.stop();
});

test("the scheduler's machine follows its start, its queue loop and its stop", async () => {
  const w = await world();
  await w.node('n1', '4');
  const seen: string[] = [];
  w.scheduler.lifecycle.subscribe(() => {
    if (seen.at(-1) !== w.scheduler.state) seen.push(w.scheduler.state);
  });
  seen.push(w.scheduler.state);
  await w.scheduler.start();
  for (let i = 0; i < 3; i++) await w.pod(`p${i}`, '100m');
  await w.run(2_000);
  w.stop();
  // A batch is due at the start, then whenever it is kicked (pods arrive, the queue's flush every second): Busy and Idle alternate.
  const busy = 'Running.Busy', idle = 'Running.Idle';
  assert.equal(seen.slice(0, 3), ['Starting', busy, idle]);
  assert.equal(seen.slice(-2), [idle, 'Stopped']);
  const middle = seen.slice(1, -1);
  assert.ok(middle.length >= 4, middle.join(' '));
  assert.ok(middle.every((s, i) => s === (i % 2 === 0 ? busy : idle)), middle.join(' '));
});

test('a pod for another scheduler is left alone', async () => {
  const w = await world();
  await w.node('n1', '4');
  await w.scheduler.start();
  await w.pod('mine', '100m');
  await w.pod('theirs', '100m', { schedulerName: 'other-scheduler' });
  await w.run(3_000);
  assert.is((await w.get('mine')).spec.nodeName, 'n1');
  assert.is((await w.get('theirs')).spec.nodeName, undefined);
  assert.is(w.scheduler.explain('default/theirs'), undefined);
  w.stop();
});

test('a high-priority pod preempts the fewest, least important pods and lands on the freed node', async () => {
  const w = await world();
  await w.node('n1', '2');
  await w.scheduler.start();
  await w.pod('low-a', '900m', { priority: 1 });
  await w.pod('low-b', '900m', { priority: 5 });
  await w.run(2_000);
  assert.is((await w.get('low-a')).spec.nodeName, 'n1');
  assert.is((await w.get('low-b')).spec.nodeName, 'n1');
  await w.pod('urgent', '1', { priority: 100 });
  await w.run(30_000);
  const d = w.decisions.find((x) => x.pod === 'default/urgent' && x.preemption);
  assert.ok(d, 'a preemption was decided');
  assert.equal(d!.preemption, { node: 'n1', victims: ['default/low-a'] });
  const names = (await w.client.list(PODS, 'default')).items.map((p) => p.metadata.name).sort();
  assert.equal(names, ['low-b', 'urgent']);
  assert.is((await w.get('urgent')).spec.nodeName, 'n1');
  w.stop();
});

test('a preemptor waits for its victims with its room kept: no second preemption, and a pod of lower priority does not take the room', async () => {
  // By the real scheduler's rules: 'urgent' (100, 2 cpu) preempts two of n1's four 1-cpu pods
  // (priority 0, 30 s grace; no agent here, so they stay terminating until the test finishes
  // them). Changes meanwhile retry it, but its nominated node still holds its terminating victims:
  // it waits. 'small' (priority 0, 2 cpu), created while they terminate, must leave the room to
  // urgent, and cannot preempt pods of its own priority. Once the victims are gone urgent lands
  // on n1, and only its two victims were ever deleted.
  const w = await world();
  await w.node('n1', '4');
  await w.scheduler.start();
  for (const name of ['low-a', 'low-b', 'low-c', 'low-d']) await w.pod(name, '1', { priority: 0, terminationGracePeriodSeconds: 30 });
  await w.run(1_000);
  await w.pod('urgent', '2', { priority: 100 });
  await w.run(1_000);
  const preemptions = () => w.decisions.filter((d) => d.preemption);
  assert.is(preemptions().length, 1);
  const victims = preemptions()[0]!.preemption!.victims;
  assert.is(victims.length, 2);
  assert.is((await w.get('urgent')).status.nominatedNodeName, 'n1');
  const victim = await w.get(victims[0]!.split('/')[1]!);
  assert.ok(victim.metadata.deletionTimestamp, 'terminating');
  assert.equal(victim.status.conditions.find((c: Rec) => c.type === 'DisruptionTarget')?.reason, 'PreemptionByScheduler');
  await w.node('n2', '1'); // a change: every pending pod is tried again
  await w.pod('small', '2', { priority: 0 });
  await w.run(10_000);
  await w.node('n3', '1');
  await w.run(1_000);
  assert.ok(w.decisions.filter((d) => d.pod === 'default/urgent').length >= 3, 'urgent was tried again meanwhile');
  assert.match(w.decisions.filter((d) => d.pod === 'default/urgent').at(-1)!.message!, /not eligible due to a terminating pod on the nominated node\.$/);
  assert.is(preemptions().length, 1, 'no second preemption');
  for (const key of victims) await w.client.delete(PODS, 'default', key.split('/')[1]!, { gracePeriodSeconds: 0 });
  await w.run(30_000);
  assert.is((await w.get('urgent')).spec.nodeName, 'n1');
  assert.is((await w.get('small')).spec.nodeName, undefined);
  const names = (await w.client.list(PODS, 'default')).items.map((p) => p.metadata.name).sort();
  assert.equal(names, ['low-a', 'low-b', 'low-c', 'low-d', 'small', 'urgent'].filter((n) => !victims.includes(`default/${n}`)));
  assert.is(preemptions().length, 1);
  w.stop();
});

test('the same seed makes the same choices among equal nodes', async () => {
  const choices = async (seed: number) => {
    const w = await world({}, seed);
    for (let i = 0; i < 8; i++) await w.node(`n${i}`, '64');
    await w.scheduler.start();
    for (let i = 0; i < 4; i++) await w.pod(`p${i}`, '10m');
    await w.run(3_000);
    const out = await Promise.all([0, 1, 2, 3].map(async (i) => (await w.get(`p${i}`)).spec.nodeName));
    w.stop();
    return out.join(',');
  };
  assert.is(await choices(11), await choices(11));
});

test.run();
