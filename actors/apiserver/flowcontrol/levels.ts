// The priority levels' seats (apiserver pkg/util/flowcontrol/apf_controller.go): the server's
// concurrency limit (--max-requests-inflight plus --max-mutating-requests-inflight) is divided
// among the levels in proportion to their nominalConcurrencyShares, rounded up,
//
//   NominalCL(l) = ceil(ServerCL × NCS(l) / ΣNCS)
//
// each level may lend round(NominalCL × lendablePercent / 100) of them and borrow up to
// round(NominalCL × borrowingLimitPercent / 100) (without a limit, up to ServerCL); what a level
// may use right now, its CurrentCL, is set at every configuration change and every 10 s after
// from the levels' seat demand (borrowing.ts), as the real controller does.
import type { Clock } from '../../api/env.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { allocate, SeatDemand, type AllocationItem } from './borrowing.ts';
import { QueueSet, type QueuingConfig, type QueueSetObserver } from './queueset.ts';
import { dealProblem } from './shuffle-sharding.ts';

type Fields = Record<string, unknown>;
const fields = (v: unknown, key: string): Fields | undefined => {
  const f = isPlainObject(v) ? v[key] : undefined;
  return isPlainObject(f) ? f : undefined;
};
const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** What a PriorityLevelConfiguration says, or why it cannot be used. */
export interface LevelSpec {
  name: string;
  uid: string;
  queuing: QueuingConfig;
  shares: number;
  lendablePercent: number;
  /** undefined: no limit. */
  borrowingLimitPercent: number | undefined;
}

export function levelSpec(pl: KObject): LevelSpec | string {
  const spec = isPlainObject(pl.spec) ? pl.spec : {};
  const name = pl.metadata.name ?? '';
  const uid = pl.metadata.uid ?? '';
  if ((spec.type === 'Exempt') !== (name === 'exempt')) return 'the exempt level, and only it, is of type Exempt';
  if (spec.type === 'Exempt') {
    const exempt = fields(spec, 'exempt') ?? {};
    return { name, uid, queuing: { exempt: true, queues: 0, handSize: 0, queueLengthLimit: 0 }, shares: int(exempt.nominalConcurrencyShares) ?? 0,
      lendablePercent: int(exempt.lendablePercent) ?? 0, borrowingLimitPercent: undefined };
  }
  const limited = fields(spec, 'limited');
  if (spec.type !== 'Limited' || !limited) return 'a Limited level needs spec.limited';
  const response = fields(limited, 'limitResponse') ?? {};
  const q = fields(response, 'queuing');
  let queuing: QueuingConfig = { exempt: false, queues: 0, handSize: 0, queueLengthLimit: 0 };
  if (response.type === 'Queue') {
    if (!q) return 'a Queue limit response needs queuing';
    queuing = { exempt: false, queues: int(q.queues) ?? 0, handSize: int(q.handSize) ?? 0, queueLengthLimit: int(q.queueLengthLimit) ?? 0 };
    const problem = dealProblem(queuing.queues, queuing.handSize);
    if (problem) return problem;
  } else if (response.type !== 'Reject') return `limit response ${JSON.stringify(response.type)} is neither Queue nor Reject`;
  return { name, uid, queuing, shares: int(limited.nominalConcurrencyShares) ?? 30, lendablePercent: int(limited.lendablePercent) ?? 0,
    borrowingLimitPercent: int(limited.borrowingLimitPercent) };
}

/** One level: its configuration, its seats now, and its queues. */
export class Level {
  nominalCL = 0;
  minCL = 0;
  maxCL = 0;
  currentCL = 0;
  /** No longer configured: kept until its queues drain. */
  quiescing = false;
  readonly queues: QueueSet;
  readonly demand: SeatDemand;

  constructor(public spec: LevelSpec, clock: Clock, observer: (level: Level) => QueueSetObserver) {
    this.demand = new SeatDemand(clock);
    this.queues = new QueueSet(clock, spec.queuing, 0, observer(this));
  }

  get name(): string {
    return this.spec.name;
  }

  get exempt(): boolean {
    return this.spec.queuing.exempt;
  }
}

/** Sets every level's nominal, lowest and highest limits from its shares; returns their sum. */
export function divideServerLimit(levels: Iterable<Level>, serverCL: number): number {
  const all = [...levels];
  const shareSum = all.reduce((s, l) => s + l.spec.shares, 0);
  let sum = 0;
  for (const l of all) {
    const nominal = shareSum > 0 ? Math.ceil((serverCL * l.spec.shares) / shareSum) : 0;
    const lendable = Math.round((nominal * l.spec.lendablePercent) / 100);
    const borrowing = l.spec.borrowingLimitPercent === undefined ? serverCL : Math.round((nominal * l.spec.borrowingLimitPercent) / 100);
    l.nominalCL = nominal;
    l.minCL = nominal - lendable;
    l.maxCL = nominal + borrowing;
    sum += nominal;
  }
  return sum;
}

/**
 * Closes a demand period and sets each level's current limit: the exempt level keeps what it
 * used; the others share the nominal sum as borrowing.ts allocates it, or, when the server is
 * short, get their lowest limits (plus a share of what their demand called for).
 */
export function adjustLimits(levels: Iterable<Level>, nominalCLSum: number): void {
  const all = [...levels];
  const limited: { level: Level; minCurrent: number }[] = [];
  const items: AllocationItem[] = [];
  let remaining = nominalCLSum;
  let minSum = 0;
  let minCurrentSum = 0;
  for (const l of all) {
    l.demand.update();
    const hw = l.demand.highWatermark;
    if (l.exempt) {
      l.currentCL = Math.max(l.minCL, hw);
      remaining -= l.currentCL;
      continue;
    }
    // Never below what it may not lend, nor below what it used (up to its nominal limit).
    const minCurrent = Math.max(l.minCL, Math.min(l.nominalCL, hw));
    limited.push({ level: l, minCurrent });
    items.push({ lowerBound: minCurrent, upperBound: l.maxCL, target: Math.max(minCurrent, l.demand.smoothed) });
    minSum += l.minCL;
    minCurrentSum += minCurrent;
  }
  let allocs: number[] | undefined;
  if (remaining > minCurrentSum) {
    try {
      allocs = allocate(nominalCLSum, items);
    } catch {
      allocs = limited.map(({ level }) => level.currentCL);
    }
  }
  const share = remaining > minSum && remaining <= minCurrentSum ? (remaining - minSum) / (minCurrentSum - minSum) : 0;
  limited.forEach(({ level, minCurrent }, i) => {
    if (allocs) level.currentCL = Math.round(allocs[i]!);
    else if (remaining <= minSum) level.currentCL = level.minCL;
    else level.currentCL = level.minCL + Math.round((minCurrent - level.minCL) * share);
  });
  for (const l of all) l.queues.configure(l.spec.queuing, l.currentCL);
}
