// Capacity planning: the smallest (or cheapest) cluster that meets a scenario's targets on every
// seed, through its faults. A candidate passes when every seed's run meets every target and every
// checker holds; a scenario with a fault set (`zone: any`) runs each member on each seed, so the
// plan holds for the worst. The search (plan-search.ts) grows the varied pools together or chooses
// each on its own; every candidate tried is kept, so the report shows the figures against cluster
// size and cost, the frontier of mixes and the margin at the answer.
//
// A varied pool with `autoscaling:` is a node group: the plan varies its max (its min stays, and
// its count at the start is held under the max). A larger max only lets the autoscaler add
// capacity, so pass/fail stays monotone and the search's assumption holds; cost does not (a group
// spends what it ran, not its max), so with `minimise: cost` the answer is the passing candidate
// that spent least per day, worst over its runs, among all that were run.
import type { Report } from './report/types.ts';
import type { CheckResult } from './checkers.ts';
import type { PlanTargets } from './scenario/plan.ts';
import { searchFrontier, searchTogether, type Counts } from './plan-search.ts';
import { members } from './scenario/fault-sets.ts';
import type { Scenario } from './scenario/types.ts';

/** What one run gives the planner. */
export interface RunFigures {
  seed: number;
  /** The member of the scenario's fault set this run was (`zone-a`); absent with no set. */
  member?: string;
  pendingAtEnd: number;
  /** Every ReplicaSet back at its desired Ready count at the end. */
  readyAtEnd: boolean;
  schedulingLatencyP99Ms: number;
  podStartupP99Ms: number;
  cpuUtilisationMax: number;
  /** Checkers that found violations, and component errors. */
  violations: string[];
  /** Node-hours each node group ran (report.autoscaling.groups), by pool; absent without a cluster autoscaler. */
  nodeHours?: Record<string, number>;
}

export interface Candidate {
  /** Nodes per varied pool (a node group's max). */
  counts: Record<string, number>;
  totalNodes: number;
  /** What its nodes cost per day, the worst of its runs, when every pool has a costPerHour (runCostPerDay). */
  costPerDay?: number;
  runs: RunFigures[];
  /** The targets some seed missed (empty: the candidate passes). */
  missed: string[];
  /** The fault set's members on which some seed missed a target (empty with no set, or when it passes). */
  missedOn: string[];
  pass: boolean;
}

export interface PlanResult {
  scenario: string;
  targets: PlanTargets;
  seeds: number[];
  /** The fault set's members each candidate ran (`zone-a`, ...); empty with no set. */
  members: string[];
  /** What the answer makes smallest. */
  minimise: 'nodes' | 'cost';
  /** The varied pools that are node groups: their count is the group's max. */
  maxima: string[];
  /** Every candidate run, smallest first. */
  candidates: Candidate[];
  /** The passing mixes no other passing mix undercuts in every pool (one, the answer, when pools grow together). */
  frontier: Candidate[];
  /** The frontier's smallest in nodes, or the passing candidate that cost least per day; undefined when even the largest fails. */
  answer?: Candidate;
}

export type Runner = (scenario: Scenario, seed: number) => Promise<RunFigures>;

export function figuresOf(seed: number, report: Report, checks: CheckResult[], errors: string[]): RunFigures {
  return {
    seed,
    pendingAtEnd: report.summary.pods.pending,
    readyAtEnd: report.replicaSetDips.every((d) => d.toMs !== undefined),
    schedulingLatencyP99Ms: report.summary.schedulingLatencyMs.p99,
    podStartupP99Ms: report.summary.podStartupMs.p99,
    cpuUtilisationMax: Math.max(0, ...report.series.cpuUtilisation),
    violations: [...checks.filter((c) => c.violations > 0).map((c) => `check: ${c.name}`), ...errors.map((e) => `error: ${e}`)],
    ...(report.autoscaling ? { nodeHours: Object.fromEntries(report.autoscaling.groups.map((g) => [g.name, g.nodeHours])) } : {}),
  };
}

/** The targets `f` misses, by name. */
export function missedTargets(t: PlanTargets, f: RunFigures): string[] {
  const missed: string[] = [];
  if (t.pendingAtEnd !== undefined && f.pendingAtEnd > t.pendingAtEnd) missed.push('pendingAtEnd');
  if (t.readyAtEnd && !f.readyAtEnd) missed.push('readyAtEnd');
  if (t.schedulingLatencyP99Ms !== undefined && f.schedulingLatencyP99Ms > t.schedulingLatencyP99Ms) missed.push('schedulingLatencyP99');
  if (t.podStartupP99Ms !== undefined && f.podStartupP99Ms > t.podStartupP99Ms) missed.push('podStartupP99');
  if (t.cpuUtilisationMax !== undefined && f.cpuUtilisationMax > t.cpuUtilisationMax) missed.push('cpuUtilisationMax');
  if (f.violations.length > 0) missed.push('checks');
  return missed;
}

