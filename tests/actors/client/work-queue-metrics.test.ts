// The work queue's metrics, as client-go's workqueue reports them under the queue's name: an add
// counts once however often a waiting key is added again, the depth counts the keys waiting
// (a key added again while it is synced among them), a failed sync counts a retry, and the time a
// key waited and the time its sync took are measured on the queue's clock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRegistry } from '../../../actors/api/metrics.ts';
import { WorkQueue } from '../../../actors/client/work-queue.ts';
import { Kernel } from '../../../sim/kernel.ts';
import { virtualClock } from '../../../sim/virtual-clock.ts';
import { sample } from './metric-values.ts';

function world(syncMs: number, fail: (key: string) => boolean = () => false) {
  const clock = virtualClock();
  const kernel = new Kernel({ clock });
  const registry = newRegistry();
  const synced: string[] = [];
  const queue = new WorkQueue(clock, 1, (key) => new Promise<void>((resolve, reject) => {
    clock.setTimeout(() => (synced.push(key), fail(key) ? reject(new Error(`${key} failed`)) : resolve()), syncMs);
  }), () => {}, { registry, name: 'replicaset' });
  const m = (name: string) => sample(registry, name, { name: 'replicaset' });
  return { clock, registry, queue, synced, m, run: (ms: number) => kernel.run({ until: clock.now() + ms }) };
}

test('adds count each key once while it waits; the depth is the keys waiting', async () => {
  const w = world(100);
  w.queue.add('a');
  w.queue.add('a');
  w.queue.add('b');
  w.queue.add('c');
  assert.is(await w.m('workqueue_adds_total'), 3);
  assert.is(await w.m('workqueue_depth'), 3);
  w.queue.run();
  assert.is(await w.m('workqueue_depth'), 2, 'a is being synced');
  await w.run(1_000);
  assert.equal(w.synced, ['a', 'b', 'c']);
  assert.is(await w.m('workqueue_depth'), 0);
  w.queue.stop();
});

test('a key added again while it is synced counts as an add and in the depth, and is synced again after', async () => {
  const w = world(100);
  w.queue.run();
  w.queue.add('a');
  await w.run(50);
  w.queue.add('a');
  w.queue.add('a');
  assert.is(await w.m('workqueue_adds_total'), 2);
  assert.is(await w.m('workqueue_depth'), 1);
  await w.run(1_000);
  assert.equal(w.synced, ['a', 'a']);
  assert.is(await w.m('workqueue_adds_total'), 2, 'the requeue after the sync is not another add');
  assert.is(await w.m('workqueue_depth'), 0);
  w.queue.stop();
});

test('queue and work durations are measured on the clock', async () => {
  const w = world(250);
  w.queue.add('a');
  w.queue.add('b');
  await w.run(2_000); // waiting for run(): a and b wait 2 s, then b another 250 ms behind a
  w.queue.run();
  await w.run(1_000);
  assert.is(await w.m('workqueue_queue_duration_seconds_count'), 2);
  assert.is(await w.m('workqueue_queue_duration_seconds_sum'), 2 + 2.25);
  assert.is(await w.m('workqueue_work_duration_seconds_count'), 2);
  assert.is(await w.m('workqueue_work_duration_seconds_sum'), 0.5);
  assert.is(await sample(w.registry, 'workqueue_work_duration_seconds_bucket', { name: 'replicaset', le: 0.1 }), 0);
  assert.is(await sample(w.registry, 'workqueue_work_duration_seconds_bucket', { name: 'replicaset', le: 1 }), 2);
  w.queue.stop();
});

test('work in progress shows as unfinished seconds and the longest running processor', async () => {
  const w = world(10_000);
  w.queue.run();
  w.queue.add('a');
  await w.run(3_000);
  assert.is(await w.m('workqueue_unfinished_work_seconds'), 3);
  assert.is(await w.m('workqueue_longest_running_processor_seconds'), 3);
  await w.run(10_000);
  assert.is(await w.m('workqueue_unfinished_work_seconds'), 0);
  w.queue.stop();
});

test('a failed sync counts a retry, and its key comes back as a new add', async () => {
  let failures = 2;
  const w = world(10, () => failures-- > 0);
  w.queue.run();
  w.queue.add('a');
  await w.run(5_000);
  assert.equal(w.synced, ['a', 'a', 'a']);
  assert.is(await w.m('workqueue_retries_total'), 2);
  assert.is(await w.m('workqueue_adds_total'), 3);
  w.queue.stop();
});

test('a stopped queue leaves the depth at 0, and a queue of the same name on the registry counts on', async () => {
  const w = world(100);
  w.queue.add('a');
  w.queue.stop();
  assert.is(await w.m('workqueue_depth'), 0);
  const next = new WorkQueue(w.clock, 1, async () => {}, () => {}, { registry: w.registry, name: 'replicaset' });
  next.add('b');
  assert.is(await w.m('workqueue_adds_total'), 2);
  assert.is(await w.m('workqueue_depth'), 1);
  next.stop();
});

test('without a registry the queue reports nothing and works the same', async () => {
  const clock = virtualClock();
  const kernel = new Kernel({ clock });
  const synced: string[] = [];
  const q = new WorkQueue(clock, 2, async (k) => void synced.push(k), () => {});
  q.run();
  q.add('x');
  q.add('y');
  await kernel.run({ until: clock.now() + 100 });
  assert.equal(synced, ['x', 'y']);
  q.stop();
});

test.run();
