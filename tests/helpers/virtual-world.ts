// The world most actor tests start from: a virtual clock and the kernel that moves it, the
// in-process bus, a seeded random root, a real API server started on that bus (its stream forked
// from the root as 'apiserver') and a test client. Built in that order, so a seed draws the same.
import { bareServerOptions } from './bare-server.ts';
import { ApiServer } from '../../actors/apiserver/server.ts';
import { ApiClient } from '../../actors/client/client.ts';
import { Kernel } from '../../sim/kernel.ts';
import { seededRandom } from '../../sim/random.ts';
import { virtualClock } from '../../sim/virtual-clock.ts';
import { MemoryBus } from '../../transport/memory-bus.ts';

export interface VirtualWorldOptions {
  /** The random root's seed; 4 unless given. */
  seed?: number;
  /** The test client's user agent; `test` unless given. */
  clientName?: string;
}

export async function virtualWorld({ seed = 4, clientName = 'test' }: VirtualWorldOptions = {}) {
  const clock = virtualClock();
  const kernel = new Kernel({ clock });
  const bus = new MemoryBus({ clock });
  const random = seededRandom(seed);
  const server = new ApiServer(bareServerOptions({}), { clock, random: random.fork('apiserver'), bus });
  await server.start();
  const client = new ApiClient(bus, clientName);
  return {
    clock, kernel, bus, random, server, client,
    /** Runs the kernel for `ms` of virtual time from now. */
    run: (ms: number) => kernel.run({ until: clock.now() + ms }),
    stop: () => server.stop(),
  };
}
