// The scheduler's lifecycle and its loop, one machine per scheduler (`scheduler/<name>`):
//
//   Starting  invoke syncCaches (nodes and pods listed and watched)        → Running | Failed
//   Running   loop   (starts Busy: the pods the first list found)
//                    Idle   WORK (a pod queued, a node changed, a pod freed
//                           resources, backoffs flushed)                   → Busy
//                    Busy   after yieldMs (a step of its own under virtual
//                           time), the host schedules a batch and sends
//                           BATCHED: more may be queued                    → Busy, again
//                           the queue ran dry                              → Idle
//             flush  Waiting  every flushPeriodMs: pods whose backoff is
//                           over move to the active queue (`flush`)        → Waiting
//   any       STOP                                                          → Stopped (final)
//
// Busy ignores WORK: its batch is already due. The host supplies the actor `syncCaches` and the
// actions `schedule` (pop and schedule up to a batch of pods, then send BATCHED), `flush` and `halt`.
import { assign, fromPromise, setup } from 'xstate';

export interface SchedulerInput {
  /** How often pods whose backoff ended are moved back to the active queue. */
  readonly flushPeriodMs: number;
}

export interface SchedulerContext extends SchedulerInput {
  readonly error: string | undefined;
}

export type SchedulerEvent = { type: 'WORK' } | { type: 'BATCHED'; more: boolean } | { type: 'STOP' };

export const schedulerMachine = setup({
  types: { context: {} as SchedulerContext, input: {} as SchedulerInput, events: {} as SchedulerEvent },
  actors: { syncCaches: fromPromise<void>(() => Promise.reject(new Error('supplied by the scheduler'))) },
  guards: { more: ({ event }) => event.type === 'BATCHED' && event.more },
  delays: { yieldMs: 0, flushPeriodMs: ({ context }) => context.flushPeriodMs },
  actions: {
    schedule: () => {},
    flush: () => {},
    halt: () => {},
    noteFailure: assign({ error: ({ event }) => String((event as { error?: { message?: string } }).error?.message ?? (event as { error?: unknown }).error) }),
  },
}).createMachine({
  id: 'scheduler',
  initial: 'Starting',
  context: ({ input }) => ({ flushPeriodMs: input.flushPeriodMs, error: undefined }),
  on: { STOP: '.Stopped' },
  states: {
    Starting: {
      invoke: { id: 'syncCaches', src: 'syncCaches', onDone: 'Running', onError: { target: 'Failed', actions: 'noteFailure' } },
    },
    Running: {
      type: 'parallel',
      states: {
        loop: {
          // A batch is due at once: the pods the first list found.
          initial: 'Busy',
          states: {
            Idle: { on: { WORK: 'Busy' } },
            Busy: {
              id: 'scheduler.Running.loop.Busy',
              after: { yieldMs: { actions: 'schedule' } },
              on: { BATCHED: [{ guard: 'more', target: 'Busy', reenter: true }, { target: 'Idle' }] },
            },
          },
        },
        flush: {
          initial: 'Waiting',
          states: {
            Waiting: { id: 'scheduler.Running.flush.Waiting', after: { flushPeriodMs: { target: 'Waiting', reenter: true, actions: 'flush' } } },
          },
        },
      },
    },
    Failed: { type: 'final', entry: 'halt' },
    Stopped: { type: 'final', entry: 'halt' },
  },
});
