// Object deletion, the two phases of seed 000 ("States and transitions"): finalization, then removal.
//
//   Live         DELETE (accepted), finalizers pending  → Terminating
//   Live         DELETE (accepted), no finalizers       → Removed   (the seed leaves this open; we do what
//                                                                     real servers do: remove at once)
//   Live         FINALIZERS_CHANGED                     → Live, finalizers replaced
//   Terminating  FINALIZERS_CHANGED, list empty         → Removed   (storage deletes the object)
//   Terminating  FINALIZERS_CHANGED, only removals or a reorder → Terminating, finalizers replaced
//   Terminating  FINALIZERS_CHANGED adding a finalizer  → no transition: rejected
//   Terminating  DELETE                                → no transition: already being deleted
//   Removed      (final)                               → ignores everything
//
// The machine only decides; the registry does the writing. "Accepted" means the registry has already
// passed authorization and admission before it sends DELETE; setting `deletionTimestamp` to its
// clock's time is the registry's job too (a machine has no clock). A rejected change leaves the
// machine and its context untouched and raises nothing: the registry asks `snapshot.can(event)`
// before committing an update, and answers 422 Invalid when it is false.
import { assign, setup } from 'xstate';

export interface ObjectContext {
  readonly finalizers: readonly string[];
}

export interface ObjectInput {
  readonly finalizers?: readonly string[];
}

export type ObjectEvent =
  | { type: 'DELETE' }
  | { type: 'FINALIZERS_CHANGED'; finalizers: readonly string[] };

type Changed = Extract<ObjectEvent, { type: 'FINALIZERS_CHANGED' }>;

const NONE: readonly string[] = [];

function hasFinalizers({ context }: { context: ObjectContext }): boolean {
  return context.finalizers.length > 0;
}

function lastFinalizerRemoved({ event }: { event: ObjectEvent }): boolean {
  return event.type === 'FINALIZERS_CHANGED' && event.finalizers.length === 0;
}

/** Removals and reorders only: order is not enforced, and the list is shared by every controller. */
function addsNoFinalizer({ context, event }: { context: ObjectContext; event: ObjectEvent }): boolean {
  return event.type === 'FINALIZERS_CHANGED' && event.finalizers.every((f) => context.finalizers.includes(f));
}

export const objectMachine = setup({
  types: {
    context: {} as ObjectContext,
    input: {} as ObjectInput,
    events: {} as ObjectEvent,
  },
  guards: { hasFinalizers, lastFinalizerRemoved, addsNoFinalizer },
  actions: {
    replaceFinalizers: assign({ finalizers: ({ event }) => (event as Changed).finalizers }),
  },
}).createMachine({
  id: 'object',
  initial: 'Live',
  // Objects without finalizers share one empty list.
  context: ({ input }) => ({ finalizers: input.finalizers?.length ? input.finalizers : NONE }),
  states: {
    Live: {
      on: {
        DELETE: [{ guard: 'hasFinalizers', target: 'Terminating' }, { target: 'Removed' }],
        FINALIZERS_CHANGED: { actions: 'replaceFinalizers' },
      },
    },
    Terminating: {
      on: {
        FINALIZERS_CHANGED: [
          { guard: 'lastFinalizerRemoved', target: 'Removed', actions: 'replaceFinalizers' },
          { guard: 'addsNoFinalizer', actions: 'replaceFinalizers' },
        ],
      },
    },
    Removed: { type: 'final' },
  },
});

export type ObjectState = 'Live' | 'Terminating' | 'Removed';
