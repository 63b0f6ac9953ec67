// A zone's disruption state, as the node lifecycle controller computes it on every monitor pass
// from its nodes' Ready conditions (the real controller's ComputeZoneState):
//
//   any state  OBSERVE, no node Ready and at least one not           → FullDisruption
//              OBSERVE, more than 2 not Ready and at least
//                       unhealthyZoneThreshold of the zone not Ready → PartialDisruption
//              OBSERVE, otherwise                                    → Normal
//
// A zone starts Initial, before its first observation. What each state means for evictions (the
// rate of its NoExecute tainting) is the controller's business: it reads the state after each
// observation. A zone is a region plus a zone label; nodes without them share the zone "".
import { assign, setup } from 'xstate';

export type ZoneState = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

export interface ZoneContext {
  readonly unhealthyZoneThreshold: number;
  /** Nodes whose Ready condition was True, and the others, at the last observation. */
  readonly ready: number;
  readonly notReady: number;
}

export interface ZoneInput {
  unhealthyZoneThreshold: number;
}

export type ZoneEvent = { type: 'OBSERVE'; ready: number; notReady: number };

/** The state a zone with `ready` and `notReady` nodes is in (not Initial: that is only before the first count). */
export function zoneStateOf(ready: number, notReady: number, unhealthyZoneThreshold: number): Exclude<ZoneState, 'Initial'> {
  if (ready === 0 && notReady > 0) return 'FullDisruption';
  if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return 'PartialDisruption';
  return 'Normal';
}

const counted = assign<ZoneContext, ZoneEvent, undefined, ZoneEvent, never>({
  ready: ({ event }) => event.ready,
  notReady: ({ event }) => event.notReady,
});

const is = (state: ZoneState) => ({ context, event }: { context: ZoneContext; event: ZoneEvent }) =>
  zoneStateOf(event.ready, event.notReady, context.unhealthyZoneThreshold) === state;

export const zoneMachine = setup({
  types: { context: {} as ZoneContext, input: {} as ZoneInput, events: {} as ZoneEvent },
  guards: { fullDisruption: is('FullDisruption'), partialDisruption: is('PartialDisruption') },
}).createMachine({
  id: 'zone',
  initial: 'Initial',
  context: ({ input }) => ({ unhealthyZoneThreshold: input.unhealthyZoneThreshold, ready: 0, notReady: 0 }),
  on: {
    OBSERVE: [
      { guard: 'fullDisruption', target: '.FullDisruption', actions: counted },
      { guard: 'partialDisruption', target: '.PartialDisruption', actions: counted },
      { target: '.Normal', actions: counted },
    ],
  },
  states: { Initial: {}, Normal: {}, PartialDisruption: {}, FullDisruption: {} },
});
