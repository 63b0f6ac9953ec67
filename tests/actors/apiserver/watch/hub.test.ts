// The watch hub: one bus subscription per subject per process, and progress followed once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { progressBody } from '../../../../actors/apiserver/watch/events.ts';
import { WatchHub } from '../../../../actors/apiserver/watch/hub.ts';
import { PROGRESS_SUBJECT } from '../../../../actors/apiserver/watch/subjects.ts';
import { wallClock } from '../../../../sim/clock.ts';
import type { Bus } from '../../../../transport/bus.ts';
import { MemoryBus } from '../../../../transport/memory-bus.ts';

/** A MemoryBus that tells how many subscriptions each subject has. */
function countingBus(): { bus: Bus; subscriptions: Map<string, number> } {
  const bus = new MemoryBus({ clock: wallClock() });
  const subscriptions = new Map<string, number>();
  const subscribe = bus.subscribe.bind(bus);
  bus.subscribe = (subject, handler, opts) => {
    subscriptions.set(subject, (subscriptions.get(subject) ?? 0) + 1);
    const sub = subscribe(subject, handler, opts);
    return { subject, unsubscribe: () => (subscriptions.set(subject, subscriptions.get(subject)! - 1), sub.unsubscribe()) };
  };
  return { bus, subscriptions };
}

test('progress is followed by one subscription however many watchers want bookmarks, and dropped with the last', async () => {
  const { bus, subscriptions } = countingBus();
  const hub = new WatchHub(bus);
  const stops = Array.from({ length: 5_000 }, () => hub.followProgress());
  assert.is(subscriptions.get(PROGRESS_SUBJECT), 1);
  bus.publish(PROGRESS_SUBJECT, progressBody(41));
  bus.publish(PROGRESS_SUBJECT, progressBody(42));
  await bus.flush();
  assert.is(hub.progressRevision, 42);
  stops[0]();
  stops[0]();
  assert.is(subscriptions.get(PROGRESS_SUBJECT), 1, 'stopping twice counts once');
  for (const stop of stops.slice(1)) stop();
  assert.is(subscriptions.get(PROGRESS_SUBJECT), 0);
});

test('the newest progress revision is kept, not the last to arrive', async () => {
  const { bus } = countingBus();
  const hub = new WatchHub(bus);
  hub.followProgress();
  bus.publish(PROGRESS_SUBJECT, progressBody(9));
  bus.publish(PROGRESS_SUBJECT, progressBody(7));
  await bus.flush();
  assert.is(hub.progressRevision, 9);
});

test('watchers of one subject share one bus subscription, released with the last of them', () => {
  const { bus, subscriptions } = countingBus();
  const hub = new WatchHub(bus);
  const subject = 'orch.w.core.pods.n.node-1';
  const stops = Array.from({ length: 100 }, () => hub.listen(subject, () => {}));
  assert.is(subscriptions.get(subject), 1);
  for (const stop of stops) stop();
  assert.is(subscriptions.get(subject), 0);
});

test.run();
