// The pod lifecycle as the node agent drives it. What each state waits for, and how long:
//
//   Pending            BIND from the scheduler (no timer)                     → Scheduled
//   Scheduled          after plan.scheduledMs: the agent notices the binding    → ContainerCreating | Failed
//   ContainerCreating  after plan.creatingMs: images pulled, containers up      → Running | Failed
//   Running            after plan.runningMs when the plan has an end            → Succeeded | Failed
//                      (a pod whose plan has none runs until it is deleted)
//   any live phase     EVICTED (node pressure)                                  → Failed
//   Pending, Succeeded, Failed   DELETE: no containers to stop                  → Removed
//   Scheduled, ContainerCreating, Running   DELETE                              → Terminating
//   Terminating        after the grace period, or CONTAINERS_STOPPED if sooner  → Removed
//
// The timings come from a stage table (`stages.ts`) through a plan the hosting actor draws once,
// from its own random stream, when it creates the pod. The plan is the whole context, so one
// machine definition serves every pod and a pod costs one small object beyond the actor itself.
// Delayed transitions are `after` delays named in `setup`; their event ids are derived from the
// explicit state ids below (`xstate.after.creatingMs.pod.ContainerCreating`), so xstate never
// needs `Math.random()` for them and traces are stable.
import { assign, setup } from 'xstate';
import type { PodPlan, PodTarget } from './stages.ts';

export interface PodContext extends PodPlan {
  /** From `spec.terminationGracePeriodSeconds`, or a DELETE's `gracePeriodSeconds`. */
  readonly gracePeriodMs: number;
}

export type PodInput = PodContext;

export type PodEvent =
  | { type: 'BIND' }
  | { type: 'EVICTED' }
  | { type: 'DELETE'; gracePeriodSeconds?: number }
  | { type: 'CONTAINERS_STOPPED' };

export type PodPhase =
  | 'Pending' | 'Scheduled' | 'ContainerCreating' | 'Running' | 'Succeeded' | 'Failed' | 'Terminating' | 'Removed';

/** The input for one pod: its drawn plan and its `terminationGracePeriodSeconds` (30 by default). */
export function podInput(plan: PodPlan, terminationGracePeriodSeconds = 30): PodInput {
  // Spelled out, not `{ ...plan, gracePeriodMs }`: in Node 20's V8 a spread followed by a new key
  // gives every object a hidden class of its own (about 300 bytes a pod; see actors/api/objects.ts).
  const { scheduledMs, scheduledTo, creatingMs, creatingTo, runningMs, runningTo } = plan;
  return { scheduledMs, scheduledTo, creatingMs, creatingTo, runningMs, runningTo, gracePeriodMs: terminationGracePeriodSeconds * 1000 };
}

type PlannedStep = 'scheduledTo' | 'creatingTo' | 'runningTo';

function planned({ context }: { context: PodContext }, params: { step: PlannedStep; to: PodTarget }): boolean {
  return context[params.step] === params.to;
}

function runEnds({ context }: { context: PodContext }): boolean {
  return context.creatingTo === 'Running' && context.runningTo !== null;
}

const to = (step: PlannedStep, target: PodTarget) => ({ type: 'planned' as const, params: { step, to: target } });

export const podMachine = setup({
  types: {
    context: {} as PodContext,
    input: {} as PodInput,
    events: {} as PodEvent,
  },
  guards: { planned, runEnds },
  delays: {
    scheduledMs: ({ context }) => context.scheduledMs,
    creatingMs: ({ context }) => context.creatingMs,
    runningMs: ({ context }) => context.runningMs,
    gracePeriodMs: ({ context }) => context.gracePeriodMs,
  },
  actions: {
    overrideGracePeriod: assign({
      gracePeriodMs: ({ context, event }) =>
        event.type === 'DELETE' && event.gracePeriodSeconds !== undefined ? event.gracePeriodSeconds * 1000 : context.gracePeriodMs,
    }),
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
      on: { EVICTED: 'Failed', DELETE: { target: 'Terminating', actions: 'overrideGracePeriod' } },
    },
    ContainerCreating: {
      id: 'pod.ContainerCreating',
      after: {
        creatingMs: [
          { guard: 'runEnds', target: '#pod.Running.UntilDone' },
          { guard: to('creatingTo', 'Running'), target: 'Running' },
          { guard: to('creatingTo', 'Failed'), target: 'Failed' },
        ],
      },
      on: { EVICTED: 'Failed', DELETE: { target: 'Terminating', actions: 'overrideGracePeriod' } },
    },
    Running: {
      initial: 'UntilDeleted',
      on: { EVICTED: 'Failed', DELETE: { target: 'Terminating', actions: 'overrideGracePeriod' } },
      states: {
        UntilDeleted: {},
        UntilDone: {
          id: 'pod.Running.UntilDone',
          after: {
            runningMs: [
              { guard: to('runningTo', 'Succeeded'), target: '#pod.Succeeded' },
              { guard: to('runningTo', 'Failed'), target: '#pod.Failed' },
            ],
          },
        },
      },
    },
    Succeeded: { id: 'pod.Succeeded', on: { DELETE: 'Removed' } },
    Failed: { id: 'pod.Failed', on: { DELETE: 'Removed' } },
    Terminating: {
      id: 'pod.Terminating',
      after: { gracePeriodMs: 'Removed' },
      on: { CONTAINERS_STOPPED: 'Removed' },
    },
    Removed: { type: 'final' },
  },
});

/** The phase of a pod snapshot: its top-level state (Running's sub-states say only whether it ends). */
export function podPhase(value: string | Record<string, unknown>): PodPhase {
  return (typeof value === 'string' ? value : Object.keys(value)[0]) as PodPhase;
}
