// The `plan:` section of a scenario, read by `orchsim plan` (run ignores it): which node pools
// vary and between which counts, over how many seeds each candidate runs, and the targets a
// cluster must meet on every seed (through the scenario's faults) to pass. A pool with
// `autoscaling:` (a node group) varies its `max`, its `min` staying; other pools their `count`.
//
//   plan:
//     vary: [{ pool: general, min: 3, max: 40 }]   # pools varied, each from min to max nodes (step: 1)
//     independent: false                           # true: each pool's count chosen on its own
//     minimise: nodes                              # or cost: what the nodes cost per day (node-hours run × costPerHour)
//     seeds: 3                                     # default 3: seeds seed, seed+1, ...
//     targets:                                     # at least one
//       pendingAtEnd: 0                            # pods still Pending at the end, at most
//       readyAtEnd: true                           # every ReplicaSet back at its Ready count at the end
//       schedulingLatencyP99: 30s                  # creation to binding, p99, at most
//       podStartupP99: 1m                          # creation to Running, p99, at most
//       cpuUtilisationMax: 0.8                     # the highest sampled CPU requested / allocatable
import type { NodePool } from './types.ts';
import type { Field } from './field.ts';
import { listed } from './field.ts';
import { durationMs, integer, number, oneOf, optional } from './schema.ts';

export interface PlanTargets {
  pendingAtEnd?: number;
  readyAtEnd?: boolean;
  schedulingLatencyP99Ms?: number;
  podStartupP99Ms?: number;
  cpuUtilisationMax?: number;
}

export interface Plan {
  vary: { pool: string; min: number; max: number; step: number }[];
  /** Each varied pool's count chosen on its own (the frontier of smallest mixes); false: all grow together. */
  independent: boolean;
  /** What the answer makes smallest among the candidates that pass. */
  minimise: 'nodes' | 'cost';
  seeds: number;
  targets: PlanTargets;
}

const PLAN_FIELDS = ['vary', 'independent', 'minimise', 'seeds', 'targets'];
/** Candidates an independent plan may have to try: the frontier walk's bound, so a plan says up front when its grid is too fine. */
const GRID_MAX = 5_000;
const TARGET_FIELDS = ['pendingAtEnd', 'readyAtEnd', 'schedulingLatencyP99', 'podStartupP99', 'cpuUtilisationMax'];
const SEEDS_MAX = 20;
const NODES_MAX = 100_000;

/** `autoscaler`: whether the scenario has a cluster autoscaler (without one, a group's max changes nothing). */
export function plan(f: Field, pools: ReadonlyMap<string, NodePool>, autoscaler: boolean): Plan {
  f.mapping(PLAN_FIELDS);
  if (!f.child('vary').present) f.child('vary').error('is required: the pools to vary, e.g. [{ pool: general, min: 3, max: 40 }]');
  const seen = new Set<string>();
  const vary = f.child('vary').list('pools to vary', { nonEmpty: true, max: pools.size }).map((v) => {
    v.mapping(['pool', 'min', 'max', 'step']);
    const at = v.child('pool');
    const pool = typeof at.value === 'string' ? at.value : '';
    if (!pools.has(pool)) at.fail(`must name a node pool (${listed([...pools.keys()])})`);
    if (seen.has(pool)) at.fail('is listed twice');
    if (pools.get(pool)?.autoscaling && !autoscaler) at.fail('is a node group (autoscaling:), whose max matters only under a clusterAutoscaler: section');
    seen.add(pool);
    // A group's max may not go under its min (0 for a group that may stay empty); a fixed pool has a node at least.
    const least = pools.get(pool)?.autoscaling?.min ?? 1;
    const what = pools.get(pool)?.autoscaling ? `an integer of at least the group's min (${least})` : 'a positive integer';
    const min = integer(v.child('min'), least, NODES_MAX, what);
    const max = integer(v.child('max'), least, NODES_MAX, what);
    if (max < min) v.child('max').fail(`must be at least min (${min})`);
    const step = optional(v.child('step'), (s) => integer(s, 1, NODES_MAX, 'a positive integer'), 1);
    return { pool, min, max, step };
  });
  const independent = optional(f.child('independent'), (x) => {
    if (typeof x.value !== 'boolean') x.fail('must be true or false');
    return x.value as boolean;
  }, false);
  const minimise = optional(f.child('minimise'), (x) => oneOf(x, ['nodes', 'cost'] as const), 'nodes');
  if (minimise === 'cost') for (const p of pools.values())
    if (p.costPerHour === undefined) f.child('minimise').fail(`cost needs every pool's costPerHour (pool ${p.name} has none)`);
  const values = (v: { min: number; max: number; step: number }) => Math.floor((v.max - v.min) / v.step) + 1;
  if (independent && vary.length > 1) {
    const sorted = vary.map(values).sort((a, b) => b - a);
    const walk = sorted.slice(2).reduce((n, k) => n * k, 1) * (sorted[0]! + sorted[1]!);
    if (walk > GRID_MAX) f.child('vary').error(`asks for up to ${walk} candidates (more than ${GRID_MAX}): raise step or narrow min..max`);
  }
  const seeds = optional(f.child('seeds'), (s) => integer(s, 1, SEEDS_MAX, `an integer from 1 to ${SEEDS_MAX}`), 3);
  const t = f.child('targets');
  if (!t.present) t.error(`is required: at least one of ${TARGET_FIELDS.join(', ')}`);
  t.mapping(TARGET_FIELDS);
  const targets: PlanTargets = {};
  if (t.child('pendingAtEnd').present) targets.pendingAtEnd = integer(t.child('pendingAtEnd'), 0, Number.MAX_SAFE_INTEGER, 'a non-negative integer');
  if (t.child('readyAtEnd').present) {
    if (typeof t.child('readyAtEnd').value !== 'boolean') t.child('readyAtEnd').fail('must be true or false');
    targets.readyAtEnd = t.child('readyAtEnd').value as boolean;
  }
  if (t.child('schedulingLatencyP99').present) targets.schedulingLatencyP99Ms = durationMs(t.child('schedulingLatencyP99'));
  if (t.child('podStartupP99').present) targets.podStartupP99Ms = durationMs(t.child('podStartupP99'));
  if (t.child('cpuUtilisationMax').present) targets.cpuUtilisationMax = number(t.child('cpuUtilisationMax'), 0, 1, 'a fraction from 0 to 1');
  if (Object.keys(targets).length === 0) t.error(`must set at least one of ${TARGET_FIELDS.join(', ')}`);
  return { vary, independent, minimise, seeds, targets };
}
