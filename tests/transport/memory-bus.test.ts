import { wallClock } from '../../sim/clock.ts';
import { MemoryBus } from '../../transport/memory-bus.ts';
import { busContract } from './contract.ts';

busContract('in-process', async () => {
  const bus = new MemoryBus({ clock: wallClock(), onError: () => {} });
  return { bus, other: async () => bus, close: () => bus.close() };
}).run();
