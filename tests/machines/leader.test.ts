// The leader machine on a manual clock, its Lease I/O scripted: what the host's actors answer, in
// order (a read or write with no answer left hangs), and what the jitter draws. The trace is the
// actor system's record of every transition: time, the event that caused it, the states.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromPromise } from 'xstate';
import type { Random } from '../../actors/api/env.ts';
import { ActorSystem, type InspectionRecord } from '../../actors/system/index.ts';
import { leaderMachine, leaderState, type LeaseRead } from '../../machines/leader.ts';
import { machineClock } from '../helpers/machine-clock.ts';

const LD = 15_000, RD = 10_000, RP = 2_000;
const other = (changed: boolean): LeaseRead => ({ kind: 'record', holder: 'r1', changed });
const ours = (changed: boolean): LeaseRead => ({ kind: 'record', holder: 'r0', changed });

/** A promise for each answer, in order; once they run out, one that never settles (a hung request). */
function answers<T>(list: T[]): () => Promise<T> {
  return () => (list.length > 0 ? Promise.resolve(list.shift()!) : new Promise<T>(() => {}));
}

/** `2000 EVENT: From → To`, `0 actor State`, `1000 stop`. */
function line(r: InspectionRecord): string {
  if (r.kind === 'transition') return `${r.t} ${r.event}: ${r.from} → ${r.to}`;
  return r.kind === 'actor' ? `${r.t} actor ${r.to}` : `${r.t} stop`;
}

function host(script: { reads?: LeaseRead[]; writes?: boolean[]; draws?: number[] }) {
  const clock = machineClock();
  const system = new ActorSystem(clock);
  const trace: string[] = [];
  system.onRecord((r: InspectionRecord) => void trace.push(line(r)));
  const calls: string[] = [];
  const draws = [...(script.draws ?? [])];
  const random: Random = {
    next: () => {
      if (draws.length === 0) throw new Error('an unexpected draw');
      return draws.shift()!;
    },
    fork: () => random,
  };
  const note = (what: string) => void calls.push(`${clock.now()} ${what}`);
  const machine = leaderMachine.provide({
    actors: {
      readLease: fromPromise(answers([...(script.reads ?? [])])),
      writeLease: fromPromise(answers([...(script.writes ?? [])])),
      release: fromPromise<void>(async () => note('release')),
    },
    actions: {
      masterStatus: (_, { leading }) => note(`status ${leading ? 1 : 0}`),
      startedLeading: () => note('started'),
      stoppedLeading: () => note('stopped'),
      reportError: (_, { error }) => note(`error ${String(error)}`),
    },
  });
  const actor = system.host(machine, { id: 'leader/orch-system/lock/r0', input: { identity: 'r0', leaseDurationMs: LD, renewDeadlineMs: RD, retryPeriodMs: RP, random } });
  /** Moves the clock to `ms`, 100 ms at a time (every timing here is a multiple of it), letting answers arrive after each step. */
  const to = async (ms: number) => {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (clock.now() >= ms) return;
      clock.advance(100);
    }
  };
  const state = () => leaderState(actor.getSnapshot().value as string | Record<string, unknown>);
  return { clock, actor, trace, calls, draws, to, state };
}

test('a candidate finding another holder follows, and campaigns again after the jittered retry', async () => {
  const h = host({ reads: [other(true), other(true)], draws: [0.25, 0.5] });
  h.actor.start();
  await h.to(6_000);
  assert.equal(h.trace, [
    '0 actor Candidate.Reading',
    '0 xstate.done.actor.readLease: Candidate.Reading → Follower',
    // retryPeriod × (1 + 0.25 × 1.2)
    '2600 xstate.after.jitteredRetryMs.leader.Follower: Follower → Candidate.Reading',
    '2600 xstate.done.actor.readLease: Candidate.Reading → Follower',
    // retryPeriod × (1 + 0.5 × 1.2)
    '5800 xstate.after.jitteredRetryMs.leader.Follower: Follower → Candidate.Reading',
  ]);
  assert.equal(h.draws, [], 'one draw per retry');
  assert.equal(h.calls, ['0 status 0']);
});

test('a candidate takes over once the record has not changed for a leaseDuration on its clock', async () => {
  const unchanged = Array.from({ length: 8 }, () => other(false));
  const h = host({ reads: [other(true), ...unchanged], writes: [true], draws: Array(9).fill(0) });
  h.actor.start();
  await h.to(16_000);
  const attempts = h.trace.filter((l) => l.includes('readLease'));
  assert.equal(attempts.slice(-2), [
    '14000 xstate.done.actor.readLease: Candidate.Reading → Follower',
    '16000 xstate.done.actor.readLease: Candidate.Reading → Candidate.Writing',
  ], 'the claim observed at 0 stands until 15000');
  assert.equal(h.trace.at(-1), '16000 xstate.done.actor.writeLease: Candidate.Writing → Leader.Holding');
  assert.equal(h.calls, ['0 status 0', '16000 status 1', '16000 started']);
  assert.is(h.actor.getSnapshot().context.terms, 1);
});

