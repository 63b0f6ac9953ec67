// The node agent against a real API server over the in-process bus, on the virtual clock: every
// time below is exact, and two runs with the same seed write the same statuses at the same times.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Random } from '../../../actors/api/env.ts';
import { timestamp } from '../../../actors/api/env.ts';
import { lookupResource } from '../../../actors/api/resources.ts';
import { StatusError } from '../../../actors/api/status.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { WatchHub } from '../../../actors/apiserver/watch/hub.ts';
import { Informer } from '../../../actors/client/informer.ts';
import { NodeAgent } from '../../../actors/nodeagent/nodeagent.ts';
import type { NodeAgentOptions } from '../../../actors/nodeagent/options.ts';
import { batchPodStages, drawPodPlan, podStages, type PodPlan } from '../../../machines/stages.ts';
import { Link, LostRequestError } from '../../../sim/link.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const NODES = lookupResource('', 'v1', 'nodes')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const LEASES = lookupResource('coordination.k8s.io', 'v1', 'leases')!;
const NODE = 'node-1';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * An API server, one node agent and a test client watching every pod and lease, on one virtual
 * clock. The agent talks through `link`, which a test may cut; requests lost so are not errors.
 */
async function world(seed: number, options: Partial<NodeAgentOptions> = {}, reported?: unknown[]) {
  const { clock, kernel, bus, random: root, server, client } = await virtualWorld({ seed });
  const agentRandom: Random = root.fork(`nodeagent/${NODE}`);
  const link = new Link(bus, clock, root.fork('link'));
  // What the agent reports is a failure of the test, unless the test collects it (`reported`).
  const agent = new NodeAgent({ bus: link, clock, random: agentRandom, nodeName: NODE, options, onError: (e) => {
    if (e instanceof LostRequestError) return;
    if (!reported) throw e;
    reported.push(e);
  } });
  const t0 = clock.now();
  /** Every pod status the server sent, as `time name phase status-json`. */
  const history: string[] = [];
  /** Each pod's phases with the virtual ms (since t0) it reached them; `Gone` when deleted. */
  const phases = new Map<string, string[]>();
  /** A pod the agent has not acknowledged yet (no startTime) shows as `Created`, whatever its defaulted phase. */
  const note = (o: KObject, phase: string) => {
    if (phase === 'Pending' && !(o.status as Rec).startTime) phase = 'Created';
    const list = phases.get(o.metadata.name!) ?? [];
    if (list.at(-1)?.split('@')[0] !== phase) list.push(`${phase}@${clock.now() - t0}`);
    phases.set(o.metadata.name!, list);
  };
  const pods = new Informer({ client, hub: new WatchHub(bus), clock, type: PODS }).on({
    add: (o) => note(o, (o.status as Rec).phase),
    update: (_old, o) => {
      history.push(`${clock.now() - t0} ${o.metadata.name} ${JSON.stringify(o.status)}`);
      note(o, (o.status as Rec).phase);
    },
    delete: (o) => note(o, 'Gone'),
  });
  const renewals: number[] = [];
  const leases = new Informer({ client, hub: new WatchHub(bus), clock, type: LEASES, namespace: 'kube-node-lease' }).on({
    add: (o) => renewals.push(Date.parse((o.spec as Rec).renewTime)),
    update: (_old, o) => renewals.push(Date.parse((o.spec as Rec).renewTime)),
  });
  await pods.start();
  await leases.start();
  await agent.start();
  const until = (ms: number) => kernel.run({ until: t0 + ms });
  const pod = (name: string, extra: Rec = {}) => client.create(PODS, { metadata: { name, namespace: 'default' },
    spec: { nodeName: NODE, containers: [{ name: 'app', image: 'nginx:1.27' }, { name: 'sidecar', image: 'busybox:1.36' }], ...extra } } as KObject);
  const planOf = (o: KObject): PodPlan => drawPodPlan(agent.options.podStages, agentRandom.fork(`pod/${o.metadata.uid}`));
  const close = () => { agent.stop(); pods.stop(); leases.stop(); server.stop(); };
  // The phases the node machine draws for its loops, first of its stream: the first renewal's, then the first status check's.
  const loops = agentRandom.fork('lease-jitter');
  const leasePhase = Math.round(10_000 * loops.next());
  const checkPhase = Math.round(10_000 * loops.next());
  return { clock, t0, client, agent, link, history, phases, renewals, until, pod, planOf, close, leasePhase, checkPhase };
}

