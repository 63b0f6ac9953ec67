// A Job as the Job controller drives it (kubernetes pkg/controller/job), one machine per Job that
// has not finished. Each sync of the controller observes the Job and its pods and tells the
// machine what it saw; the machine decides what the Job is doing, and the controller does the
// I/O that state asks for (creating or deleting pods, writing the status):
//
//   Deciding     (transient) an interim condition already written   → Succeeding | Failing (a restart picks it up)
//                failed pods beyond backoffLimit, or restarts of
//                restartPolicy OnFailure pods reaching it             → Failing (BackoffLimitExceeded)
//                active past activeDeadlineSeconds (not suspended)    → Failing (DeadlineExceeded)
//                spec.suspend                                        → Suspended
//                otherwise                                           → Active
//   Suspended    its pods are deleted; OBSERVED resumed: the start time and the deadline start over
//   Active       Pods:     Creating, or BackingOff while pod failures' back-off runs (10 s doubling
//                          with each failure since the last success, at most 10 min): after it, Creating
//                Deadline: Counting while it has activeDeadlineSeconds: after it, Failing
//   Active, Suspended   MANAGED with enough pods succeeded and none active   → Succeeding (CompletionsReached)
//   Succeeding, Failing  finishing: the interim condition (SuccessCriteriaMet, FailureTarget) is
//                written, the active pods deleted; SETTLED with every finished pod counted and
//                none terminating                                    → Complete | Failed (final)
//   Deciding, Suspended, Active   OBSERVED                           → Deciding (timers start over)
//
// The machine reads no clock: events carry the host's time. Its context keeps the start time
// (status.startTime is the machine's), the back-off record of pod failures (the real controller's
// in-memory backoff store: committed when a sync's writes landed, SYNCED), and why it finishes.
// The host supplies `resync` (sync the Job now): a timer that fires moves the machine on its own.
import { assign, setup, type StateValue } from 'xstate';

/** Pod failures since the last success, and when the latest failed (getRemainingTime's inputs). */
export interface BackoffRecord {
  readonly failuresAfterLastSuccess: number;
  readonly lastFailureMs: number | undefined;
}

/** Why the Job finishes: the reason and message of its interim and terminal conditions. */
export interface Finish {
  readonly succeeded: boolean;
  readonly reason: string;
  readonly message: string;
}

export interface JobInput {
  readonly nowMs: number;
  /** status.startTime, when set. */
  readonly startMs: number | undefined;
  /** The interim condition the Job carries already (SuccessCriteriaMet or FailureTarget), if any. */
  readonly finish: Finish | undefined;
}

export interface JobContext extends JobInput {
  readonly suspended: boolean;
  readonly activeDeadlineSeconds: number | undefined;
  readonly backoffLimit: number;
  /** status.failed with this sync's newly failed pods. */
  readonly failed: number;
  /** The restarts of restartPolicy OnFailure pods reached the backoff limit (pastBackoffLimitOnFailure). */
  readonly restartsExceeded: boolean;
  /** The committed back-off record, and the one with this sync's finished pods. */
  readonly record: BackoffRecord;
  readonly candidate: BackoffRecord;
  /** When the terminal condition was reached (completionTime). */
  readonly finishedMs: number | undefined;
}

export type JobEvent =
  | {
    type: 'OBSERVED'; nowMs: number; suspended: boolean; activeDeadlineSeconds: number | undefined; backoffLimit: number;
    failed: number; restartsExceeded: boolean;
    /** When each pod that finished since the last counted sync finished. */
    newSucceededMs: readonly number[]; newFailedMs: readonly number[];
  }
  /** After the host managed the pods: how many are active, how many succeeded, how many must. */
  | { type: 'MANAGED'; active: number; succeeded: number; completions: number | undefined }
  /** The sync's writes landed. */
  | { type: 'SYNCED' }
  /** While finishing, once the interim condition is stored: what is left uncounted and terminating. */
  | { type: 'SETTLED'; nowMs: number; uncounted: number; terminating: number };

export const POD_FAILURE_BACKOFF_MS = { initial: 10_000, max: 600_000 };
/** The shortest delay a sync is put off by (syncJobBatchPeriod). */
const BATCH_PERIOD_MS = 1_000;

