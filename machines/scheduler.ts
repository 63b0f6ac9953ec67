// The scheduler's lifecycle and its loop, one machine per scheduler (`scheduler/<name>`):
//
//   Starting  invoke syncCaches (nodes and pods listed and watched)        → Running | Failed
//   Running   Busy   (first: the pods the first list found) after yieldMs
//                    (a step of its own under virtual time), the host
//                    schedules a batch and sends BATCHED: more may be queued → Busy, again
//                    the queue ran dry                                      → Idle
//             Idle   WORK (a pod queued, a node changed, a pod freed
//                    resources, backoffs flushed)                           → Busy
//   any       STOP                                                          → Stopped (final)
//
// While running, every flushPeriodMs pods whose backoff is over move to the active queue (FLUSH,
// a delayed event of the machine's own, taken without leaving the state). Busy ignores WORK: its
// batch is due already. The host supplies the actor `syncCaches` and the actions `schedule` (pop
// and schedule up to a batch of pods, then send BATCHED), `flush` and `halt`.
import { assign, fromPromise, raise, setup } from 'xstate';
import { failureMessage } from './failure.ts';

export interface SchedulerInput {
  /** How often pods whose backoff ended are moved back to the active queue. */
  readonly flushPeriodMs: number;
}

export interface SchedulerContext extends SchedulerInput {
  readonly error: string | undefined;
}

export type SchedulerEvent = { type: 'WORK' } | { type: 'BATCHED'; more: boolean } | { type: 'FLUSH' } | { type: 'STOP' };

export const schedulerMachine = setup({
  types: { context: {} as SchedulerContext, input: {} as SchedulerInput, events: {} as SchedulerEvent },
  actors: { syncCaches: fromPromise<void>(() => Promise.reject(new Error('supplied by the scheduler'))) },
  guards: { more: ({ event }) => event.type === 'BATCHED' && event.more },
  delays: { yieldMs: 0, flushPeriodMs: ({ context }) => context.flushPeriodMs },
  actions: {
    schedule: () => {},
    flush: () => {},
    halt: () => {},
    nextFlush: raise({ type: 'FLUSH' }, { id: 'flush', delay: 'flushPeriodMs' }),
    noteFailure: assign({ error: ({ event }) => failureMessage(event) }),
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
      // A batch is due at once: the pods the first list found.
      initial: 'Busy',
      entry: 'nextFlush',
      on: { FLUSH: { actions: ['flush', 'nextFlush'] } },
      states: {
        Idle: { on: { WORK: 'Busy' } },
        Busy: {
          id: 'scheduler.Running.Busy',
          after: { yieldMs: { actions: 'schedule' } },
          on: { BATCHED: [{ guard: 'more', target: 'Busy', reenter: true }, { target: 'Idle' }] },
        },
      },
    },
    Failed: { type: 'final', entry: 'halt' },
    Stopped: { type: 'final', entry: 'halt' },
  },
});