test('a leader renews every retryPeriod after its last renewal', async () => {
  const h = host({ reads: [{ kind: 'absent' }, ours(false), ours(false)], writes: [true, true, true] });
  h.actor.start();
  await h.to(4_000);
  assert.equal(h.trace, [
    '0 actor Candidate.Reading',
    '0 xstate.done.actor.readLease: Candidate.Reading → Candidate.Writing',
    '0 xstate.done.actor.writeLease: Candidate.Writing → Leader.Holding',
    '2000 xstate.after.retryPeriodMs.leader.Leader.Holding: Leader.Holding → Leader.Renewing.Reading',
    '2000 xstate.done.actor.readLease: Leader.Renewing.Reading → Leader.Renewing.Writing',
    '2000 xstate.done.actor.writeLease: Leader.Renewing.Writing → Leader.Holding',
    '4000 xstate.after.retryPeriodMs.leader.Leader.Holding: Leader.Holding → Leader.Renewing.Reading',
    '4000 xstate.done.actor.readLease: Leader.Renewing.Reading → Leader.Renewing.Writing',
    '4000 xstate.done.actor.writeLease: Leader.Renewing.Writing → Leader.Holding',
  ]);
  assert.equal(h.calls, ['0 status 0', '0 status 1', '0 started']);
});

test('a leader whose renewals hang steps down at the renew deadline, then campaigns after a retryPeriod', async () => {
  // Acquired at 0; the renewal that starts at 2000 never gets an answer.
  const h = host({ reads: [{ kind: 'absent' }], writes: [true] });
  h.actor.start();
  await h.to(11_900);
  assert.is(h.state(), 'Leader');
  await h.to(14_000);
  assert.equal(h.trace.slice(3), [
    '2000 xstate.after.retryPeriodMs.leader.Leader.Holding: Leader.Holding → Leader.Renewing.Reading',
    '12000 xstate.after.renewDeadlineMs.leader.Leader.Renewing: Leader.Renewing.Reading → Candidate.SteppedDown',
    '14000 xstate.after.retryPeriodMs.leader.Candidate.SteppedDown: Candidate.SteppedDown → Candidate.Reading',
  ]);
  assert.equal(h.calls, ['0 status 0', '0 status 1', '0 started', '12000 status 0', '12000 stopped']);
});

test('a failed renewal is retried every retryPeriod until the deadline', async () => {
  const h = host({ reads: [{ kind: 'absent' }, { kind: 'failed' }, other(true), ours(true)], writes: [true, true] });
  h.actor.start();
  await h.to(8_000);
  assert.equal(h.trace.slice(3).filter((l) => !l.includes('Holding →')), [
    '2000 xstate.done.actor.readLease: Leader.Renewing.Reading → Leader.Renewing.Backoff',
    '4000 xstate.after.retryPeriodMs.leader.Leader.Renewing.Backoff: Leader.Renewing.Backoff → Leader.Renewing.Reading',
    '4000 xstate.done.actor.readLease: Leader.Renewing.Reading → Leader.Renewing.Backoff',
    '6000 xstate.after.retryPeriodMs.leader.Leader.Renewing.Backoff: Leader.Renewing.Backoff → Leader.Renewing.Reading',
    '6000 xstate.done.actor.readLease: Leader.Renewing.Reading → Leader.Renewing.Writing',
    '6000 xstate.done.actor.writeLease: Leader.Renewing.Writing → Leader.Holding',
  ], 'a failed read and another holder each fail an attempt; the third renews');
  assert.is(h.state(), 'Leader');
});

test('a stop releases the Lease when leading, and leaves no timer behind', async () => {
  const h = host({ reads: [{ kind: 'absent' }], writes: [true] });
  h.actor.start();
  await h.to(1_000);
  h.actor.send({ type: 'STOP' });
  await h.to(1_000);
  assert.equal(h.trace.slice(3), [
    '1000 STOP: Leader.Holding → Releasing',
    '1000 xstate.done.actor.release: Releasing → Stopped',
    '1000 stop',
  ]);
  assert.equal(h.calls.slice(3), ['1000 status 0', '1000 stopped', '1000 release']);
  assert.is(h.clock.pending(), 0);
});

test('a candidate that stops just stops: no release', async () => {
  const h = host({ reads: [other(true)], draws: [0] });
  h.actor.start();
  await h.to(1_000);
  h.actor.send({ type: 'STOP' });
  assert.equal(h.trace.slice(2), ['1000 STOP: Follower → Stopped', '1000 stop']);
  assert.equal(h.calls, ['0 status 0']);
  assert.is(h.clock.pending(), 0);
});

test.run();
