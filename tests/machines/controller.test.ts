import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, fromPromise } from 'xstate';
import { controllerMachine } from '../../machines/controller.ts';
import { stateName } from '../../actors/system/records.ts';
import { machineClock } from '../helpers/machine-clock.ts';

const settle = () => new Promise<void>((r) => setImmediate(r));

/** A controller whose pass takes `passMs` of the clock (its writes' time), noting when each starts and ends. */
function controller(periodMs: number, sync: () => Promise<void> = async () => {}, passMs = 0) {
  const clock = machineClock();
  const calls: string[] = [];
  const pass = async () => {
    calls.push(`pass@${clock.now()}`);
    if (passMs === 0) return;
    await new Promise<void>((r) => clock.setTimeout(r, passMs));
    calls.push(`passed@${clock.now()}`);
  };
  const machine = controllerMachine.provide({
    actors: { syncCaches: fromPromise(sync), pass: fromPromise(pass) },
    actions: { run: () => void calls.push(`run@${clock.now()}`), halt: () => void calls.push('halt') },
  });
  const actor = createActor(machine, { clock, input: { periodMs } }).start();
  /** Moves the clock `ms` on, timer by timer, letting each pass's promise settle between them. */
  const run = async (ms: number) => {
    const until = clock.now() + ms;
    await settle();
    while (clock.step(until - clock.now())) await settle();
  };
  return { clock, actor, calls, run, state: () => stateName(actor.getSnapshot().value) };
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
  await c.run(12_000);
  assert.is(c.state(), 'Running.Waiting');
  assert.equal(c.calls, ['run@0', 'pass@0', 'pass@5000', 'pass@10000']);
  c.actor.send({ type: 'STOP' });
  await c.run(10_000);
  assert.equal(c.calls.slice(-1), ['halt'], 'no pass after the stop');
});

test('a pass that waits for its writes: the period counts from its end (wait.Until), and it is Passing meanwhile', async () => {
  const c = controller(5_000, async () => {}, 1_500);
  await c.run(1_000);
  assert.is(c.state(), 'Running.Passing');
  await c.run(12_000);
  assert.equal(c.calls, ['run@0', 'pass@0', 'passed@1500', 'pass@6500', 'passed@8000', 'pass@13000']);
});

test('a pass that fails does not stop the period', async () => {
  const clock = machineClock();
  let passes = 0;
  const machine = controllerMachine.provide({
    actors: { syncCaches: fromPromise(async () => {}), pass: fromPromise<void>(async () => {
      passes++;
      throw new Error('the server is gone');
    }) },
  });
  const actor = createActor(machine, { clock, input: { periodMs: 1_000 } }).start();
  for (let i = 0; i < 4; i++) {
    await settle();
    clock.step(1_000);
  }
  await settle();
  assert.is(passes, 5, 'at 0, 1000, 2000, 3000 and 4000 ms');
  assert.is(stateName(actor.getSnapshot().value), 'Running.Waiting', 'the fifth failed too, and the period runs');
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
