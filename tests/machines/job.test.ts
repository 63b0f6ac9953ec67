// The Job machine on a manual clock: what it decides from each sync's observations, its deadline
// and pod-failure back-off timers, and how it finishes once every pod is counted.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor } from 'xstate';
import { backoffRemainingMs, jobMachine, jobPhase, nextBackoff, NO_FAILURES, type Finish, type JobEvent } from '../../machines/job.ts';
import { stateName } from '../../actors/system/records.ts';
import { machineClock } from '../helpers/machine-clock.ts';

type Observed = Omit<Extract<JobEvent, { type: 'OBSERVED' }>, 'type' | 'nowMs'>;
const quiet: Observed = { suspended: false, activeDeadlineSeconds: undefined, backoffLimit: 6, failed: 0, restartsExceeded: false, newSucceededMs: [], newFailedMs: [] };

function job(o: { startMs?: number; finish?: Finish } = {}) {
  const clock = machineClock(1_000_000);
  let resyncs = 0;
  const actor = createActor(jobMachine.provide({ actions: { resync: () => void resyncs++ } }),
    { clock, input: { nowMs: clock.now(), startMs: o.startMs, finish: o.finish } }).start();
  const observe = (facts: Partial<Observed> = {}) => actor.send({ type: 'OBSERVED', nowMs: clock.now(), ...quiet, ...facts });
  const managed = (active: number, succeeded: number, completions: number | undefined = 1) => actor.send({ type: 'MANAGED', active, succeeded, completions });
  return { clock, actor, observe, managed, resyncs: () => resyncs, phase: () => jobPhase(actor.getSnapshot().value), state: () => stateName(actor.getSnapshot().value),
    context: () => actor.getSnapshot().context };
}

