// What only the in-process bus can do: know its subscribers, so a publisher can skip making what
// nobody receives, hand subscribers a Deferred body's value without ever encoding it, and share
// a queue group's messages among its members in a fixed turn.
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

test('each message reaches every plain subscriber and one member of each queue group, the members in turn', async () => {
  const bus = new MemoryBus({ clock: wallClock() });
  const seen: string[] = [];
  const on = (name: string, queue?: string) => bus.subscribe('orch.jobs.*', (m) => seen.push(`${name}:${new TextDecoder().decode(m.data)}`), queue ? { queue } : {});
  on('a1', 'a');
  on('plain');
  on('b1', 'b');
  on('a2', 'a');
  on('b2', 'b');
  on('b3', 'b');
  for (const n of ['0', '1', '2']) bus.publish('orch.jobs.x', new TextEncoder().encode(n));
  await bus.flush();
  assert.equal(seen, ['plain:0', 'a1:0', 'b1:0', 'plain:1', 'a2:1', 'b2:1', 'plain:2', 'a1:2', 'b3:2']);
  await bus.close();
});

test.run();
