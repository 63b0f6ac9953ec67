// The API server's lifecycle: start, the shutdown delay on the clock, draining, stopping; the
// entry actions the host supplies run once each, in order.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor } from 'xstate';
import { apiServerMachine, apiServerPhase, type ApiServerLifecycleInput } from '../../machines/apiserver.ts';
import { machineClock } from '../helpers/machine-clock.ts';

function host(input: ApiServerLifecycleInput) {
  const clock = machineClock();
  const actions: string[] = [];
  const machine = apiServerMachine.provide({
    actions: {
      stopAccepting: () => void actions.push(`stopAccepting@${clock.now()}`),
      stopServing: () => void actions.push(`stopServing@${clock.now()}`),
    },
  });
  const actor = createActor(machine, { clock, input, id: 'apiserver' }).start();
  const phase = () => apiServerPhase(actor.getSnapshot().value as string | Record<string, unknown>);
  return { clock, actor, actions, phase };
}

test('a stop waits out the shutdown delay, then stops accepting, drains and stops', () => {
  const h = host({ shutdownDelayMs: 10_000, sendRetryAfter: true });
  const seen = [h.phase()];
  h.actor.send({ type: 'STARTED' });
  seen.push(h.phase());
  h.actor.send({ type: 'STOP' });
  seen.push(h.phase());
  h.clock.advance(9_999);
  seen.push(h.phase());
  h.actor.send({ type: 'DRAINED' }); // too early: the delay is not over, so nothing moves
  seen.push(h.phase());
  h.clock.advance(1);
  seen.push(h.phase());
  h.actor.send({ type: 'DRAINED' });
  seen.push(h.phase());
  h.actor.send({ type: 'STOPPED' });
  seen.push(h.phase());
  assert.equal(seen, ['Starting', 'Ready', 'Draining/Delay', 'Draining/Delay', 'Draining/Delay', 'Draining/NotAccepting', 'Stopping', 'Stopped']);
  assert.equal(h.actions, ['stopAccepting@10000', 'stopServing@10000']);
  assert.is(h.actor.getSnapshot().status, 'done');
});

test('without a delay the server stops accepting as soon as the clock moves', () => {
  const h = host({ shutdownDelayMs: 0, sendRetryAfter: false });
  h.actor.send({ type: 'STARTED' });
  h.actor.send({ type: 'STOP' });
  assert.is(h.phase(), 'Draining/Delay');
  h.clock.advance(0);
  assert.is(h.phase(), 'Draining/NotAccepting');
  assert.equal(h.actions, ['stopAccepting@0']);
});

test('a stop before the start still goes through the sequence; a second stop changes nothing', () => {
  const h = host({ shutdownDelayMs: 5_000, sendRetryAfter: false });
  h.actor.send({ type: 'STOP' });
  assert.is(h.phase(), 'Draining/Delay');
  h.actor.send({ type: 'STOP' });
  h.actor.send({ type: 'STARTED' });
  assert.is(h.phase(), 'Draining/Delay');
  h.clock.advance(5_000);
  assert.is(h.phase(), 'Draining/NotAccepting');
  assert.is(h.clock.pending(), 0, 'the delay leaves no timer behind');
});

test('the same events on the clock give the same trace twice', () => {
  const trace = () => {
    const h = host({ shutdownDelayMs: 1_500, sendRetryAfter: true });
    h.actor.send({ type: 'STARTED' });
    h.clock.advance(700);
    h.actor.send({ type: 'STOP' });
    h.clock.advance(1_500);
    h.actor.send({ type: 'DRAINED' });
    h.actor.send({ type: 'STOPPED' });
    return [...h.actions, h.phase()];
  };
  assert.equal(trace(), ['stopAccepting@2200', 'stopServing@2200', 'Stopped']);
  assert.equal(trace(), trace());
});

test.run();
