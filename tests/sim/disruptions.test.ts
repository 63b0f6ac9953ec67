// Disruptions in whole runs: a maintenance drain's waves (cordon, evict, wait, hold downFor,
// uncordon), a budget a drain honours, and a spot interruption's notice and loss, with and
// without an autoscaled group under it. Times are worked out from the faults' rules.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EVENTS, NODES, PODS, type Node, type Pod } from '../../actors/api/model/core.ts';
import { PDBS } from '../../actors/api/model/policy.ts';
import type { KObject } from '../../actors/api/types.ts';
import { ApiClient } from '../../actors/client/client.ts';
import { runScenario, ScenarioRun, type LiveRun } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';
import { WORKLOAD_LABEL } from '../../sim/scenario/pods.ts';
import { SPOT_TAINT } from '../../sim/spot-interruption.ts';
import { watchNodes, watchPods, type PodLife } from '../helpers/run-watch.ts';

const parse = (text: string) => parseScenario(text, { name: 'disruptions', dir: '.' });

/** A PodDisruptionBudget over the workload `web`, created as the run starts (a test's own minAvailable for one workload text shared by several). */
function budget(live: LiveRun, minAvailable: number): void {
  void new ApiClient(live.cluster.adminBus, 'test').create(PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web', namespace: 'default' },
    spec: { minAvailable, selector: { matchLabels: { [WORKLOAD_LABEL]: 'web' } } } } as KObject);
}

const cordoned = (n: Node | undefined) => (n === undefined ? 'gone' : n.spec?.unschedulable ? 'cordoned' : 'schedulable');

test('a drain of empty nodes in waves of two: each wave cordoned at its start, uncordoned downFor later, the next wave then', async () => {
  const seen = new Map<string, [number, string][]>();
  const { report, errors } = await runScenario(parse(`
duration: 10m
nodePools: [{ name: a, count: 4, capacity: { cpu: "4", memory: 16Gi } }]
faults: [{ kind: maintenanceDrain, at: 1m, nodes: [a-2, a-0, a-1], waveSize: 2, downFor: 2m }]
`), { onStarted: (live) => watchNodes(live, cordoned, seen) });
  assert.equal(errors, []);
  // Wave 1 (a-2, a-0): 60 s to 180 s; wave 2 (a-1): 180 s to 300 s; no pods to wait for.
  assert.equal(seen.get('a-2'), [[60, 'cordoned'], [180, 'schedulable']]);
  assert.equal(seen.get('a-0'), [[60, 'cordoned'], [180, 'schedulable']]);
  assert.equal(seen.get('a-1'), [[180, 'cordoned'], [300, 'schedulable']]);
  assert.is(seen.get('a-3'), undefined, 'a node not drained is never cordoned');
  assert.equal(report.faults, [{ kind: 'maintenanceDrain', atMs: 60_000, targets: ['a-2', 'a-0', 'a-1'], recoveredAtMs: 300_000 }]);
});

