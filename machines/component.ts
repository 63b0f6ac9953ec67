// A component's lifecycle, as the scheduler and the node agent host it (the inspector shows it):
//
//   Starting   STARTED (informers synced, registered)   → Running.Idle
//              FAILED                                    → Failed
//   Running    Idle  WORK (something queued)             → Busy
//              Busy  IDLE (the queue ran dry)            → Idle
//              STOP                                      → Stopping
//   Stopping   STOPPED (timers cleared, watches closed)  → Stopped (final)
//   Failed, Starting   STOP                             → Stopped
//
// For the scheduler, Busy is its queue loop at work; a node agent has no queue loop and stays Idle
// while it runs. No delays: the host reports what happened.
import { setup } from 'xstate';

export type ComponentEvent =
  | { type: 'STARTED' }
  | { type: 'FAILED'; error: string }
  | { type: 'WORK' }
  | { type: 'IDLE' }
  | { type: 'STOP' }
  | { type: 'STOPPED' };

export const componentMachine = setup({
  types: { events: {} as ComponentEvent },
}).createMachine({
  id: 'component',
  initial: 'Starting',
  states: {
    Starting: { on: { STARTED: 'Running', FAILED: 'Failed', STOP: 'Stopped' } },
    Running: {
      initial: 'Idle',
      states: {
        Idle: { on: { WORK: 'Busy' } },
        Busy: { on: { IDLE: 'Idle' } },
      },
      on: { STOP: 'Stopping' },
    },
    Stopping: { on: { STOPPED: 'Stopped' } },
    Failed: { on: { STOP: 'Stopped' } },
    Stopped: { type: 'final' },
  },
});

/** `Running.Busy` → `Running/Busy`: a flat name for a component state. */
export function componentState(value: string | Record<string, unknown>): string {
  if (typeof value === 'string') return value;
  const [k, v] = Object.entries(value)[0]!;
  return `${k}/${componentState(v as string | Record<string, unknown>)}`;
}
