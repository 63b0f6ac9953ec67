// A Bus that counts the messages its subscribers receive: how the node-agent case shows that the
// server side filters (one message per pod event reaches the watching process, not one per watcher).
import type { Body, Bus, Message, SubscribeOptions, Subscription } from '../../transport/bus.ts';
import { PROGRESS_SUBJECT } from '../../actors/apiserver/watch/subjects.ts';

export class CountingBus implements Bus {
  /** Watch events handed to subscriptions. */
  events = 0;
  /** Progress messages (what bookmarks are made from) handed to subscriptions. */
  progress = 0;

  constructor(readonly inner: Bus) {}

  publish(subject: string, data: Body, reply?: string): void {
    this.inner.publish(subject, data, reply);
  }

  subscribe(subject: string, handler: (msg: Message) => void, opts?: SubscribeOptions): Subscription {
    return this.inner.subscribe(subject, (msg) => {
      if (msg.subject === PROGRESS_SUBJECT) this.progress++;
      else this.events++;
      handler(msg);
    }, opts);
  }

  request(subject: string, data: Body, timeoutMs: number): Promise<Message> {
    return this.inner.request(subject, data, timeoutMs);
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
