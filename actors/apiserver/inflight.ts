// How many requests the server serves at once (seed 001, Limits), and what a request gets when it
// asks: an Admission, which is admitted (it may run), queued (its `decided` promise settles when it
// is admitted or refused) or refused (429 with its Retry-After).
//
// With --enable-priority-and-fairness (the default) API Priority and Fairness decides
// (flowcontrol/): the sum of --max-requests-inflight and --max-mutating-requests-inflight (which
// the options' cross rule keeps positive) is the server's concurrency limit, divided among the
// priority levels; a request is classified by the FlowSchemas and its level serves it, queues it
// (fair queuing over shuffle-sharded queues) or refuses it. Members of system:masters and health
// probes (the `exempt` and `probes` schemas) are never queued nor refused.
//
// Without it, the real max-in-flight filter: at most --max-requests-inflight read-only and
// --max-mutating-requests-inflight mutating requests, each pool unlimited when its limit is 0
// (both 0: no limit at all); a request beyond is refused at once with Retry-After 1; members of
// system:masters are served beyond the limit (the filter's super-user escape).
//
// Either way, over HTTPS a request takes its place from its arrival until its answer is written
// (ApiServer.arrive), so requests waiting for the event loop count too; over the bus, from its
// handler to its answer. Long-running requests (watches) are not counted at all: the real priority
// and fairness filter gives a watch a seat while it initializes, which is not modelled here.
import { StatusError } from '../api/status.ts';

export type RequestKind = 'readOnly' | 'mutating';

export interface InflightOptions {
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  enablePriorityAndFairness: boolean;
}

export type AdmissionState = 'admitted' | 'queued' | 'refused';

export interface Admission {
  /** Changes from queued to admitted or refused, once. */
  readonly state: AdmissionState;
  /** For a queued request: settles once it is admitted or refused. */
  readonly decided: Promise<void> | undefined;
  /** Of a refused request. */
  readonly retryAfterSeconds: number;
  /** Response headers naming the flow schema and priority level that classified the request. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Gives the seat back, or leaves the queue. Idempotent. */
  release(): void;
}

/** The max-in-flight filter's Retry-After, in seconds. */
export const INFLIGHT_RETRY_AFTER_SECONDS = 1;
const MASTERS = 'system:masters';

/** 429 TooManyRequests with the real filters' message and the given Retry-After. */
export const tooManyInflight = (retryAfterSeconds = INFLIGHT_RETRY_AFTER_SECONDS) =>
  new StatusError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds });

/** Admitted without a place to give back: long-running requests. */
export const UNCOUNTED: Admission = { state: 'admitted', decided: undefined, retryAfterSeconds: 0, headers: undefined, release: () => {} };
const REFUSED: Admission = { state: 'refused', decided: undefined, retryAfterSeconds: INFLIGHT_RETRY_AFTER_SECONDS, headers: undefined, release: () => {} };

/**
 * The requests executing, by kind, and the most at once since the last scrape (the gauges of
 * apiserver_current_inflight_requests), and the max-in-flight filter's two pools.
 */
export class InflightLimiter {
  /** Requests being served now, by kind (exempt ones included: the gauge shows the load). */
  readonly current: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  /** The most served at once since the last `resetWatermark`. */
  readonly watermark: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  readonly #limit: Record<RequestKind, number>;

  constructor(readonly options: InflightOptions) {
    const { maxRequestsInflight: readOnly, maxMutatingRequestsInflight: mutating } = options;
    if (!(Number.isInteger(readOnly) && readOnly >= 0 && Number.isInteger(mutating) && mutating >= 0))
      throw new RangeError(`in-flight limits must be integers of at least 0, got ${readOnly} and ${mutating}`);
    if (options.enablePriorityAndFairness && readOnly + mutating <= 0)
      throw new RangeError('with priority and fairness the in-flight limits must sum to a positive total');
    this.#limit = { readOnly, mutating };
  }

  /** The server's concurrency limit that priority and fairness divides among its levels. */
  get serverConcurrencyLimit(): number {
    return this.#limit.readOnly + this.#limit.mutating;
  }

  /** The max-in-flight filter: admitted, or refused when the kind's pool is full and the user is no super-user. */
  admit(kind: RequestKind, groups: readonly string[]): Admission {
    const limit = this.#limit[kind];
    if (limit > 0 && this.current[kind] >= limit && !groups.includes(MASTERS)) return REFUSED;
    this.started(kind);
    let held = true;
    return { state: 'admitted', decided: undefined, retryAfterSeconds: 0, headers: undefined, release: () => {
      if (held) this.release(kind);
      held = false;
    } };
  }

  /** A request of that kind began executing. */
  started(kind: RequestKind): void {
    const n = ++this.current[kind];
    if (n > this.watermark[kind]) this.watermark[kind] = n;
  }

  release(kind: RequestKind): void {
    this.current[kind]--;
  }

  /** Starts a new watermark period from what is in flight now. */
  resetWatermark(): void {
    this.watermark.readOnly = this.current.readOnly;
    this.watermark.mutating = this.current.mutating;
  }
}
