// One replica's part in a leader election on a Lease, as client-go's leader elector runs it. An
// attempt (client-go's tryAcquireOrRenew) reads the Lease, then this machine decides whether to
// write itself in as holder:
//
//   Candidate  Reading     readLease                                  → Writing: the Lease is absent,
//                                                                       released, ours, or its record
//                                                                       expired; → Follower: another
//                                                                       holder's claim stands;
//                                                                       → Waiting: the read failed
//              Writing     writeLease                                 → Leader; → Waiting: it failed
//              Waiting     after retryPeriod + up to 1.2 × it         → Reading
//              SteppedDown after retryPeriod (a leader that lost the
//                          Lease campaigns again, as a restarted
//                          replica would)                             → Reading
//   Follower               after retryPeriod + up to 1.2 × it         → Candidate
//   Leader     Holding     after retryPeriod                          → Renewing
//              Renewing    Reading → Writing → Holding; a failed read or write, or another
//                          holder's claim, → Backoff, after retryPeriod → Reading.
//                          after renewDeadline (a hung request counts as failed) → Candidate.SteppedDown
//   Candidate, Follower    STOP                                       → Stopped
//   Leader                 STOP                                       → Releasing (release) → Stopped
//
// Expiry is judged on the replica's own clock, never against the record's times: whenever a read
// finds the record changed, or a write succeeds, LEASE_EXPIRED is scheduled leaseDuration later
// (replacing the one pending); when it fires, the record observed last counts as expired. An
// attempt judges the holder's claim as it was when the attempt began, as client-go does.
//
// The host does the I/O: the invoked actors `readLease`, `writeLease` and `release`, and the
// actions reporting what happened. Every delay is named and reads the context; the jittered retry
// draws once from the injected `random`, each time it is armed. Explicit state ids give delayed
// events stable ids (`xstate.after.jitteredRetryMs.leader.Follower`).
import { assign, enqueueActions, fromPromise, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import type { Random } from '../actors/api/env.ts';

/** client-go's JitterFactor for candidates' retries. */
export const RETRY_JITTER = 1.2;

export interface LeaderInput {
  /** Who this replica is: the Lease's holderIdentity while it leads. */
  readonly identity: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  /** The replica's seeded stream: every jittered retry draws once from it. */
  readonly random: Random;
}

export interface LeaderContext extends LeaderInput {
  /** The holder last seen ('' once released; ourselves while leading). */
  readonly holder: string;
  /** How many times this replica became leader. */
  readonly terms: number;
  /** The record observed last has not changed for a leaseDuration (LEASE_EXPIRED fired). */
  readonly recordExpired: boolean;
  /** `recordExpired` as the current attempt began. */
  readonly expiredAtAttempt: boolean;
}

export type LeaderEvent = { type: 'STOP' } | { type: 'LEASE_EXPIRED' };

/**
 * What reading the Lease found: it failed (a timeout, a refusal), there is no Lease yet, or its
 * record, with `changed` true when it differs from the record observed last (read or written).
 */
export type LeaseRead = { kind: 'failed' } | { kind: 'absent' } | { kind: 'record'; holder: string; changed: boolean };

export type LeaderState = 'Candidate' | 'Follower' | 'Leader' | 'Releasing' | 'Stopped';

const LEASE_EXPIRY = 'leaseExpiry';

const unprovided = (): Promise<never> => Promise.reject(new Error('the host of the leader machine provides its Lease I/O'));

const readOutput = ({ event }: { event: DoneActorEvent<LeaseRead> }) => event.output;
const writeOutput = ({ event }: { event: DoneActorEvent<boolean> }) => event.output;
/** A successful write: the record changed, and we hold it. */
const wroteSelf = ({ context }: { context: LeaderContext }): LeaseRead => ({ kind: 'record', holder: context.identity, changed: true });
const reportError = { type: 'reportError', params: ({ event }: { event: ErrorActorEvent }) => ({ error: event.error }) } as const;

/**
 * One attempt (client-go's tryAcquireOrRenew), the states `Reading` and `Writing` under the state
 * `id`; it ends in `failed`, in `held` (another holder's claim stands) or in `won`.
 */
function attempt(id: string, ends: { failed: string; held: string; won: string }) {
  return {
    Reading: {
      id: `${id}.Reading`,
      entry: 'beginAttempt',
      invoke: {
        id: 'readLease', src: 'readLease',
        onDone: [
          { guard: { type: 'readFailed', params: readOutput }, target: ends.failed },
          { guard: { type: 'claimStands', params: readOutput }, target: ends.held, actions: { type: 'observe', params: readOutput } },
          { target: 'Writing', actions: { type: 'observe', params: readOutput } },
        ],
        onError: { target: ends.failed, actions: reportError },
      },
    },
    Writing: {
      id: `${id}.Writing`,
      invoke: {
        id: 'writeLease', src: 'writeLease',
        onDone: [
          { guard: { type: 'written', params: writeOutput }, target: ends.won, actions: { type: 'observe', params: wroteSelf } },
          { target: ends.failed },
        ],
        onError: { target: ends.failed, actions: reportError },
      },
    },
  } as const;
}

export const leaderMachine = setup({
  types: { context: {} as LeaderContext, input: {} as LeaderInput, events: {} as LeaderEvent },
  actors: {
    /** Reads the Lease (client-go's lock Get). */
    readLease: fromPromise<LeaseRead>(unprovided),
    /** Writes this replica in as holder of the Lease last read (creates it when it was absent); false when the write failed. */
    writeLease: fromPromise<boolean>(unprovided),
    /** Clears the holder of the Lease if it is still ours, so a successor need not wait out the lease. */
    release: fromPromise<void>(unprovided),
  },
  delays: {
    retryPeriodMs: ({ context }) => context.retryPeriodMs,
    jitteredRetryMs: ({ context }) => context.retryPeriodMs * (1 + context.random.next() * RETRY_JITTER),
    renewDeadlineMs: ({ context }) => context.renewDeadlineMs,
    leaseDurationMs: ({ context }) => context.leaseDurationMs,
  },
  guards: {
    readFailed: (_, read: LeaseRead) => read.kind === 'failed',
    /** Another holder's record, not expired: changed just now, or not yet a leaseDuration old when the attempt began. */
    claimStands: ({ context }, read: LeaseRead) =>
      read.kind === 'record' && read.holder !== '' && read.holder !== context.identity && (read.changed || !context.expiredAtAttempt),
    written: (_, written: boolean) => written,
  },
  actions: {
    /** leader_election_master_status: 1 while leading. */
    masterStatus: (_, _params: { leading: boolean }) => {},
    startedLeading: () => {},
    stoppedLeading: () => {},
    /** An unexpected failure (the expected ones are values the actors return). */
    reportError: (_, _params: { error: unknown }) => {},
    beginAttempt: assign({ expiredAtAttempt: ({ context }) => context.recordExpired }),
    countTerm: assign({ terms: ({ context }) => context.terms + 1 }),
    /** Notes the record read or written; a changed one restarts the leaseDuration on our clock. */
    observe: enqueueActions<LeaderContext, LeaderEvent, LeaseRead, LeaderEvent, never, never, never, 'leaseDurationMs', never>(({ enqueue }, read) => {
      if (read.kind !== 'record') return;
      enqueue.assign({ holder: read.holder });
      if (!read.changed) return;
      enqueue.cancel(LEASE_EXPIRY);
      enqueue.raise({ type: 'LEASE_EXPIRED' }, { id: LEASE_EXPIRY, delay: 'leaseDurationMs' });
      enqueue.assign({ recordExpired: false });
    }),
  },
}).createMachine({
  id: 'leader',
  initial: 'Candidate',
  context: ({ input }) => ({ ...input, holder: '', terms: 0, recordExpired: false, expiredAtAttempt: false }),
  entry: { type: 'masterStatus', params: { leading: false } },
  on: { LEASE_EXPIRED: { actions: assign({ recordExpired: true }) } },
  states: {
    Candidate: {
      id: 'leader.Candidate',
      initial: 'Reading',
      on: { STOP: '#leader.Stopped' },
      states: {
        ...attempt('leader.Candidate', { failed: 'Waiting', held: '#leader.Follower', won: '#leader.Leader' }),
        Waiting: { id: 'leader.Candidate.Waiting', after: { jitteredRetryMs: 'Reading' } },
        SteppedDown: { id: 'leader.Candidate.SteppedDown', after: { retryPeriodMs: 'Reading' } },
      },
    },
    Follower: {
      id: 'leader.Follower',
      after: { jitteredRetryMs: '#leader.Candidate' },
      on: { STOP: '#leader.Stopped' },
    },
    Leader: {
      id: 'leader.Leader',
      initial: 'Holding',
      entry: ['countTerm', { type: 'masterStatus', params: { leading: true } }, 'startedLeading'],
      exit: [{ type: 'masterStatus', params: { leading: false } }, 'stoppedLeading'],
      on: { STOP: '#leader.Releasing' },
      states: {
        Holding: { id: 'leader.Leader.Holding', after: { retryPeriodMs: 'Renewing' } },
        Renewing: {
          id: 'leader.Leader.Renewing',
          initial: 'Reading',
          after: { renewDeadlineMs: '#leader.Candidate.SteppedDown' },
          states: {
            ...attempt('leader.Leader.Renewing', { failed: 'Backoff', held: 'Backoff', won: '#leader.Leader.Holding' }),
            Backoff: { id: 'leader.Leader.Renewing.Backoff', after: { retryPeriodMs: 'Reading' } },
          },
        },
      },
    },
    Releasing: {
      id: 'leader.Releasing',
      invoke: {
        id: 'release', src: 'release',
        onDone: 'Stopped',
        onError: { target: 'Stopped', actions: reportError },
      },
    },
    Stopped: { id: 'leader.Stopped', type: 'final' },
  },
});

/** The top-level state: `{ Leader: 'Holding' }` → `Leader`. */
export function leaderState(value: string | Record<string, unknown>): LeaderState {
  return (typeof value === 'string' ? value : Object.keys(value)[0]!) as LeaderState;
}
