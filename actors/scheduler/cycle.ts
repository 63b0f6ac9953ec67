// One scheduling cycle for one pod, as the real scheduler runs it: PreFilter, then Filter over the
// nodes from where the last cycle stopped (round-robin) until enough feasible nodes are found
// (sampling), then Score and NormalizeScore over the feasible ones, weighted and summed, and the
// highest total wins, ties broken at random (from the seeded stream) as the real scheduler does.
// Pure: the snapshot in, a decision and its explanation out.
import type { Random } from '../api/env.ts';
import { MAX_NODE_SCORE, REASON_SEPARATOR, type CycleState, type FilterPlugin, type NodeInfo, type PodInfo, type ScorePlugin, type Snapshot } from './framework.ts';

export interface CycleInput {
  pod: PodInfo;
  snapshot: Snapshot;
  filters: readonly FilterPlugin[];
  scores: readonly ScorePlugin[];
  /** Where filtering starts in `snapshot.nodes` (the previous cycle's `nextStart`). */
  start: number;
  /** Stop filtering once this many nodes are feasible. */
  numToFind: number;
  random: Random;
  /** `status.nominatedNodeName`: tried first, alone, as the real scheduler does after a preemption. */
  nominated?: string;
}

/** Why a node was filtered out: the plugin and each reason it gave. */
export interface NodeRejection {
  plugin: string;
  reasons: string[];
}

export interface ScoredNode {
  node: string;
  total: number;
  /** Weighted, normalised score per plugin. */
  byPlugin: Record<string, number>;
}

export interface CycleResult {
  /** The chosen node, when one is feasible. */
  node?: NodeInfo;
  /** Nodes run through the filters. */
  evaluated: number;
  feasible: number;
  /** Per plugin, per reason, how many nodes it filtered out. */
  filtered: Record<string, Record<string, number>>;
  /** Each filtered node's rejection (what preemption reads). */
  rejections: Map<string, NodeRejection>;
  /** A PreFilter verdict that ruled every node out. */
  preFilterReject?: NodeRejection;
  /** The best-scored nodes, highest first (at most 3), when scoring ran. */
  top: ScoredNode[];
  /** Where the next cycle starts filtering. */
  nextStart: number;
}

function reject(r: CycleResult, node: string, plugin: string, reason: string): void {
  const reasons = reason.split(REASON_SEPARATOR);
  r.rejections.set(node, { plugin, reasons });
  const byReason = (r.filtered[plugin] ??= {});
  for (const x of reasons) byReason[x] = (byReason[x] ?? 0) + 1;
}

/** The first filter that rejects `node`, or undefined when it fits. */
export function runFilters(state: CycleState, input: Pick<CycleInput, 'pod' | 'snapshot' | 'filters'>, node: NodeInfo): { plugin: string; reason: string } | undefined {
  for (const f of input.filters) {
    const reason = f.filter(state, input.pod, node, input.snapshot);
    if (reason !== undefined) return { plugin: f.name, reason };
  }
  return undefined;
}

export function runCycle(input: CycleInput): CycleResult {
  const { pod, snapshot, filters } = input;
  const nodes = snapshot.nodes;
  const r: CycleResult = { evaluated: 0, feasible: 0, filtered: {}, rejections: new Map(), top: [], nextStart: input.start };
  const state: CycleState = new Map();
  for (const f of filters) {
    const pre = f.preFilter?.(state, pod, snapshot);
    if (pre?.reject) {
      r.preFilterReject = { plugin: f.name, reasons: pre.reject.split(REASON_SEPARATOR) };
      for (const n of nodes) reject(r, n.name, f.name, pre.reject);
      return r;
    }
  }
  if (input.nominated) {
    const n = snapshot.get(input.nominated);
    if (n && !runFilters(state, input, n)) return decide(r, state, input, [n]);
  }
  const feasible: NodeInfo[] = [];
  const count = nodes.length;
  let i = 0;
  for (; i < count && feasible.length < input.numToFind; i++) {
    const node = nodes[(input.start + i) % count]!;
    const failure = runFilters(state, input, node);
    if (failure) reject(r, node.name, failure.plugin, failure.reason);
    else feasible.push(node);
  }
  r.evaluated = i;
  r.nextStart = count ? (input.start + i) % count : 0;
  return decide(r, state, input, feasible);
}

function decide(r: CycleResult, state: CycleState, input: CycleInput, feasible: NodeInfo[]): CycleResult {
  r.feasible = feasible.length;
  if (feasible.length === 0) return r;
  if (feasible.length === 1) {
    r.node = feasible[0];
    return r;
  }
  const n = feasible.length;
  const totals = new Float64Array(n);
  const byPlugin: [string, number[]][] = [];
  for (const p of input.scores) {
    if (p.preScore?.(state, input.pod, feasible, input.snapshot) === 'skip') continue;
    const scores = new Array<number>(n);
    for (let k = 0; k < n; k++) scores[k] = p.score(state, input.pod, feasible[k]!, input.snapshot);
    p.normalize?.(state, input.pod, scores);
    for (let k = 0; k < n; k++) {
      const s = Math.max(0, Math.min(MAX_NODE_SCORE, scores[k]!)) * p.weight;
      scores[k] = s;
      totals[k] += s;
    }
    byPlugin.push([p.name, scores]);
  }
  // The highest total; among equals, each is chosen with equal chance (reservoir sampling).
  let best = 0;
  let ties = 1;
  for (let k = 1; k < n; k++) {
    if (totals[k]! > totals[best]!) {
      best = k;
      ties = 1;
    } else if (totals[k] === totals[best] && input.random.next() * ++ties < 1) best = k;
  }
  r.node = feasible[best];
  // The explanation: the chosen node, then the two best others (a linear pass, not a sort).
  const top = [best];
  for (let round = 0; round < 2; round++) {
    let pick = -1;
    for (let k = 0; k < n; k++) if (!top.includes(k) && (pick < 0 || totals[k]! > totals[pick]!)) pick = k;
    if (pick >= 0) top.push(pick);
  }
  r.top = top.map((k) => ({
    node: feasible[k]!.name,
    total: totals[k]!,
    byPlugin: Object.fromEntries(byPlugin.map(([name, s]) => [name, s[k]!])),
  }));
  return r;
}

/** The real scheduler's FitError text: `0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint {a: b}.` */
export function fitErrorMessage(r: CycleResult, allNodes: number): string {
  const counts = new Map<string, number>();
  for (const byReason of Object.values(r.filtered)) for (const [reason, n] of Object.entries(byReason)) counts.set(reason, (counts.get(reason) ?? 0) + n);
  const parts = [...counts].map(([reason, n]) => `${n} ${reason}`).sort();
  return `0/${allNodes} nodes are available${parts.length ? `: ${parts.join(', ')}.` : '.'}`;
}
