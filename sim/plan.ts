// Capacity planning: the smallest cluster that meets a scenario's targets on every seed, through
// its faults. The pools the plan varies grow together, step by step, from their min to their max
// counts; a candidate passes when every seed's run meets every target and every checker holds. A
// scenario with a fault set (`zone: any`) runs each member on each seed: the plan holds for the worst.
// Binary search over the steps, assuming that a larger cluster never does worse; every candidate
// tried is kept, so the report shows the figures against cluster size and the margin at the answer.
import type { Report } from './report/types.ts';
import type { CheckResult } from './checkers.ts';
import type { PlanTargets } from './scenario/plan.ts';
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
}

export interface Candidate {
  /** Nodes per varied pool. */
  counts: Record<string, number>;
  totalNodes: number;
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
  /** Every candidate run, smallest first. */
  candidates: Candidate[];
  /** The smallest passing candidate; undefined when even the largest fails. */
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

/** The scenario with the varied pools at `counts`. */
export function scenarioWith(scenario: Scenario, counts: Record<string, number>): Scenario {
  return { ...scenario, nodePools: scenario.nodePools.map((p) => (p.name in counts ? { ...p, count: counts[p.name]! } : p)) };
}

export async function planCapacity(scenario: Scenario, run: Runner, onCandidate?: (c: Candidate) => void): Promise<PlanResult> {
  const plan = scenario.plan;
  if (!plan) throw new Error(`scenario ${scenario.name} has no plan: section (what to vary and the targets)`);
  const steps = Math.max(...plan.vary.map((v) => v.max - v.min));
  const countsAt = (step: number) =>
    Object.fromEntries(plan.vary.map((v) => [v.pool, steps === 0 ? v.min : v.min + Math.round(((v.max - v.min) * step) / steps)]));
  const seeds = Array.from({ length: plan.seeds }, (_, i) => scenario.seed + i);
  const tried = new Map<number, Candidate>();
  const tryStep = async (step: number): Promise<Candidate> => {
    const known = tried.get(step);
    if (known) return known;
    const counts = countsAt(step);
    const candidate = scenarioWith(scenario, counts);
    const runs = await Promise.all(members(candidate).flatMap((m) => seeds.map(async (seed) => {
      const figures = await run(m.scenario, seed);
      return m.label ? { ...figures, member: m.label } : figures;
    })));
    const missed = [...new Set(runs.flatMap((r) => missedTargets(plan.targets, r)))].sort();
    const missedOn = [...new Set(runs.filter((r) => r.member !== undefined && missedTargets(plan.targets, r).length > 0).map((r) => r.member!))].sort();
    const total = candidate.nodePools.reduce((n, p) => n + p.count, 0);
    const c: Candidate = { counts, totalNodes: total, runs, missed, missedOn, pass: missed.length === 0 };
    tried.set(step, c);
    onCandidate?.(c);
    return c;
  };
  let answer: Candidate | undefined;
  if ((await tryStep(steps)).pass) {
    let lo = 0;
    let hi = steps;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if ((await tryStep(mid)).pass) hi = mid;
      else lo = mid + 1;
    }
    answer = await tryStep(hi);
    // The margin: the candidate just below the answer, and what it missed.
    if (hi > 0) await tryStep(hi - 1);
  }
  const candidates = [...tried.values()].sort((a, b) => a.totalNodes - b.totalNodes);
  const sets = members(scenario).map((m) => m.label).filter((l) => l !== '');
  return { scenario: scenario.name, targets: plan.targets, seeds, members: sets, candidates, ...(answer ? { answer } : {}) };
}
