// The pod lifecycle as the node agent drives it. What each state waits for, and how long:
//
//   Pending            BIND from the scheduler (no timer)                     → Scheduled
//   Scheduled          after plan.scheduledMs: the agent notices the binding    → ContainerCreating | Failed
//   ContainerCreating  after plan.creatingMs: images pulled, containers up      → Running | Failed
//   Running            after plan.runningMs when the plan has an end            → Succeeded | Failed
//                      (a pod whose plan has none runs until it is deleted)
//     BackOff          a run ending Failed under restartPolicy OnFailure: the
//                      container waits (CrashLoopBackOff), 10 s doubling up to
//                      5 min, then runs again for plan.runningMs              → Running
//   any live phase     EVICTED (node pressure)                                  → Failed
//   Pending, Succeeded, Failed   DELETE: no containers to stop                  → Removed
//   Scheduled, ContainerCreating, Running   DELETE                              → Terminating
//   Terminating        after containersStopMs (most processes exit soon after
//                      SIGTERM), or the grace period if that ends first         → Removed
//
// What the API sees is the host's to write: entering ContainerCreating, Running, Succeeded or
// Failed asks it to `report` that state (the status of the phase), entering BackOff to report
// the container waiting (and leaving it, running again), entering Removed to `remove` the pod (a
// delete with grace 0). Leaving Running for Terminating or, evicted, for Failed asks it to
// `stopContainers` (what the real agent reports as Killing); containers that never started, or
// that ended on their own, have nothing to stop. An evicted pod's message and a restarted one's
// count are kept in the context for its reports. How a batch run ends (its exit code, whether a
// failure restarts the container) is part of the input, given only to pods whose run ends.
//
// The timings come from a stage table (`stages.ts`) through a plan the hosting actor draws once,
// from its own random stream, when it creates the pod (with the containers' stop time). The plan
// and the grace period are the whole context until an eviction, so one
// machine definition serves every pod and a pod costs one small object beyond the actor itself.
// Delayed transitions are `after` delays named in `setup`; their event ids are derived from the
// explicit state ids below (`xstate.after.creatingMs.pod.ContainerCreating`), so xstate never
// needs `Math.random()` for them and traces are stable.
import { assign, setup } from 'xstate';
import type { PodPlan, PodTarget } from './stages.ts';

/** How a run that ends exits: its code when it fails, and whether a failure restarts the container. */
export interface PodExit {
  /** The exit code of a failed run (a successful one exits 0). */
  readonly exitCode: number;
  /** restartPolicy OnFailure: a failed run restarts the container instead of failing the pod. */
  readonly restartOnFailure: boolean;
}

export interface PodContext extends PodPlan, Partial<PodExit> {
  /** From `spec.terminationGracePeriodSeconds`, or a DELETE's `gracePeriodSeconds`. */
  readonly gracePeriodMs: number;
  /** How long the containers take to exit after SIGTERM when the grace period allows it. */
  readonly containersStopMs: number;
  /** Why the node evicted the pod; set by EVICTED. */
  readonly evictionMessage?: string;
  /** How many times the container restarted after a failed run; set on entering BackOff. */
  readonly restarts?: number;
}

export type PodInput = PodContext;

export type PodEvent =
  | { type: 'BIND' }
  | { type: 'EVICTED'; message: string }
  | { type: 'DELETE'; gracePeriodSeconds?: number };

/** The states whose status the host reports. */
export type ReportedPodState = 'ContainerCreating' | 'Running' | 'BackOff' | 'Succeeded' | 'Failed';

/** The kubelet's crash-loop back-off: 10 s, doubling with each restart, at most 5 min. */
const RESTART_BACKOFF_MS = { initial: 10_000, max: 300_000 };
export const restartBackOffMs = (restarts: number) => Math.min(RESTART_BACKOFF_MS.max, RESTART_BACKOFF_MS.initial * 2 ** Math.max(0, restarts - 1));

export type PodPhase =
  | 'Pending' | 'Scheduled' | 'ContainerCreating' | 'Running' | 'Succeeded' | 'Failed' | 'Terminating' | 'Removed';

/**
 * The input for one pod: its drawn plan, its `terminationGracePeriodSeconds`, its containers' stop
 * time, and how a run that ends exits (batch pods only; others run as before).
 */
export function podInput(plan: PodPlan, terminationGracePeriodSeconds: number, containersStopMs: number, exit?: PodExit): PodInput {
  // Spelled out, not `{ ...plan, gracePeriodMs }`: in Node 20's V8 a spread followed by a new key
  // gives every object a hidden class of its own (about 300 bytes a pod; see actors/api/objects.ts).
  const { scheduledMs, scheduledTo, creatingMs, creatingTo, runningMs, runningTo } = plan;
  const gracePeriodMs = terminationGracePeriodSeconds * 1000;
  if (!exit) return { scheduledMs, scheduledTo, creatingMs, creatingTo, runningMs, runningTo, gracePeriodMs, containersStopMs };
  const { exitCode, restartOnFailure } = exit;
  return { scheduledMs, scheduledTo, creatingMs, creatingTo, runningMs, runningTo, gracePeriodMs, containersStopMs, exitCode, restartOnFailure };
}

type PlannedStep = 'scheduledTo' | 'creatingTo' | 'runningTo';

