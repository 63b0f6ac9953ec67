// Object deletion, the two phases of seed 000 ("States and transitions"): finalization, then
// removal. An object is held while a finalizer is on it, while its kind blocks removal (a
// Namespace with spec.finalizers) or while a grace period runs (a pod's node agent stopping it).
//
//   Live         DELETE, the object held after it           → Terminating: deletion timestamp
//                                                              = atMs + grace, policy finalizers
//   Live         DELETE, nothing holds it                   → Removed (at once)
//   Terminating  DELETE, nothing holds it any more          → Removed (a grace period cut to 0,
//                                                              or Background taking off the last
//                                                              policy finalizer)
//   Terminating  DELETE, a shorter grace period             → Terminating: the period counts from
//                                                              when deletion was first asked for
//   Terminating  DELETE, a changed policy, no grace running → Terminating: policy finalizers swapped
//                                                              or taken off
//   Terminating  DELETE, anything else                      → no transition (already being deleted)
//   Terminating  FINALIZERS_CHANGED, nothing holds it       → Removed (storage deletes the object)
//   Terminating  FINALIZERS_CHANGED, removals or a reorder  → Terminating, finalizers replaced
//   Terminating  FINALIZERS_CHANGED adding a finalizer      → no transition: rejected
//   Removed      (final)                                    → ignores everything
//
// The machine decides; the registry writes what the resulting snapshot says and records it. It
// has no clock: a DELETE carries the time it was asked for, and the context holds the deletion
// timestamp in ms. What the registry decides before it asks: authorization and admission (a
// DELETE is accepted), the grace period the kind grants the request, whether the kind blocks
// removal, and that an update changed the finalizers (else it sends nothing). Live objects'
// finalizers change freely and are not the machine's business: their updates never reach it.
// A rejected change leaves the snapshot as it was; the registry answers 422 Invalid.
import { assign, not, setup, type SnapshotFrom } from 'xstate';
import { finalizersRemain, propagate, propagationChanges, type PropagationRequest } from './propagation.ts';

export interface ObjectContext {
  /** metadata.finalizers. */
  readonly finalizers: readonly string[];
  /** Removal waits besides the finalizers: a Namespace's spec.finalizers, as its strategy says. */
  readonly blocked: boolean;
  /** metadata.deletionTimestamp in ms: when the object goes once nothing else holds it; undefined while Live. */
  readonly deletionMs: number | undefined;
  /** metadata.deletionGracePeriodSeconds; 0 while Live. */
  readonly gracePeriodSeconds: number;
}

/** A Live object, for an actor hosting the machine. */
export interface ObjectInput {
  readonly finalizers?: readonly string[];
  readonly blocked?: boolean;
}

export interface DeleteEvent extends PropagationRequest {
  readonly type: 'DELETE';
  /** When the delete was asked for: a new deletion timestamp counts from it. */
  readonly atMs: number;
  /** The grace period the kind grants this request; 0 for kinds without one. */
  readonly gracePeriodSeconds: number;
}

export interface FinalizersChangedEvent {
  readonly type: 'FINALIZERS_CHANGED';
  readonly finalizers: readonly string[];
  /** Whether the kind blocks removal of the object as changed. */
  readonly blocked: boolean;
}

export type ObjectEvent = DeleteEvent | FinalizersChangedEvent;

export type ObjectState = 'Live' | 'Terminating' | 'Removed';

const NONE: readonly string[] = [];

/** The finalizers in `next` that `current` lacks: what a terminating object may not take on. */
export function addedFinalizers(current: readonly string[], next: readonly string[]): string[] {
  return next.filter((f) => !current.includes(f));
}

type Args = { context: ObjectContext; event: ObjectEvent };

/** After this event, something still holds the object: a finalizer, its kind, or a grace period. */
function held({ context, event }: Args): boolean {
  if (event.type === 'FINALIZERS_CHANGED') return event.finalizers.length > 0 || event.blocked || context.gracePeriodSeconds > 0;
  return event.gracePeriodSeconds > 0 || context.blocked || finalizersRemain(context.finalizers, event);
}

/**
 * A later delete changes a pending deletion by shortening its grace period or, while no grace
 * period runs, by a policy that adds or takes off a policy finalizer; a longer or equal period
 * changes nothing, as rest.BeforeDelete has it.
 */
function changesDeletion({ context, event }: Args): boolean {
  const e = event as DeleteEvent;
  if (e.gracePeriodSeconds < context.gracePeriodSeconds) return true;
  return context.gracePeriodSeconds === 0 && propagationChanges(context.finalizers, e);
}

/** Removals and reorders only: order is not enforced, and the list is shared by every controller. */
function addsNoFinalizer({ context, event }: Args): boolean {
  return addedFinalizers(context.finalizers, (event as FinalizersChangedEvent).finalizers).length === 0;
}

export const objectMachine = setup({
  types: {
    context: {} as ObjectContext,
    input: {} as ObjectInput | undefined,
    events: {} as ObjectEvent,
  },
  guards: { held, changesDeletion, addsNoFinalizer },
  actions: {
    startDeletion: assign(({ context, event }) => {
      const e = event as DeleteEvent;
      return { finalizers: propagate(context.finalizers, e), deletionMs: e.atMs + e.gracePeriodSeconds * 1000, gracePeriodSeconds: e.gracePeriodSeconds };
    }),
    updateDeletion: assign(({ context, event }) => {
      const e = event as DeleteEvent;
      const finalizers = propagate(context.finalizers, e);
      if (e.gracePeriodSeconds >= context.gracePeriodSeconds) return { finalizers };
      // Counted from when deletion was first asked for, not from now.
      const deletionMs = context.deletionMs! - (context.gracePeriodSeconds - e.gracePeriodSeconds) * 1000;
      return { finalizers, deletionMs, gracePeriodSeconds: e.gracePeriodSeconds };
    }),
    takeFinalizers: assign(({ event }) => {
      const e = event as FinalizersChangedEvent;
      return { finalizers: e.finalizers, blocked: e.blocked };
    }),
  },
}).createMachine({
  id: 'object',
  initial: 'Live',
  // Objects without finalizers share one empty list. XState's pure functions build a throwaway
  // actor with no input at all: that is a Live object nothing holds.
  context: ({ input }) => ({
    finalizers: input?.finalizers?.length ? input.finalizers : NONE,
    blocked: input?.blocked ?? false,
    deletionMs: undefined,
    gracePeriodSeconds: 0,
  }),
  states: {
    Live: {
      on: {
        DELETE: [{ guard: 'held', target: 'Terminating', actions: 'startDeletion' }, { target: 'Removed' }],
      },
    },
    // Changes that stay Terminating name it as their target: they are transitions (the actor
    // system records those with a target), not context edits.
    Terminating: {
      on: {
        DELETE: [
          { guard: not('held'), target: 'Removed' },
          { guard: 'changesDeletion', target: 'Terminating', actions: 'updateDeletion' },
        ],
        FINALIZERS_CHANGED: [
          { guard: not('held'), target: 'Removed', actions: 'takeFinalizers' },
          { guard: 'addsNoFinalizer', target: 'Terminating', actions: 'takeFinalizers' },
        ],
      },
    },
    Removed: { type: 'final' },
  },
});

export type ObjectSnapshot = SnapshotFrom<typeof objectMachine>;