test('the agent registers a Ready node with its labels, capacity, node info and taints', async () => {
  const w = await world(1, { region: 'eu-west', zone: 'eu-west-1a', maxPods: 50,
    registerWithTaints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] });
  await w.until(60_000);
  const node = await w.client.get(NODES, undefined, NODE);
  const labels = node.metadata.labels!;
  assert.is(labels['kubernetes.io/hostname'], NODE);
  assert.is(labels['topology.kubernetes.io/region'], 'eu-west');
  assert.is(labels['topology.kubernetes.io/zone'], 'eu-west-1a');
  // Admission (TaintNodesByCondition) adds not-ready at creation; the node lifecycle controller lifts it, not the agent.
  assert.equal((node.spec as Rec).taints[0], { key: 'dedicated', value: 'batch', effect: 'NoSchedule' });
  const status = node.status as Rec;
  assert.is(status.capacity.pods, '50');
  assert.is(status.allocatable.pods, '50');
  assert.ok(status.capacity.cpu && status.capacity.memory);
  const ready = status.conditions.find((c: Rec) => c.type === 'Ready');
  assert.is(ready.status, 'True');
  assert.is(ready.lastHeartbeatTime, timestamp(w.t0));
  for (const k of ['machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion',
    'kubeProxyVersion', 'operatingSystem', 'architecture']) assert.ok(status.nodeInfo[k], `nodeInfo.${k}`);
  w.close();
});

