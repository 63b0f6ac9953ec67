// Capacity planning on a cluster whose answer is known by construction: 32 one-CPU pods of a
// ReplicaSet fill exactly 8 four-CPU nodes, and a zone is cut off: the other two zones must hold
// all 32. Node i is in zone i mod 3, so at 11 nodes zones a and b hold 4 each and zone c 3: losing
// zone-c leaves 8 nodes, enough, but losing zone-a or zone-b leaves 7. The plan for zone-c alone
// answers 11; for any zone (a fault set), 12, and 11 misses losing zone-a and zone-b.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { figuresOf, missedTargets, planCapacity } from '../../sim/plan.ts';
import { runScenario } from '../../sim/run.ts';
import { members } from '../../sim/scenario/fault-sets.ts';
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
    zone: any
plan:
  vary: [{ pool: pool, min: 6, max: 15 }]
  seeds: 2
  targets: { pendingAtEnd: 0, readyAtEnd: true }
`;

const plan = (text: string) => planCapacity(parseScenario(text, { name: 'spare-zone', dir: '.' }), async (s, seed) => {
  const { report, checks, errors } = await runScenario(s, { seed });
  return figuresOf(seed, report, checks, errors);
});

test('the smallest cluster that survives losing any zone: 12 nodes; 11 falls short losing zone-a or zone-b', async () => {
  const result = await plan(SCENARIO);
  assert.is(result.answer?.totalNodes, 12);
  assert.equal(result.seeds, [1, 2]);
  assert.equal(result.members, ['zone-a', 'zone-b', 'zone-c']);
  assert.equal(result.answer!.runs.map((r) => `${r.member} ${r.seed}`).sort(), ['zone-a 1', 'zone-a 2', 'zone-b 1', 'zone-b 2', 'zone-c 1', 'zone-c 2']);
  const below = result.candidates.find((c) => c.totalNodes === 11);
  assert.ok(below && !below.pass, 'the candidate just below the answer was run and failed');
  assert.ok(below.missed.includes('pendingAtEnd') && below.missed.includes('readyAtEnd'), below.missed.join(', '));
  assert.equal(below.missedOn, ['zone-a', 'zone-b']);
  assert.ok(result.candidates.every((c) => c.pass === (c.totalNodes >= 12)), 'monotone over the candidates tried');
  assert.is(result.candidates.at(-1)!.totalNodes, 15, 'the largest was tried first');
});

test('losing zone-c alone, the smallest of the three: 11 nodes do', async () => {
  const result = await plan(SCENARIO.replace('zone: any', 'zone: zone-c'));
  assert.is(result.answer?.totalNodes, 11);
  assert.equal(result.members, []);
  assert.equal(result.candidates.find((c) => c.totalNodes === 10)?.missedOn, [], 'no set: nothing to name');
});

// Two pools chosen independently, by construction: 16 one-CPU pods on small nodes (2 CPU, 1.0 an
// hour) and big ones (8 CPU, 5.0 an hour: dearer per CPU). A mix passes when 2 small + 8 big >= 16,
// so the frontier is small 1 + big 2 (3 nodes, 11.0/h: 264 a day) and small 4 + big 1 (5 nodes, 9.0/h: 216 a day).
const TWO_POOLS = (minimise: string) => `
name: two-pools
duration: 3m
sampleInterval: 30s
nodePools:
  - { name: small, count: 1, costPerHour: 1.0, capacity: { cpu: "2", memory: 16Gi, pods: 110 } }
  - { name: big, count: 1, costPerHour: 5.0, capacity: { cpu: "8", memory: 64Gi, pods: 110 } }
workloads:
  - { name: web, count: 16, controller: ReplicaSet, requests: { cpu: "1", memory: 64Mi } }
plan:
  vary: [{ pool: small, min: 1, max: 8 }, { pool: big, min: 1, max: 3 }]
  independent: true
  minimise: ${minimise}
  seeds: 1
  targets: { pendingAtEnd: 0 }
`;

test('two pools chosen independently: the frontier of mixes, the cheapest by cost, the fewest by nodes', async () => {
  const cheapest = await plan(TWO_POOLS('cost'));
  const mixes = (cs: { counts: Record<string, number> }[]) => cs.map((c) => `${c.counts.small}+${c.counts.big}`);
  assert.equal(mixes(cheapest.frontier), ['1+2', '4+1']);
  assert.equal(cheapest.frontier.map((c) => c.costPerDay), [264, 216]);
  assert.equal(cheapest.maxima, [], 'fixed pools: their counts vary');
  assert.equal(mixes([cheapest.answer!]), ['4+1']);
  assert.is(cheapest.minimise, 'cost');
  // Every mix tried that the frontier undercuts, or that misses, is on record; none passed below the frontier.
  for (const c of cheapest.candidates) assert.is(c.pass, 2 * c.counts.small! + 8 * c.counts.big! >= 16, `${mixes([c])}`);
  assert.ok(cheapest.candidates.length <= 8, `the walk ran ${cheapest.candidates.length} candidates, not the grid's 24`);
  const fewest = await plan(TWO_POOLS('nodes'));
  assert.equal(mixes([fewest.answer!]), ['1+2']);
});

