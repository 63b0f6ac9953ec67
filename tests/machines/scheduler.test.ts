import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, fromPromise } from 'xstate';
import { schedulerMachine } from '../../machines/scheduler.ts';
import { stateName } from '../../actors/system/records.ts';
import { machineClock } from '../helpers/machine-clock.ts';

const settle = () => new Promise<void>((r) => setImmediate(r));

/** A scheduler machine whose queue holds `queued` pods, scheduled `batch` at a time. */
function scheduler(queued: number, batch = 64) {
  const clock = machineClock();
  let left = queued;
  const batches: number[] = [];
  const flushes: number[] = [];
  const machine = schedulerMachine.provide({
    actors: { syncCaches: fromPromise(async () => {}) },
    actions: {
      schedule: ({ self }) => {
        const n = Math.min(batch, left);
        left -= n;
        batches.push(n);
        self.send({ type: 'BATCHED', more: n === batch });
      },
      flush: () => void flushes.push(clock.now()),
    },
  });
  const actor = createActor(machine, { clock, input: { flushPeriodMs: 1_000 } }).start();
  return { clock, actor, batches, flushes, add: (n: number) => ((left += n), actor.send({ type: 'WORK' })), state: () => stateName(actor.getSnapshot().value) };
}

test('at the start a batch is due; batches follow each other while they come back full, then the loop idles', async () => {
  const s = scheduler(150);
  await settle();
  assert.is(s.state(), 'Running.Busy');
  s.clock.advance(0);
  assert.equal(s.batches, [64, 64, 22]);
  assert.is(s.state(), 'Running.Idle');
});

test('work while a batch is due changes nothing; work when idle makes a batch due', async () => {
  const s = scheduler(0);
  await settle();
  s.clock.advance(0);
  s.add(3);
  s.add(2);
  s.clock.advance(0);
  assert.equal(s.batches, [0, 5]);
});

test('backoffs are flushed every period while running, and not after a stop', async () => {
  const s = scheduler(0);
  await settle();
  s.clock.advance(3_500);
  s.actor.send({ type: 'STOP' });
  s.clock.advance(3_000);
  assert.equal(s.flushes, [1_000, 2_000, 3_000]);
  assert.is(s.state(), 'Stopped');
});

test.run();
