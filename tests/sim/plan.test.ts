// Capacity planning on a cluster whose answer is known by construction: 32 one-CPU pods of a
// ReplicaSet fill exactly 8 four-CPU nodes, and zone-a (every third node) is cut off: the other two
// zones must hold all 32, so the smallest cluster is 12 nodes (4 per zone) and 11 is not enough.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { figuresOf, missedTargets, planCapacity } from '../../sim/plan.ts';
import { runScenario } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';

const SCENARIO = `
name: spare-zone
duration: 10m
sampleInterval: 30s
nodePools:
  - name: pool
    count: 9
    region: r
    zones: [zone-a, zone-b, zone-c]
    capacity: { cpu: "4", memory: 64Gi, pods: 110 }
workloads:
  - name: web
    count: 32
    controller: ReplicaSet
    requests: { cpu: "1", memory: 64Mi }
faults:
  - kind: zonePartition
    at: 1m
    zone: zone-a
plan:
  vary: [{ pool: pool, min: 6, max: 15 }]
  seeds: 2
  targets: { pendingAtEnd: 0, readyAtEnd: true }
`;

test('the smallest cluster that survives losing a zone: 12 nodes, and 11 falls short by pending pods', async () => {
  const scenario = parseScenario(SCENARIO, { name: 'spare-zone', dir: '.' });
  const result = await planCapacity(scenario, async (s, seed) => {
    const { report, checks, errors } = await runScenario(s, { seed });
    return figuresOf(seed, report, checks, errors);
  });
  assert.is(result.answer?.totalNodes, 12);
  assert.equal(result.seeds, [1, 2]);
  const below = result.candidates.find((c) => c.totalNodes === 11);
  assert.ok(below && !below.pass, 'the candidate just below the answer was run and failed');
  assert.ok(below.missed.includes('pendingAtEnd') && below.missed.includes('readyAtEnd'), below.missed.join(', '));
  assert.ok(result.candidates.every((c) => c.pass === (c.totalNodes >= 12)), 'monotone over the candidates tried');
  assert.is(result.candidates.at(-1)!.totalNodes, 15, 'the largest was tried first');
});

test('targets are checked one by one, and a checker violation fails a run', () => {
  const ok = { seed: 1, pendingAtEnd: 0, readyAtEnd: true, schedulingLatencyP99Ms: 1_000, podStartupP99Ms: 3_000, cpuUtilisationMax: 0.5, violations: [] };
  const targets = { pendingAtEnd: 0, readyAtEnd: true, schedulingLatencyP99Ms: 2_000, podStartupP99Ms: 2_000, cpuUtilisationMax: 0.6 };
  assert.equal(missedTargets(targets, ok), ['podStartupP99']);
  assert.equal(missedTargets({ cpuUtilisationMax: 0.4 }, { ...ok, violations: ['check: no pod bound twice'] }), ['cpuUtilisationMax', 'checks']);
});

test('a plan: section names real pools and at least one target', () => {
  const base = 'duration: 5m\nnodePools: [{ name: a, count: 2 }]\n';
  const error = (text: string) => {
    try {
      parseScenario(text, { name: 's', dir: '.' });
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };
  assert.is(error(`${base}plan: { vary: [{ pool: b, min: 1, max: 3 }], targets: { pendingAtEnd: 0 } }`), 's.yaml: plan.vary[0].pool: must name a node pool (a), got "b"');
  assert.is(error(`${base}plan: { vary: [{ pool: a, min: 4, max: 3 }], targets: { pendingAtEnd: 0 } }`), 's.yaml: plan.vary[0].max: must be at least min (4), got 3');
  assert.is(error(`${base}plan: { vary: [{ pool: a, min: 1, max: 3 }], targets: {} }`),
    's.yaml: plan.targets: must set at least one of pendingAtEnd, readyAtEnd, schedulingLatencyP99, podStartupP99, cpuUtilisationMax');
});

test.run();
