// What only the in-process bus can do: know its subscribers, so a publisher can skip making what
// nobody receives, and hand subscribers a Deferred body's value without ever encoding it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Deferred } from '../../transport/bus.ts';
import { MemoryBus } from '../../transport/memory-bus.ts';
import { wallClock } from '../../sim/clock.ts';

test('hasSubscribers follows subscriptions, wildcards and unsubscribes', async () => {
  const bus = new MemoryBus({ clock: wallClock() });
  assert.is(bus.hasSubscribers('orch.w.core.pods.o.default.a'), false);
  const wide = bus.subscribe('orch.w.core.pods.o.>', () => {});
  assert.is(bus.hasSubscribers('orch.w.core.pods.o.default.a'), true);
  assert.is(bus.hasSubscribers('orch.w.coordination.k8s.io.leases.o.x.y'), false);
  const one = bus.subscribe('orch.w.core.pods.o.*.b', () => {});
  wide.unsubscribe();
  assert.is(bus.hasSubscribers('orch.w.core.pods.o.default.a'), false);
  assert.is(bus.hasSubscribers('orch.w.core.pods.o.default.b'), true);
  one.unsubscribe();
  assert.is(bus.hasSubscribers('orch.w.core.pods.o.default.b'), false);
  await bus.close();
});

test('a Deferred body reaches in-process subscribers and requesters as its value, never encoded', async () => {
  const bus = new MemoryBus({ clock: wallClock() });
  const value = { pod: 'p' };
  const never = () => { throw new Error('encoded'); };
  const got: unknown[] = [];
  bus.subscribe('orch.e', (m) => got.push(m.value));
  bus.subscribe('orch.echo', (m) => bus.publish(m.reply!, new Deferred(m.value, never)));
  bus.publish('orch.e', new Deferred(value, never));
  const reply = await bus.request('orch.echo', new Deferred(value, never), 1000);
  assert.equal(got, [value]);
  assert.is(got[0], value, 'the very object, not a copy');
  assert.is(reply.value, value);
  await bus.close();
});

test.run();
