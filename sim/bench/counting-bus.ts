// A Bus that counts the messages its subscribers receive: how the node-agent case shows that the
// server side filters (one message per pod event reaches the watching process, not one per watcher).
import type { Message, SubscribeOptions, Subscription } from '../../transport/bus.ts';
import { ForwardingBus } from '../../transport/forwarding-bus.ts';
import { PROGRESS_SUBJECT } from '../../actors/apiserver/watch/subjects.ts';

export class CountingBus extends ForwardingBus {
  /** Watch events handed to subscriptions. */
  events = 0;
  /** Progress messages (what bookmarks are made from) handed to subscriptions. */
  progress = 0;

  override subscribe(subject: string, handler: (msg: Message) => void, opts?: SubscribeOptions): Subscription {
    return this.inner.subscribe(subject, (msg) => {
      if (msg.subject === PROGRESS_SUBJECT) this.progress++;
      else this.events++;
      handler(msg);
    }, opts);
  }
}
