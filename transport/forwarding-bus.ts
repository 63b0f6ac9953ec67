// A Bus in front of another: every call goes to `inner` unchanged; a subclass overrides what it
// changes (a link that delays or loses messages, a server side that times requests, a counter).
import type { Body, Bus, Message, SubscribeOptions, Subscription } from './bus.ts';

export class ForwardingBus implements Bus {
  constructor(readonly inner: Bus) {}

  publish(subject: string, data: Body, reply?: string): void {
    this.inner.publish(subject, data, reply);
  }

  subscribe(subject: string, handler: (msg: Message) => void, opts?: SubscribeOptions): Subscription {
    return this.inner.subscribe(subject, handler, opts);
  }

  request(subject: string, data: Body, timeoutMs: number): Promise<Message> {
    return this.inner.request(subject, data, timeoutMs);
  }

  /** The inner bus's answer; where it cannot tell (NATS), a subscriber may be there. */
  hasSubscribers(subject: string): boolean {
    return this.inner.hasSubscribers?.(subject) ?? true;
  }

  flush(): Promise<void> {
    return this.inner.flush();
  }

  drain(): Promise<void> {
    return this.inner.drain();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
