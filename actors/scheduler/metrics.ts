// The scheduler's metrics, under the real scheduler's names and labels (its STABLE set): attempts by
// result and profile, each attempt's duration from the start of its cycle to its outcome (for a
// scheduled pod, its binding), preemption attempts and victims, the attempts and the time a pod
// took to be scheduled, and the pending pods by queue, read from the queue when scraped. Durations
// are on the scheduler's clock. A pod counts as scheduled once its binding succeeded, and a binding
// that failed counts as an error, as in the real scheduler's binding cycle.
import { CounterSeries, HistogramSeries } from '../api/metric-series.ts';
import { Counter, Gauge, Histogram, type Registry } from '../api/metrics.ts';
import { perRegistry } from '../client/per-registry.ts';

/** Buckets `start`, `start × factor`, … (`count` of them), as the real metrics' ExponentialBuckets. */
const exponential = (start: number, factor: number, count: number) => Array.from({ length: count }, (_, i) => start * factor ** i);

export type AttemptResult = 'scheduled' | 'unschedulable' | 'error';

/** The pending pods in each of the queue's parts. */
export type PendingCounts = { active: number; backoff: number; unschedulable: number };

export const schedulerMetrics = perRegistry((registry: Registry) => {
  const registers = [registry];
  const families = {
    /** The queue the pending_pods gauge reads: the current term's scheduler's, none between terms. */
    pending: undefined as (() => PendingCounts) | undefined,
    attempts: new Counter({ name: 'scheduler_schedule_attempts_total', labelNames: ['result', 'profile'] as const, registers,
      help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem." }),
    attemptDuration: new Histogram({ name: 'scheduler_scheduling_attempt_duration_seconds', labelNames: ['result', 'profile'] as const, registers,
      help: 'Scheduling attempt latency in seconds (scheduling algorithm + binding)', buckets: exponential(0.001, 2, 15) }),
    preemptionAttempts: new Counter({ name: 'scheduler_preemption_attempts_total', help: 'Total preemption attempts in the cluster till now', registers }),
    preemptionVictims: new Histogram({ name: 'scheduler_preemption_victims', help: 'Number of selected preemption victims', registers,
      buckets: exponential(1, 2, 7) }),
    podAttempts: new Histogram({ name: 'scheduler_pod_scheduling_attempts', help: 'Number of attempts to successfully schedule a pod.', registers,
      buckets: exponential(1, 2, 5) }),
    podDuration: new Histogram({ name: 'scheduler_pod_scheduling_sli_duration_seconds', labelNames: ['attempts'] as const, registers,
      help: 'E2e latency for a pod being scheduled, from the time the pod enters the scheduling queue and might involve multiple scheduling attempts.',
      buckets: exponential(0.01, 2, 20) }),
    pendingPods: new Gauge({ name: 'scheduler_pending_pods', labelNames: ['queue'] as const, registers,
      help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to schedule because they are gated.",
      collect() {
        const c = families.pending?.() ?? { active: 0, backoff: 0, unschedulable: 0 };
        this.set({ queue: 'active' }, c.active);
        this.set({ queue: 'backoff' }, c.backoff);
        this.set({ queue: 'unschedulable' }, c.unschedulable);
        // Scheduling gates are not simulated: no pod is ever gated.
        this.set({ queue: 'gated' }, 0);
      } }),
  };
  return families;
});

/** One scheduler's view of the families, its profile label bound. */
export class SchedulerMetrics {
  readonly #f: ReturnType<typeof schedulerMetrics>;
  /** The label values of each result, in the families' label order. */
  readonly #byResult: Record<AttemptResult, [AttemptResult, string]>;
  readonly #pending: () => PendingCounts;
  // Every attempt adds to these: by label values, without prom-client hashing the labels each time.
  readonly #attempts: CounterSeries<'result' | 'profile'>;
  readonly #attemptDuration: HistogramSeries<'result' | 'profile'>;
  readonly #podAttempts: HistogramSeries<never>;
  readonly #podDuration: HistogramSeries<'attempts'>;

  constructor(registry: Registry, profile: string, pending: () => PendingCounts) {
    this.#f = schedulerMetrics(registry);
    this.#byResult = { scheduled: ['scheduled', profile], unschedulable: ['unschedulable', profile], error: ['error', profile] };
    this.#pending = pending;
    this.#f.pending = pending;
    this.#attempts = new CounterSeries(this.#f.attempts, ['result', 'profile']);
    this.#attemptDuration = new HistogramSeries(this.#f.attemptDuration, ['result', 'profile']);
    this.#podAttempts = new HistogramSeries(this.#f.podAttempts, []);
    this.#podDuration = new HistogramSeries(this.#f.podDuration, ['attempts']);
    for (const values of Object.values(this.#byResult)) this.#attempts.inc(values, 0);
  }

  /** An attempt that began at `startMs` ended now with `result`. */
  attempt(result: AttemptResult, startMs: number, nowMs: number): void {
    const values = this.#byResult[result];
    this.#attempts.inc(values);
    this.#attemptDuration.observe(values, (nowMs - startMs) / 1000);
  }

  /** A pod is bound after `attempts` attempts, `sinceQueuedMs` after it was first queued. */
  podScheduled(attempts: number, sinceQueuedMs: number): void {
    this.#podAttempts.observe([], attempts);
    this.#podDuration.observe([String(attempts)], sinceQueuedMs / 1000);
  }

  /** Preemption was tried for an unschedulable pod; `victims` when it found some. */
  preemption(victims: number | undefined): void {
    this.#f.preemptionAttempts.inc();
    if (victims !== undefined) this.#f.preemptionVictims.observe(victims);
  }

  /** The scheduler stopped: the gauge no longer reads its queue. */
  close(): void {
    if (this.#f.pending === this.#pending) this.#f.pending = undefined;
  }
}
