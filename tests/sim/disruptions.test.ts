// Disruptions in whole runs: a maintenance drain's waves (cordon, evict, wait, hold downFor,
// uncordon), a budget a drain honours, and a spot interruption's notice and loss, with and
// without an autoscaled group under it. Times are worked out from the faults' rules.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EVENTS, NODES, PODS, type Node, type Pod } from '../../actors/api/model/core.ts';
import { ApiClient } from '../../actors/client/client.ts';
import { runScenario, ScenarioRun, type LiveRun } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';
import { SPOT_TAINT } from '../../sim/spot-interruption.ts';

const parse = (text: string) => parseScenario(text, { name: 'disruptions', dir: '.' });

/** Each node's changes of a watched property, as [seconds since the start, value] when it changes. */
function watchNodes(live: LiveRun, t0: number, of: (n: Node | undefined) => string, seen: Map<string, [number, string][]>): void {
  live.cluster.server.store.onChange((c) => {
    if (!c.key.includes('/core/nodes/')) return;
    const before = of(c.prev as Node | undefined);
    const after = of(c.type === 'DELETED' ? undefined : (c.object as Node));
    if (before === after) return;
    const name = c.object.metadata.name!;
    seen.set(name, [...(seen.get(name) ?? []), [(live.cluster.clock.now() - t0) / 1000, after]]);
  });
}

const cordoned = (n: Node | undefined) => (n === undefined ? 'gone' : n.spec?.unschedulable ? 'cordoned' : 'schedulable');

test('a drain of empty nodes in waves of two: each wave cordoned at its start, uncordoned downFor later, the next wave then', async () => {
  const seen = new Map<string, [number, string][]>();
  const { report, errors } = await runScenario(parse(`
duration: 10m
nodePools: [{ name: a, count: 4, capacity: { cpu: "4", memory: 16Gi } }]
faults: [{ kind: maintenanceDrain, at: 1m, nodes: [a-2, a-0, a-1], waveSize: 2, downFor: 2m }]
`), { onStarted: (live) => watchNodes(live, live.cluster.clock.now() - live.virtualMs(), cordoned, seen) });
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
      watchNodes(live, live.cluster.clock.now() - live.virtualMs(), cordoned, seen);
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
`), { onStarted: (l) => watchNodes(l, l.cluster.clock.now() - l.virtualMs(), spotTaint, seen) });
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

test.run();
