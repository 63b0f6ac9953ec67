// What pods use over virtual time: the usage model's curves (values at given times, the same on
// every evaluation, each rule's message), a pod's use from its annotations, model or requests,
// shared among containers and throttled at limits, and the node agent's summary of it, which the
// memory-pressure eviction follows as a daily curve rises.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../actors/api/types.ts';
import type { Pod } from '../../../actors/api/model/core.ts';
import { lookupResource } from '../../../actors/api/resources.ts';
import { NodeAgent } from '../../../actors/nodeagent/nodeagent.ts';
import { CPU_USAGE, MEMORY_USAGE, PodUse } from '../../../actors/nodeagent/pod-usage.ts';
import { summarySubject, type Summary } from '../../../actors/nodeagent/summary.ts';
import { checkUsageModel, curveFor, podSeed, USAGE_MODEL, type UsageCurve } from '../../../actors/nodeagent/usage-model.ts';
import { payload, valueOf } from '../../../transport/payload.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const HOUR = 3_600_000;
const MI = 2 ** 20;
const DAY0 = Date.UTC(2026, 0, 1);

const daily = (extra: Partial<Extract<UsageCurve, { kind: 'daily' }>> = {}): UsageCurve => ({ kind: 'daily', trough: 0.2, peak: 1, peakHour: 14, ...extra });

test('a daily curve is at its peak at peakHour and its trough twelve hours away, halfway between at six hours', () => {
  const c = curveFor(daily(), 7);
  assert.is(c.at(DAY0 + 14 * HOUR), 1);
  assert.ok(Math.abs(c.at(DAY0 + 2 * HOUR) - 0.2) < 1e-12);
  assert.ok(Math.abs(c.at(DAY0 + 8 * HOUR) - 0.6) < 1e-12);
  assert.ok(Math.abs(c.at(DAY0 + 24 * HOUR + 14 * HOUR) - 1) < 1e-12, 'the next day repeats');
  assert.is(c.max, 1);
});

test('daily noise is drawn per pod for each interval: the same at every evaluation, within 1 ± noise, different between pods', () => {
  const model = daily({ noise: 0.1, noiseInterval: '5m' });
  const a = curveFor(model, podSeed('uid-a')), again = curveFor(model, podSeed('uid-a')), b = curveFor(model, podSeed('uid-b'));
  const times = Array.from({ length: 48 }, (_, i) => DAY0 + i * 30 * 60_000 + 1234);
  assert.equal(times.map((t) => a.at(t)), times.map((t) => again.at(t)));
  assert.not.equal(times.map((t) => a.at(t)), times.map((t) => b.at(t)));
  const plain = curveFor(daily(), 0);
  for (const t of times) {
    const ratio = a.at(t) / plain.at(t);
    assert.ok(ratio >= 0.9 - 1e-12 && ratio <= 1.1 + 1e-12, `${ratio}`);
  }
  // Within one interval the noise holds (the curve moves on beneath it); the next interval draws anew.
  const factor = (t: number) => a.at(t) / plain.at(t);
  assert.ok(Math.abs(factor(DAY0 + 60_000) - factor(DAY0 + 4 * 60_000)) < 1e-12);
  assert.ok(Math.abs(factor(DAY0 + 4 * 60_000) - factor(DAY0 + 6 * 60_000)) > 1e-9);
  assert.is(a.max, 1.1);
});

test('uniform and normal draw once per pod from its seed, within their bounds', () => {
  const uniform = (seed: number) => curveFor({ kind: 'uniform', min: 0.2, max: 0.8 }, seed);
  const values = Array.from({ length: 200 }, (_, i) => uniform(podSeed(`pod-${i}`)).at(0));
  assert.ok(values.every((v) => v >= 0.2 && v < 0.8));
  assert.ok(new Set(values).size > 190, 'pods draw apart');
  assert.is(uniform(42).at(0), uniform(42).at(HOUR), 'a pod keeps its draw');
  const normal = Array.from({ length: 500 }, (_, i) => curveFor({ kind: 'normal', mean: 0.5, stddev: 0.2, min: 0.1, max: 0.9 }, podSeed(`pod-${i}`)).at(0));
  assert.ok(normal.every((v) => v >= 0.1 && v <= 0.9));
  const mean = normal.reduce((a, b) => a + b, 0) / normal.length;
  assert.ok(Math.abs(mean - 0.5) < 0.05, `mean ${mean}`);
});

