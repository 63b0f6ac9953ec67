// A node as its agent runs it: registration, the Lease renewed every quarter of its duration with
// the real lease controller's jitter, the status checked every nodeStatusUpdateFrequency and
// written when it changed or nodeStatusReportFrequency has passed, and memory pressure.
//
//   Starting   Registering  invoke register (create the Node, or report on it)  → Leasing
//              Leasing      invoke renewLease (the first renewal)                → Syncing
//              Syncing      invoke syncPods (list and watch this node's pods)    → Running
//              any error                                                         → Failed (final)
//   Running    Normal | Pressure, as the last status check found memory:
//              a low check starts pressure, and it lasts pressureTransitionMs after the
//              last low check (evictionPressureTransitionPeriod)                → Pressure | Normal
//   any        CRASH → Crashed (final)   STOP → Stopped (final)
//
// While running, two loops are the machine's own delayed events, taken without leaving the state
// (so they leave no record; what they decide does). Each starts at a phase drawn within its
// period, as the loops of agents started independently do (every simulated agent starts at
// once: without it a zone's leases would renew in lockstep):
//   RENEW   after leaseRenewMs × (1 + leaseJitterFactor × a draw), counted from the end of the
//           last renewal, as the lease controller's loop does: the host writes the Lease
//           (`renewLease`), and the next wait is drawn and begins. A renewal that ends later
//           than it began is answered RENEWED, and the same wait begins again from its end; one
//           that fails is answered RENEW_FAILED, likewise (a renewal that ends in the instant it
//           began, as in-process writes do, needs no answer: its wait is already right).
//   CHECK   on the statusUpdateMs grid: the host measures the node (`measure`, an assign); a low
//           measurement evicts a pod; pods the server holds not Ready are written again; then,
//           if the status changed, the server may not have it, or statusReportMs passed, the
//           host writes the status (`writeStatus`, answered by REPORTED or REPORT_FAILED) and
//           the next wait begins after it, else at once.
//           A quiet check (memory not low, no pressure, no pod awaiting a resync, the server
//           holding the status, nothing CHANGED since it began) would find the same at each grid
//           point until the report falls due, so the next wait runs to that point. The host
//           sends CHANGED when what a check looks at changed (a pod admitted, a pod the server
//           holds not Ready, memory load); a far check then comes at the next grid point, the
//           one the real loop would have reached next (so the checks that decide anything come
//           when they always came, and the quiet ones cost nothing).
// A request the server never answered leaves the agent not knowing what the server holds, so
// the next check reports the whole status; so does a request the server refused, most often a
// renewal of a Lease it no longer has (its store was lost, or the Lease deleted). A status write answered NotFound finds the Node gone
// (deleted, or lost with the server's store): the agent registers it again (`registerNode`,
// answered as a status write), as the real agent resets its registration when its Node is missing. The host supplies the I/O through `provide`: the actors
// `register`, `renewLease`, `syncPods` (the start), the actions `renewLease`, `writeStatus`,
// `measure`, `evictOne`, `resyncPods`, `reportError`, `halt`, and the guard `unanswered`. The
// phases and the jitter are drawn from the injected stream: the two phases first, then one draw
// per wait, in the order of the waits.
import { assign, cancel, fromPromise, raise, setup } from 'xstate';
import type { Random } from '../actors/api/env.ts';
import { failureMessage } from './failure.ts';

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
  /** The stream of the loops' phases and the lease jitter. */
  readonly random: Random;
  /** The injected clock's time (the status grid is counted on it). */
  readonly now: () => number;
}

/** What the host measured at a status check. */
export interface Measurement {
  readonly atMs: number;
  /** Less memory available than the eviction threshold. */
  readonly memoryLow: boolean;
  readonly availableBytes: number;
  /** Running pods the server holds not Ready: each is written again at this check. */
  readonly unreadyPods: number;
}