export const BACKOFF_LIMIT_EXCEEDED: Finish = { succeeded: false, reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
export const DEADLINE_EXCEEDED: Finish = { succeeded: false, reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
export const COMPLETIONS_REACHED: Finish = { succeeded: true, reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' };

export const NO_FAILURES: BackoffRecord = { failuresAfterLastSuccess: 0, lastFailureMs: undefined };

/**
 * The record once pods finished at these times: a success clears it; failures after the latest
 * success count on, the latest of them the last failure (newBackoffRecord).
 */
export function nextBackoff(record: BackoffRecord, succeededMs: readonly number[], failedMs: readonly number[]): BackoffRecord {
  if (failedMs.length === 0) return succeededMs.length === 0 ? record : NO_FAILURES;
  const failures = [...failedMs].sort((a, b) => a - b);
  if (succeededMs.length === 0) return { failuresAfterLastSuccess: record.failuresAfterLastSuccess + failures.length, lastFailureMs: failures.at(-1) };
  const lastSuccess = Math.max(...succeededMs);
  const after = failures.filter((t) => t > lastSuccess);
  return after.length === 0 ? NO_FAILURES : { failuresAfterLastSuccess: after.length, lastFailureMs: after.at(-1) };
}

/** How long pod creation still waits: 10 s doubling per failure, at most 10 min, from the last failure. */
export function backoffRemainingMs(record: BackoffRecord, nowMs: number): number {
  if (record.failuresAfterLastSuccess === 0 || record.lastFailureMs === undefined) return 0;
  let backoff = POD_FAILURE_BACKOFF_MS.initial;
  for (let i = 1; i < record.failuresAfterLastSuccess && backoff < POD_FAILURE_BACKOFF_MS.max; i++) backoff = Math.min(backoff * 2, POD_FAILURE_BACKOFF_MS.max);
  const elapsed = nowMs - record.lastFailureMs;
  return backoff < elapsed ? 0 : backoff - elapsed;
}

type Args = { context: JobContext; event: JobEvent };
const hasDeadline = (c: JobContext) => c.activeDeadlineSeconds !== undefined && c.startMs !== undefined;
const deadlineAtMs = (c: JobContext) => c.startMs! + c.activeDeadlineSeconds! * 1000;
const finishWith = (finish: Finish) => ({ type: 'finishWith' as const, params: { finish } });

export const jobMachine = setup({
  types: { context: {} as JobContext, input: {} as JobInput, events: {} as JobEvent },
  guards: {
    finishing: ({ context }: Args) => context.finish !== undefined,
    finishingWell: ({ context }: Args) => context.finish?.succeeded === true,
    backoffExceeded: ({ context }: Args) => context.failed > context.backoffLimit || context.restartsExceeded,
    pastDeadline: ({ context }: Args) => !context.suspended && hasDeadline(context) && context.nowMs >= deadlineAtMs(context),
    hasDeadline: ({ context }: Args) => hasDeadline(context),
    suspended: ({ context }: Args) => context.suspended,
    backingOff: ({ context }: Args) => backoffRemainingMs(context.candidate, context.nowMs) > 0,
    resuming: ({ event }: Args) => event.type === 'OBSERVED' && !event.suspended,
    complete: ({ event }: Args) => event.type === 'MANAGED' && event.active === 0 &&
      (event.completions === undefined ? event.succeeded > 0 : event.succeeded >= event.completions),
    settled: ({ event }: Args) => event.type === 'SETTLED' && event.uncounted === 0 && event.terminating === 0,
  },
  delays: {
    backoffLeftMs: ({ context }) => Math.max(BATCH_PERIOD_MS, backoffRemainingMs(context.candidate, context.nowMs)),
    deadlineLeftMs: ({ context }) => Math.max(0, deadlineAtMs(context) - context.nowMs),
  },
  actions: {
    /** The facts of a sync; a Job running for the first time starts now. */
    observe: assign(({ context, event }) => {
      if (event.type !== 'OBSERVED') return {};
      const { nowMs, suspended, activeDeadlineSeconds, backoffLimit, failed, restartsExceeded } = event;
      return { nowMs, suspended, activeDeadlineSeconds, backoffLimit, failed, restartsExceeded,
        startMs: context.startMs === undefined && !suspended ? nowMs : context.startMs,
        candidate: nextBackoff(context.record, event.newSucceededMs, event.newFailedMs) };
    }),
    /** Resumed: the Job's start time, and with it its deadline, start over. */
    restartClock: assign({ startMs: ({ event }) => (event as { nowMs: number }).nowMs }),
    finishWith: assign((_, params: { finish: Finish }) => ({ finish: params.finish })),
    commitBackoff: assign({ record: ({ context }) => context.candidate }),
    noteFinished: assign({ finishedMs: ({ event }) => (event as { nowMs: number }).nowMs }),
    /** Host: sync the Job now (a timer moved the machine). */
    resync: () => {},
  },
}).createMachine({
  id: 'job',
  initial: 'Deciding',
  context: ({ input }) => ({
    ...input, suspended: false, activeDeadlineSeconds: undefined, backoffLimit: 0, failed: 0, restartsExceeded: false,
    record: NO_FAILURES, candidate: NO_FAILURES, finishedMs: undefined,
  }),
  on: {
    OBSERVED: { target: '.Deciding', actions: 'observe' },
    SYNCED: { actions: 'commitBackoff' },
  },
  states: {
    Deciding: {
      always: [
        { guard: 'finishingWell', target: 'Succeeding' },
        { guard: 'finishing', target: 'Failing' },
        { guard: 'backoffExceeded', target: 'Failing', actions: finishWith(BACKOFF_LIMIT_EXCEEDED) },
        { guard: 'pastDeadline', target: 'Failing', actions: finishWith(DEADLINE_EXCEEDED) },
        { guard: 'suspended', target: 'Suspended' },
        { target: 'Active' },
      ],
    },
    Suspended: {
      on: {
        OBSERVED: { guard: 'resuming', target: 'Deciding', actions: ['observe', 'restartClock'] },
        MANAGED: { guard: 'complete', target: 'Succeeding', actions: finishWith(COMPLETIONS_REACHED) },
      },
    },
    Active: {
      type: 'parallel',
      on: { MANAGED: { guard: 'complete', target: 'Succeeding', actions: finishWith(COMPLETIONS_REACHED) } },
      states: {
        Pods: {
          initial: 'Choosing',
          states: {
            Choosing: { always: [{ guard: 'backingOff', target: 'BackingOff' }, { target: 'Creating' }] },
            Creating: {},
            BackingOff: { id: 'job.Active.Pods.BackingOff', after: { backoffLeftMs: { target: 'Creating', actions: 'resync' } } },
          },
        },
        Deadline: {
          initial: 'Choosing',
          states: {
            Choosing: { always: [{ guard: 'hasDeadline', target: 'Counting' }, { target: 'None' }] },
            Counting: {
              id: 'job.Active.Deadline.Counting',
              after: { deadlineLeftMs: { target: '#job.Failing', actions: [finishWith(DEADLINE_EXCEEDED), 'resync'] } },
            },
            None: {},
          },
        },
      },
    },
    // Finishing: the decision is made; observations only update the facts.
    Succeeding: { on: { OBSERVED: { actions: 'observe' }, SETTLED: { guard: 'settled', target: 'Complete', actions: 'noteFinished' } } },
    Failing: { on: { OBSERVED: { actions: 'observe' }, SETTLED: { guard: 'settled', target: 'Failed', actions: 'noteFinished' } } },
    Complete: { type: 'final' },
    Failed: { type: 'final' },
  },
});

/** Where a Job stands, for the host: Suspended, Creating or BackingOff (Active), Succeeding or Failing, Complete or Failed. */
export type JobPhase = 'Suspended' | 'Creating' | 'BackingOff' | 'Succeeding' | 'Failing' | 'Complete' | 'Failed';

export function jobPhase(value: StateValue): JobPhase {
  if (typeof value === 'string') return value as JobPhase;
  return (value.Active as { Pods?: string }).Pods === 'BackingOff' ? 'BackingOff' : 'Creating';
}