test('a step curve answers before until its instant and after from it on, the same for every pod', () => {
  const at = Date.UTC(2026, 0, 1, 0, 10);
  const step = (seed: number) => curveFor({ kind: 'step', before: 0.5, after: 0.9, at: '2026-01-01T00:10:00Z' }, seed);
  assert.equal([step(1).at(at - 1), step(1).at(at), step(2).at(at + 3_600_000)], [0.5, 0.9, 0.9]);
  assert.is(step(1).max, 0.9);
  assert.is(curveFor({ kind: 'step', before: 0.8, after: 0.1, at: '2026-01-01T00:10:00Z' }, 0).max, 0.8, 'max bounds a step down too');
});

test('a model breaking a rule is refused naming the field and the rule', () => {
  const refused = (model: unknown, message: string) => assert.throws(() => checkUsageModel(model), (e: Error) => e.message === message);
  refused({ disk: { kind: 'constant', fraction: 1 } }, 'disk: unknown resource; allowed: cpu, memory, or spread');
  refused({ cpu: { kind: 'wave' } }, 'cpu.kind: must be one of constant, uniform, normal, daily, step, series, got "wave"');
  refused({ cpu: { kind: 'step', before: 0.5, after: 0.9, at: '10m' } }, 'cpu.at: must be an RFC 3339 time such as 2026-01-01T00:10:00Z, got "10m"');
  refused({ cpu: { kind: 'step', before: 0.5, at: '2026-01-01T00:10:00Z' } }, 'cpu.after: is required for kind step');
  refused({ cpu: { kind: 'constant' } }, 'cpu: kind constant takes exactly one of fraction (of the request) or quantity (for the pod)');
  refused({ memory: { kind: 'constant', quantity: 'lots' } }, 'memory.quantity: must be a quantity such as 250m or 512Mi, got "lots"');
  refused({ cpu: { kind: 'uniform', min: 0.8, max: 0.2 } }, 'cpu.max: must not be below min (0.8), got 0.2');
  refused({ cpu: { kind: 'daily', trough: 0.2, peak: 1, peakHour: 24 } }, 'cpu.peakHour: must be an hour of the day from 0 to below 24 (UTC), got 24');
  refused({ cpu: { kind: 'daily', trough: 0.2, peak: 1, peakHour: 3, noise: 2 } }, 'cpu.noise: must be a number from 0 to 1 (the curve times 1 ± noise), got 2');
  refused({ cpu: { kind: 'daily', trough: 0.2, peak: 1, peakHour: 3, noiseInterval: '10ms' } }, 'cpu.noiseInterval: must be a duration of at least 1s, such as 5m, got "10ms"');
  refused({ cpu: { kind: 'normal', mean: 0.5 } }, 'cpu.stddev: is required for kind normal');
  refused({ cpu: { kind: 'uniform', min: 0, max: 1, peak: 2 } }, 'cpu.peak: unknown field for kind uniform; allowed fields: kind, min, max');
  refused({ cpu: { kind: 'constant', fraction: -1 } }, 'cpu.fraction: must be a fraction of the request from 0 to 100, got -1');
});

const podOf = (annotations: Record<string, string>, containers: { name: string; cpu?: string; memory?: string; cpuLimit?: string }[]): Pod => ({
  metadata: { name: 'p', namespace: 'default', uid: 'uid-p', annotations },
  spec: { containers: containers.map((c) => ({ name: c.name, image: 'nginx', resources: {
    requests: { ...(c.cpu ? { cpu: c.cpu } : {}), ...(c.memory ? { memory: c.memory } : {}) }, ...(c.cpuLimit ? { limits: { cpu: c.cpuLimit } } : {}) } })) },
} as Pod);

