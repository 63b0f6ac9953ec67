// The work queue: nothing runs before run(); a key queued twice runs once; a key added while it
// runs runs again after; at most `workers` at a time; a failing key comes back after 5 ms, 10 ms, ...
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WorkQueue } from '../../../actors/client/work-queue.ts';
import { Kernel } from '../../../sim/kernel.ts';
import { virtualClock } from '../../../sim/virtual-clock.ts';

test('dedup, re-runs after a running add, the worker limit, and nothing before run()', async () => {
  const clock = virtualClock();
  const kernel = new Kernel({ clock });
  const runs: string[] = [];
  let running = 0, most = 0;
  const q = new WorkQueue(clock, 2, async (key) => {
    running++;
    most = Math.max(most, running);
    runs.push(key);
    await new Promise<void>((r) => clock.setTimeout(r, 10));
    running--;
  }, () => {});
  q.add('a');
  q.add('a');
  q.add('b');
  q.add('c');
  await kernel.run({ until: clock.now() + 100 });
  assert.equal(runs, [], 'waits for run()');
  q.run();
  q.add('a');
  await kernel.run({ until: clock.now() + 5 });
  q.add('a');
  await kernel.run({ until: clock.now() + 100 });
  assert.equal(runs, ['a', 'b', 'c', 'a']);
  assert.is(most, 2);
});

test('a failing key is retried after a growing delay', async () => {
  const clock = virtualClock();
  const kernel = new Kernel({ clock });
  const t0 = clock.now();
  const at: number[] = [];
  const q = new WorkQueue(clock, 1, async () => {
    at.push(clock.now() - t0);
    if (at.length < 4) throw new Error('not yet');
  }, () => {});
  q.run();
  q.add('k');
  await kernel.run({ until: t0 + 1_000 });
  assert.equal(at, [0, 5, 15, 35]);
});

test.run();
