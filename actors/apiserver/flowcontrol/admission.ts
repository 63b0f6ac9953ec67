// One request's admission under priority and fairness: the Admission (inflight.ts) its level's
// queues decide. It carries the response headers that name the flow schema and priority level by
// UID, as the real filter sets them on every classified request, served or refused.
import type { Clock } from '../../api/env.ts';
import type { Admission, AdmissionState, RequestKind } from '../inflight.ts';
import type { Level } from './levels.ts';
import type { FlowCounts, Seat, SeatListener } from './queueset.ts';

/** The response headers of the real filter (flowcontrol/v1 ResponseHeaderMatched*UID). */
export const FLOW_SCHEMA_UID_HEADER = 'x-kubernetes-pf-flowschema-uid';
export const PRIORITY_LEVEL_UID_HEADER = 'x-kubernetes-pf-prioritylevel-uid';

/** A request of that kind starts (+1) or stops (-1) executing. */
export type ExecutingNote = (kind: RequestKind, delta: 1 | -1) => void;

/** What an admission tells the controller. */
export interface AdmissionHooks {
  executing: ExecutingNote;
  /** A refusal at that level: the Retry-After to answer it with, in seconds. */
  refused(level: Level): number;
  /** A seat was given back or a queue left. */
  finished(level: Level): void;
}

/** Where a classified request goes: its level, its schema's counts there, and the headers naming both. */
export interface Route {
  level: Level;
  flow: FlowCounts;
  headers: Readonly<Record<string, string>>;
}

export class FlowAdmission implements Admission, SeatListener {
  state: AdmissionState = 'admitted';
  decided: Promise<void> | undefined;
  retryAfterSeconds = 0;
  #seat: Seat | undefined;
  #executing = false;
  #resolve: (() => void) | undefined;

  constructor(readonly route: Route, readonly kind: RequestKind, readonly hooks: AdmissionHooks) {}

  get headers(): Readonly<Record<string, string>> {
    return this.route.headers;
  }

  /** Asks the level for a seat for the flow `distinguisher` tells apart; a queued request waits at most `waitLimitMs`. */
  begin(distinguisher: string, clock: Clock, waitLimitMs: number): void {
    const { flow, level } = this.route;
    const r = level.queues.start(flow, distinguisher, this);
    if (typeof r === 'string') return this.#refuse();
    this.#seat = r;
    if (r.state === 'executing') return this.#execute();
    this.state = 'queued';
    this.decided = new Promise((resolve) => (this.#resolve = resolve));
    r.timer = clock.setTimeout(() => level.queues.finish(r, 'time-out'), Math.max(0, waitLimitMs));
  }

  leftQueue(served: boolean): void {
    if (served) this.#execute();
    else this.#refuse();
    const resolve = this.#resolve;
    this.#resolve = undefined;
    resolve?.();
  }

  release(): void {
    const seat = this.#seat;
    if (!seat) return;
    this.#seat = undefined;
    // Counted out first: finishing serves the next in line, which counts itself in.
    if (this.#executing) this.hooks.executing(this.kind, -1);
    this.#executing = false;
    this.route.level.queues.finish(seat);
    this.hooks.finished(this.route.level);
  }

  #execute(): void {
    this.state = 'admitted';
    this.#executing = true;
    this.hooks.executing(this.kind, 1);
  }

  #refuse(): void {
    this.state = 'refused';
    this.retryAfterSeconds = this.hooks.refused(this.route.level);
    if (this.#seat === undefined) return;
    this.#seat = undefined;
    this.hooks.finished(this.route.level);
  }
}