test('a pod uses its annotation, else its model, else its requests; a pod quantity is shared by requests; CPU stops at the limit', () => {
  const two = [{ name: 'a', cpu: '100m', memory: '100Mi' }, { name: 'b', cpu: '300m', memory: '300Mi', cpuLimit: '500m' }];
  const requests = new PodUse(podOf({}, two));
  assert.equal([requests.cpuAt(0, 0), requests.cpuAt(0, 1)], [0.1, 0.3]);
  assert.is(requests.podMemoryAt(0), 400 * MI);
  const model = { [USAGE_MODEL]: JSON.stringify({ cpu: { kind: 'constant', fraction: 2 }, memory: { kind: 'constant', quantity: '800Mi' } }) };
  const modelled = new PodUse(podOf(model, two));
  assert.equal([modelled.cpuAt(0, 0), modelled.cpuAt(0, 1)], [0.2, 0.5], 'twice the requests, b throttled at 500m');
  assert.equal([modelled.memoryAt(0, 0), modelled.memoryAt(0, 1)], [200 * MI, 600 * MI]);
  assert.is(modelled.memoryMax, 800 * MI);
  const annotated = new PodUse(podOf({ ...model, [CPU_USAGE]: '200m', [MEMORY_USAGE]: '1Gi' }, two));
  assert.equal([annotated.cpuAt(0, 0), annotated.cpuAt(0, 1)], [0.05, 0.15], 'the annotation wins over the model');
  assert.is(annotated.podMemoryAt(0), 1024 * MI);
  const nothing = new PodUse(podOf({ [CPU_USAGE]: '1', [USAGE_MODEL]: 'not json' }, [{ name: 'x' }, { name: 'y' }]));
  assert.equal([nothing.cpuAt(0, 0), nothing.cpuAt(0, 1)], [0.5, 0.5], 'no requests: shared evenly');
  assert.is(nothing.podMemoryAt(0), 0, 'a bad model is none: the requests, here nothing');
});

const NODE = 'node-1';
const PODS = lookupResource('', 'v1', 'pods')!;
const NODES = lookupResource('', 'v1', 'nodes')!;

test('the agent\'s summary follows a daily memory curve, answers on the bus, and pressure eviction comes with the peak', async () => {
  const { clock, kernel, bus, random, server, client } = await virtualWorld();
  const agent = new NodeAgent({ bus, clock, random: random.fork('agent'), nodeName: NODE, options: { memory: '2Gi', leaseRenewJitterFactor: 0 }, onError: (e) => { throw e; } });
  await agent.start();
  const t0 = clock.now();
  // 1Gi requested; 0.2 to 1.95 of it, highest at 06:00: over 1,948Mi (2Gi less the 100Mi threshold) a little before the peak.
  const model = { memory: { kind: 'daily', trough: 0.2, peak: 1.95, peakHour: 6 }, cpu: { kind: 'constant', fraction: 0.5 } };
  await client.create(PODS, { metadata: { name: 'wave', namespace: 'default', annotations: { [USAGE_MODEL]: JSON.stringify(model) } },
    spec: { nodeName: NODE, containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '2', memory: '1Gi' } } }] } } as KObject);
  await kernel.run({ until: t0 + HOUR });
  const curve = curveFor(model.memory as UsageCurve, 0);
  const at = clock.now();
  const summary = agent.summary(at);
  assert.is(summary.pods.length, 1);
  assert.is(summary.pods[0]!.containers[0]!.memory.workingSetBytes, Math.round(curve.at(at) * 1024 * MI));
  assert.is(summary.pods[0]!.containers[0]!.cpu.usageNanoCores, 1e9);
  assert.equal([summary.node.cpu.usageNanoCores, summary.node.memory.workingSetBytes], [summary.pods[0]!.cpu.usageNanoCores, summary.pods[0]!.memory.workingSetBytes]);
  const asked = valueOf<Summary>(await bus.request(summarySubject(NODE), payload({ atMs: at - 30_000 }), 1000));
  assert.equal(asked, agent.summary(at - 30_000), 'the bus answer is the summary at the instant asked');
  const pressure = async () => ((await client.get(NODES, undefined, NODE)).status as Record<string, any>).conditions.find((c: { type: string }) => c.type === 'MemoryPressure').status; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.is(await pressure(), 'False');
  assert.is(((await client.get(PODS, 'default', 'wave')).status as { phase: string }).phase, 'Running');
  await kernel.run({ until: t0 + 6 * HOUR });
  const evicted = (await client.get(PODS, 'default', 'wave')).status as { phase: string; reason: string };
  assert.equal([evicted.phase, evicted.reason], ['Failed', 'Evicted']);
  agent.stop();
  server.stop();
});

