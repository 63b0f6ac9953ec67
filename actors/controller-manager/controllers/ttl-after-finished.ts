// The TTL-after-finished controller (`ttl-after-finished-controller`, kubernetes
// pkg/controller/ttlafterfinished), run with --concurrent-ttl-after-finished-syncs workers: a Job
// with spec.ttlSecondsAfterFinished is deleted that long after it finished (the transition time
// of its Complete or Failed condition), in the foreground, so its pods go first. Before deleting,
// it reads the Job from the server, not the cache, and deletes only that Job (uid precondition)
// if it is still expired: a TTL raised meanwhile keeps it.
import { jobFinished, jobSpec } from '../../api/batch.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { timestampMs } from './job-pods.ts';
import { JOBS, type Job } from '../../api/model/batch.ts';

/** How long after `nowMs` the Job expires (≤ 0: expired), or undefined when it has no TTL or has not finished (timeLeft). */
export function ttlLeftMs(job: KObject, nowMs: number): number | undefined {
  const ttl = jobSpec(job).ttlSecondsAfterFinished;
  const finished = jobFinished(job);
  if (ttl === undefined || ttl === null || job.metadata.deletionTimestamp || !finished) return undefined;
  const at = timestampMs(finished.lastTransitionTime);
  if (at === undefined) return undefined;
  return at + ttl * 1000 - nowMs;
}

export class TtlAfterFinishedController extends QueuedController {
  readonly #jobs: Informer<Job>;

  constructor(init: QueuedControllerInit) {
    super('ttl-after-finished-controller', init);
    this.#jobs = init.informers.get(JOBS);
    const enqueue = (job: KObject) => {
      if (ttlLeftMs(job, this.clock.now()) !== undefined) this.queue.add(cacheKey(job));
    };
    this.#jobs.on({ add: enqueue, update: (_old, job) => enqueue(job) });
  }

  protected async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const cached = this.#jobs.cache.get(namespace, name);
    if (!cached || !this.#expired(key, cached)) return;
    // The cache may be behind: the server's copy decides (its TTL may have been changed).
    let fresh: KObject;
    try {
      fresh = await this.client.get(JOBS, namespace, name);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!this.#expired(key, fresh)) return;
    try {
      await this.client.delete(JOBS, namespace, name, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid! } });
    } catch (e) {
      if (!(isNotFound(e) || isConflict(e))) throw e;
    }
  }

  /** Expired now; if not yet, the Job is looked at again when it will be. */
  #expired(key: string, job: KObject): boolean {
    const left = ttlLeftMs(job, this.clock.now());
    if (left === undefined) return false;
    if (left > 0) this.queue.addAfter(key, left);
    return left <= 0;
  }
}