/** The message parsing `text` fails with, or 'no error'. */
const error = (text: string) => {
  try {
    parseScenario(text, { name: 's', dir: '.' });
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

test('targets are checked one by one, and a checker violation fails a run', () => {
  const ok = { seed: 1, pendingAtEnd: 0, readyAtEnd: true, schedulingLatencyP99Ms: 1_000, podStartupP99Ms: 3_000, cpuUtilisationMax: 0.5, violations: [] };
  const targets = { pendingAtEnd: 0, readyAtEnd: true, schedulingLatencyP99Ms: 2_000, podStartupP99Ms: 2_000, cpuUtilisationMax: 0.6 };
  assert.equal(missedTargets(targets, ok), ['podStartupP99']);
  assert.equal(missedTargets({ cpuUtilisationMax: 0.4 }, { ...ok, violations: ['check: no pod bound twice'] }), ['cpuUtilisationMax', 'checks']);
});

test('minimising cost needs every pool\'s cost; an independent grid too fine for a walk is refused up front', () => {
  const base = 'duration: 5m\nnodePools: [{ name: a, count: 2, costPerHour: 1 }, { name: b, count: 2 }]\n';
  assert.is(error(`${base}plan: { vary: [{ pool: a, min: 1, max: 3 }], minimise: cost, targets: { pendingAtEnd: 0 } }`),
    "s.yaml: plan.minimise: cost needs every pool's costPerHour (pool b has none), got \"cost\"");
  assert.is(error(`${base}plan: { vary: [{ pool: a, min: 1, max: 3000 }, { pool: b, min: 1, max: 3000 }], independent: true, targets: { pendingAtEnd: 0 } }`),
    's.yaml: plan.vary: asks for up to 6000 candidates (more than 5000): raise step or narrow min..max');
  assert.is(error(`${base}plan: { vary: [{ pool: a, min: 1, max: 3000, step: 10 }, { pool: b, min: 1, max: 3000, step: 10 }], independent: true, targets: { pendingAtEnd: 0 } }`), 'no error');
  assert.is(error(`duration: 5m\nnodePools: [{ name: a, count: 2, costPerHour: -1 }]\n`), 's.yaml: nodePools[0].costPerHour: must be a non-negative number (per node-hour), got -1');
});

test('a plan: section names real pools and at least one target', () => {
  const base = 'duration: 5m\nnodePools: [{ name: a, count: 2 }]\n';
  assert.is(error(`${base}plan: { vary: [{ pool: b, min: 1, max: 3 }], targets: { pendingAtEnd: 0 } }`), 's.yaml: plan.vary[0].pool: must name a node pool (a), got "b"');
  assert.is(error(`${base}plan: { vary: [{ pool: a, min: 4, max: 3 }], targets: { pendingAtEnd: 0 } }`), 's.yaml: plan.vary[0].max: must be at least min (4), got 3');
  assert.is(error(`${base}plan: { vary: [{ pool: a, min: 1, max: 3 }], targets: {} }`),
    's.yaml: plan.targets: must set at least one of pendingAtEnd, readyAtEnd, schedulingLatencyP99, podStartupP99, cpuUtilisationMax');
});

test('a group\'s max is varied from its min up, and only under a cluster autoscaler', () => {
  const pools = 'duration: 5m\nnodePools: [{ name: g, count: 1, autoscaling: { min: 1, max: 4 } }, { name: s, count: 0, autoscaling: { min: 0, max: 4 } }]\n';
  const ca = 'clusterAutoscaler: { scan-interval: 10s }\n';
  const targets = 'targets: { pendingAtEnd: 0 }';
  assert.is(error(`${pools}${ca}plan: { vary: [{ pool: g, min: 0, max: 3 }], ${targets} }`),
    "s.yaml: plan.vary[0].min: must be an integer of at least the group's min (1), got 0");
  assert.is(error(`${pools}${ca}plan: { vary: [{ pool: s, min: 0, max: 3 }], ${targets} }`), 'no error', 'a group of min 0 may stay empty');
  assert.is(error(`duration: 5m\nnodePools: [{ name: a, count: 1 }]\nplan: { vary: [{ pool: a, min: 0, max: 3 }], ${targets} }`),
    's.yaml: plan.vary[0].min: must be a positive integer, got 0');
  assert.is(error(`${pools}plan: { vary: [{ pool: g, min: 1, max: 3 }], ${targets} }`),
    's.yaml: plan.vary[0].pool: is a node group (autoscaling:), whose max matters only under a clusterAutoscaler: section, got "g"');
});

test('a fault set: zone any expands to one member per zone, in order; a count must fit the smallest zone', () => {
  const pools = 'duration: 5m\nnodePools: [{ name: a, count: 5, zones: [z2, z1] }, { name: b, count: 1, zones: [z3] }]\n';
  const s = parseScenario(`${pools}faults: [{ kind: zonePartition, at: 1m, zone: any }, { kind: nodeCrash, at: 2m, zone: any, pool: a, count: 2 }]\n`, { name: 's', dir: '.' });
  const m = members(s);
  assert.equal(m.map((x) => x.label), ['z1 + z1', 'z1 + z2', 'z2 + z1', 'z2 + z2', 'z3 + z1', 'z3 + z2']);
  assert.equal(m[2]!.scenario.faults.map((f) => [f.kind, f.zone, f.count, f.zones]), [['zonePartition', 'z2', 3, undefined], ['nodeCrash', 'z1', 2, undefined]]);
  assert.equal(members(parseScenario(pools, { name: 's', dir: '.' })).map((x) => x.label), ['']);
  assert.throws(() => parseScenario(`${pools}faults: [{ kind: nodeCrash, at: 1m, zone: any, pool: a, count: 3 }]\n`, { name: 's', dir: '.' }),
    (e: Error) => e.message === 's.yaml: faults[0].count: must be at most the number of nodes it draws from (2 in pool a, zone z1), got 3');
  assert.throws(() => parseScenario(`${pools}faults: [{ kind: zonePartition, at: 1m, zone: z9 }]\n`, { name: 's', dir: '.' }),
    (e: Error) => e.message === 's.yaml: faults[0].zone: must be a zone of some pool ("z2", "z1", "z3"), or any, got "z9"');
});

test.run();
