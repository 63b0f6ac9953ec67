import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, fromPromise } from 'xstate';
import { componentMachine } from '../../machines/component.ts';
import { stateName } from '../../actors/system/records.ts';

const settle = () => new Promise<void>((r) => setImmediate(r));

function component(start: () => Promise<void> = async () => {}) {
  const calls: string[] = [];
  const machine = componentMachine.provide({
    actors: { start: fromPromise<void>(() => (calls.push('start'), start())), stop: fromPromise<void>(async () => void calls.push('stop')) },
    actions: { halt: () => void calls.push('halt') },
  });
  const actor = createActor(machine).start();
  const state = () => stateName(actor.getSnapshot().value);
  return { actor, calls, state };
}

test('a component starts, runs, and stops through its stop work', async () => {
  const c = component();
  assert.is(c.state(), 'Starting');
  await settle();
  assert.is(c.state(), 'Running');
  c.actor.send({ type: 'STOP' });
  assert.is(c.state(), 'Stopping');
  await settle();
  assert.is(c.state(), 'Stopped');
  assert.equal(c.calls, ['start', 'stop']);
});

test('a crash ends it at once, with nothing stopped gracefully', async () => {
  const c = component();
  await settle();
  c.actor.send({ type: 'CRASH' });
  assert.is(c.state(), 'Crashed');
  assert.equal(c.calls, ['start', 'halt']);
});

test('a start that fails ends in Failed with its reason', async () => {
  const c = component(async () => {
    throw new Error('no API server');
  });
  await settle();
  assert.is(c.state(), 'Failed');
  assert.is(c.actor.getSnapshot().context.error, 'no API server');
});

test.run();