/** The scenario with the varied pools at `counts`: a node group's max (its start count held under it), another pool's count. */
export function scenarioWith(scenario: Scenario, counts: Record<string, number>): Scenario {
  return {
    ...scenario, nodePools: scenario.nodePools.map((p) => {
      if (!(p.name in counts)) return p;
      const n = counts[p.name]!;
      return p.autoscaling ? { ...p, count: Math.min(p.count, n), autoscaling: { min: p.autoscaling.min, max: n } } : { ...p, count: n };
    }),
  };
}

export async function planCapacity(scenario: Scenario, run: Runner, onCandidate?: (c: Candidate) => void): Promise<PlanResult> {
  const plan = scenario.plan;
  if (!plan) throw new Error(`scenario ${scenario.name} has no plan: section (what to vary and the targets)`);
  const seeds = Array.from({ length: plan.seeds }, (_, i) => scenario.seed + i);
  const tried = new Map<string, Candidate>();
  const keyOf = (counts: Counts) => plan.vary.map((v) => counts[v.pool]).join(',');
  const evaluate = async (counts: Counts): Promise<Candidate> => {
    const known = tried.get(keyOf(counts));
    if (known) return known;
    const candidate = scenarioWith(scenario, counts);
    const runs = await Promise.all(members(candidate).flatMap((m) => seeds.map(async (seed) => {
      const figures = await run(m.scenario, seed);
      return m.label ? { ...figures, member: m.label } : figures;
    })));
    const missed = [...new Set(runs.flatMap((r) => missedTargets(plan.targets, r)))].sort();
    const missedOn = [...new Set(runs.filter((r) => r.member !== undefined && missedTargets(plan.targets, r).length > 0).map((r) => r.member!))].sort();
    const total = candidate.nodePools.reduce((n, p) => n + (p.autoscaling?.max ?? p.count), 0);
    const costs = runs.map((r) => runCostPerDay(candidate, r));
    const cost = costs.includes(undefined) ? undefined : Math.max(...(costs as number[]));
    const c: Candidate = { counts, totalNodes: total, ...(cost === undefined ? {} : { costPerDay: cost }), runs, missed, missedOn, pass: missed.length === 0 };
    tried.set(keyOf(counts), c);
    onCandidate?.(c);
    return c;
  };
  // A larger cluster never does worse: a candidate under one that missed misses, one over one that passed passes.
  const passes = async (counts: Counts): Promise<boolean> => {
    const known = tried.get(keyOf(counts));
    if (known) return known.pass;
    for (const c of tried.values()) {
      if (!c.pass && plan.vary.every((v) => counts[v.pool]! <= c.counts[v.pool]!)) return false;
      if (c.pass && plan.vary.every((v) => counts[v.pool]! >= c.counts[v.pool]!)) return true;
    }
    return (await evaluate(counts)).pass;
  };
  const independent = plan.independent && plan.vary.length > 1;
  const mixes = independent ? await searchFrontier(plan, passes) : [await searchTogether(plan, passes)].filter((c) => c !== undefined);
  // Each mix of the frontier as run (a mix the assumption decided is run now, for its figures).
  const frontier = await Promise.all(mixes.map(evaluate));
  const candidates = [...tried.values()].sort((x, y) => x.totalNodes - y.totalNodes || keyOf(x.counts).localeCompare(keyOf(y.counts)));
  // By nodes the frontier holds the smallest; by cost any passing candidate run may have spent least
  // (a group's cost is what it ran; with fixed pools the cheapest passing mix is on the frontier anyway).
  const pool = plan.minimise === 'cost' ? candidates.filter((c) => c.pass) : frontier;
  const measure = (c: Candidate) => (plan.minimise === 'cost' ? c.costPerDay! : c.totalNodes);
  const answer = [...pool].sort((x, y) => measure(x) - measure(y) || x.totalNodes - y.totalNodes)[0];
  const sets = members(scenario).map((m) => m.label).filter((l) => l !== '');
  return { scenario: scenario.name, targets: plan.targets, minimise: plan.minimise, maxima: variedMaxima(scenario), seeds, members: sets, candidates, frontier, ...(answer ? { answer } : {}) };
}

/** The varied pools that are node groups, whose max the plan varies. */
export function variedMaxima(scenario: Scenario): string[] {
  return (scenario.plan?.vary ?? []).filter((v) => scenario.nodePools.some((p) => p.name === v.pool && p.autoscaling)).map((v) => v.pool);
}

/**
 * What a run's nodes cost per day: a node group's node-hours as run (its figures), a fixed pool's
 * count for the whole run, each times its costPerHour, scaled from the run's duration to 24 h.
 * Undefined unless every pool has a costPerHour.
 */
export function runCostPerDay(scenario: Scenario, f: RunFigures): number | undefined {
  const hours = scenario.durationMs / 3_600_000;
  let total = 0;
  for (const p of scenario.nodePools) {
    if (p.costPerHour === undefined) return undefined;
    total += (f.nodeHours?.[p.name] ?? p.count * hours) * p.costPerHour;
  }
  return Math.round(((total * 24) / hours) * 1e6) / 1e6;
}
