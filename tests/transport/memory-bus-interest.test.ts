// The in-process bus knows its subscribers, so a publisher can skip encoding what nobody receives.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
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

test.run();
