// How many requests the server serves at once (seed 001, Limits): at most --max-requests-inflight
// read-only and --max-mutating-requests-inflight mutating requests, each pool unlimited when its
// limit is 0 (both 0: no limit at all), as the real max-in-flight filter has it. With
// --enable-priority-and-fairness (the default) the two are one pool of their sum, which the
// options' cross rule keeps positive; orchsim does not model priority levels, flow schemas or
// queues, so a request beyond the pool is refused at once rather than queued. Over HTTPS a request
// holds its place from its arrival until its answer is written (ApiServer.arrive), so requests
// waiting for the event loop count too; over the bus, from its handler to its answer.
//
// Who is never refused: long-running requests (watches) are not counted at all; members of
// system:masters are served beyond the limit (the real filter's super-user escape); with priority
// and fairness, health probes, which its `probes` flow schema exempts.
import { StatusError } from '../api/status.ts';

export type RequestKind = 'readOnly' | 'mutating';

export interface InflightOptions {
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  enablePriorityAndFairness: boolean;
}

/** The real filter's Retry-After, in seconds. */
export const INFLIGHT_RETRY_AFTER_SECONDS = 1;
const MASTERS = 'system:masters';

/** 429 TooManyRequests with the real filter's message and Retry-After. */
export const tooManyInflight = () =>
  new StatusError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: INFLIGHT_RETRY_AFTER_SECONDS });

export class InflightLimiter {
  /** Requests being served now, by kind (exempt ones included: the gauge shows the load). */
  readonly current: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  /** The most served at once since the last `resetWatermark`. */
  readonly watermark: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  readonly #limit: Record<RequestKind, number>;
  readonly #pooled: number | undefined;

  constructor(readonly options: InflightOptions) {
    const { maxRequestsInflight: readOnly, maxMutatingRequestsInflight: mutating } = options;
    if (!(Number.isInteger(readOnly) && readOnly >= 0 && Number.isInteger(mutating) && mutating >= 0))
      throw new RangeError(`in-flight limits must be integers of at least 0, got ${readOnly} and ${mutating}`);
    if (options.enablePriorityAndFairness && readOnly + mutating <= 0)
      throw new RangeError('with priority and fairness the in-flight limits must sum to a positive total');
    this.#limit = { readOnly, mutating };
    this.#pooled = options.enablePriorityAndFairness ? readOnly + mutating : undefined;
  }

  /** The total one pool holds, or undefined with two pools. */
  get pooled(): number | undefined {
    return this.#pooled;
  }

  /**
   * Takes a place for a request, or returns false when its pool is full and the caller is not
   * exempt. An admitted request must be released exactly once.
   */
  admit(kind: RequestKind, groups: readonly string[], probe: boolean): boolean {
    if (this.#full(kind) && !groups.includes(MASTERS) && !(probe && this.#pooled !== undefined)) return false;
    const n = ++this.current[kind];
    if (n > this.watermark[kind]) this.watermark[kind] = n;
    return true;
  }

  release(kind: RequestKind): void {
    this.current[kind]--;
  }

  /** Starts a new watermark period from what is in flight now. */
  resetWatermark(): void {
    this.watermark.readOnly = this.current.readOnly;
    this.watermark.mutating = this.current.mutating;
  }

  #full(kind: RequestKind): boolean {
    if (this.#pooled !== undefined) return this.current.readOnly + this.current.mutating >= this.#pooled;
    const limit = this.#limit[kind];
    return limit > 0 && this.current[kind] >= limit;
  }
}