test('a running Job starts when first observed, completes once enough pods succeeded and none are active, and ends when every pod is counted', () => {
  const j = job();
  j.observe();
  assert.is(j.phase(), 'Creating');
  assert.is(j.context().startMs, j.clock.now(), 'the start time is the first observation');
  j.managed(1, 1, 2);
  assert.is(j.phase(), 'Creating', 'one of two completions');
  j.managed(1, 2, 2);
  assert.is(j.phase(), 'Creating', 'a pod still active');
  j.managed(0, 2, 2);
  assert.is(j.phase(), 'Succeeding');
  assert.equal(j.context().finish, { succeeded: true, reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' });
  j.observe();
  assert.is(j.phase(), 'Succeeding', 'a finishing Job does not decide again');
  j.actor.send({ type: 'SETTLED', nowMs: j.clock.now(), uncounted: 1, terminating: 0 });
  assert.is(j.phase(), 'Succeeding', 'a finished pod still uncounted');
  j.clock.advance(2_000);
  j.actor.send({ type: 'SETTLED', nowMs: j.clock.now(), uncounted: 0, terminating: 0 });
  assert.is(j.phase(), 'Complete');
  assert.is(j.context().finishedMs, j.clock.now());
  assert.is(j.actor.getSnapshot().status, 'done');
});

test('without completions the first success completes the Job once nothing runs', () => {
  const j = job();
  j.observe();
  j.managed(2, 1, undefined);
  assert.is(j.phase(), 'Creating');
  j.managed(0, 1, undefined);
  assert.is(j.phase(), 'Succeeding');
});

test('active past activeDeadlineSeconds the Job fails with DeadlineExceeded when its timer fires, and asks to be synced', () => {
  const j = job();
  j.observe({ activeDeadlineSeconds: 30 });
  assert.ok(j.actor.getSnapshot().matches({ Active: { Deadline: 'Counting', Pods: 'Creating' } }), j.state());
  j.clock.advance(29_999);
  assert.is(j.phase(), 'Creating');
  j.observe({ activeDeadlineSeconds: 30 });
  j.clock.advance(1);
  assert.is(j.phase(), 'Failing', 'the deadline counts from the start time, not from the last sync');
  assert.equal(j.context().finish, { succeeded: false, reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
  assert.is(j.resyncs(), 1);
});

test('a suspended Job has no deadline; resumed, its start time and deadline start over', () => {
  const j = job({ startMs: 1_000_000 });
  j.observe({ suspended: true, activeDeadlineSeconds: 10 });
  assert.is(j.phase(), 'Suspended');
  j.clock.advance(60_000);
  assert.is(j.phase(), 'Suspended', 'the deadline does not run while suspended');
  j.observe({ suspended: false, activeDeadlineSeconds: 10 });
  assert.is(j.phase(), 'Creating');
  assert.is(j.context().startMs, j.clock.now());
  j.clock.advance(10_000);
  assert.is(j.phase(), 'Failing');
});

test('pod failures back creation off 10 s, then 20 s, 40 s ... up to 10 min; a success clears it', () => {
  const j = job();
  const t0 = j.clock.now();
  j.observe({ failed: 1, newFailedMs: [t0] });
  assert.is(j.phase(), 'BackingOff');
  j.actor.send({ type: 'SYNCED' });
  j.clock.advance(9_999);
  assert.is(j.phase(), 'BackingOff');
  j.clock.advance(1);
  assert.is(j.phase(), 'Creating');
  assert.is(j.resyncs(), 1);
  j.observe({ failed: 2, newFailedMs: [j.clock.now()] });
  j.actor.send({ type: 'SYNCED' });
  j.clock.advance(19_999);
  assert.is(j.phase(), 'BackingOff', 'the second failure waits 20 s');
  j.clock.advance(1);
  assert.is(j.phase(), 'Creating');
  j.observe({ failed: 2, newSucceededMs: [j.clock.now()] });
  assert.is(j.phase(), 'Creating', 'a success clears the back-off');
  assert.equal(j.context().candidate, NO_FAILURES);
});

test('an observation not yet committed is counted once: a sync that failed to write sees the same failures again', () => {
  const j = job();
  const t0 = j.clock.now();
  j.observe({ failed: 1, newFailedMs: [t0] });
  j.observe({ failed: 1, newFailedMs: [t0] });
  assert.is(j.context().candidate.failuresAfterLastSuccess, 1);
});

test('failures beyond backoffLimit, or restarts reaching it, fail the Job with BackoffLimitExceeded', () => {
  const a = job();
  a.observe({ backoffLimit: 2, failed: 2 });
  assert.is(a.phase(), 'Creating');
  a.observe({ backoffLimit: 2, failed: 3 });
  assert.is(a.phase(), 'Failing');
  assert.equal(a.context().finish, { succeeded: false, reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
  a.actor.send({ type: 'SETTLED', nowMs: a.clock.now(), uncounted: 0, terminating: 1 });
  assert.is(a.phase(), 'Failing', 'a pod still terminating');
  a.actor.send({ type: 'SETTLED', nowMs: a.clock.now(), uncounted: 0, terminating: 0 });
  assert.is(a.phase(), 'Failed');
  const b = job();
  b.observe({ restartsExceeded: true });
  assert.is(b.phase(), 'Failing');
  const c = job();
  c.observe({ suspended: true, backoffLimit: 0, failed: 1 });
  assert.is(c.phase(), 'Failing', 'a suspended Job fails on its backoff limit too');
});

test('a machine started for a Job that carries an interim condition picks the finish up', () => {
  const j = job({ finish: { succeeded: false, reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' } });
  j.observe();
  assert.is(j.phase(), 'Failing');
  const k = job({ finish: { succeeded: true, reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' } });
  k.observe();
  assert.is(k.phase(), 'Succeeding');
});

test('the back-off record counts failures after the latest success; the remaining time doubles and caps at 10 min', () => {
  assert.equal(nextBackoff(NO_FAILURES, [], [5, 3]), { failuresAfterLastSuccess: 2, lastFailureMs: 5 });
  assert.equal(nextBackoff({ failuresAfterLastSuccess: 2, lastFailureMs: 5 }, [], [9]), { failuresAfterLastSuccess: 3, lastFailureMs: 9 });
  assert.equal(nextBackoff({ failuresAfterLastSuccess: 2, lastFailureMs: 5 }, [10], [8, 12, 15]), { failuresAfterLastSuccess: 2, lastFailureMs: 15 });
  assert.equal(nextBackoff({ failuresAfterLastSuccess: 2, lastFailureMs: 5 }, [20], [8]), NO_FAILURES);
  const after = (failures: number) => backoffRemainingMs({ failuresAfterLastSuccess: failures, lastFailureMs: 0 }, 0);
  assert.equal([1, 2, 3, 4, 5, 6, 7, 8, 20].map(after), [10_000, 20_000, 40_000, 80_000, 160_000, 320_000, 600_000, 600_000, 600_000]);
  assert.is(backoffRemainingMs({ failuresAfterLastSuccess: 1, lastFailureMs: 0 }, 4_000), 6_000);
  assert.is(backoffRemainingMs({ failuresAfterLastSuccess: 1, lastFailureMs: 0 }, 10_001), 0);
});

test.run();
