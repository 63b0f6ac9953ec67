// A node deleted with its instance in whole runs: its Node gone at once, its pods collected by the
// pod GC after its quarantine and replaced elsewhere, and a new node of its pool joining after the
// provisioning delay when asked for (replace: true) or when the pool is an autoscaled group, whose
// target stays the same (replace: false shrinks it). Times are worked out from the rules.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Node } from '../../actors/api/model/core.ts';
import { GC_PERIOD_MS, ORPHAN_QUARANTINE_MS } from '../../actors/controller-manager/controllers/pod-gc.ts';
import { runScenario } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';
import { watchNodes, watchPods, type PodLife } from '../helpers/run-watch.ts';

const parse = (text: string) => parseScenario(text, { name: 'node-delete', dir: '.' });
const present = (n: Node | undefined) => (n === undefined ? 'gone' : 'there');

test('a deleted node of a fixed pool: gone at once, its pods collected after the quarantine and replaced, a new node joining a provisioning delay later', async () => {
  const seen = new Map<string, [number, string][]>();
  const pods = new Map<string, PodLife>();
  const { report, errors } = await runScenario(parse(`
duration: 5m
nodePools: [{ name: a, count: 3, capacity: { cpu: "4", memory: 16Gi } }]
workloads: [{ name: web, controller: ReplicaSet, count: 6, requests: { cpu: 500m } }]
faults: [{ kind: nodeDelete, at: 1m, nodes: [a-1], replace: true }]
`), { onStarted: (live) => (watchNodes(live, present, seen), watchPods(live, pods)) });
  assert.equal(errors, []);
  // The Node goes at 60 s; its replacement, the pool's next index never used, joins 1m (the default provisioning delay) later.
  assert.equal(seen.get('a-1'), [[60, 'gone']]);
  assert.equal(seen.get('a-3'), [[120, 'there']]);
  // The pod GC first sees the node missing at its first pass from 60 s (within one period), and
  // collects its pods at the first pass the quarantine later.
  const [earliest, latest] = [60 + ORPHAN_QUARANTINE_MS / 1000, 60 + (GC_PERIOD_MS + ORPHAN_QUARANTINE_MS) / 1000];
  const orphans = [...pods.values()].filter((p) => p.node === 'a-1');
  assert.ok(orphans.length > 0, 'the node ran pods');
  for (const p of orphans) assert.ok(p.goneAt !== undefined && p.goneAt >= earliest && p.goneAt <= latest, `${p.name} collected at ${p.goneAt} s, in [${earliest}, ${latest}]`);
  const replacements = [...pods.values()].filter((p) => p.boundAt! > 60);
  assert.is(replacements.length, orphans.length, 'each collected pod replaced once');
  assert.ok(replacements.every((p) => p.boundAt! >= earliest && p.node !== 'a-1'), 'the ReplicaSet replaced them once they were collected');
  assert.equal(report.faults, [{ kind: 'nodeDelete', atMs: 60_000, targets: ['a-1'], replacements: [{ node: 'a-1', by: 'a-3', joinedAtMs: 120_000 }], recoveredAtMs: 120_000 }]);
  assert.is(report.summary.pods.running, 6);
});

test('a deleted node of a fixed pool is not replaced unless asked, nor brought back by a crash that ends after it', async () => {
  const seen = new Map<string, [number, string][]>();
  const { report, errors } = await runScenario(parse(`
duration: 4m
nodePools: [{ name: a, count: 3, capacity: { cpu: "4", memory: 16Gi } }]
faults:
  - { kind: nodeCrash, at: 30s, nodes: [a-0], recoverAfter: 2m }
  - { kind: nodeDelete, at: 1m, nodes: [a-0, a-2] }
`), { onStarted: (live) => watchNodes(live, present, seen) });
  assert.equal(errors, []);
  assert.equal([seen.get('a-0'), seen.get('a-2')], [[[60, 'gone']], [[60, 'gone']]]);
  assert.is(seen.size, 2, 'no node joined or came back');
  assert.equal(report.faults[1], { kind: 'nodeDelete', atMs: 60_000, targets: ['a-0', 'a-2'] });
});

test('an autoscaled group keeps its target through a deleted node (replace: false shrinks it), and two runs are the same byte for byte', async () => {
  const text = `
duration: 5m
nodePools:
  - { name: spot, count: 3, capacity: { cpu: "4", memory: 16Gi }, autoscaling: { min: 1, max: 4 } }
workloads: [{ name: web, controller: Deployment, count: 6, requests: { cpu: 500m } }]
clusterAutoscaler: { provisioningDelay: 30s }
faults:
  - { kind: nodeDelete, at: 1m, nodes: [spot-1] }
  - { kind: nodeDelete, at: 3m, nodes: [spot-0], replace: false }
`;
  const seen = new Map<string, [number, string][]>();
  const first = await runScenario(parse(text), { onStarted: (live) => watchNodes(live, present, seen) });
  const second = await runScenario(parse(text));
  assert.equal(first.errors, []);
  // spot-1 goes at 60 s and spot-3 (the lowest index free while spot-1 still held its own) joins 30 s later; spot-0 goes at 180 s for good.
  assert.equal(seen.get('spot-1'), [[60, 'gone']]);
  assert.equal(seen.get('spot-3'), [[90, 'there']]);
  assert.equal(seen.get('spot-0'), [[180, 'gone']]);
  assert.equal(first.report.autoscaling!.groups[0]!.nodes, [[0, 3], [60_000, 2], [90_000, 3], [180_000, 2]]);
  assert.equal(first.report.faults, [
    { kind: 'nodeDelete', atMs: 60_000, targets: ['spot-1'], replacements: [{ node: 'spot-1', by: 'spot-3', joinedAtMs: 90_000 }], recoveredAtMs: 90_000 },
    { kind: 'nodeDelete', atMs: 180_000, targets: ['spot-0'] },
  ]);
  assert.is(JSON.stringify(first.report), JSON.stringify(second.report));
});

test.run();