test('without jitter the lease is renewed every 10 s from its phase, renewTime a MicroTime', async () => {
  const w = await world(1, { leaseRenewJitterFactor: 0 });
  await w.until(60_000);
  const p = w.leasePhase;
  assert.equal(w.renewals.map((t) => t - w.t0), [0, p, p + 10_000, p + 20_000, p + 30_000, p + 40_000, p + 50_000].filter((t) => t <= 60_000),
    'created, then renewed from the phase drawn within the period');
  const lease = await w.client.get(LEASES, 'kube-node-lease', NODE);
  const spec = lease.spec as Rec;
  assert.is(spec.holderIdentity, NODE);
  assert.is(spec.leaseDurationSeconds, 40);
  assert.match(spec.renewTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  w.close();
});

test('with the default jitter each renewal comes 10 to 10.4 s after the previous one', async () => {
  const w = await world(2);
  await w.until(120_000);
  assert.is(w.renewals[1]! - w.t0, w.leasePhase, 'the first renewal at the phase drawn');
  const gaps = w.renewals.slice(2).map((t, i) => t - w.renewals[i + 1]!);
  assert.ok(gaps.length >= 10, `${gaps.length} renewals`);
  for (const g of gaps) assert.ok(g >= 10_000 && g < 10_400, `gap ${g}`);
  w.close();
});

test('an unchanged node status is written again after nodeStatusReportFrequency (5 m)', async () => {
  const w = await world(1);
  const heartbeat = async () => ((await w.client.get(NODES, undefined, NODE)).status as Rec).conditions.find((c: Rec) => c.type === 'Ready').lastHeartbeatTime;
  // Checked every 10 s from its phase: written at the first check 5 m after the registration.
  const due = w.checkPhase + 10_000 * Math.ceil((300_000 - w.checkPhase) / 10_000);
  await w.until(due - 1);
  assert.is(await heartbeat(), timestamp(w.t0));
  await w.until(due);
  assert.is(await heartbeat(), timestamp(w.t0 + due));
  w.close();
});

test('a Node deleted from the server is registered again at the agent\'s next status write', async () => {
  const w = await world(1);
  const exists = async () => w.client.get(NODES, undefined, NODE).then(() => true, () => false);
  await w.until(60_000);
  const first = (await w.client.get(NODES, undefined, NODE)).metadata.uid;
  await w.client.delete(NODES, undefined, NODE);
  // The status is quiet: it is written again when it falls due, 5 m after the last (at registration).
  const due = w.checkPhase + 10_000 * Math.ceil((300_000 - w.checkPhase) / 10_000);
  await w.until(due - 1);
  assert.not.ok(await exists(), 'gone until the agent next writes its status');
  await w.until(due);
  const again = await w.client.get(NODES, undefined, NODE);
  assert.is.not(again.metadata.uid, first, 'a new Node');
  assert.is((again.status as Rec).conditions.find((c: Rec) => c.type === 'Ready').status, 'True');
  assert.equal(again.metadata.labels?.['kubernetes.io/hostname'], NODE);
  w.close();
});

test('a server that lost its Node and Lease (its store gone) has both again within a renewal and a status check', async () => {
  const reported: unknown[] = [];
  const w = await world(2, {}, reported);
  await w.until(60_000);
  await w.client.delete(NODES, undefined, NODE);
  await w.client.delete(LEASES, 'kube-node-lease', NODE);
  // The next renewal finds the Lease gone: the agent no longer knows what the server holds, so the
  // check at the next grid point writes the status, finds the Node gone, and registers it.
  await w.until(60_000 + 10_400 + 10_000 + 10_000);
  assert.ok(await w.client.get(NODES, undefined, NODE), 'the Node is back');
  assert.ok(await w.client.get(LEASES, 'kube-node-lease', NODE), 'the Lease is back');
  // The one failure the agent saw: its renewal of the Lease that was gone.
  assert.equal(reported.map((e) => (e as Error).message), ['resourceVersion should not be set on objects to be created']);
  w.close();
});

test('pods bound to the node run at the times their plans say, with complete status', async () => {
  const w = await world(3);
  const a = await w.pod('a');
  const plan = w.planOf(a);
  const pending = plan.scheduledMs, running = plan.scheduledMs + plan.creatingMs;
  await w.until(running - 1);
  assert.equal(w.phases.get('a'), ['Created@0', `Pending@${pending}`]);
  await w.until(10_000);
  assert.equal(w.phases.get('a'), ['Created@0', `Pending@${pending}`, `Running@${running}`]);
  const status = (await w.client.get(PODS, 'default', 'a')).status as Rec;
  assert.is(status.phase, 'Running');
  assert.is(status.startTime, timestamp(w.t0 + pending));
  assert.match(status.podIP, /^10\.244\.0\.\d+$/);
  assert.equal(status.conditions.map((c: Rec) => `${c.type}=${c.status}`).sort(),
    ['ContainersReady=True', 'Initialized=True', 'PodReadyToStartContainers=True', 'PodScheduled=True', 'Ready=True']);
  assert.is(status.containerStatuses.length, 2);
  for (const c of status.containerStatuses) {
    assert.ok(c.name && c.image && c.imageID.includes('@sha256:') && c.containerID.startsWith('containerd://'));
    assert.is(c.ready, true);
    assert.is(c.started, true);
    assert.is(c.restartCount, 0);
    assert.is(c.state.running.startedAt, timestamp(w.t0 + running));
  }
  w.close();
});

test('a batch pod succeeds when its run ends', async () => {
  const w = await world(4, { podStages: podStages(batchPodStages(20_000, 5_000)) });
  const job = await w.pod('job', { restartPolicy: 'Never' });
  const plan = w.planOf(job);
  const done = plan.scheduledMs + plan.creatingMs + plan.runningMs;
  await w.until(60_000);
  assert.equal(w.phases.get('job')!.slice(-2), [`Running@${plan.scheduledMs + plan.creatingMs}`, `Succeeded@${done}`]);
  const status = (await w.client.get(PODS, 'default', 'job')).status as Rec;
  assert.is(status.containerStatuses[0].state.terminated.reason, 'Completed');
  assert.is(status.containerStatuses[0].state.terminated.exitCode, 0);
  w.close();
});

test('a pod annotated with a run duration and an exit code runs that long and fails with that code; a Job\'s pod runs 5 s by default', async () => {
  const reported: unknown[] = [];
  const w = await world(4, {}, reported);
  const annotated = (name: string, annotations: Record<string, string>) => w.client.create(PODS, { metadata: { name, namespace: 'default', annotations },
    spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } as KObject);
  await annotated('failing', { 'orchsim.io/run-duration': '30s', 'orchsim.io/exit-code': '3' });
  const jobPod = await w.client.create(PODS, { metadata: { name: 'job-x', namespace: 'default',
    ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'job', uid: 'u-job', controller: true }] },
  spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } as KObject);
  await annotated('bad', { 'orchsim.io/run-duration': '1s', 'orchsim.io/exit-code': 'x' });
  await w.until(60_000);
  const status = async (name: string) => (await w.client.get(PODS, 'default', name)).status as Rec;
  const f = await status('failing');
  assert.is(f.phase, 'Failed');
  assert.equal([f.containerStatuses[0].state.terminated.exitCode, f.containerStatuses[0].state.terminated.reason], [3, 'Error']);
  const plan = w.planOf(jobPod);
  assert.equal(w.phases.get('job-x')!.slice(-2), [`Running@${plan.scheduledMs + plan.creatingMs}`, `Succeeded@${plan.scheduledMs + plan.creatingMs + 5_000}`]);
  assert.is((await status('bad')).phase, 'Running', 'a bad annotation runs the pod until deleted');
  assert.equal(reported.map((e) => (e as Error).message), ['pod default/bad: orchsim.io/exit-code must be an integer from 0 to 255, got "x"; running it as a long-running pod']);
  w.close();
});