export interface NodeContext extends NodeInput {
  /** When the status was last written, and with what memory pressure; undefined: unknown to the server. */
  readonly reportedAtMs: number | undefined;
  readonly reportedPressure: boolean | undefined;
  /** The last measurement, and the last low one. */
  readonly measurement: Measurement | undefined;
  readonly lastLowMs: number | undefined;
  /** Under memory pressure as of the last measurement. */
  readonly pressure: boolean;
  /** The wait before the next renewal, drawn when the last one began. */
  readonly leaseWaitMs: number;
  /** When the next status check comes, and when it was planned (its grid counts from there). */
  readonly checkAtMs: number;
  readonly checkFromMs: number;
  /** What a check looks at changed since the last one measured (while its report was written). */
  readonly changed: boolean;
  /** Why the agent failed to start. */
  readonly error: string | undefined;
}

export type NodeEvent =
  | { type: 'RENEW' }
  | { type: 'CHECK' }
  | { type: 'MEASURED' }
  | { type: 'DECIDE' }
  | { type: 'RENEWED' }
  | { type: 'RENEW_FAILED'; error: unknown }
  | { type: 'REPORTED'; atMs: number }
  | { type: 'REPORT_FAILED'; error: unknown }
  | { type: 'CHANGED' }
  | { type: 'STOP' }
  | { type: 'CRASH' };

/** What a write at start resolves to: when it was written, on the host's clock. */
export interface Written {
  readonly atMs: number;
}

/** The pressure a measurement leaves: a low one starts it, and it lasts pressureTransitionMs after the last low one. */
function pressureAfter(context: NodeContext, m: Measurement): boolean {
  const lastLowMs = m.memoryLow ? m.atMs : context.lastLowMs;
  return lastLowMs !== undefined && m.atMs - lastLowMs < context.pressureTransitionMs;
}

const measured = (context: NodeContext): Measurement => context.measurement!;

/** A check now would find what the last one found, and the server has that status. */
function quiet(context: NodeContext): boolean {
  const m = context.measurement;
  return !context.changed && !context.pressure && context.reportedAtMs !== undefined && m !== undefined && !m.memoryLow && m.unreadyPods === 0;
}

/**
 * When the next check comes, counted from now: a grid step, or, when quiet, the first grid point
 * at which the report falls due.
 */
function nextCheckAt(context: NodeContext): number {
  const now = context.now(), step = context.statusUpdateMs;
  if (!quiet(context)) return now + step;
  const steps = Math.max(1, Math.ceil((context.reportedAtMs! + context.statusReportMs - now) / step));
  return now + steps * step;
}

/**
 * The grid point on the way to `checkAtMs` that comes next: now, if the grid passes now after the
 * point it was planned from (a fault applied at a grid point is seen there), else the one after.
 */
function nextGridPoint(context: NodeContext): number {
  const now = context.now();
  const offset = (context.checkAtMs - now) % context.statusUpdateMs;
  if (offset > 0) return now + offset;
  return now === context.checkFromMs ? now + context.statusUpdateMs : now;
}

const unprovided = <T>() => fromPromise<T>(() => Promise.reject(new Error('supplied by the node agent')));
const failed = (event: NodeEvent) => (event as { error?: unknown }).error;
const reportError = { type: 'reportError', params: ({ event }: { event: NodeEvent }) => ({ error: failed(event) }) } as const;
const evictOne = { type: 'evictOne', params: ({ context }: { context: NodeContext }) => ({ availableBytes: measured(context).availableBytes }) } as const;
/**
 * What a failed write leaves: the error reported; the server's copy unknown when nobody answered;
 * then the loop's next wait. A renewal nobody answered brings a far status check to the next grid
 * point (a failed report plans its next check itself).
 */
const afterFailure = (next: 'nextRenewal' | 'nextCheck') => {
  const unknown = next === 'nextRenewal' ? (['forgetReported', 'statusUnknown'] as const) : (['forgetReported'] as const);
  const again = next === 'nextRenewal' ? (['retimeRenewal', 'nextRenewal'] as const) : (['planCheck', 'nextCheck'] as const);
  return [
    { guard: 'unanswered', actions: [...unknown, reportError, ...again] },
    { actions: [reportError, ...again] },
  ] as const;
};
/**
 * A measurement's consequences: the pressure noted, a pod evicted if memory is low, pods resynced,
 * then the report decided. The eviction comes before the resync, as the eviction manager's pass
 * precedes the status sync.
 */
