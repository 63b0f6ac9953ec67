// A node as its agent runs it: registration, the Lease renewed every quarter of its duration with
// the real lease controller's jitter, the status checked every nodeStatusUpdateFrequency and
// written when it changed or nodeStatusReportFrequency has passed, and memory pressure.
//
//   Starting   Registering  invoke register (create the Node, or report on it)  → Leasing
//              Leasing      invoke renewLease (the first renewal)                → Syncing
//              Syncing      invoke syncPods (list and watch this node's pods)    → Running
//              any error                                                         → Failed (final)
//   Running    lease    Waiting   after leaseRenewMs × (1 + leaseJitterFactor × a draw)   → Renewing
//                       Renewing  invoke renewLease                                        → Waiting
//              memory   Normal    MEASURED under pressure                                  → Pressure
//                       Pressure  MEASURED, pressureTransitionMs after the last low one    → Normal
//              status   Waiting   after statusUpdateMs                                     → Checking
//                       Checking  the host measures the node (entry `measure`) and sends
//                                 MEASURED; pods are resynced, then: the status changed
//                                 or statusReportMs passed                                 → Reporting
//                                 otherwise                                                → Waiting
//                       Reporting invoke writeStatus                                        → Waiting
//   any        CRASH → Crashed (final)   STOP → Stopped (final)
//
// Memory is low when the host measures less available than the eviction threshold; the node is
// under pressure from then until pressureTransitionMs have passed without a low measurement
// (evictionPressureTransitionPeriod), and every low measurement evicts one pod (the host picks
// it). A request the server never answered leaves the agent not knowing what the server holds,
// so the next check reports the whole status. A measurement's eviction comes before the pods'
// resync (the memory region precedes the status region). The host supplies the I/O through
// `provide`: the actors `register`, `renewLease`, `syncPods`, `writeStatus` (the writes resolving
// to the time they wrote), the actions `measure`, `evictOne`, `resyncPods`, `reportError`, `halt`,
// and the guard `unanswered`.
// The jitter is drawn from the injected stream, one draw per wait, in the order of the waits.
import { assign, fromPromise, setup } from 'xstate';
import type { Random } from '../actors/api/env.ts';

export interface NodeInput {
  /** A quarter of nodeLeaseDurationSeconds, in ms, before jitter. */
  readonly leaseRenewMs: number;
  /** Each wait is leaseRenewMs × (1 + leaseJitterFactor × a draw in [0, 1)). */
  readonly leaseJitterFactor: number;
  /** nodeStatusUpdateFrequency. */
  readonly statusUpdateMs: number;
  /** nodeStatusReportFrequency: the longest a status goes unwritten. */
  readonly statusReportMs: number;
  /** evictionPressureTransitionPeriod. */
  readonly pressureTransitionMs: number;
  /** The lease jitter's stream. */
  readonly random: Random;
}

export interface NodeContext extends NodeInput {
  /** When the status was last written, and with what memory pressure; undefined: unknown to the server. */
  readonly reportedAtMs: number | undefined;
  readonly reportedPressure: boolean | undefined;
  /** The last low measurement. */
  readonly lastLowMs: number | undefined;
  /** Under memory pressure as of the last measurement. */
  readonly pressure: boolean;
  /** Why the agent failed to start. */
  readonly error: string | undefined;
}

export type NodeEvent =
  | { type: 'MEASURED'; atMs: number; memoryLow: boolean; availableBytes: number }
  | { type: 'STOP' }
  | { type: 'CRASH' };

type Measured = Extract<NodeEvent, { type: 'MEASURED' }>;

/** What a write resolves to: when it was written, on the host's clock. */
export interface Written {
  readonly atMs: number;
}

/** The pressure a measurement leaves: a low one starts it, and it lasts pressureTransitionMs after the last low one. */
function pressureAfter(context: NodeContext, e: Measured): boolean {
  const lastLowMs = e.memoryLow ? e.atMs : context.lastLowMs;
  return lastLowMs !== undefined && e.atMs - lastLowMs < context.pressureTransitionMs;
}

const measured = (event: NodeEvent | { type: string }): Measured => event as Measured;

const never = () => false;
const evictOne = { type: 'evictOne', params: ({ event }: { event: NodeEvent }) => ({ availableBytes: measured(event).availableBytes }) } as const;
const reportError = { type: 'reportError', params: ({ event }: { event: unknown }) => ({ error: (event as { error: unknown }).error }) } as const;
const placeholder = <T>() => fromPromise<T, { pressure: boolean }>(() => Promise.reject(new Error('supplied by the node agent')));

