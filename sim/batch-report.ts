// What the Jobs of a scenario's Job and CronJob workloads did, read from the store's committed
// changes (the stream watchers get) like the timelines: Jobs created and finished (Complete or
// Failed), their pods created and failed, and the retries among them. A retry is a pod a Job's
// controller makes while one of its failed pods is not yet replaced: what its backoff and
// backoffLimit govern. It watches only when the scenario has such workloads, so runs without
// them pay nothing; a Job or pod is the workload's by its `orchsim.io/workload` label.
import { controllerOf } from '../actors/api/types.ts';
import { jobFinished } from '../actors/api/batch.ts';
import type { ChangeRecord, Store } from '../actors/apiserver/storage/store.ts';
import type { Job } from '../actors/api/model/batch.ts';
import type { Pod } from '../actors/api/model/core.ts';
import { WORKLOAD_LABEL } from './scenario/pods.ts';
import type { Workload } from './scenario/types.ts';

/** One Job or CronJob workload's part of the report. */
export interface BatchWorkload {
  workload: string;
  controller: 'Job' | 'CronJob';
  /** Jobs created (by the workload, or by its CronJob's controller), and those that finished Complete or Failed. */
  jobs: { created: number; succeeded: number; failed: number };
  /** Pods the Jobs' controller created, those that ended Failed, and the created ones that replaced a failed one. */
  pods: { created: number; failed: number; retries: number };
}

const JOBS = '/batch/jobs/';
const PODS = '/core/pods/';

export class BatchCounts {
  readonly #byName = new Map<string, BatchWorkload>();
  /** Each unfinished Job's failed pods not yet replaced, by the Job's uid. */
  readonly #unreplaced = new Map<string, number>();
  readonly #stop: () => void;

  /** Counts the Job and CronJob workloads among `workloads` from `store`'s changes; undefined when there are none. */
  static watch(workloads: readonly Workload[], store: Store): BatchCounts | undefined {
    const batch = workloads.filter((w) => w.controller === 'Job' || w.controller === 'CronJob');
    return batch.length ? new BatchCounts(batch, store) : undefined;
  }

  private constructor(workloads: readonly Workload[], store: Store) {
    for (const w of workloads) this.#byName.set(w.name, {
      workload: w.name, controller: w.controller as BatchWorkload['controller'],
      jobs: { created: 0, succeeded: 0, failed: 0 }, pods: { created: 0, failed: 0, retries: 0 },
    });
    this.#stop = store.onChange((c) => this.#observe(c));
  }

  stop(): void {
    this.#stop();
  }

  /** The workloads in the scenario's order. */
  report(): BatchWorkload[] {
    return [...this.#byName.values()].map((w) => structuredClone(w));
  }

  #observe(c: ChangeRecord): void {
    const counts = this.#byName.get(c.object.metadata.labels?.[WORKLOAD_LABEL] ?? '');
    if (!counts) return;
    if (c.key.includes(JOBS)) this.#job(counts, c);
    else if (c.key.includes(PODS)) this.#pod(counts, c);
  }

  #job(counts: BatchWorkload, c: ChangeRecord): void {
    const uid = c.object.metadata.uid!;
    if (c.type === 'ADDED') counts.jobs.created++;
    if (c.type === 'DELETED') {
      this.#unreplaced.delete(uid);
      return;
    }
    const finished = jobFinished(c.object as Job);
    if (!finished || (c.prev && jobFinished(c.prev as Job))) return;
    if (finished.type === 'Complete') counts.jobs.succeeded++;
    else counts.jobs.failed++;
    this.#unreplaced.delete(uid);
  }

  #pod(counts: BatchWorkload, c: ChangeRecord): void {
    const job = controllerOf(c.object)?.uid;
    if (job === undefined) return;
    if (c.type === 'ADDED') {
      counts.pods.created++;
      const unreplaced = this.#unreplaced.get(job);
      if (unreplaced) {
        counts.pods.retries++;
        this.#unreplaced.set(job, unreplaced - 1);
      }
      return;
    }
    if (c.type === 'DELETED' || (c.object as Pod).status?.phase !== 'Failed' || (c.prev as Pod | undefined)?.status?.phase === 'Failed') return;
    counts.pods.failed++;
    this.#unreplaced.set(job, (this.#unreplaced.get(job) ?? 0) + 1);
  }
}
