import { NatsBus } from '../../transport/nats-bus.ts';
import { startNatsServer } from '../helpers/nats-server.ts';
import { busContract } from './contract.ts';

busContract('NATS', async () => {
  const server = await startNatsServer();
  const buses: NatsBus[] = [];
  const open = async () => {
    const b = await NatsBus.connect({ servers: server.url, onError: () => {} });
    buses.push(b);
    return b;
  };
  const bus = await open();
  return {
    bus,
    other: open,
    async close() {
      for (const b of buses) await b.close();
      await server.stop();
    },
  };
}).run();