test('a pod annotated with a run-duration-max runs from its run duration up to that, drawn for each pod; a max below the duration is reported', async () => {
  const reported: unknown[] = [];
  const w = await world(4, {}, reported);
  const annotated = (name: string, annotations: Record<string, string>) => w.client.create(PODS, { metadata: { name, namespace: 'default', annotations },
    spec: { nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } as KObject);
  const pods = [];
  for (let i = 0; i < 4; i++) pods.push(await annotated(`ranged-${i}`, { 'orchsim.io/run-duration': '10s', 'orchsim.io/run-duration-max': '20s' }));
  await annotated('inverted', { 'orchsim.io/run-duration': '10s', 'orchsim.io/run-duration-max': '5s' });
  await w.until(60_000);
  const runs = pods.map((pod) => {
    const [running, succeeded] = w.phases.get(pod.metadata.name!)!.slice(-2).map((p) => p.split('@'));
    assert.equal([running![0], succeeded![0]], ['Running', 'Succeeded']);
    return Number(succeeded![1]) - Number(running![1]);
  });
  assert.ok(runs.every((ms) => ms >= 10_000 && ms < 20_000), `runs within [10s, 20s): ${runs.join(', ')}`);
  assert.ok(new Set(runs).size > 1, `drawn for each pod: ${runs.join(', ')}`);
  assert.equal(reported.map((e) => (e as Error).message),
    ['pod default/inverted: orchsim.io/run-duration-max must be at least orchsim.io/run-duration, got "5s"; running it as a long-running pod']);
  w.close();
});

test('under restartPolicy OnFailure a failing container restarts after its back-off and the pod stays Running', async () => {
  const w = await world(4);
  await w.client.create(PODS, { metadata: { name: 'retry', namespace: 'default', annotations: { 'orchsim.io/run-duration': '20s', 'orchsim.io/exit-code': '1' } },
    spec: { nodeName: NODE, restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'busybox' }] } } as KObject);
  await w.until(25_000);
  let c = ((await w.client.get(PODS, 'default', 'retry')).status as Rec);
  assert.is(c.phase, 'Running');
  assert.equal([c.containerStatuses[0].restartCount, c.containerStatuses[0].ready, c.containerStatuses[0].state.waiting.reason], [1, false, 'CrashLoopBackOff']);
  assert.match(c.containerStatuses[0].state.waiting.message, /^back-off 10s restarting failed container=main pod=retry_default\(/);
  assert.is(c.containerStatuses[0].lastState.terminated.exitCode, 1);
  await w.until(36_000);
  c = ((await w.client.get(PODS, 'default', 'retry')).status as Rec);
  assert.equal([c.phase, c.containerStatuses[0].restartCount, c.containerStatuses[0].ready, Object.keys(c.containerStatuses[0].state)], ['Running', 1, true, ['running']]);
  assert.is(c.conditions.find((x: Rec) => x.type === 'Ready').status, 'True');
  w.close();
});