const measuredLow = ['notePressure', evictOne, 'resyncPods', 'decide'] as const;
const measuredOk = ['notePressure', 'resyncPods', 'decide'] as const;

export const nodeMachine = setup({
  types: {
    context: {} as NodeContext,
    input: {} as NodeInput,
    events: {} as NodeEvent,
  },
  actors: {
    register: unprovided<Written>(),
    renewLease: unprovided<void>(),
    syncPods: unprovided<void>(),
  },
  guards: {
    /** The status changed since it was written, the server may not have it, or it is due (after notePressure). */
    reportNeeded: ({ context }) => context.reportedAtMs === undefined || context.pressure !== context.reportedPressure ||
      measured(context).atMs - context.reportedAtMs >= context.statusReportMs,
    underPressure: ({ context }) => pressureAfter(context, measured(context)),
    memoryLow: ({ context }) => measured(context).memoryLow,
    /** A far check can come sooner: at the next grid point. */
    checkSooner: ({ context }) => context.checkAtMs > context.now() && nextGridPoint(context) < context.checkAtMs,
    /** The error is a request nobody answered, or one the server refused: it may not hold what the agent believes. */
    unanswered: () => false,
    /** The error says the Node itself is gone. */
    nodeMissing: () => false,
  },
  delays: {
    leaseWaitMs: ({ context }) => context.leaseWaitMs,
    checkWaitMs: ({ context }) => context.checkAtMs - context.now(),
  },
  actions: {
    /** Host: write the Lease; answer RENEW_FAILED, or RENEWED if it ended later than it began. */
    renewLease: () => {},
    /** Host: write the status with `pressure`; answer REPORTED (with the time) or REPORT_FAILED. */
    writeStatus: (_, _params: { pressure: boolean }) => {},
    /** Host: create the Node again, with the status; answer REPORTED (with the time) or REPORT_FAILED. */
    registerNode: () => {},
    /** Host: an assign of the node's measurement (memory against evictionHard, and the time). */
    measure: assign({ measurement: ({ context }) => context.measurement }),
    /** Host: evict one pod, the worst by the eviction ranking. */
    evictOne: (_, _params: { availableBytes: number }) => {},
    /** Host: write again the running status of pods the server holds not Ready (the real status manager's sync). */
    resyncPods: () => {},
    /** Host: this check found memory pressure begun (true) or over (false). */
    pressureChanged: (_, _params: { pressure: boolean }) => {},
    reportError: (_, _params: { error: unknown }) => {},
    /** Host: stop watching and running pods; the agent is gone. */
    halt: () => {},
    notePressure: assign({
      lastLowMs: ({ context }) => (measured(context).memoryLow ? measured(context).atMs : context.lastLowMs),
      pressure: ({ context }) => pressureAfter(context, measured(context)),
      changed: false,
    }),
    noteRegistered: assign({ reportedAtMs: ({ event }) => (event as unknown as { output: Written }).output.atMs, reportedPressure: false }),
    noteReported: assign({ reportedAtMs: ({ event }) => (event as { atMs: number }).atMs, reportedPressure: ({ context }) => context.pressure }),
    forgetReported: assign({ reportedAtMs: undefined, reportedPressure: undefined }),
    /** The loops' next waits: delayed events of the machine's own, by id, so leaving Running cancels them. */
    drawLeaseWait: assign({ leaseWaitMs: ({ context }) => Math.round(context.leaseRenewMs * (1 + context.leaseJitterFactor * context.random.next())) }),
    /** The loops' phases: the first renewal and the first check at a point drawn within their periods. */
    drawPhases: assign(({ context }) => ({
      leaseWaitMs: Math.round(context.leaseRenewMs * context.random.next()),
      checkAtMs: context.now() + Math.round(context.statusUpdateMs * context.random.next()),
      checkFromMs: context.now(),
    })),
    nextRenewal: raise({ type: 'RENEW' }, { id: 'lease', delay: 'leaseWaitMs' }),
    /** The renewal ended later than it began: its wait begins again from the end. */
    retimeRenewal: cancel('lease'),
    planCheck: assign({ checkAtMs: ({ context }) => nextCheckAt(context), checkFromMs: ({ context }) => context.now() }),
    nextCheck: raise({ type: 'CHECK' }, { id: 'status', delay: 'checkWaitMs' }),
    /** Something changed while the check is far: it comes at the next grid point instead. */
    checkAtNextGridPoint: assign({ checkAtMs: ({ context }) => nextGridPoint(context) }),
    cancelCheck: cancel('status'),
    statusUnknown: raise({ type: 'CHANGED' }),
    noteChanged: assign({ changed: true }),
    measured: raise({ type: 'MEASURED' }),
    decide: raise({ type: 'DECIDE' }),
    noteFailure: assign({ error: ({ event }) => failureMessage(event) }),
  },
}).createMachine({
  id: 'node',
  initial: 'Starting',
  context: ({ input }) => ({ ...input, reportedAtMs: undefined, reportedPressure: undefined, measurement: undefined, lastLowMs: undefined, pressure: false,
    leaseWaitMs: 0, checkAtMs: 0, checkFromMs: 0, changed: false, error: undefined }),
  on: { STOP: '.Stopped', CRASH: '.Crashed' },
  states: {
    Starting: {
      initial: 'Registering',
      states: {
        Registering: {
          invoke: { id: 'register', src: 'register', onDone: { target: 'Leasing', actions: 'noteRegistered' }, onError: { target: '#node.Failed', actions: 'noteFailure' } },
        },
        Leasing: {
          invoke: { id: 'renewLease', src: 'renewLease', onDone: 'Syncing', onError: { target: '#node.Failed', actions: 'noteFailure' } },
        },
        Syncing: {
          invoke: { id: 'syncPods', src: 'syncPods', onDone: '#node.Running', onError: { target: '#node.Failed', actions: 'noteFailure' } },
        },
      },
    },
    Running: {
      id: 'node.Running',
      initial: 'Normal',
      entry: ['drawPhases', 'nextRenewal', 'nextCheck'],
      on: {
        RENEW: { actions: ['renewLease', 'drawLeaseWait', 'nextRenewal'] },
        RENEWED: { actions: ['retimeRenewal', 'nextRenewal'] },
        RENEW_FAILED: afterFailure('nextRenewal'),
        CHECK: { actions: ['measure', 'measured'] },
        DECIDE: [
          { guard: 'reportNeeded', actions: { type: 'writeStatus', params: ({ context }) => ({ pressure: context.pressure }) } },
          { actions: ['planCheck', 'nextCheck'] },
        ],
        REPORTED: { actions: ['noteReported', 'planCheck', 'nextCheck'] },
        CHANGED: [
          { guard: 'checkSooner', actions: ['checkAtNextGridPoint', 'cancelCheck', 'nextCheck'] },
          { actions: 'noteChanged' },
        ],
        REPORT_FAILED: [{ guard: 'nodeMissing', actions: [reportError, 'forgetReported', 'registerNode'] }, ...afterFailure('nextCheck')],
      },
      states: {
        Normal: {
          on: {
            MEASURED: [
              { guard: 'underPressure', target: 'Pressure', actions: [...measuredLow, { type: 'pressureChanged', params: { pressure: true } }] },
              { guard: 'memoryLow', actions: measuredLow },
              { actions: measuredOk },
            ],
          },
        },
        Pressure: {
          on: {
            MEASURED: [
              { guard: 'memoryLow', actions: measuredLow },
              { guard: 'underPressure', actions: measuredOk },
              { target: 'Normal', actions: [...measuredOk, { type: 'pressureChanged', params: { pressure: false } }] },
            ],
          },
        },
      },
    },
    Failed: { type: 'final', entry: 'halt' },
    Crashed: { type: 'final', entry: 'halt' },
    Stopped: { type: 'final', entry: 'halt' },
  },
});