test('a drain honours a budget: the Deployment never has fewer Ready pods than minAvailable, and every node is drained and back', async () => {
  const seen = new Map<string, [number, string][]>();
  const ready = new Set<string>();
  const evictedAt: number[] = [];
  let fewest = Infinity;
  const { report, errors, checks } = await runScenario(parse(`
duration: 20m
nodePools: [{ name: a, count: 3, capacity: { cpu: "4", memory: 16Gi } }]
workloads: [{ name: web, controller: Deployment, count: 4, requests: { cpu: 500m }, disruptionBudget: { minAvailable: 3 } }]
faults: [{ kind: maintenanceDrain, at: 2m, nodes: [a-0, a-1], waveSize: 2, downFor: 1m }]
`), {
    onStarted: (live) => {
      watchNodes(live, cordoned, seen);
      live.cluster.server.store.onChange((c) => {
        if (!c.key.includes('/core/pods/')) return;
        const pod = c.object as Pod;
        if (pod.metadata.deletionTimestamp && !(c.prev as Pod | undefined)?.metadata.deletionTimestamp) evictedAt.push(live.virtualMs() / 1000);
        const isReady = c.type !== 'DELETED' && !pod.metadata.deletionTimestamp && (pod.status?.conditions ?? []).some((x) => x.type === 'Ready' && x.status === 'True');
        if (isReady) ready.add(pod.metadata.uid!);
        else ready.delete(pod.metadata.uid!);
        if (live.virtualMs() >= 120_000) fewest = Math.min(fewest, ready.size);
      });
    },
  });
  assert.equal(errors, []);
  for (const c of checks) assert.is(c.violations, 0, `${c.name}: ${c.examples.join('; ')}`);
  assert.ok(fewest >= 3, `Ready pods fell to ${fewest} under a budget of minAvailable 3`);
  for (const name of ['a-0', 'a-1']) {
    const [[cordonAt, first], [uncordonAt, second]] = seen.get(name)!;
    assert.equal([cordonAt, first, second], [120, 'cordoned', 'schedulable']);
    assert.ok(uncordonAt >= 180, `${name} held cordoned for downFor at least`);
  }
  // Each eviction is sent at the wave's start or on kubectl's 5 s retries after it, and the budget lets them through one at a time.
  assert.ok(evictedAt.length >= 3 && evictedAt.every((t) => t >= 120 && (t - 120) % 5 === 0), `evictions at ${evictedAt.join(', ')} s`);
  assert.ok(new Set(evictedAt).size === evictedAt.length, `one eviction at a time: ${evictedAt.join(', ')} s`);
  const drain = report.faults[0]!;
  assert.ok(drain.recoveredAtMs !== undefined && drain.recoveredAtMs > 180_000, 'pods had to be evicted one budget at a time before the maintenance');
  assert.is(report.summary.pods.running, 4, 'the Deployment is whole again');
});

const spotTaint = (n: Node | undefined) => (n === undefined ? 'gone' : (n.spec?.taints ?? []).some((t) => t.key === SPOT_TAINT) ? 'noticed' : 'running');

test('a spot interruption: the taint and a Warning Event at the notice, the Node deleted notice later and its pods replaced elsewhere', async () => {
  const seen = new Map<string, [number, string][]>();
  const run = await ScenarioRun.start(parse(`
duration: 5m
events: true
nodePools: [{ name: s, count: 3, capacity: { cpu: "4", memory: 16Gi } }]
workloads: [{ name: web, controller: ReplicaSet, count: 6, requests: { cpu: 500m } }]
faults: [{ kind: spotInterruption, at: 1m, nodes: [s-1], notice: 30s }]
`), { onStarted: (l) => watchNodes(l, spotTaint, seen) });
  try {
    await run.advance();
    const { report, errors } = await run.conclude();
    assert.equal(errors, []);
    assert.equal(seen.get('s-1'), [[60, 'noticed'], [90, 'gone']]);
    assert.is(seen.get('s-0'), undefined);
    const client = new ApiClient(run.cluster.adminBus, 'test');
    const events = (await client.list(EVENTS, 'default')).items.filter((e) => e.reason === 'SpotInterruption');
    assert.equal(events.map((e) => [e.type, e.involvedObject.kind, e.involvedObject.name]), [['Warning', 'Node', 's-1']]);
    const pods = (await client.list(PODS, undefined)).items.filter((p) => !p.metadata.deletionTimestamp);
    assert.is(pods.length, 6);
    assert.ok(pods.every((p) => p.spec?.nodeName !== 's-1'), 'the lost node\'s pods were replaced on the others');
    assert.equal((await client.list(NODES, undefined)).items.map((n) => n.metadata.name), ['s-0', 's-2'], 'an unscaled pool has lost the node');
    assert.equal(report.faults, [{ kind: 'spotInterruption', atMs: 60_000, targets: ['s-1'] }]);
  } finally {
    run.dispose();
  }
});
test('an autoscaled group shrinks with a lost spot node, and a run of both disruptions is the same byte for byte twice', async () => {
  const text = `
duration: 10m
nodePools:
  - { name: spot, count: 3, zones: [z1, z2], capacity: { cpu: "4", memory: 16Gi }, autoscaling: { min: 2, max: 4 } }
workloads: [{ name: web, controller: Deployment, count: 6, requests: { cpu: 500m } }]
clusterAutoscaler: { provisioningDelay: 1m }
faults:
  - { kind: spotInterruption, at: 1m, count: 1 }
  - { kind: maintenanceDrain, at: 3m, count: 2, downFor: 1m }
`;
  const first = await runScenario(parse(text));
  const second = await runScenario(parse(text));
  assert.equal(first.errors, []);
  const group = first.report.autoscaling!.groups[0]!;
  assert.equal(group.nodes.slice(0, 2), [[0, 3], [180_000, 2]], 'the group lost its node at the notice\'s end (1m + 2m)');
  assert.is(JSON.stringify(first.report), JSON.stringify(second.report));
});

