// --event-ttl: an Event lives this long after its last write, as the real server gives every Event
// an etcd lease of the TTL on each write. One timer per Event on the server's clock: a write re-arms
// it, a delete disarms it, and when it fires the Event is deleted unless written since. Events that
// were in the store before this server started (an API server restart) get a full TTL from then.
import type { Clock } from '../api/env.ts';
import { collectionKey } from './registry/keys.ts';
import type { Store } from './storage/store.ts';
import { EVENTS } from '../api/model/core.ts';

export class EventExpiry {
  readonly #timers = new Map<string, unknown>();
  readonly #unsubscribe: () => void;

  constructor(readonly store: Store, readonly clock: Clock, keyPrefix: string, readonly ttlMs: number) {
    const prefix = collectionKey(keyPrefix, EVENTS, undefined);
    this.#unsubscribe = store.onChange((c) => {
      if (!c.key.startsWith(prefix)) return;
      if (c.type === 'DELETED') return this.#disarm(c.key);
      this.#arm(c.key, c.revision);
    });
    void store.list(prefix, {}).then((list) => {
      for (const e of list.items) {
        const key = `${prefix}${e.metadata.namespace}/${e.metadata.name}`;
        if (!this.#timers.has(key)) this.#arm(key, Number(e.metadata.resourceVersion));
      }
    });
  }

  /** Events with a pending expiry. */
  get pending(): number {
    return this.#timers.size;
  }

  stop(): void {
    this.#unsubscribe();
    for (const t of this.#timers.values()) this.clock.clearTimeout(t);
    this.#timers.clear();
  }

  #arm(key: string, revision: number): void {
    this.#disarm(key);
    this.#timers.set(key, this.clock.setTimeout(() => {
      this.#timers.delete(key);
      // Written since (a conflict) or gone already: its own timer or nobody has it now.
      void this.store.delete(key, revision).catch(() => undefined);
    }, this.ttlMs));
  }

  #disarm(key: string): void {
    const t = this.#timers.get(key);
    if (t === undefined) return;
    this.clock.clearTimeout(t);
    this.#timers.delete(key);
  }
}
