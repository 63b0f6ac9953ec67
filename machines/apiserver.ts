// The API server's lifecycle, its graceful termination as the real server sequences it:
//
//   Starting   STARTED (system namespaces made, compaction running)        → Ready
//   Ready      STOP (SIGTERM or SIGINT)                                     → Draining.Delay
//   Draining   Delay          /readyz fails at once; /healthz and /livez
//                             succeed; every request is still served.
//                             after --shutdown-delay-duration              → Draining.NotAccepting
//              NotAccepting   new requests are turned away (429 with
//                             Retry-After and Connection: close under
//                             --shutdown-send-retry-after; otherwise the
//                             listener closes) while in-flight ones finish.
//                             DRAINED (no request left but watches)       → Stopping
//   Stopping   watches end, connections close.  STOPPED                    → Stopped (final)
//   Starting   STOP                                                         → Draining.Delay
//
// The host does the I/O: the entry actions `stopAccepting` and `stopServing` are named here and
// supplied by the actor (actors/apiserver/lifecycle.ts); it tells the machine when the server has
// started, drained and stopped. The delay runs on the clock the actor is created with. Explicit
// state ids give the delayed event a stable id (`xstate.after.shutdownDelayMs.apiserver.Draining.Delay`).
import { setup } from 'xstate';

export interface ApiServerLifecycleInput {
  /** --shutdown-delay-duration; 0 when it is not set. */
  readonly shutdownDelayMs: number;
  /** --shutdown-send-retry-after. */
  readonly sendRetryAfter: boolean;
}

export type ApiServerLifecycleContext = ApiServerLifecycleInput;

export type ApiServerLifecycleEvent =
  | { type: 'STARTED' }
  | { type: 'STOP' }
  | { type: 'DRAINED' }
  | { type: 'STOPPED' };

export type ApiServerPhase = 'Starting' | 'Ready' | 'Draining/Delay' | 'Draining/NotAccepting' | 'Stopping' | 'Stopped';

export const apiServerMachine = setup({
  types: {
    context: {} as ApiServerLifecycleContext,
    input: {} as ApiServerLifecycleInput,
    events: {} as ApiServerLifecycleEvent,
  },
  delays: {
    shutdownDelayMs: ({ context }) => context.shutdownDelayMs,
  },
  actions: {
    /** The delay is over: turn new requests away (how depends on sendRetryAfter). */
    stopAccepting: () => {},
    /** In-flight requests have drained: end watches and close the listener. */
    stopServing: () => {},
  },
}).createMachine({
  id: 'apiserver',
  initial: 'Starting',
  context: ({ input }) => input,
  states: {
    Starting: { on: { STARTED: 'Ready', STOP: 'Draining' } },
    Ready: { on: { STOP: 'Draining' } },
    Draining: {
      id: 'apiserver.Draining',
      initial: 'Delay',
      states: {
        Delay: {
          id: 'apiserver.Draining.Delay',
          after: { shutdownDelayMs: 'NotAccepting' },
        },
        NotAccepting: {
          id: 'apiserver.Draining.NotAccepting',
          entry: 'stopAccepting',
          on: { DRAINED: '#apiserver.Stopping' },
        },
      },
    },
    Stopping: {
      id: 'apiserver.Stopping',
      entry: 'stopServing',
      on: { STOPPED: 'Stopped' },
    },
    Stopped: { type: 'final' },
  },
});

/** `{ Draining: 'Delay' }` → `Draining/Delay`. */
export function apiServerPhase(value: string | Record<string, unknown>): ApiServerPhase {
  if (typeof value === 'string') return value as ApiServerPhase;
  const [k, v] = Object.entries(value)[0]!;
  return `${k}/${v as string}` as ApiServerPhase;
}