export const nodeMachine = setup({
  types: {
    context: {} as NodeContext,
    input: {} as NodeInput,
    events: {} as NodeEvent,
  },
  actors: {
    register: placeholder<Written>(),
    renewLease: placeholder<void>(),
    syncPods: placeholder<void>(),
    writeStatus: placeholder<Written>(),
  },
  guards: {
    /** The status changed since it was written, the server may not have it, or it is due. */
    reportNeeded: ({ context, event }) => {
      const e = measured(event);
      return context.reportedAtMs === undefined || pressureAfter(context, e) !== context.reportedPressure || e.atMs - context.reportedAtMs >= context.statusReportMs;
    },
    underPressure: ({ context, event }) => pressureAfter(context, measured(event)),
    memoryLow: ({ event }) => measured(event).memoryLow,
    /** The error is a request nobody answered (the host knows what that looks like). */
    unanswered: never,
  },
  delays: {
    leaseRenewMs: ({ context }) => Math.round(context.leaseRenewMs * (1 + context.leaseJitterFactor * context.random.next())),
    statusUpdateMs: ({ context }) => context.statusUpdateMs,
  },
  actions: {
    /** Host: measure memory, resync pods the server holds not Ready, and send MEASURED. */
    measure: () => {},
    /** Host: evict one pod, the worst by the eviction ranking. */
    evictOne: (_, _params: { availableBytes: number }) => {},
    /** Host: write again the running status of pods the server holds not Ready (the real status manager's sync). */
    resyncPods: () => {},
    reportError: (_, _params: { error: unknown }) => {},
    /** Host: stop watching and running pods; the agent is gone. */
    halt: () => {},
    noteMeasured: assign({
      lastLowMs: ({ context, event }) => (measured(event).memoryLow ? measured(event).atMs : context.lastLowMs),
      pressure: ({ context, event }) => pressureAfter(context, measured(event)),
    }),
    noteReported: assign({
      reportedAtMs: ({ event }) => (event as unknown as { output: Written }).output.atMs,
      reportedPressure: ({ context }) => context.pressure,
    }),
    forgetReported: assign({ reportedAtMs: undefined, reportedPressure: undefined }),
    noteFailure: assign({ error: ({ event }) => String((event as { error?: { message?: string } }).error?.message ?? (event as { error?: unknown }).error) }),
  },
}).createMachine({
  id: 'node',
  initial: 'Starting',
  context: ({ input }) => ({ ...input, reportedAtMs: undefined, reportedPressure: undefined, lastLowMs: undefined, pressure: false, error: undefined }),
  on: { STOP: '.Stopped', CRASH: '.Crashed' },
  states: {
    Starting: {
      initial: 'Registering',
      states: {
        Registering: {
          invoke: { id: 'register', src: 'register', input: () => ({ pressure: false }),
            onDone: { target: 'Leasing', actions: 'noteReported' }, onError: { target: '#node.Failed', actions: 'noteFailure' } },
        },
        Leasing: {
          invoke: { id: 'renewLease', src: 'renewLease', input: () => ({ pressure: false }),
            onDone: 'Syncing', onError: { target: '#node.Failed', actions: 'noteFailure' } },
        },
        Syncing: {
          invoke: { id: 'syncPods', src: 'syncPods', input: () => ({ pressure: false }),
            onDone: '#node.Running', onError: { target: '#node.Failed', actions: 'noteFailure' } },
        },
      },
    },
    Running: {
      id: 'node.Running',
      type: 'parallel',
      states: {
        lease: {
          initial: 'Waiting',
          states: {
            Waiting: { id: 'node.Running.lease.Waiting', after: { leaseRenewMs: 'Renewing' } },
            Renewing: {
              invoke: {
                id: 'renewLease', src: 'renewLease', input: ({ context }) => ({ pressure: context.pressure }),
                onDone: 'Waiting',
                onError: [
                  { guard: 'unanswered', target: 'Waiting', actions: ['forgetReported', reportError] },
                  { target: 'Waiting', actions: reportError },
                ],
              },
            },
          },
        },
        memory: {
          initial: 'Normal',
          states: {
            // A low measurement starts pressure (unless pressureTransitionMs is 0) and evicts a pod.
            Normal: { on: { MEASURED: [
              { guard: 'underPressure', target: 'Pressure', actions: ['noteMeasured', evictOne] },
              { guard: 'memoryLow', actions: ['noteMeasured', evictOne] },
              { actions: 'noteMeasured' },
            ] } },
            Pressure: { on: { MEASURED: [
              { guard: 'memoryLow', actions: ['noteMeasured', evictOne] },
              { guard: 'underPressure', actions: 'noteMeasured' },
              { target: 'Normal', actions: 'noteMeasured' },
            ] } },
          },
        },
        status: {
          initial: 'Waiting',
          states: {
            Waiting: { id: 'node.Running.status.Waiting', after: { statusUpdateMs: 'Checking' } },
            Checking: {
              entry: 'measure',
              on: { MEASURED: [{ guard: 'reportNeeded', target: 'Reporting', actions: 'resyncPods' }, { target: 'Waiting', actions: 'resyncPods' }] },
            },
            Reporting: {
              invoke: {
                id: 'writeStatus', src: 'writeStatus', input: ({ context }) => ({ pressure: context.pressure }),
                onDone: { target: 'Waiting', actions: 'noteReported' },
                onError: [
                  { guard: 'unanswered', target: 'Waiting', actions: ['forgetReported', reportError] },
                  { target: 'Waiting', actions: reportError },
                ],
              },
            },
          },
        },
      },
    },
    Failed: { type: 'final', entry: 'halt' },
    Crashed: { type: 'final', entry: 'halt' },
    Stopped: { type: 'final', entry: 'halt' },
  },
});
