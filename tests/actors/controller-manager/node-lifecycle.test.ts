// The node lifecycle and taint eviction controllers against a real API server on virtual time,
// with nodes whose leases the test renews itself (every 10 s, 1 s after a monitor pass), so that
// the expected timeline follows from the rules alone:
//   a silent node is probed last at the pass after its last renewal (L + 4 s);
//   its grace period (the health machine's delay) ends 40 s later, and the pass at that moment
//   turns its conditions Unknown (+40 s: the real controller's passes slide later by their own
//   duration, so its pass one grace period on finds the probe already past the grace period);
//   it is queued for tainting on the pass after that (+5 s) and tainted at its zone's rate;
//   its pods, which carry the default 300 s tolerations, are deleted 300 s after the taint.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { timestamp } from '../../../actors/api/env.ts';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import { defaultControllerManagerOptions, type ControllerManagerOptions } from '../../../actors/controller-manager/options.ts';
import { microTime } from '../../../actors/api/env.ts';
import { NODE_LEASE_NAMESPACE } from '../../../actors/api/namespaces.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const NODES = lookupResource('', 'v1', 'nodes')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const LEASES = lookupResource('coordination.k8s.io', 'v1', 'leases')!;
const S = 1_000;
const PERIOD = 5 * S;
const RENEW = 10 * S;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `zones`: nodes per zone, named `<zone>-<i>`; `podsPerNode` pods bound to each. */
async function world(zones: Record<string, number>, podsPerNode = 0, options: Partial<ControllerManagerOptions> = {}) {
  const { clock, kernel, bus, random, server, client } = await virtualWorld({ seed: 7, clientName: 'fake-agent' });
  const names: string[] = [];
  const zoneOfNode = new Map<string, string>();
  const ready = () => [{ type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: timestamp(clock.now()), lastTransitionTime: timestamp(clock.now()) }];
  for (const [zone, count] of Object.entries(zones))
    for (let i = 0; i < count; i++) {
      const name = `${zone}-${String(i).padStart(2, '0')}`;
      names.push(name);
      zoneOfNode.set(name, zone);
      await client.create(NODES, { metadata: { name, labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': zone } },
        status: { conditions: ready(), allocatable: { cpu: '8', memory: '32Gi', pods: '110' } } } as KObject);
      await client.create(LEASES, { metadata: { name, namespace: NODE_LEASE_NAMESPACE }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(clock.now()) } } as KObject);
      for (let p = 0; p < podsPerNode; p++)
        await client.create(PODS, { metadata: { name: `${name}-p${p}`, namespace: 'default' },
          spec: { nodeName: name, containers: [{ name: 'c', image: 'nginx' }] } } as KObject);
    }
  const taints: { node: string; key: string; at: number }[] = [];
  const evictions: { pod: string; at: number }[] = [];
  // No events: they share the controller's client and its rate limit (as the real ones do), and
  // these tests time the passes by their own writes. Its events are tested in events.test.ts.
  const cm = new ControllerManager({ bus, clock, random: random.fork('cm'), options: { leaderElect: false, ...options }, events: false, onError: (c, e) => { throw new Error(`${c}: ${e}`); },
    onTaint: (node, key, at) => taints.push({ node, key, at: at - t0 }), onEvict: (pod, at) => evictions.push({ pod, at: at - t0 }) });
  await cm.start();
  const t0 = clock.now();
  // The fake agents: every lease renewed 1 s after each 10 s mark from the first monitor pass.
  const silent = new Set<string>();
  const renew = async () => {
    for (const name of names) {
      if (silent.has(name)) continue;
      const lease = await client.get(LEASES, NODE_LEASE_NAMESPACE, name);
      await client.update(LEASES, { ...lease, spec: { ...(lease.spec as Rec), renewTime: microTime(clock.now()) } });
    }
  };
  const tick = () => {
    void renew();
    clock.setTimeout(tick, RENEW);
  };
  clock.setTimeout(tick, S);
  return {
    clock, client, cm, taints, evictions, names, zoneOfNode,
    /** Runs until `ms` after the first monitor pass. */
    until: (ms: number) => kernel.run({ until: t0 + ms }),
    /** The nodes stop renewing now (their agents crashed). */
    crash: (nodes: string[]) => nodes.forEach((n) => silent.add(n)),
    /** The nodes report Ready again and renew from now on. */
    recover: async (nodes: string[]) => {
      for (const name of nodes) {
        silent.delete(name);
        await client.patch(NODES, undefined, name, { status: { conditions: ready() } }, 'strategic', 'status');
      }
    },
    node: (name: string) => client.get(NODES, undefined, name) as Promise<Rec>,
    stop: () => { void cm.stop(); server.stop(); },
  };
}

