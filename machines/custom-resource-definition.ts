// A CustomResourceDefinition's life as the API server serves it (apiextensions-apiserver's naming,
// establishing and finalizer controllers):
//
//   Naming        NAMES accepted            → Establishing
//                 NAMES not accepted        → NotAccepted      (a plural, kind or short name another definition holds)
//   NotAccepted   entry: reject (NamesAccepted False, Established False)
//                 NAMES accepted            → Establishing     (the conflict went away)
//   Establishing  invoke establish: serve the types, write NamesAccepted and Established
//                 done                      → Established
//                 error                     → after retryMs: Establishing
//   Established   SPEC_CHANGED              → Establishing     (versions, schemas or columns changed: serve them anew)
//   any state     DELETING                  → Terminating.DeletingInstances
//   Terminating   DeletingInstances  invoke deleteInstances: delete every custom object, wait until none is left
//                                    done   → Finalizing
//                                    error  → after retryMs: DeletingInstances
//                 Finalizing         invoke finalize: remove the cleanup finalizer → Removed (final)
//   any state     GONE (the definition left the store)  → Removed
//
// The host (actors/apiserver/custom-resources/definitions.ts) checks the names against the other
// definitions, supplies the three invoked actors and stops serving the types when the machine is
// Removed. The retry delay runs on the clock the actor is created with.
import { fromPromise, setup } from 'xstate';

export interface CustomResourceDefinitionInput {
  readonly name: string;
  /** How long a failed step waits before it is tried again (the real controllers requeue with back-off; 5 s is their poll). */
  readonly retryMs: number;
}

export type CustomResourceDefinitionEvent =
  | { type: 'NAMES'; accepted: boolean }
  | { type: 'SPEC_CHANGED' }
  | { type: 'DELETING' }
  | { type: 'GONE' };

const pending = fromPromise<void, { name: string }>(async () => {});

export const customResourceDefinitionMachine = setup({
  types: {
    context: {} as CustomResourceDefinitionInput,
    input: {} as CustomResourceDefinitionInput,
    events: {} as CustomResourceDefinitionEvent,
  },
  actors: {
    /** Serve the definition's types and write its NamesAccepted and Established conditions. */
    establish: pending,
    /** Delete every object of the definition's types and resolve once none is left. */
    deleteInstances: pending,
    /** Remove the cleanup finalizer, so the definition leaves the store. */
    finalize: pending,
  },
  actions: {
    /** Write NamesAccepted False with the conflict, and Established False. */
    reject: () => {},
  },
  delays: {
    retryMs: ({ context }) => context.retryMs,
  },
  guards: {
    accepted: ({ event }) => event.type === 'NAMES' && event.accepted,
  },
}).createMachine({
  id: 'crd',
  context: ({ input }) => input,
  initial: 'Naming',
  on: {
    DELETING: '.Terminating',
    GONE: '.Removed',
  },
  states: {
    Naming: {
      on: { NAMES: [{ guard: 'accepted', target: 'Establishing' }, { target: 'NotAccepted' }] },
    },
    NotAccepted: {
      entry: 'reject',
      on: { NAMES: { guard: 'accepted', target: 'Establishing' } },
    },
    Establishing: {
      id: 'crd.Establishing',
      initial: 'Serving',
      states: {
        Serving: {
          invoke: { id: 'establish', src: 'establish', input: ({ context }) => ({ name: context.name }),
            onDone: '#crd.Established', onError: 'Waiting' },
        },
        Waiting: { after: { retryMs: 'Serving' } },
      },
      on: { SPEC_CHANGED: { target: '.Serving', reenter: true } },
    },
    Established: {
      on: { SPEC_CHANGED: 'Establishing' },
    },
    Terminating: {
      id: 'crd.Terminating',
      initial: 'DeletingInstances',
      on: { DELETING: {} },
      states: {
        DeletingInstances: {
          initial: 'Deleting',
          states: {
            Deleting: {
              invoke: { id: 'deleteInstances', src: 'deleteInstances', input: ({ context }) => ({ name: context.name }),
                onDone: '#crd.Terminating.Finalizing', onError: 'Waiting' },
            },
            Waiting: { after: { retryMs: 'Deleting' } },
          },
        },
        Finalizing: {
          initial: 'Removing',
          states: {
            Removing: {
              invoke: { id: 'finalize', src: 'finalize', input: ({ context }) => ({ name: context.name }), onError: 'Waiting' },
            },
            Waiting: { after: { retryMs: 'Removing' } },
          },
        },
      },
    },
    Removed: { type: 'final' },
  },
});
