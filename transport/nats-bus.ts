// The Bus over a real NATS server: the only file that imports the NATS client. One connection
// per process; subscribers run callbacks straight from the client's read loop. A server that
// authorizes gets the user and password given; what its permissions refuse is told, never dropped:
// a refused request rejects with BusPermissionError, and every refusal (NATS reports them on the
// connection, after the fact) goes to `onPermissionError`.
import { connect, errors, type NatsConnection } from '@nats-io/transport-node';
import { BusAuthorizationError, BusClosedError, BusPermissionError, bytesOf, BusTimeoutError, checkSubject, NoRespondersError, type Body, type Bus, type Message,
  type SubscribeOptions, type Subscription } from './bus.ts';

export interface NatsBusOptions {
  /** nats://host:port, or several comma-separated. */
  servers: string;
  name?: string;
  /** The NATS user and its password, for a server whose configuration names its users. */
  user?: string;
  pass?: string;
  /**
   * The first token of this connection's reply subjects (`_INBOX` by default): one of its own
   * lets the server's permissions keep other users off its replies.
   */
  inboxPrefix?: string;
  onError?: (error: unknown, subject: string) => void;
  /** Told of each publish or subscription the server's permissions refused (by default, on stderr). */
  onPermissionError?: (error: BusPermissionError) => void;
}

/** Request subjects kept to recognise refused requests among refused publishes: a bound, as there are only a few. */
const REQUEST_SUBJECTS_MAX = 1_000;

/** Whether `servers` is what NatsBus.connect takes: nats://HOST:PORT, or several comma-separated. */
export const isNatsUrl = (servers: string): boolean => servers.split(',').every((url) => /^nats:\/\/[^/\s,]+$/.test(url));

export class NatsBus implements Bus {
  /** Subjects this connection sent requests on: a refused publish on one of them was a request, whose caller is told. */
  readonly #requestSubjects = new Set<string>();

  private constructor(
    readonly nc: NatsConnection,
    readonly user: string | undefined,
    readonly onError: (error: unknown, subject: string) => void,
    onPermissionError: (error: BusPermissionError) => void,
  ) {
    void this.#watchPermissions(onPermissionError);
  }

  static async connect(o: NatsBusOptions): Promise<NatsBus> {
    let nc: NatsConnection;
    try {
      // noAsyncTraces: otherwise every request builds two Errors with stack traces up front, in case it fails.
      nc = await connect({ servers: o.servers.split(','), name: o.name ?? 'orchsim', maxReconnectAttempts: -1, noAsyncTraces: true,
        ...(o.user !== undefined ? { user: o.user, pass: o.pass ?? '' } : {}), ...(o.inboxPrefix ? { inboxPrefix: o.inboxPrefix } : {}) });
    } catch (e) {
      if (e instanceof errors.AuthorizationError) throw new BusAuthorizationError(o.servers, o.user, { cause: e });
      throw new Error(`cannot connect to NATS at ${o.servers}: ${(e as Error).message}; is nats-server running there?`, { cause: e });
    }
    return new NatsBus(nc, o.user, o.onError ?? ((e, subject) => console.error(`bus handler for ${subject} failed:`, e)),
      o.onPermissionError ?? ((e) => console.error(e.message)));
  }

  /** Reports each refusal the server sends, but a request's: that one's caller gets it as the request's error. */
  async #watchPermissions(report: (error: BusPermissionError) => void): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type !== 'error' || !(s.error instanceof errors.PermissionViolationError)) continue;
      const { operation, subject } = s.error;
      if (operation === 'publish' && this.#requestSubjects.has(subject)) continue;
      report(new BusPermissionError(operation === 'publish' ? 'publish' : 'subscribe', subject, this.user, { cause: s.error }));
    }
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
        // A refused subscription ends; the refusal is reported once, from the connection's status.
        if (err instanceof errors.PermissionViolationError) return;
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
    if (this.#requestSubjects.size < REQUEST_SUBJECTS_MAX) this.#requestSubjects.add(subject);
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
    const refused = e instanceof errors.RequestError ? e.cause : e;
    if (refused instanceof errors.PermissionViolationError)
      return new BusPermissionError(refused.operation === 'publish' ? 'publish' : 'subscribe', refused.subject, this.user, { cause: e });
    return e instanceof Error ? e : new Error(String(e));
  }
}
