// A control-plane process's lifecycle, as the controller manager hosts it (`controller-manager/<identity>`):
//
//   Starting   invoke start (campaign for the lock, or start the controllers)  → Running | Failed
//   Running    STOP                                                            → Stopping
//   Stopping   invoke stop (the controllers stop; a leader releases its lock)  → Stopped (final)
//   any        CRASH (the process dies: nothing released)                      → Crashed (final)
//
// What it does while running is its leader machine's and its controllers' to show. The host
// supplies the actors `start` and `stop` and the action `halt` (on a crash: stop at once).
import { assign, fromPromise, setup } from 'xstate';
import { failureMessage } from './failure.ts';

export interface ComponentContext {
  /** Why it failed to start. */
  readonly error: string | undefined;
}

export type ComponentEvent = { type: 'STOP' } | { type: 'CRASH' };

export const componentMachine = setup({
  types: { context: {} as ComponentContext, events: {} as ComponentEvent },
  actors: {
    start: fromPromise<void>(() => Promise.reject(new Error('supplied by the component'))),
    stop: fromPromise<void>(() => Promise.reject(new Error('supplied by the component'))),
  },
  actions: {
    halt: () => {},
    noteFailure: assign({ error: ({ event }) => failureMessage(event) }),
  },
}).createMachine({
  id: 'component',
  initial: 'Starting',
  context: { error: undefined },
  on: { CRASH: '.Crashed' },
  states: {
    Starting: {
      invoke: { id: 'start', src: 'start', onDone: 'Running', onError: { target: 'Failed', actions: 'noteFailure' } },
      on: { STOP: 'Stopping' },
    },
    Running: { on: { STOP: 'Stopping' } },
    Stopping: { invoke: { id: 'stop', src: 'stop', onDone: 'Stopped', onError: { target: 'Stopped', actions: 'noteFailure' } } },
    Failed: { type: 'final' },
    Stopped: { type: 'final' },
    Crashed: { type: 'final', entry: 'halt' },
  },
});
