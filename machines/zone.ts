// A zone's disruption state and the rate its nodes are tainted at, as the node lifecycle
// controller keeps them (the real ComputeZoneState and setLimiterInZone). Every monitor pass
// sends OBSERVE with the zone's counts of Ready and not Ready nodes:
//
//   any state  no node Ready and at least one not                             → FullDisruption
//              more than 2 not Ready and at least unhealthyZoneThreshold
//              of the zone not Ready                                          → PartialDisruption
//              otherwise                                                      → Normal
//
// A zone starts Initial, before its first observation; an observation that leaves the state as
// it is changes only the counts. Entering a state sets the zone's tainting rate (`setRate`):
// the eviction rate when Normal or fully disrupted (a fully disrupted zone is tainted as a
// healthy one is: the outage is the zone's), the secondary rate when partially disrupted, or 0
// in a zone of at most largeClusterSizeThreshold nodes. The rate is kept in the context, for the
// controller to restore when it comes back from every zone being down. A zone is a region plus a
// zone label; nodes without them share the zone "".
import { assign, setup } from 'xstate';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

export interface ZoneInput {
  readonly unhealthyZoneThreshold: number;
  /** --node-eviction-rate, nodes per second. */
  readonly evictionRate: number;
  /** --secondary-node-eviction-rate. */
  readonly secondaryEvictionRate: number;
  /** --large-cluster-size-threshold. */
  readonly largeClusterSizeThreshold: number;
}

export interface ZoneContext extends ZoneInput {
  /** Nodes whose Ready condition was True, and the others, at the last observation. */
  readonly ready: number;
  readonly notReady: number;
  /** The zone's nodes, for the large-cluster rule. */
  readonly size: number;
  /** The tainting rate the state set, nodes per second. */
  readonly qps: number;
}

export type ZoneEvent = { type: 'OBSERVE'; ready: number; notReady: number; size: number };

type Disruption = Exclude<ZoneState, 'Initial'>;

/** The state a zone with `ready` and `notReady` nodes is in. */
function stateOf(ready: number, notReady: number, unhealthyZoneThreshold: number): Disruption {
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return 'PartialDisruption';
  return 'Normal';
}

function rateOf(state: Disruption, c: ZoneContext): number {
  if (state === 'PartialDisruption') return c.size <= c.largeClusterSizeThreshold ? 0 : c.secondaryEvictionRate;
  return c.evictionRate;
}

const counted = assign<ZoneContext, ZoneEvent, undefined, ZoneEvent, never>({
  ready: ({ event }) => event.ready,
  notReady: ({ event }) => event.notReady,
  size: ({ event }) => event.size,
});

const reads = (state: Disruption) => ({ context, event }: { context: ZoneContext; event: ZoneEvent }) =>
  stateOf(event.ready, event.notReady, context.unhealthyZoneThreshold) === state;

/** Into `state` when the counts read so; only the counts change when the zone is in it already. */
const OBSERVE = (from: ZoneState) => (['FullDisruption', 'PartialDisruption', 'Normal'] as const).map((state) =>
  state === from ? { guard: reads(state), actions: counted } : { guard: reads(state), target: state, actions: counted });

/** On entry: the state's rate, kept and handed to the host. */
const rate = (state: Disruption) => [
  assign<ZoneContext, ZoneEvent, undefined, ZoneEvent, never>({ qps: ({ context }) => rateOf(state, context) }),
  { type: 'setRate' as const, params: ({ context }: { context: ZoneContext }) => ({ qps: context.qps }) },
];

export const zoneMachine = setup({
  types: { context: {} as ZoneContext, input: {} as ZoneInput, events: {} as ZoneEvent },
  actions: {
    /** Host: taint this zone's nodes at `qps` from now on. */
    setRate: (_, _params: { qps: number }) => {},
  },
}).createMachine({
  id: 'zone',
  initial: 'Initial',
  context: ({ input }) => ({ ...input, ready: 0, notReady: 0, size: 0, qps: input.evictionRate }),
  states: {
    Initial: { on: { OBSERVE: OBSERVE('Initial') } },
    Normal: { entry: rate('Normal'), on: { OBSERVE: OBSERVE('Normal') } },
    PartialDisruption: { entry: rate('PartialDisruption'), on: { OBSERVE: OBSERVE('PartialDisruption') } },
    FullDisruption: { entry: rate('FullDisruption'), on: { OBSERVE: OBSERVE('FullDisruption') } },
  },
});
