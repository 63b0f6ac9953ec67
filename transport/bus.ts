// The Bus: how actors exchange bytes. Publish, subscribe with NATS subject wildcards (`*` one
// token, `>` the rest), queue groups (one member of a group gets each message), request/reply
// with a timeout, drain and close. Two implementations honour this one contract: in-process
// (memory-bus.ts) and NATS (nats-bus.ts). Bytes and subjects only: what subjects mean is the
// business of whoever publishes on them. A body may be Deferred: encoded only if it leaves the
// process, so in-process subscribers skip both encoding and decoding.

export interface Message {
  subject: string;
  /** The bytes; for a Deferred body, encoded on first read (once, shared by every receiver). */
  data: Uint8Array;
  /** Where a reply goes, for requests. */
  reply?: string;
  /** The value a Deferred body carries, when the message did not leave the process. Read-only. */
  value?: unknown;
}

/**
 * A body with its value and the way to encode it. The in-process bus hands subscribers the value
 * and never encodes; the NATS bus (or a subscriber reading `data`) encodes it once.
 */
export class Deferred<T = unknown> {
  #bytes: Uint8Array | undefined;
  readonly #encode: () => Uint8Array;
  constructor(readonly value: T, encode: (value: T) => Uint8Array) {
    this.#encode = () => encode(value);
  }

  get bytes(): Uint8Array {
    return (this.#bytes ??= this.#encode());
  }
}

export type Body = Uint8Array | Deferred;

export const bytesOf = (body: Body): Uint8Array => (body instanceof Deferred ? body.bytes : body);

export interface Subscription {
  readonly subject: string;
  unsubscribe(): void;
}

export interface SubscribeOptions {
  /** Members of one queue group share the messages: each goes to exactly one of them. */
  queue?: string;
}

export interface Bus {
  publish(subject: string, data: Body, reply?: string): void;
  subscribe(subject: string, handler: (msg: Message) => void, opts?: SubscribeOptions): Subscription;
  /** Sends a request and resolves with the first reply; rejects with BusTimeoutError or NoRespondersError. */
  request(subject: string, data: Body, timeoutMs: number): Promise<Message>;
  /**
   * Whether a message published on `subject` now would reach a subscriber, when the bus can tell
   * (in process it can; over NATS only the server knows, so the method is absent). Publishers of
   * costly messages skip encoding ones nobody would receive.
   */
  hasSubscribers?(subject: string): boolean;
  /** Resolves when everything published so far has reached the server (NATS) or its subscribers (in process). */
  flush(): Promise<void>;
  /** Stops taking new messages, delivers those in flight, then closes. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

// Tokens are runs of anything but '.', '*', '>' and whitespace, joined by single dots; a pattern's
// token may also be '*', and its last one '>'. One regular expression per check: every publish
// checks its subject, and splitting it into tokens first cost more than the rest of an in-process delivery.
const SUBJECT = /^[^\s.*>]+(?:\.[^\s.*>]+)*$/;
const PATTERN = /^(?:(?:[^\s.*>]+|\*)\.)*(?:[^\s.*>]+|\*|>)$/;

/** Throws InvalidSubjectError unless `subject` is a valid subject (or, with wildcards, a pattern). */
export function checkSubject(subject: string, wildcards: boolean): void {
  if (!(wildcards ? PATTERN : SUBJECT).test(subject)) throw new InvalidSubjectError(subject);
}

export class InvalidSubjectError extends Error {
  override readonly name = 'InvalidSubjectError';
  constructor(readonly subject: string) {
    super(`invalid subject ${JSON.stringify(subject)}: tokens are separated by '.', may not be empty or hold spaces, and '*' and '>' stand alone ('>' only last)`);
  }
}

export class BusTimeoutError extends Error {
  override readonly name = 'BusTimeoutError';
  constructor(readonly subject: string, readonly timeoutMs: number) {
    super(`no reply on ${subject} within ${timeoutMs} ms`);
  }
}

export class NoRespondersError extends Error {
  override readonly name = 'NoRespondersError';
  constructor(readonly subject: string) {
    super(`no responders are subscribed to ${subject}`);
  }
}

export class BusClosedError extends Error {
  override readonly name = 'BusClosedError';
  constructor() {
    super('the bus is closed');
  }
}

/** The NATS server refused the connection: no credentials where it wants some, or ones it does not know. */
export class BusAuthorizationError extends Error {
  override readonly name = 'BusAuthorizationError';
  constructor(readonly servers: string, readonly user: string | undefined, options?: ErrorOptions) {
    super(user === undefined
      ? `the NATS server at ${servers} refused a connection without credentials (authorization violation): it requires a user and password`
      : `the NATS server at ${servers} refused user ${JSON.stringify(user)} (authorization violation): the password is wrong, or the server runs with another configuration`, options);
  }
}

/** The NATS server's permissions do not let this connection's user publish or subscribe on a subject. */
export class BusPermissionError extends Error {
  override readonly name = 'BusPermissionError';
  constructor(readonly operation: 'publish' | 'subscribe', readonly subject: string, readonly user: string | undefined, options?: ErrorOptions) {
    super(`the NATS server does not let ${user === undefined ? 'this connection' : `user ${JSON.stringify(user)}`} ${operation} ${operation === 'publish' ? 'on' : 'to'} ${subject}: `
      + 'its permissions in the server\'s configuration do not allow it', options);
  }
}
