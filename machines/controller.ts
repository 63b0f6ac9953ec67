// One controller of the controller manager, as the real one starts each: it waits for its
// informers' caches, then runs until the controller manager stops it (its term ends).
//
//   WaitingForCaches  invoke syncCaches (list and watch what it reads)   → Running | Failed
//   Running           Watching: works off informer events (its queue's workers run)
//                     Passing:  a periodic controller's pass (invoke pass), e.g. the node
//                               lifecycle controller's monitor pass, the pod garbage
//                               collector's sweep; it ends when the pass's writes have
//                               returned                                    → Waiting
//                     Waiting:  periodMs after the pass ended (wait.Until's sliding period),
//                               the next one                                → Passing
//   any               STOP                                                → Stopped (final)
//
// The host supplies the I/O: the actors `syncCaches` and `pass` (one periodic pass; a failed
// pass is the pass's to report, and the period goes on), the actions `run` (on entering
// Running: start the workers, sweep what the caches hold) and `halt` (stop).
import { assign, fromPromise, setup } from 'xstate';
import { failureMessage } from './failure.ts';

export interface ControllerInput {
  /** Between periodic passes; 0: the controller has none. */
  readonly periodMs: number;
}

export interface ControllerContext extends ControllerInput {
  /** Why its caches could not be synced. */
  readonly error: string | undefined;
}

export type ControllerEvent = { type: 'STOP' };

export const controllerMachine = setup({
  types: { context: {} as ControllerContext, input: {} as ControllerInput, events: {} as ControllerEvent },
  actors: {
    syncCaches: fromPromise<void>(() => Promise.reject(new Error('supplied by the controller'))),
    pass: fromPromise<void>(() => Promise.reject(new Error('supplied by the controller'))),
  },
  guards: { periodic: ({ context }) => context.periodMs > 0 },
  delays: { periodMs: ({ context }) => context.periodMs },
  actions: {
    run: () => {},
    halt: () => {},
    noteFailure: assign({ error: ({ event }) => failureMessage(event) }),
  },
}).createMachine({
  id: 'controller',
  initial: 'WaitingForCaches',
  context: ({ input }) => ({ periodMs: input.periodMs, error: undefined }),
  on: { STOP: '.Stopped' },
  states: {
    WaitingForCaches: {
      invoke: {
        id: 'syncCaches', src: 'syncCaches',
        onDone: [{ guard: 'periodic', target: 'Running.Passing' }, { target: 'Running.Watching' }],
        onError: { target: 'Failed', actions: 'noteFailure' },
      },
    },
    Running: {
      id: 'controller.Running',
      entry: 'run',
      // Entered only through WaitingForCaches' choice of Watching or Waiting.
      initial: 'Watching',
      states: {
        Watching: {},
        Passing: { id: 'controller.Running.Passing', invoke: { src: 'pass', onDone: 'Waiting', onError: 'Waiting' } },
        Waiting: { after: { periodMs: 'Passing' } },
      },
    },
    Failed: { type: 'final', entry: 'halt' },
    Stopped: { type: 'final', entry: 'halt' },
  },
});
