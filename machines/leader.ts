// One replica's part in a leader election on a Lease (what client-go's leader elector does):
//
//   Candidate  HELD (another holder, not expired on our clock)  → Follower
//              ACQUIRED (we wrote ourselves in as holder)         → Leader
//   Follower   RETRY (after retryPeriod plus up to 1.2 × it)      → Candidate
//   Leader     RENEWED                                            → Leader
//              LOST (no renewal within renewDeadline, or
//                    another holder found)                        → Candidate
//   any        STOP (shutdown; a leader releases the lock first)  → Stopped
//
// The host does the I/O (reading and writing the Lease) and the timing, and tells the machine
// what happened; the machine keeps the state the inspector shows and counts terms.
import { assign, setup } from 'xstate';

export type LeaderEvent =
  | { type: 'HELD'; holder: string }
  | { type: 'ACQUIRED' }
  | { type: 'RETRY' }
  | { type: 'RENEWED' }
  | { type: 'LOST' }
  | { type: 'STOP' };

export interface LeaderContext {
  readonly identity: string;
  /** The holder last seen (ourselves while leading). */
  readonly holder: string;
  /** How many times this replica became leader. */
  readonly terms: number;
}

export const leaderMachine = setup({
  types: { context: {} as LeaderContext, events: {} as LeaderEvent, input: {} as { identity: string } },
}).createMachine({
  id: 'leader',
  initial: 'Candidate',
  context: ({ input }) => ({ identity: input.identity, holder: '', terms: 0 }),
  states: {
    Candidate: {
      on: {
        HELD: { target: 'Follower', actions: assign({ holder: ({ event }) => event.holder }) },
        ACQUIRED: { target: 'Leader', actions: assign({ holder: ({ context }) => context.identity, terms: ({ context }) => context.terms + 1 }) },
      },
    },
    Follower: { on: { RETRY: 'Candidate' } },
    Leader: { on: { RENEWED: 'Leader', LOST: 'Candidate' } },
    Stopped: { type: 'final' },
  },
  on: { STOP: '.Stopped' },
});

export type LeaderState = 'Candidate' | 'Follower' | 'Leader' | 'Stopped';
