// Node-pressure eviction and podsPerCore: the agent reports MemoryPressure and evicts pods, one per
// status period and in the real agent's order, while memory available is under evictionHard; the
// condition clears after evictionPressureTransitionPeriod. podsPerCore caps the node's pods.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { NodeAgent } from '../../../actors/nodeagent/nodeagent.ts';
import { MEMORY_USAGE } from '../../../actors/nodeagent/pod-usage.ts';
import type { NodeAgentOptions } from '../../../actors/nodeagent/options.ts';
import { evictionVictim, memoryThreshold } from '../../../actors/nodeagent/pressure-eviction.ts';
import { seededRandom } from '../../../sim/random.ts';
import { virtualClock } from '../../../sim/virtual-clock.ts';
import { MemoryBus } from '../../../transport/memory-bus.ts';
import { priorityClasses } from '../../helpers/priority-classes.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const NODES = lookupResource('', 'v1', 'nodes')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const NODE = 'node-1';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function world(options: Partial<NodeAgentOptions>) {
  const { clock, kernel, bus, random: root, server, client } = await virtualWorld();
  const agent = new NodeAgent({ bus, clock, random: root.fork('agent'), nodeName: NODE, options: { leaseRenewJitterFactor: 0, ...options }, onError: (e) => { throw e; } });
  await agent.start();
  const t0 = clock.now();
  const classFor = priorityClasses(client);
  const pod = async (name: string, memory: string, extra: { priority?: number; usage?: string } = {}) => client.create(PODS, {
    metadata: { name, namespace: 'default', ...(extra.usage ? { annotations: { [MEMORY_USAGE]: extra.usage } } : {}) },
    spec: { nodeName: NODE, ...(extra.priority !== undefined ? { priorityClassName: await classFor(extra.priority) } : {}),
      containers: [{ name: 'main', image: 'nginx', resources: { requests: { memory } } }] },
  } as KObject);
  const status = async (name: string) => (await client.get(PODS, 'default', name)).status as Rec;
  const pressure = async () => ((await client.get(NODES, undefined, NODE)).status as Rec).conditions.find((c: Rec) => c.type === 'MemoryPressure').status;
  return { clock, t0, agent, client, pod, status, pressure, until: (ms: number) => kernel.run({ until: t0 + ms }), close: () => { agent.stop(); server.stop(); } };
}

test('the memory threshold is a quantity or a percentage of capacity; a bad one is refused by name', () => {
  assert.is(memoryThreshold({ 'memory.available': '100Mi' })!.bytes(1e12), 100 * 2 ** 20);
  assert.is(memoryThreshold({ 'memory.available': '10%' })!.bytes(2 ** 30), 2 ** 30 / 10);
  assert.is(memoryThreshold({ 'nodefs.available': '10%' }), undefined);
  assert.throws(() => memoryThreshold({ 'memory.available': 'lots' }), /evictionHard memory.available: invalid quantity "lots"/);
  assert.throws(() => memoryThreshold({ 'memory.available': '120%' }), /from 0% to 100%/);
});

test('eviction order: over their request first, then lowest priority, then the most above the request', () => {
  const pods = [
    { key: 'a', priority: 0, usage: 100, request: 100 },
    { key: 'b', priority: 10, usage: 150, request: 100 },
    { key: 'c', priority: 10, usage: 300, request: 100 },
    { key: 'd', priority: -5, usage: 50, request: 100 },
  ];
  assert.is(evictionVictim(pods)!.key, 'c');
  assert.is(evictionVictim(pods.filter((p) => p.key !== 'c'))!.key, 'b');
  assert.is(evictionVictim(pods.filter((p) => p.key === 'a' || p.key === 'd'))!.key, 'd');
  assert.is(evictionVictim([]), undefined);
});

test('under memory pressure the node says so and evicts one pod per period until memory is back over the threshold', async () => {
  const w = await world({ memory: '2Gi' });
  await w.pod('keep', '512Mi', { priority: 100 });
  await w.pod('low', '512Mi', { priority: 1 });
  await w.pod('greedy', '256Mi', { priority: 50, usage: '600Mi' });
  await w.until(30_000);
  assert.is((await w.status('low')).phase, 'Running');
  assert.is(await w.pressure(), 'False');
  // Allocatable leaves the hard threshold out: 2Gi - 100Mi.
  const node = (await w.client.get(NODES, undefined, NODE)).status as Rec;
  assert.is(node.allocatable.memory, `${(2048 - 100) * 1024}Ki`);
  assert.is(node.capacity.memory, '2Gi');
  // 1,624Mi used by pods + 400Mi extra leaves 24Mi of 2Gi: under the 100Mi threshold.
  w.agent.setExtraMemoryUsage(400 * 2 ** 20);
  await w.until(40_000);
  assert.is(await w.pressure(), 'True');
  const greedy = await w.status('greedy');
  assert.is(greedy.phase, 'Failed');
  assert.is(greedy.reason, 'Evicted');
  assert.match(greedy.message, /^The node was low on resource: memory\. Threshold quantity: 100Mi, available: \d+Ki\. Container main was using 614400Ki, request is 262144Ki/);
  // 1,024Mi + 400Mi used: 600Mi available, over the threshold: nobody else goes.
  await w.until(120_000);
  assert.is((await w.status('low')).phase, 'Running');
  assert.is((await w.status('keep')).phase, 'Running');
  // More load: the lowest priority goes next, then the condition stays for the transition period.
  w.agent.setExtraMemoryUsage(1000 * 2 ** 20);
  await w.until(130_000);
  assert.is((await w.status('low')).phase, 'Failed');
  assert.is((await w.status('keep')).phase, 'Running');
  w.agent.setExtraMemoryUsage(0);
  await w.until(420_000);
  assert.is(await w.pressure(), 'True', 'still within the 5-minute transition period');
  await w.until(440_000);
  assert.is(await w.pressure(), 'False');
  w.close();
});

test('podsPerCore caps the pods a node takes below maxPods', async () => {
  const w = await world({ cpu: '2', podsPerCore: 3, maxPods: 110 });
  await w.until(1_000);
  assert.is(((await w.client.get(NODES, undefined, NODE)).status as Rec).capacity.pods, '6');
  for (let i = 0; i < 7; i++) await w.pod(`p${i}`, '10Mi');
  await w.until(30_000);
  const phases = await Promise.all([0, 1, 2, 3, 4, 5, 6].map(async (i) => (await w.status(`p${i}`)).phase));
  assert.equal(phases.filter((p) => p === 'Running').length, 6);
  const rejected = await w.status('p6');
  assert.is(rejected.reason, 'OutOfpods');
  w.close();
});

test('podsPerCore above maxPods is refused', () => {
  assert.throws(() => new NodeAgent({ bus: new MemoryBus({ clock: virtualClock() }), clock: virtualClock(), random: seededRandom(1), nodeName: 'x',
    options: { podsPerCore: 200, maxPods: 110 } }), /podsPerCore \(200\) must not be above maxPods \(110\)/);
});

test.run();
