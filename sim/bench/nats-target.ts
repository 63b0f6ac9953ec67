// Which NATS a benchmark measures: the server the user named, else a private nats-server started
// for the run when one is on the PATH, else none, with what to do to measure the NATS half.
import { NATS_SERVER_MISSING, natsServerVersion, startNatsServer } from '../nats-server.ts';

export interface NatsTarget {
  /** Undefined when there is no NATS to measure. */
  url?: string;
  /** One line for the output and the report: which server, or none. */
  description: string;
  /** Without a server: how to get the NATS half measured. */
  advice?: string;
  stop(): Promise<void>;
}

export async function natsTarget(url: string | undefined): Promise<NatsTarget> {
  if (url !== undefined) return { url, description: `the server at ${url}`, stop: async () => {} };
  if (natsServerVersion() === undefined)
    return {
      description: 'none (nats-server is not on the PATH): only the in-process half was measured',
      advice: `${NATS_SERVER_MISSING}; or pass --nats nats://HOST:4222 to measure a server that is running`,
      stop: async () => {},
    };
  const server = await startNatsServer();
  return { url: server.url, description: `a private ${server.version.replace(/^nats-server:\s*/, 'nats-server ')} started for this run on ${server.url}`, stop: () => server.stop() };
}
