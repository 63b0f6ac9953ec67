// A node's health as the node lifecycle controller sees it, one machine per node. The top-level
// states read as the node's Ready condition does; inside each, whether the node was heard from
// within its grace period:
//
//   Ready | NotReady | Unknown
//     Heard    after what is left of the grace period since the last probe        → Looking
//     Looking  the host tells when it last heard from the node (`look`):
//              the grace period is over                                          → Silent
//              a probe came meanwhile                                            → Heard (the rest of the new grace period)
//     Silent   PASS (the next monitor pass), a probe came meanwhile              → Heard
//              PASS, the node's Ready condition not Unknown: its conditions are
//              set Unknown (`markUnknown`), and when it was Ready, its pods'
//              Ready condition False (`markPodsNotReady`)                        → Unknown.Silent
//   any        OBSERVED (the Ready condition's status changed, heard on a pass)  → Ready | NotReady | Unknown, Heard
//   any        RESET (the controller is back from every zone being down)         → the same state, Heard, a fresh grace period
//
// A probe is a renewal of the node's Lease or a new heartbeat in its Ready condition, seen on a
// monitor pass; the host keeps when it last saw one (the real controller's probe timestamp) and
// the machine reads it only when its grace period would end, so a probe costs the machine
// nothing. The grace period is --node-monitor-grace-period once the node has posted a Ready
// condition, --node-startup-grace-period until then; a node starts Unknown, its last probe its
// creation. The machine has no clock: events and `look` carry the host's times. The host supplies
// `look` (an assign), `markUnknown`, `markPodsNotReady`, and learns from `silent` and `heard`
// which nodes await a verdict.
import { assign, setup } from 'xstate';

export type ReadyStatus = 'True' | 'False' | 'Unknown';

/** When the node was last heard from, and when the host looked: milliseconds on the host's clock. */
export interface Probe {
  readonly probeMs: number;
  readonly nowMs: number;
}

export interface NodeHealthInput extends Probe {
  readonly monitorGraceMs: number;
  readonly startupGraceMs: number;
}

export interface NodeHealthContext extends NodeHealthInput {
  /** The node has posted a Ready condition: the monitor grace period applies. */
  readonly posted: boolean;
}

export type NodeHealthEvent =
  | ({ type: 'OBSERVED'; ready: ReadyStatus | undefined } & Probe)
  | ({ type: 'PASS'; ready: ReadyStatus | undefined } & Probe)
  | { type: 'RESET'; nowMs: number };

const grace = (c: NodeHealthContext) => (c.posted ? c.monitorGraceMs : c.startupGraceMs);
/** The grace period is over: nothing heard for a whole grace period (the real now.After(probe + grace), on passes that slide later). */
const overdue = (c: NodeHealthContext, p: Probe) => p.nowMs - p.probeMs >= grace(c);
const stateOf = (ready: ReadyStatus | undefined) => (ready === 'True' ? 'Ready' : ready === 'False' ? 'NotReady' : 'Unknown');
const probeOf = ({ event }: { event: NodeHealthEvent }): Probe => event as Probe;

type Top = 'Ready' | 'NotReady' | 'Unknown';

/** One top-level state: heard, looking or silent, its verdict on a pass once silent, and a fresh grace period on RESET. */
function healthState(name: Top, verdict: object) {
  return {
    id: `node-health.${name}`,
    initial: 'Heard',
    on: { RESET: { target: `#node-health.${name}`, reenter: true, actions: 'restartGrace' } },
    states: {
      Heard: { id: `node-health.${name}.Heard`, entry: 'heard', after: { graceLeftMs: 'Looking' } },
      Looking: { entry: 'look', always: [{ guard: 'overdue', target: 'Silent' }, { target: 'Heard' }] },
      Silent: {
        entry: 'silent',
        on: { PASS: [{ guard: 'heardSince', target: 'Heard', actions: 'noteProbe' }, verdict] },
      },
    },
  } as const;
}

export const nodeHealthMachine = setup({
  types: { context: {} as NodeHealthContext, input: {} as NodeHealthInput, events: {} as NodeHealthEvent },
  guards: {
    overdue: ({ context }) => overdue(context, context),
    heardSince: ({ context, event }) => !overdue(context, probeOf({ event })),
    /** The node's Ready condition, as it stands, is not Unknown (or is missing): it must be set so. */
    notUnknown: ({ event }) => event.type === 'PASS' && event.ready !== 'Unknown',
    reads: ({ event }, params: { state: Top }) => event.type === 'OBSERVED' && stateOf(event.ready) === params.state,
  },
  delays: {
    graceLeftMs: ({ context }) => Math.max(0, context.probeMs + grace(context) - context.nowMs),
  },
  actions: {
    /** Host: an assign of when it last heard from the node, and now. */
    look: assign(({ context }) => ({ probeMs: context.probeMs, nowMs: context.nowMs })),
    /** Host: set the node's Ready, MemoryPressure, DiskPressure and PIDPressure conditions Unknown. */
    markUnknown: () => {},
    /** Host: set the Ready condition of the node's pods False. */
    markPodsNotReady: () => {},
    /** Host: the grace period is over; a verdict is due on the next pass. */
    silent: () => {},
    /** Host: heard from within the grace period. */
    heard: () => {},
    noteProbe: assign(({ event }) => ({ probeMs: probeOf({ event }).probeMs, nowMs: probeOf({ event }).nowMs })),
    noteObserved: assign(({ context, event }) => ({
      probeMs: probeOf({ event }).probeMs, nowMs: probeOf({ event }).nowMs,
      posted: context.posted || (event.type === 'OBSERVED' && event.ready !== undefined),
    })),
    restartGrace: assign(({ event }) => {
      const nowMs = (event as { nowMs: number }).nowMs;
      return { probeMs: nowMs, nowMs };
    }),
  },
}).createMachine({
  id: 'node-health',
  initial: 'Unknown',
  context: ({ input }) => ({ ...input, posted: false }),
  on: {
    OBSERVED: [
      { guard: { type: 'reads', params: { state: 'Ready' } }, target: '#node-health.Ready', reenter: true, actions: 'noteObserved' },
      { guard: { type: 'reads', params: { state: 'NotReady' } }, target: '#node-health.NotReady', reenter: true, actions: 'noteObserved' },
      { target: '#node-health.Unknown', reenter: true, actions: 'noteObserved' },
    ],
  },
  states: {
    Ready: healthState('Ready', { guard: 'notUnknown', target: '#node-health.Unknown.Silent', actions: ['markUnknown', 'markPodsNotReady'] }),
    NotReady: healthState('NotReady', { guard: 'notUnknown', target: '#node-health.Unknown.Silent', actions: 'markUnknown' }),
    Unknown: healthState('Unknown', { guard: 'notUnknown', actions: 'markUnknown' }),
  },
});
