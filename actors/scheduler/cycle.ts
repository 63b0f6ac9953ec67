// One scheduling cycle for one pod, as the real scheduler runs it: PreFilter, then Filter over the
// nodes from where the last cycle stopped (round-robin) until enough feasible nodes are found
// (sampling), then Score and NormalizeScore over the feasible ones, weighted and summed, and the
// highest total wins, ties broken at random (from the seeded stream) as the real scheduler does.
// Where pods are nominated, a node must keep room for those of equal or higher priority (filters.ts).
// Pure: the snapshot in, a decision and its explanation out.
import type { Random } from '../api/env.ts';
import { filterWithNominated, preFilter, reasonsOf, runFilters, type NodeRejection } from './filters.ts';
import { MAX_NODE_SCORE, type CycleState, type FilterPlugin, type NodeInfo, type PodInfo, type ScorePlugin, type Snapshot } from './framework.ts';
import type { Nominator } from './nominator.ts';

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
  /** The pods nominated to nodes: on a node, the pod leaves room for those of equal or higher priority. */
  nominator?: Nominator;
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

function reject(r: CycleResult, node: string, rejection: NodeRejection): void {
  r.rejections.set(node, rejection);
  const byReason = (r.filtered[rejection.plugin] ??= {});
  for (const x of rejection.reasons) byReason[x] = (byReason[x] ?? 0) + 1;
}

/**
 * The feasible nodes of the cycle under way, reused: cycles run one at a time and no plugin keeps
 * the list past its cycle, so growing a new one for every pod would only feed the collector.
 */
const feasibleScratch: NodeInfo[] = [];

export function runCycle(input: CycleInput): CycleResult {
  const { pod, snapshot } = input;
  const nodes = snapshot.nodes;
  const r: CycleResult = { evaluated: 0, feasible: 0, filtered: {}, rejections: new Map(), top: [], nextStart: input.start };
  const state: CycleState = new Map();
  const pre = preFilter(state, pod, snapshot, input.filters);
  if ('reject' in pre) {
    r.preFilterReject = pre.reject;
    for (const n of nodes) reject(r, n.name, pre.reject);
    return r;
  }
  const filtering = { pod, snapshot, filters: pre.filters };
  // With no pod nominated anywhere, the plain filters (the common case, and the fast one).
  const nominator = input.nominator?.size ? input.nominator : undefined;
  const prepared = nominator && { state, filters: pre.filters };
  if (input.nominated) {
    const n = snapshot.get(input.nominated);
    if (n && !(nominator ? filterWithNominated(prepared!, pod, snapshot, n, nominator.roomFor(n.name, pod), input.filters) : runFilters(state, filtering, n)))
      return decide(r, state, input, [n]);
  }
  // Written over from the start: emptying the array would give its storage back, to grow again.
  const feasible = feasibleScratch;
  let found = 0;
  const count = nodes.length;
  let i = 0;
  let at = input.start % (count || 1);
  for (; i < count && found < input.numToFind; i++) {
    const node = nodes[at]!;
    if (++at === count) at = 0;
    const failure = nominator
      ? filterWithNominated(prepared!, pod, snapshot, node, nominator.roomFor(node.name, pod), input.filters)
      : runFilters(state, filtering, node);
    if (failure) reject(r, node.name, { plugin: failure.plugin, reasons: reasonsOf(failure.reason) });
    else feasible[found++] = node;
  }
  feasible.length = found;
  r.evaluated = i;
  r.nextStart = count ? (input.start + i) % count : 0;
  return decide(r, state, input, feasible);
}

/**
 * The totals and the normalised scores of the cycle under way, reused: cycles run one at a time,
 * and the explanation copies out what it keeps.
 */
let scratch = new Float64Array(1024);
const scoreScratch: number[][] = [];

function decide(r: CycleResult, state: CycleState, input: CycleInput, feasible: NodeInfo[]): CycleResult {
  r.feasible = feasible.length;
  if (feasible.length === 0) return r;
  if (feasible.length === 1) {
    r.node = feasible[0];
    return r;
  }
  const n = feasible.length;
  if (scratch.length < n) scratch = new Float64Array(2 * n);
  const totals = scratch;
  totals.fill(0, 0, n);
  const { pod, snapshot } = input;
  // Per plugin that scored: its normalised, weighted score of each node (the explanation reads them).
  const scored: { plugin: ScorePlugin; scores: number[] }[] = [];
  for (const p of input.scores) {
    if (p.preScore?.(state, pod, feasible, snapshot) === 'skip') continue;
    const scores = (scoreScratch[scored.length] ??= []);
    p.score(state, pod, feasible, snapshot, scores);
    scores.length = n;
    p.normalize?.(state, pod, scores);
    const weight = p.weight;
    for (let k = 0; k < n; k++) totals[k] += scores[k] = clamp(scores[k]!) * weight;
    scored.push({ plugin: p, scores });
  }
  // The highest total; among equals, one chosen with equal chance, as the real scheduler does
  // (one draw over the tied nodes).
  let max = totals[0]!;
  let ties = 1;
  for (let k = 1; k < n; k++) {
    if (totals[k]! > max) {
      max = totals[k]!;
      ties = 1;
    } else if (totals[k] === max) ties++;
  }
  let best = 0;
  for (let nth = ties > 1 ? Math.floor(input.random.next() * ties) : 0; ; best++) if (totals[best] === max && nth-- === 0) break;
  r.node = feasible[best];
  // The explanation: the chosen node, then the two best others.
  let second = -1, third = -1;
  for (let k = 0; k < n; k++) {
    if (k === best) continue;
    if (second < 0 || totals[k]! > totals[second]!) {
      third = second;
      second = k;
    } else if (third < 0 || totals[k]! > totals[third]!) third = k;
  }
  for (const k of [best, second, third]) {
    if (k < 0) continue;
    // Built key by key (Object.fromEntries makes a slow dictionary of every one).
    const byPlugin: Record<string, number> = {};
    for (const { plugin, scores } of scored) byPlugin[plugin.name] = scores[k]!;
    r.top.push({ node: feasible[k]!.name, total: totals[k]!, byPlugin });
  }
  return r;
}

const clamp = (score: number) => (score < 0 ? 0 : score > MAX_NODE_SCORE ? MAX_NODE_SCORE : score);

/** The real scheduler's FitError text: `0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint {a: b}.` */
export function fitErrorMessage(r: CycleResult, allNodes: number): string {
  const counts = new Map<string, number>();
  for (const byReason of Object.values(r.filtered)) for (const [reason, n] of Object.entries(byReason)) counts.set(reason, (counts.get(reason) ?? 0) + n);
  const parts = [...counts].map(([reason, n]) => `${n} ${reason}`).sort();
  return `0/${allNodes} nodes are available${parts.length ? `: ${parts.join(', ')}.` : '.'}`;
}