/** The pods bound to `node` and not terminating at `atS`. */
const podsOn = (pods: Map<string, PodLife>, node: string, atS: number) =>
  [...pods.values()].filter((p) => p.node === node && p.boundAt! <= atS && (p.terminatingAt === undefined || p.terminatingAt >= atS));

/** When `count` pods not on `node` were Ready at once (pods leave that count when they terminate). */
function wholeElsewhereAt(pods: Map<string, PodLife>, node: string, count: number): number | undefined {
  const changes = [...pods.values()].filter((p) => p.node !== node && p.readyAt !== undefined)
    .flatMap((p) => [[p.readyAt!, 1], ...(p.terminatingAt !== undefined ? [[p.terminatingAt, -1]] : [])] as [number, number][]);
  let ready = 0;
  for (const [t, d] of changes.sort((a, b) => a[0] - b[0] || a[1] - b[1])) if ((ready += d) >= count) return t;
  return undefined;
}

const SPOT = `
duration: 5m
nodePools: [{ name: s, count: 3, capacity: { cpu: "4", memory: 16Gi } }]
workloads: [{ name: web, controller: ReplicaSet, count: 6, requests: { cpu: 500m } }]
`;

test('a spot notice drains the node: its pods are evicted at the notice and Running elsewhere before the instance goes', async () => {
  const seen = new Map<string, [number, string][]>();
  const pods = new Map<string, PodLife>();
  const { report, errors } = await runScenario(parse(`${SPOT}faults: [{ kind: spotInterruption, at: 1m, nodes: [s-1] }]\n`),
    { onStarted: (live) => (watchNodes(live, cordoned, seen), watchPods(live, pods)) });
  assert.equal(errors, []);
  // Notice at 60 s, the instance lost 2 minutes later.
  assert.equal(seen.get('s-1'), [[60, 'cordoned'], [180, 'gone']]);
  const drained = podsOn(pods, 's-1', 60);
  assert.ok(drained.length > 0, 'the node ran pods of the ReplicaSet');
  assert.equal(drained.map((p) => p.terminatingAt), drained.map(() => 60), 'every pod evicted at the notice');
  const whole = wholeElsewhereAt(pods, 's-1', 6);
  assert.ok(whole !== undefined && whole > 60 && whole < 180, `six pods Running on other nodes at ${whole} s, before the loss at 180 s`);
  assert.equal(report.faults, [{ kind: 'spotInterruption', atMs: 60_000, targets: ['s-1'] }]);
  assert.is(report.summary.pods.running, 6);
});

