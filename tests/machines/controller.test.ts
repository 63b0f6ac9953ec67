import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, fromPromise } from 'xstate';
import { controllerMachine } from '../../machines/controller.ts';
import { stateName } from '../../actors/system/records.ts';
import { machineClock } from '../helpers/machine-clock.ts';

const settle = () => new Promise<void>((r) => setImmediate(r));

function controller(periodMs: number, sync: () => Promise<void> = async () => {}) {
  const clock = machineClock();
  const calls: string[] = [];
  const machine = controllerMachine.provide({
    actors: { syncCaches: fromPromise(sync) },
    actions: { run: () => void calls.push(`run@${clock.now()}`), pass: () => void calls.push(`pass@${clock.now()}`), halt: () => void calls.push('halt') },
  });
  const actor = createActor(machine, { clock, input: { periodMs } }).start();
  return { clock, actor, calls, state: () => stateName(actor.getSnapshot().value) };
}

test('a controller waits for its caches, then works off events until stopped', async () => {
  const c = controller(0);
  assert.is(c.state(), 'WaitingForCaches');
  await settle();
  assert.is(c.state(), 'Running.Watching');
  c.clock.advance(60_000);
  c.actor.send({ type: 'STOP' });
  assert.is(c.state(), 'Stopped');
  assert.equal(c.calls, ['run@0', 'halt']);
});

test('a periodic controller passes once its caches are synced, then every period', async () => {
  const c = controller(5_000);
  await settle();
  c.clock.advance(12_000);
  assert.is(c.state(), 'Running.Waiting');
  assert.equal(c.calls, ['run@0', 'pass@0', 'pass@5000', 'pass@10000']);
  c.actor.send({ type: 'STOP' });
  c.clock.advance(10_000);
  assert.equal(c.calls.slice(-1), ['halt'], 'no pass after the stop');
});

test('caches that cannot be synced end it in Failed, with the reason', async () => {
  const c = controller(0, async () => {
    throw new Error('forbidden');
  });
  await settle();
  assert.is(c.state(), 'Failed');
  assert.is(c.actor.getSnapshot().context.error, 'forbidden');
});

test.run();