test('a running pod whose usage annotations change uses what they say from that instant; other updates keep its compiled use', async () => {
  const { clock, kernel, bus, random, server, client } = await virtualWorld();
  const agent = new NodeAgent({ bus, clock, random: random.fork('agent'), nodeName: NODE, options: { memory: '2Gi', leaseRenewJitterFactor: 0 }, onError: (e) => { throw e; },
    loadShares: { readyPods: () => 2 } });
  await agent.start();
  await client.create(PODS, { metadata: { name: 'web', namespace: 'default', annotations: { [CPU_USAGE]: '100m' } },
    spec: { nodeName: NODE, containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '200m', memory: '64Mi' } } }] } } as KObject);
  await kernel.run({ until: clock.now() + 60_000 });
  const cpu = () => agent.summary(clock.now()).pods[0]!.cpu.usageNanoCores;
  const memory = () => agent.summary(clock.now()).pods[0]!.memory.workingSetBytes;
  assert.equal([cpu(), memory()], [0.1e9, 64 * MI]);
  await client.patch(PODS, 'default', 'web', { metadata: { annotations: { [CPU_USAGE]: '900m', [MEMORY_USAGE]: '1Gi' } } }, 'merge');
  await kernel.run({ until: clock.now() + 1000 });
  assert.equal([cpu(), memory()], [0.9e9, 1024 * MI]);
  await client.patch(PODS, 'default', 'web', { metadata: { annotations: { [CPU_USAGE]: null, [USAGE_MODEL]: JSON.stringify({ cpu: { kind: 'constant', fraction: 0.25 } }) } } }, 'merge');
  await kernel.run({ until: clock.now() + 1000 });
  assert.is(cpu(), 0.05e9, 'the annotation gone, the model decides: a quarter of 200m');
  const spread = { cpu: { kind: 'constant', fraction: 0.25 }, spread: { group: 'default/web', replicas: 4 } };
  await client.patch(PODS, 'default', 'web', { metadata: { annotations: { [USAGE_MODEL]: JSON.stringify(spread) } } }, 'merge');
  await kernel.run({ until: clock.now() + 1000 });
  assert.is(cpu(), 0.1e9, 'a model recompiled keeps the load balancer\'s view: 4 pods\' load over the 2 Ready');
  agent.stop();
  server.stop();
});

test('a pod\'s use knows whether a newer version of the pod carries the annotations it was compiled from', () => {
  const one = [{ name: 'a', cpu: '100m' }];
  const use = new PodUse(podOf({ [CPU_USAGE]: '200m', other: 'x' }, one));
  assert.ok(use.compiledFrom(podOf({ [CPU_USAGE]: '200m', other: 'y' }, one)), 'another annotation changed: the same use');
  assert.not.ok(use.compiledFrom(podOf({ [CPU_USAGE]: '300m' }, one)));
  assert.not.ok(use.compiledFrom(podOf({ [CPU_USAGE]: '200m', [MEMORY_USAGE]: '1Gi' }, one)));
  assert.not.ok(use.compiledFrom(podOf({}, one)));
  assert.ok(new PodUse(podOf({}, one)).compiledFrom({ metadata: { name: 'p' }, spec: { containers: [] } } as unknown as Pod), 'no annotations at all: none of them');
});

test.run();
