// The Bus over a real NATS server: the only file that imports the NATS client. One connection
// per process; subscribers run callbacks straight from the client's read loop.
import { connect, errors, type NatsConnection } from '@nats-io/transport-node';
import { BusClosedError, bytesOf, BusTimeoutError, checkSubject, NoRespondersError, type Body, type Bus, type Message, type SubscribeOptions, type Subscription } from './bus.ts';

export interface NatsBusOptions {
  /** nats://host:port, or several comma-separated. */
  servers: string;
  name?: string;
  onError?: (error: unknown, subject: string) => void;
}

/** Whether `servers` is what NatsBus.connect takes: nats://HOST:PORT, or several comma-separated. */
export const isNatsUrl = (servers: string): boolean => servers.split(',').every((url) => /^nats:\/\/[^/\s,]+$/.test(url));

export class NatsBus implements Bus {
  private constructor(
    readonly nc: NatsConnection,
    readonly onError: (error: unknown, subject: string) => void,
  ) {}

  static async connect(o: NatsBusOptions): Promise<NatsBus> {
    let nc: NatsConnection;
    try {
      // noAsyncTraces: otherwise every request builds two Errors with stack traces up front, in case it fails.
      nc = await connect({ servers: o.servers.split(','), name: o.name ?? 'orchsim', maxReconnectAttempts: -1, noAsyncTraces: true });
    } catch (e) {
      throw new Error(`cannot connect to NATS at ${o.servers}: ${(e as Error).message}; is nats-server running there?`, { cause: e });
    }
    return new NatsBus(nc, o.onError ?? ((e, subject) => console.error(`bus handler for ${subject} failed:`, e)));
  }

  publish(subject: string, data: Body, reply?: string): void {
    checkSubject(subject, false);
    try {
      this.nc.publish(subject, bytesOf(data), reply ? { reply } : undefined);
    } catch (e) {
      throw this.#translate(e, subject);
    }
  }

  subscribe(subject: string, handler: (msg: Message) => void, opts: SubscribeOptions = {}): Subscription {
    checkSubject(subject, true);
    const sub = this.nc.subscribe(subject, {
      ...(opts.queue ? { queue: opts.queue } : {}),
      callback: (err, m) => {
        if (err) return this.onError(err, subject);
        try {
          handler(m.reply ? { subject: m.subject, data: m.data, reply: m.reply } : { subject: m.subject, data: m.data });
        } catch (e) {
          this.onError(e, m.subject);
        }
      },
    });
    return { subject, unsubscribe: () => sub.unsubscribe() };
  }

  async request(subject: string, data: Body, timeoutMs: number): Promise<Message> {
    checkSubject(subject, false);
    try {
      const m = await this.nc.request(subject, bytesOf(data), { timeout: timeoutMs });
      return { subject: m.subject, data: m.data };
    } catch (e) {
      throw this.#translate(e, subject, timeoutMs);
    }
  }

  flush(): Promise<void> {
    return this.nc.flush();
  }

  drain(): Promise<void> {
    return this.nc.isClosed() ? Promise.resolve() : this.nc.drain();
  }

  close(): Promise<void> {
    return this.nc.isClosed() ? Promise.resolve() : this.nc.close();
  }

  #translate(e: unknown, subject: string, timeoutMs = 0): Error {
    if (e instanceof errors.NoRespondersError || (e instanceof errors.RequestError && e.isNoResponders())) return new NoRespondersError(subject);
    if (e instanceof errors.TimeoutError) return new BusTimeoutError(subject, timeoutMs);
    if (e instanceof errors.ClosedConnectionError || e instanceof errors.DrainingConnectionError) return new BusClosedError();
    return e instanceof Error ? e : new Error(String(e));
  }
}
