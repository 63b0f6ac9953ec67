// A node's health as the node lifecycle controller sees it, one machine per node. The top-level
// states read as the node's Ready condition does; inside each, whether the node was heard from
// within its grace period:
//
//   Ready | NotReady | Unknown
//     Heard    after the grace period with no probe                           → Silent
//     Silent   (the grace period is over: the next monitor pass decides)
//   any        PROBED (a Lease renewal or a new heartbeat seen on a pass),
//              by the Ready condition's status it carries                    → Ready | NotReady | Unknown, Heard
//   any        RESET (the controller is back from every zone being down)      → the same state, Heard
//   Silent     PASS, the node's Ready condition not Unknown: the controller
//              sets its conditions Unknown (`markUnknown`); when it was
//              Ready, its pods are marked not Ready too (`markPodsNotReady`)  → Unknown.Silent
//
// A node starts Unknown, its startup grace period counted from its creation (`sinceProbeMs`);
// the controller sends PROBED at once when the node has posted a Ready condition, as the real
// controller takes first sight of it for a probe. The grace period is --node-monitor-grace-period
// once the node has posted a Ready condition, --node-startup-grace-period until then. The machine
// has no clock: a probe is what the controller saw on a pass, and its grace counts from that pass,
// as the real controller's probe timestamp does. The host supplies the I/O (`markUnknown`,
// `markPodsNotReady`) and learns that a verdict is due from `silent` and `heard`.
import { assign, setup } from 'xstate';

export type ReadyStatus = 'True' | 'False' | 'Unknown';

export interface NodeHealthInput {
  readonly monitorGraceMs: number;
  readonly startupGraceMs: number;
  /** How long before now the (startup) grace period began: since the node's creation. */
  readonly sinceProbeMs: number;
}

export interface NodeHealthContext {
  readonly monitorGraceMs: number;
  readonly startupGraceMs: number;
  /** The node has posted a Ready condition: the monitor grace period applies. */
  readonly posted: boolean;
  readonly sinceProbeMs: number;
}

export type NodeHealthEvent =
  | { type: 'PROBED'; ready: ReadyStatus | undefined }
  | { type: 'PASS'; ready: ReadyStatus | undefined }
  | { type: 'RESET' };

/** The top-level state a Ready condition's status reads as. */
const stateOf = (ready: ReadyStatus | undefined) => (ready === 'True' ? 'Ready' : ready === 'False' ? 'NotReady' : 'Unknown');

const probed = assign<NodeHealthContext, NodeHealthEvent, undefined, NodeHealthEvent, never>({
  posted: ({ context, event }) => context.posted || (event.type === 'PROBED' && event.ready !== undefined),
  sinceProbeMs: 0,
});

const notUnknown = ({ event }: { event: NodeHealthEvent }) => event.type === 'PASS' && event.ready !== 'Unknown';
const reads = (state: string) => ({ event }: { event: NodeHealthEvent }) => event.type === 'PROBED' && stateOf(event.ready) === state;

/** One top-level state: heard or silent, its verdict on a pass once silent, and a fresh grace period on RESET. */
function healthState(name: 'Ready' | 'NotReady' | 'Unknown', verdict: object) {
  return {
    id: `node-health.${name}`,
    initial: 'Heard',
    on: { RESET: { target: `#node-health.${name}`, reenter: true, actions: 'restartGrace' } },
    states: {
      Heard: { id: `node-health.${name}.Heard`, entry: 'heard', after: { graceMs: 'Silent' } },
      Silent: { entry: 'silent', on: { PASS: verdict } },
    },
  } as const;
}

export const nodeHealthMachine = setup({
  types: { context: {} as NodeHealthContext, input: {} as NodeHealthInput, events: {} as NodeHealthEvent },
  guards: { notUnknown },
  delays: {
    graceMs: ({ context }) => Math.max(0, (context.posted ? context.monitorGraceMs : context.startupGraceMs) - context.sinceProbeMs),
  },
  actions: {
    /** Host: set the node's Ready, MemoryPressure, DiskPressure and PIDPressure conditions Unknown. */
    markUnknown: () => {},
    /** Host: set the Ready condition of the node's pods False. */
    markPodsNotReady: () => {},
    /** Host: the grace period is over; a verdict is due on the next pass. */
    silent: () => {},
    /** Host: heard from within the grace period. */
    heard: () => {},
    restartGrace: assign({ sinceProbeMs: 0 }),
  },
}).createMachine({
  id: 'node-health',
  initial: 'Unknown',
  context: ({ input }) => ({ monitorGraceMs: input.monitorGraceMs, startupGraceMs: input.startupGraceMs, posted: false, sinceProbeMs: input.sinceProbeMs }),
  on: {
    PROBED: [
      { guard: reads('Ready'), target: '#node-health.Ready', reenter: true, actions: probed },
      { guard: reads('NotReady'), target: '#node-health.NotReady', reenter: true, actions: probed },
      { target: '#node-health.Unknown', reenter: true, actions: probed },
    ],
  },
  states: {
    Ready: healthState('Ready', { guard: 'notUnknown', target: '#node-health.Unknown.Silent', actions: ['markUnknown', 'markPodsNotReady'] }),
    NotReady: healthState('NotReady', { guard: 'notUnknown', target: '#node-health.Unknown.Silent', actions: 'markUnknown' }),
    Unknown: healthState('Unknown', { guard: 'notUnknown', actions: 'markUnknown' }),
  },
});