test('a spot drain honours a budget: evictions it refuses are sent again every 5 s from the notice, one pod at a time', async () => {
  const pods = new Map<string, PodLife>();
  const { report, errors } = await runScenario(parse(`${SPOT}faults: [{ kind: spotInterruption, at: 1m, nodes: [s-1] }]\n`),
    { onStarted: (live) => (budget(live, 5), watchPods(live, pods)) });
  assert.equal(errors, []);
  const evictedAt = podsOn(pods, 's-1', 60).map((p) => p.terminatingAt!).sort((a, b) => a - b);
  assert.ok(evictedAt.length >= 2, `the node ran ${evictedAt.length} pods; the test needs two to see the budget refuse one`);
  assert.ok(evictedAt.every((t) => t >= 60 && t < 180 && (t - 60) % 5 === 0), `evictions at ${evictedAt.join(', ')} s: the notice and its 5 s retries`);
  assert.is(new Set(evictedAt).size, evictedAt.length, `one eviction at a time: ${evictedAt.join(', ')} s`);
  const whole = wholeElsewhereAt(pods, 's-1', 6);
  assert.ok(whole !== undefined && whole < 180, `six pods Running elsewhere at ${whole} s, before the loss`);
  assert.equal(report.faults, [{ kind: 'spotInterruption', atMs: 60_000, targets: ['s-1'] }]);
});

test('a spot drain a budget holds up to the loss is reported with the pods left; drain: false only taints the node', async () => {
  const held = new Map<string, PodLife>();
  const first = await runScenario(parse(`${SPOT}faults: [{ kind: spotInterruption, at: 1m, nodes: [s-1], notice: 30s }]\n`),
    { onStarted: (live) => (budget(live, 6), watchPods(live, held)) });
  assert.equal(first.errors, []);
  const left = podsOn(held, 's-1', 60);
  assert.ok(left.length > 0 && left.every((p) => p.terminatingAt === undefined || p.terminatingAt >= 90), 'no eviction got through');
  assert.equal(first.report.faults, [{ kind: 'spotInterruption', atMs: 60_000, targets: ['s-1'], drainTimeouts: [{ node: 's-1', atMs: 90_000, podsLeft: left.length }] }]);

  const seen = new Map<string, [number, string][]>();
  const tainted = new Map<string, PodLife>();
  const second = await runScenario(parse(`${SPOT}faults: [{ kind: spotInterruption, at: 1m, nodes: [s-1], notice: 30s, drain: false }]\n`),
    { onStarted: (live) => (watchNodes(live, cordoned, seen), watchPods(live, tainted)) });
  assert.equal(second.errors, []);
  assert.equal(seen.get('s-1'), [[90, 'gone']], 'never cordoned');
  const lost = podsOn(tainted, 's-1', 60);
  assert.ok(lost.length > 0 && lost.every((p) => p.terminatingAt === undefined || p.terminatingAt > 90), 'no pod evicted before the loss');
});

test('a drain past its timeout fails as kubectl drain does: the node stays cordoned, unmaintained, reported with its pods; the next wave goes on', async () => {
  const seen = new Map<string, [number, string][]>();
  const pods = new Map<string, PodLife>();
  const { report, errors } = await runScenario(parse(`
duration: 10m
nodePools: [{ name: a, count: 3, capacity: { cpu: "4", memory: 16Gi } }]
workloads: [{ name: web, controller: Deployment, count: 6, requests: { cpu: 500m } }]
faults: [{ kind: maintenanceDrain, at: 2m, nodes: [a-0, a-1], timeout: 1m, downFor: 1m }]
`), { onStarted: (live) => (budget(live, 6), watchNodes(live, cordoned, seen), watchPods(live, pods)) });
  assert.equal(errors, []);
  // Wave 1 (a-0) from 120 s gives up at 180 s; wave 2 (a-1) then, giving up at 240 s; neither is uncordoned.
  assert.equal(seen.get('a-0'), [[120, 'cordoned']]);
  assert.equal(seen.get('a-1'), [[180, 'cordoned']]);
  const [on0, on1] = [podsOn(pods, 'a-0', 180).length, podsOn(pods, 'a-1', 240).length];
  assert.ok(on0 > 0 && on1 > 0, 'both nodes ran pods the budget kept');
  assert.equal(report.faults, [{ kind: 'maintenanceDrain', atMs: 120_000, targets: ['a-0', 'a-1'],
    drainTimeouts: [{ node: 'a-0', atMs: 180_000, podsLeft: on0 }, { node: 'a-1', atMs: 240_000, podsLeft: on1 }] }]);
});

test.run();
