// The CronJob controller (`cronjob-controller`, kubernetes pkg/controller/cronjob
// cronjob_controllerv2.go), run with --concurrent-cron-job-syncs workers. A sync of a CronJob:
//
// - reconciles status.active with the Jobs it controls: a finished one leaves it, one it does
//   not know is reported, a Job gone from the server too leaves it; the latest completion of a
//   succeeded Job is lastSuccessfulTime;
// - unless it is being deleted, suspended, or its time zone is unknown: finds the most recent
//   start time not yet met (schedule on the controller's clock, in spec.timeZone or UTC), skips
//   it when it is older than startingDeadlineSeconds, already run, or (Forbid) a Job still runs,
//   deletes the running Jobs first (Replace), and creates the Job `<name>-<minutes>` with the
//   batch.kubernetes.io/cronjob-scheduled-timestamp annotation;
// - deletes the oldest finished Jobs beyond successfulJobsHistoryLimit and failedJobsHistoryLimit;
// - writes the status once, and looks again when the next start time is due.
import { CRONJOB_SCHEDULED_TIMESTAMP, cronJobSpec, cronJobStatus, jobFinished, trueCondition, type CronJobStatus } from '../../api/batch.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../../api/status.ts';
import { TimeZone } from '../../api/time-zone.ts';
import { controllerOf, type KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { dueSchedule, jobNameAt, rfc1123z, scheduleOf, untilNextMs } from './cronjob-schedule.ts';
import { timestampMs } from './job-pods.ts';
import { CRONJOBS, type CronJob, JOBS, type Job } from '../../api/model/batch.ts';

type Active = NonNullable<CronJobStatus['active']>[number];
const refOf = (job: KObject): Active => ({ kind: 'Job', namespace: job.metadata.namespace!, name: job.metadata.name!, uid: job.metadata.uid!,
  apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion! });
const startMs = (job: Job) => timestampMs(job.status?.startTime);

/** Oldest first: by start time, Jobs that never started last, then by name (byJobStartTime). */
function byStartTime(a: KObject, b: KObject): number {
  const x = startMs(a), y = startMs(b);
  if (x === undefined && y !== undefined) return 1;
  if (x !== undefined && y === undefined) return -1;
  if (x === y) return a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0;
  return x! - y!;
}

/** What a sync decided: the status to write (if it changed), and when to look again. */
interface Outcome {
  changed: boolean;
  requeueMs?: number;
}

export class CronJobController extends QueuedController {
  readonly #cronJobs: Informer<CronJob>;
  readonly #jobs: Informer<Job>;

  constructor(init: QueuedControllerInit) {
    super('cronjob-controller', init);
    this.#cronJobs = init.informers.get(CRONJOBS);
    this.#jobs = init.informers.get(JOBS);
    this.#cronJobs.on({ add: (cj) => this.queue.add(cacheKey(cj)), update: (old, cj) => this.#cronJobUpdated(old, cj) });
    const owner = (job: KObject) => this.#owner(job);
    this.#jobs.on({
      add: (job) => owner(job),
      update: (old, job) => {
        if (controllerOf(old)?.uid !== controllerOf(job)?.uid) owner(old);
        owner(job);
      },
      delete: (job) => owner(job),
    });
  }

  /** A Job's CronJob, if it has one, syncs. */
  #owner(job: KObject): void {
    const ref = controllerOf(job);
    if (ref?.kind !== 'CronJob') return;
    const cj = this.#cronJobs.cache.get(job.metadata.namespace, ref.name);
    if (cj && cj.metadata.uid === ref.uid) this.queue.add(cacheKey(cj));
  }

  /** A new schedule or time zone moves the next look; any other change syncs now. */
  #cronJobUpdated(old: KObject, cj: KObject): void {
    const key = cacheKey(cj);
    const [a, b] = [cronJobSpec(old), cronJobSpec(cj)];
    if (a.schedule === b.schedule && a.timeZone === b.timeZone) return this.queue.add(key);
    const schedule = scheduleOf(cj);
    if (typeof schedule === 'string') return this.event(cj, 'Warning', 'UnParseableCronJobSchedule', `unparseable schedule for cronjob: ${b.schedule}`);
    this.queue.addAfter(key, untilNextMs(cj, this.clock.now(), schedule));
  }

  protected async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const cached = this.#cronJobs.cache.get(namespace, name);
    if (!cached) return;
    const jobs = this.#jobs.cache.inNamespace(namespace).filter((j) => controllerOf(j)?.uid === cached.metadata.uid);
    const old = cronJobStatus(cached);
    const status: CronJobStatus = { ...old, active: [...(old.active ?? [])] };
    /** The CronJob the status is written to: the cached one, or a fresher read. */
    const cj = { ...cached, status };
    let outcome: Outcome = { changed: false };
    let failure: unknown;
    try {
      outcome = await this.#schedule(cj, status, jobs);
    } catch (e) {
      failure = e;
    }
    if ((await this.#cleanUp(cj, status, jobs)) || outcome.changed) {
      try {
        await this.client.update(CRONJOBS, { ...cj, status: written(status) }, 'status');
      } catch (e) {
        // Changed meanwhile: its update event syncs it again, and the Job names keep a start from running twice.
        if (!isConflict(e)) throw e;
      }
    }
    if (outcome.requeueMs !== undefined) return this.queue.addAfter(key, outcome.requeueMs);
    if (failure !== undefined) throw failure;
  }

  /** syncCronJob: status.active reconciled with the Jobs, then the Job due now, if any. */
  async #schedule(cj: KObject, status: CronJobStatus, jobs: Job[]): Promise<Outcome> {
    const now = this.clock.now();
    let changed = await this.#reconcileActive(cj, status, jobs);
    const spec = cronJobSpec(cj);
    if (cj.metadata.deletionTimestamp) return { changed };
    if (spec.timeZone !== undefined && spec.timeZone !== null) {
      const zone = TimeZone.load(spec.timeZone);
      if (typeof zone === 'string') return this.event(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: ${JSON.stringify(spec.timeZone)}: ${zone}`), { changed };
    }
    if (spec.suspend === true) return { changed };
    if ((spec.schedule ?? '').includes('TZ'))
      this.event(cj, 'Warning', 'UnsupportedSchedule', `CRON_TZ or TZ used in schedule ${JSON.stringify(spec.schedule)} is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`);
    const schedule = scheduleOf(cj);
    if (typeof schedule === 'string') return this.event(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${JSON.stringify(spec.schedule)} : ${schedule}`), { changed };
    const due = dueSchedule(cj, now, schedule);
    if (due.error) return this.event(cj, 'Warning', 'InvalidSchedule', `invalid schedule: ${spec.schedule} : ${due.error}`), { changed };
    if (due.manyMissed !== undefined)
      this.event(cj, 'Warning', 'TooManyMissedTimes', `too many missed start times: ${due.manyMissed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`);
    const next = () => ({ changed, requeueMs: untilNextMs(cj, now, schedule) });
    if (due.dueMs === undefined) return next();
    const scheduled = due.dueMs;
    if (typeof spec.startingDeadlineSeconds === 'number' && scheduled + spec.startingDeadlineSeconds * 1000 < now) {
      this.event(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      return next();
    }
    const name = jobNameAt(cj, scheduled);
    if (status.active!.some((a) => a.name === name && a.namespace === cj.metadata.namespace) || timestampMs(status.lastScheduleTime) === scheduled) return next();
    if (spec.concurrencyPolicy === 'Forbid' && status.active!.length > 0) {
      this.event(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return next();
    }
    if (spec.concurrencyPolicy === 'Replace') changed = (await this.#replaceActive(cj, status)) || changed;
    const job = await this.#create(cj, status, name, scheduled);
    if (!job) return { changed };
    status.active!.push(refOf(job));
    status.lastScheduleTime = new Date(scheduled).toISOString().replace(/\.\d{3}Z$/, 'Z');
    changed = true;
    return next();
  }

  /** Finished Jobs leave status.active, missing ones too; unknown running ones are reported; lastSuccessfulTime follows completions. */
  async #reconcileActive(cj: KObject, status: CronJobStatus, jobs: Job[]): Promise<boolean> {
    let changed = false;
    const active = status.active!;
    const isActive = (uid: string | undefined) => active.some((a) => a.uid === uid);
    for (const job of jobs) {
      const finished = jobFinished(job);
      if (!isActive(job.metadata.uid) && !finished) {
        // The cache may not have this controller's last status write yet: the server's copy may list the Job.
        const fresh = await this.client.get(CRONJOBS, cj.metadata.namespace, cj.metadata.name!);
        if (cronJobStatus(fresh).active?.some((a) => a.uid === job.metadata.uid)) {
          const { active: listed = [], ...rest } = cronJobStatus(fresh);
          Object.assign(status, rest);
          active.splice(0, active.length, ...listed);
          cj.metadata = fresh.metadata;
          continue;
        }
        this.event(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata.name}`);
      } else if (isActive(job.metadata.uid) && finished) {
        dropActive(status, job.metadata.uid);
        this.event(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name}, condition: ${finished.type}`);
        changed = true;
      } else if (trueCondition(job, 'Complete')) {
        const done = timestampMs(job.status?.completionTime);
        const last = timestampMs(status.lastSuccessfulTime);
        if (done !== undefined && (last === undefined || done > last)) {
          status.lastSuccessfulTime = job.status!.completionTime!;
          changed = true;
        }
      }
    }
    for (const ref of [...active]) {
      if (jobs.some((j) => j.metadata.uid === ref.uid)) continue;
      // Not in the cache: the server says whether it is really gone.
      try {
        await this.client.get(JOBS, ref.namespace, ref.name!);
      } catch (e) {
        if (!isNotFound(e)) throw e;
        this.event(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
        dropActive(status, ref.uid);
        changed = true;
      }
    }
    return changed;
  }

  /** Replace: every running Job of the CronJob is deleted before the next one starts. */
  async #replaceActive(cj: KObject, status: CronJobStatus): Promise<boolean> {
    let changed = false;
    for (const ref of [...status.active!]) {
      let job: KObject;
      try {
        job = await this.client.get(JOBS, ref.namespace, ref.name!);
      } catch (e) {
        this.event(cj, 'Warning', 'FailedGet', `Get job: ${(e as Error).message}`);
        throw e;
      }
      if (!(await this.#deleteJob(cj, status, job))) throw new Error(`could not replace job ${job.metadata.namespace}/${job.metadata.name}`);
      changed = true;
    }
    return changed;
  }

  /** The Job for `scheduledMs`, from the template; an existing one of the same name is taken if this CronJob controls it. */
  async #create(cj: KObject, status: CronJobStatus, name: string, scheduledMs: number): Promise<KObject | undefined> {
    const template = cronJobSpec(cj).jobTemplate ?? {};
    const zone = TimeZone.load(cronJobSpec(cj).timeZone ?? '') as TimeZone;
    const job = { metadata: { name, namespace: cj.metadata.namespace, labels: { ...template.metadata?.labels },
      annotations: { ...template.metadata?.annotations, [CRONJOB_SCHEDULED_TIMESTAMP]: zone.rfc3339(scheduledMs) },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj.metadata.name!, uid: cj.metadata.uid!, controller: true, blockOwnerDeletion: true }] },
      spec: template.spec ?? {} } as KObject;
    try {
      const created = await this.client.create(JOBS, job);
      this.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${created.metadata.name}`);
      return created;
    } catch (e) {
      if (!(isAlreadyExists(e) || isConflict(e))) {
        this.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${(e as Error).message}`);
        throw e;
      }
      // Made by an earlier sync whose status write was lost, or by someone else: taken only if ours and not yet active.
      const existing = await this.client.get(JOBS, cj.metadata.namespace, name);
      if (controllerOf(existing)?.uid !== cj.metadata.uid || status.active!.some((a) => a.uid === existing.metadata.uid)) return undefined;
      return existing;
    }
  }

  /** Deletes a Job (its pods in the background) and drops it from status.active (deleteJob). */
  async #deleteJob(cj: KObject, status: CronJobStatus, job: KObject): Promise<boolean> {
    try {
      await this.client.delete(JOBS, job.metadata.namespace, job.metadata.name!, { propagationPolicy: 'Background' });
    } catch (e) {
      this.event(cj, 'Warning', 'FailedDelete', `Deleted job: ${(e as Error).message}`);
      return false;
    }
    dropActive(status, job.metadata.uid);
    this.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`);
    return true;
  }

  /** Keeps the newest successfulJobsHistoryLimit Complete and failedJobsHistoryLimit Failed Jobs (cleanupFinishedJobs). */
  async #cleanUp(cj: KObject, status: CronJobStatus, jobs: Job[]): Promise<boolean> {
    const spec = cronJobSpec(cj);
    let changed = false;
    for (const [type, limit] of [['Complete', spec.successfulJobsHistoryLimit], ['Failed', spec.failedJobsHistoryLimit]] as const) {
      if (limit === undefined || limit === null) continue;
      const finished = jobs.filter((j) => jobFinished(j)?.type === type).sort(byStartTime);
      for (const job of finished.slice(0, Math.max(0, finished.length - limit))) if (await this.#deleteJob(cj, status, job)) changed = true;
    }
    return changed;
  }
}

/** Takes the Job of `uid` out of status.active (the list itself, which the sync holds). */
function dropActive(status: CronJobStatus, uid: string | undefined): void {
  const i = status.active!.findIndex((a) => a.uid === uid);
  if (i >= 0) status.active!.splice(i, 1);
}

/** The status as Go writes it: an empty active list left out. */
function written(status: CronJobStatus): CronJobStatus {
  const { active, ...rest } = status;
  return active && active.length > 0 ? { active, ...rest } : rest;
}