test('a deleted running pod is removed once its containers stop, 0.2 to 2 s into its 30 s grace period', async () => {
  const w = await world(5);
  await w.pod('web');
  await w.until(10_000);
  assert.is(w.phases.get('web')!.at(-1)!.split('@')[0], 'Running');
  await w.client.delete(PODS, 'default', 'web');
  await w.until(10_199);
  const terminating = await w.client.get(PODS, 'default', 'web');
  assert.is(terminating.metadata.deletionTimestamp, timestamp(w.t0 + 40_000));
  await w.until(12_000);
  const gone = w.phases.get('web')!.at(-1)!;
  assert.match(gone, /^Gone@\d+$/);
  const at = Number(gone.split('@')[1]);
  assert.ok(at >= 10_200 && at < 12_000, `removed at ${at}`);
  try {
    await w.client.get(PODS, 'default', 'web');
    assert.unreachable('the pod should be gone');
  } catch (e) {
    assert.ok(e instanceof StatusError && e.code === 404);
  }
  w.close();
});

test('with maxPods 2 a third pod is rejected Failed with reason OutOfpods', async () => {
  const w = await world(6, { maxPods: 2 });
  await w.pod('p1');
  await w.pod('p2');
  await w.pod('p3');
  await w.until(10_000);
  const status = (await w.client.get(PODS, 'default', 'p3')).status as Rec;
  assert.is(status.phase, 'Failed');
  assert.is(status.reason, 'OutOfpods');
  assert.match(status.message, /used: 2, capacity: 2/);
  for (const name of ['p1', 'p2']) assert.is(((await w.client.get(PODS, 'default', name)).status as Rec).phase, 'Running');
  w.close();
});

/** Service and batch pods, one deletion: every status the server holds along the way. */
async function scenario(seed: number): Promise<string[]> {
  const w = await world(seed, { podStages: podStages(batchPodStages(15_000, 10_000, 0.3)) });
  for (let i = 0; i < 6; i++) await w.pod(`pod-${i}`);
  await w.until(5_000);
  await w.client.delete(PODS, 'default', 'pod-0');
  await w.until(90_000);
  w.close();
  return [...w.history, ...[...w.phases].map(([name, p]) => `${name}: ${p.join(' ')}`)];
}

test('two runs with the same seed write identical pod status histories', async () => {
  const first = await scenario(11);
  const second = await scenario(11);
  assert.ok(first.length > 20, `${first.length} entries`);
  assert.equal(second, first);
  assert.not.equal(await scenario(12), first, 'another seed gives another history');
});

test('cut off while its node was set Unknown and its running pod not Ready, the agent writes both back once it reaches the server again', async () => {
  const w = await world(4);
  await w.pod('web');
  await w.until(60_000);
  const conditions = async () => ((await w.client.get(PODS, 'default', 'web')).status as Rec).conditions as Rec[];
  const before = await conditions();
  assert.ok(before.every((c) => c.status === 'True'), JSON.stringify(before));
  const nodeReady = async () => ((await w.client.get(NODES, undefined, NODE)).status as Rec).conditions.find((c: Rec) => c.type === 'Ready');
  w.link.cut = true;
  // What the node lifecycle controller does to a silent node: its Ready Unknown, its pods' Ready False.
  const now = timestamp(w.clock.now());
  await w.client.patch(NODES, undefined, NODE, { status: { conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown',
    message: 'Kubelet stopped posting node status.', lastHeartbeatTime: (await nodeReady()).lastHeartbeatTime, lastTransitionTime: now }] } }, 'strategic', 'status');
  await w.client.patch(PODS, 'default', 'web', { status: { conditions: before.map((c) => (c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: now } : c)) } }, 'merge', 'status');
  await w.until(150_000);
  assert.is((await nodeReady()).status, 'Unknown', 'nothing the agent sent got through');
  assert.is((await conditions()).find((c) => c.type === 'Ready')!.status, 'False');
  w.link.cut = false;
  // A write lost in the cut is sent again 10 s after its 30 s request timeout: back within 40 s and a beat.
  await w.until(150_000 + 50_000);
  assert.is((await nodeReady()).status, 'True', 'the whole node status reported again');
  assert.equal(await conditions(), before, 'Ready again, with the transition times the agent knew');
  w.close();
});

test('the agent runs its node machine: Running once registered, Stopped after stop', async () => {
  const w = await world(1);
  assert.is(w.agent.state, 'Running.Normal');
  w.close();
  assert.is(w.agent.state, 'Stopped');
});

test.run();