function planned({ context }: { context: PodContext }, params: { step: PlannedStep; to: PodTarget }): boolean {
  return context[params.step] === params.to;
}

function runEnds({ context }: { context: PodContext }): boolean {
  return context.creatingTo === 'Running' && context.runningTo !== null;
}

/** The run ends Failed and restartPolicy OnFailure restarts the container. */
function restartsOnFailure({ context }: { context: PodContext }): boolean {
  return context.runningTo === 'Failed' && context.restartOnFailure === true;
}

const to = (step: PlannedStep, target: PodTarget) => ({ type: 'planned' as const, params: { step, to: target } });
const report = (state: ReportedPodState) => ({ type: 'report' as const, params: { state } });
const evicted = { target: 'Failed', actions: 'noteEviction' } as const;
const deleted = { target: 'Terminating', actions: 'overrideGracePeriod' } as const;
/** Leaving a running container: the same, and the host stops it. */
const whileRunning = {
  EVICTED: { target: '#pod.Failed', actions: ['noteEviction', 'stopContainers'] },
  DELETE: { target: '#pod.Terminating', actions: ['overrideGracePeriod', 'stopContainers'] },
} as const;

export const podMachine = setup({
  types: {
    context: {} as PodContext,
    input: {} as PodInput,
    events: {} as PodEvent,
  },
  guards: { planned, runEnds, restartsOnFailure },
  delays: {
    scheduledMs: ({ context }) => context.scheduledMs,
    creatingMs: ({ context }) => context.creatingMs,
    runningMs: ({ context }) => context.runningMs,
    gracePeriodMs: ({ context }) => context.gracePeriodMs,
    containersStopMs: ({ context }) => context.containersStopMs,
    restartBackOffMs: ({ context }) => restartBackOffMs(context.restarts ?? 1),
  },
  actions: {
    overrideGracePeriod: assign({
      gracePeriodMs: ({ context, event }) =>
        event.type === 'DELETE' && event.gracePeriodSeconds !== undefined ? event.gracePeriodSeconds * 1000 : context.gracePeriodMs,
    }),
    noteEviction: assign({ evictionMessage: ({ event }) => (event.type === 'EVICTED' ? event.message : undefined) }),
    countRestart: assign({ restarts: ({ context }) => (context.restarts ?? 0) + 1 }),
    /** Host: write the status of this state. */
    report: (_, _params: { state: ReportedPodState }) => {},
    /** Host: delete the pod, its containers gone. */
    remove: () => {},
    /** Host: the running containers are being stopped (deleted or evicted). */
    stopContainers: () => {},
  },
}).createMachine({
  id: 'pod',
  initial: 'Pending',
  // The input object is the context: no copy per pod.
  context: ({ input }) => input,
  states: {
    Pending: {
      on: { BIND: 'Scheduled', DELETE: 'Removed' },
    },
    Scheduled: {
      id: 'pod.Scheduled',
      after: {
        scheduledMs: [
          { guard: to('scheduledTo', 'ContainerCreating'), target: 'ContainerCreating' },
          { guard: to('scheduledTo', 'Failed'), target: 'Failed' },
        ],
      },
      on: { EVICTED: evicted, DELETE: deleted },
    },
    ContainerCreating: {
      id: 'pod.ContainerCreating',
      entry: report('ContainerCreating'),
      after: {
        creatingMs: [
          { guard: 'runEnds', target: '#pod.Running.UntilDone' },
          { guard: to('creatingTo', 'Running'), target: 'Running' },
          { guard: to('creatingTo', 'Failed'), target: 'Failed' },
        ],
      },
      on: { EVICTED: evicted, DELETE: deleted },
    },
    Running: {
      initial: 'UntilDeleted',
      entry: report('Running'),
      // A container waiting in BackOff has nothing to stop; a running one is stopped.
      on: { EVICTED: evicted, DELETE: deleted },
      states: {
        UntilDeleted: { on: whileRunning },
        UntilDone: {
          id: 'pod.Running.UntilDone',
          on: whileRunning,
          after: {
            runningMs: [
              { guard: to('runningTo', 'Succeeded'), target: '#pod.Succeeded' },
              { guard: 'restartsOnFailure', target: 'BackOff' },
              { guard: to('runningTo', 'Failed'), target: '#pod.Failed' },
            ],
          },
        },
        BackOff: {
          id: 'pod.Running.BackOff',
          entry: ['countRestart', report('BackOff')],
          after: { restartBackOffMs: { target: 'UntilDone', actions: report('Running') } },
        },
      },
    },
    Succeeded: { id: 'pod.Succeeded', entry: report('Succeeded'), on: { DELETE: 'Removed' } },
    Failed: { id: 'pod.Failed', entry: report('Failed'), on: { DELETE: 'Removed' } },
    Terminating: {
      id: 'pod.Terminating',
      // The grace period's timer is set first: when both end at once, the grace period wins.
      after: { gracePeriodMs: 'Removed', containersStopMs: 'Removed' },
    },
    Removed: { type: 'final', entry: 'remove' },
  },
});

/** The phase of a pod snapshot: its top-level state (Running's sub-states say only whether it ends). */
export function podPhase(value: string | Record<string, unknown>): PodPhase {
  return (typeof value === 'string' ? value : Object.keys(value)[0]) as PodPhase;
}