/** The last renewal at or before `crashAt` (renewals at 1 s + 10 s × k), and the times the rules give from it. */
function timeline(crashAt: number) {
  const last = Math.floor((crashAt - S) / RENEW) * RENEW + S;
  const probed = last + 4 * S;
  const unknownAt = probed + 40 * S;
  return { last, probed, unknownAt, queuedAt: unknownAt + PERIOD };
}

const noExecute = (n: Rec) => ((n.spec.taints ?? []) as Rec[]).filter((t) => t.effect === 'NoExecute').map((t) => t.key);

test('a Normal zone losing a few nodes: Unknown after the grace period, taints 10 s apart, pods deleted 300 s after each taint', async () => {
  const w = await world({ a: 10, b: 10 }, 2);
  const crashAt = 60 * S;
  await w.until(crashAt);
  w.crash(['a-07', 'a-02', 'a-05']);
  const { unknownAt, queuedAt } = timeline(crashAt);
  await w.until(unknownAt - 1);
  assert.equal((await w.node('a-02')).status.conditions.find((c: Rec) => c.type === 'Ready').status, 'True', 'still Ready just before');
  await w.until(unknownAt);
  const a02 = await w.node('a-02');
  const readyCond = a02.status.conditions.find((c: Rec) => c.type === 'Ready');
  assert.equal([readyCond.status, readyCond.reason, readyCond.message], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.']);
  await w.until(queuedAt + 400 * S);
  // Waiting nodes are taken in name order, one token of the 0.1/s bucket (burst 1) each.
  assert.equal(w.taints, [
    { node: 'a-02', key: 'node.kubernetes.io/unreachable', at: queuedAt },
    { node: 'a-05', key: 'node.kubernetes.io/unreachable', at: queuedAt + 10 * S },
    { node: 'a-07', key: 'node.kubernetes.io/unreachable', at: queuedAt + 20 * S },
  ]);
  assert.equal(noExecute(await w.node('a-05')), ['node.kubernetes.io/unreachable']);
  const expected = w.taints.flatMap((t) => [0, 1].map((p) => ({ pod: `default/${t.node}-p${p}`, at: t.at + 300 * S })));
  assert.equal([...w.evictions].sort((x, y) => x.at - y.at || (x.pod < y.pod ? -1 : 1)), expected);
  const pod = (await w.client.get(PODS, 'default', 'a-02-p0')) as Rec;
  assert.ok(pod.metadata.deletionTimestamp, 'deleted (gracefully: no agent is left to finish it)');
  assert.equal(pod.status.conditions.find((c: Rec) => c.type === 'DisruptionTarget').reason, 'DeletionByTaintManager');
  assert.equal(w.cm.zoneStates().get('r:a'), 'Normal');
  w.stop();
});

test('the pass that turns a node Unknown marks its pods not Ready (Ready False, ContainersReady as it was), no other node\'s', async () => {
  const w = await world({ a: 3 }, 2);
  const running = (at: number) => ({ status: { phase: 'Running', conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled']
    .map((type) => ({ type, status: 'True', lastTransitionTime: timestamp(at) })) } });
  for (const name of w.names) for (const p of [0, 1]) await w.client.patch(PODS, 'default', `${name}-p${p}`, running(w.clock.now()), 'merge', 'status');
  const crashAt = 30 * S;
  await w.until(crashAt);
  w.crash(['a-01']);
  const { unknownAt } = timeline(crashAt);
  const conditionsOf = async (pod: string) => Object.fromEntries(((await w.client.get(PODS, 'default', pod)) as Rec).status.conditions
    .map((c: Rec) => [c.type, [c.status, c.lastTransitionTime]]));
  await w.until(unknownAt - 1);
  assert.is((await conditionsOf('a-01-p0')).Ready[0], 'True', 'still Ready just before');
  await w.until(unknownAt);
  for (const pod of ['a-01-p0', 'a-01-p1']) {
    const c = await conditionsOf(pod);
    assert.equal(c.Ready, ['False', timestamp(w.clock.now())], `${pod} not Ready from the pass that found its node silent`);
    assert.is(c.ContainersReady[0], 'True', 'ContainersReady is the agent\'s to say');
  }
  for (const pod of ['a-00-p0', 'a-02-p1']) assert.is((await conditionsOf(pod)).Ready[0], 'True');
  // Back again, the node's pods stay as they are until their agent writes them Ready.
  await w.recover(['a-01']);
  await w.until(unknownAt + 60 * S);
  assert.is((await conditionsOf('a-01-p0')).Ready[0], 'False');
  w.stop();
});

test('a node that comes back loses its NoExecute taint and its pods are no longer deleted', async () => {
  const w = await world({ a: 5 }, 1);
  const crashAt = 30 * S;
  await w.until(crashAt);
  w.crash(['a-01']);
  const { queuedAt } = timeline(crashAt);
  await w.until(queuedAt + 100 * S);
  assert.equal(noExecute(await w.node('a-01')), ['node.kubernetes.io/unreachable']);
  await w.recover(['a-01']);
  await w.until(queuedAt + 400 * S);
  assert.equal(noExecute(await w.node('a-01')), []);
  assert.equal(w.evictions, [], 'the eviction 300 s after the taint was cancelled');
  w.stop();
});

test('PartialDisruption at or below the large-cluster size: no taints at all', async () => {
  const w = await world({ a: 10, b: 10 });
  await w.until(60 * S);
  w.crash(['a-00', 'a-01', 'a-02', 'a-03', 'a-04', 'a-05']);
  await w.until(600 * S);
  assert.equal(w.cm.zoneStates().get('r:a'), 'PartialDisruption');
  assert.equal(w.cm.zoneStates().get('r:b'), 'Normal');
  assert.equal(w.taints, []);
  w.stop();
});

test('PartialDisruption above the large-cluster size: the secondary rate, one taint per 100 s', async () => {
  const w = await world({ a: 60, b: 3 });
  const crashAt = 60 * S;
  await w.until(crashAt);
  w.crash(w.names.filter((n) => n.startsWith('a-')).slice(0, 40));
  const { queuedAt } = timeline(crashAt);
  // The pass that turns the 40 nodes Unknown waits for their 40 writes through the controller's
  // client (orch-api-qps, orch-api-burst): those past the burst wait for tokens, so that pass ends
  // late and the next one, which queues them, slides as late (wait.Until).
  const { orchApiQps: qps, orchApiBurst: burst } = defaultControllerManagerOptions;
  const queued = queuedAt + ((40 - burst) / qps) * S;
  await w.until(queued + 350 * S);
  assert.equal(w.cm.zoneStates().get('r:a'), 'PartialDisruption');
  assert.equal(w.taints.map((t) => t.at), [queued, queued + 100 * S, queued + 200 * S, queued + 300 * S]);
  assert.equal(w.taints.map((t) => t.node), ['a-00', 'a-01', 'a-02', 'a-03']);
  w.stop();
});

test('one zone fully disrupted while another is healthy: tainted at the normal rate', async () => {
  const w = await world({ a: 4, b: 4 });
  const crashAt = 45 * S;
  await w.until(crashAt);
  w.crash(['a-00', 'a-01', 'a-02', 'a-03']);
  const { queuedAt } = timeline(crashAt);
  await w.until(queuedAt + 60 * S);
  assert.equal(w.cm.zoneStates().get('r:a'), 'FullDisruption');
  assert.equal(w.taints.map((t) => t.at), [0, 10, 20, 30].map((s) => queuedAt + s * S));
  w.stop();
});

test('every zone down: no taints; back up, a node still down is tainted once the zone\'s fresh bucket gives a token', async () => {
  const w = await world({ a: 3, b: 3 }, 1);
  const crashAt = 40 * S;
  await w.until(crashAt);
  w.crash(w.names);
  const { unknownAt } = timeline(crashAt);
  await w.until(unknownAt + 600 * S);
  assert.equal([...w.cm.zoneStates().values()], ['FullDisruption', 'FullDisruption']);
  assert.equal(w.taints, []);
  assert.equal(w.evictions, []);
  // Recovery 2 s after a monitor pass; the next pass sees it and leaves full disruption.
  const recoverAt = unknownAt + 602 * S;
  await w.until(recoverAt);
  await w.recover(w.names.filter((n) => n !== 'b-02'));
  const exitPass = recoverAt + 3 * S;
  await w.until(exitPass + 30 * S);
  assert.equal([...w.cm.zoneStates().values()], ['Normal', 'Normal']);
  // b-02 was Unknown all along: queued on the exit pass, tainted when the drained 0.1/s bucket refills.
  assert.equal(w.taints, [{ node: 'b-02', key: 'node.kubernetes.io/unreachable', at: exitPass + 10 * S }]);
  w.stop();
});

test('a shorter --node-monitor-grace-period makes nodes go Unknown sooner', async () => {
  const w = await world({ a: 4 }, 0, { nodeMonitorGracePeriodMs: 20 * S });
  const crashAt = 30 * S;
  await w.until(crashAt);
  w.crash(['a-03']);
  const { probed } = timeline(crashAt);
  await w.until(probed + 25 * S);
  assert.equal((await w.node('a-03')).status.conditions.find((c: Rec) => c.type === 'Ready').status, 'Unknown');
  w.stop();
});

test('--controllers=-taint-eviction-controller: nodes are tainted, no pod is deleted', async () => {
  const w = await world({ a: 5 }, 1, { controllers: ['*', '-taint-eviction-controller'] });
  await w.until(30 * S);
  w.crash(['a-00']);
  await w.until(500 * S);
  assert.equal(w.taints.length, 1);
  assert.equal(w.evictions, []);
  assert.is(w.cm.taintEviction, undefined);
  w.stop();
});

test.run();
