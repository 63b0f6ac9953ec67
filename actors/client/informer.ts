// The informer: list, then follow the watch subjects from the list's version, keeping a local
// cache and calling handlers for adds, updates and deletes. It relists when the backlog after
// its version is gone (410) and when the chain of an event shows it missed one (a gap), with a
// growing delay on repeated failures. The same informer works over the in-process bus and NATS.
import type { Clock } from '../api/env.ts';
import { selectableFields } from '../api/fields.ts';
import { fieldMatcher, parseFieldTerms, parseLabelSelector, type Matcher } from '../api/selectors.ts';
import type { ResourceType } from '../api/resources.ts';
import { StatusError } from '../api/status.ts';
import type { KObject } from '../api/types.ts';
import { scopeKey } from '../apiserver/watch/chains.ts';
import type { BusEvent } from '../apiserver/watch/events.ts';
import type { WatchHub } from '../apiserver/watch/hub.ts';
import { watchSubject } from '../apiserver/watch/subjects.ts';
import { transform } from '../apiserver/watch/watcher.ts';
import { cacheKey, ObjectCache } from './cache.ts';
import type { ApiClient } from './client.ts';
import { actorIds } from '../system/ids.ts';
import { asSender, enter, leave } from '../system/senders.ts';

export interface InformerOptions<T extends KObject = KObject> {
  client: ApiClient;
  hub: WatchHub;
  clock: Clock;
  type: ResourceType<T>;
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Whether the cache keeps its namespace and node indexes (true by default; an informer whose readers go by key alone need not). */
  indexed?: boolean;
}

export interface InformerHandlers<T extends KObject = KObject> {
  add?(obj: T): void;
  update?(old: T, obj: T): void;
  delete?(obj: T): void;
}

const BACKOFF_MS = { first: 1_000, max: 30_000 };

/** `T`: the shape of the resource's objects, as its handlers and cache give them. */
export class Informer<T extends KObject = KObject> {
  readonly cache: ObjectCache<T>;
  /** How many times the informer listed: 1 after a clean start; more after 410s and gaps. */
  lists = 0;
  #handlers: InformerHandlers<T>[] = [];
  #filter: Matcher | undefined;
  #nodeName: string | undefined;
  #scope: string;
  #subject: string;
  #revision = 0;
  #head = 0;
  #following = false;
  #buffer: BusEvent[] = [];
  #stopListening: (() => void) | undefined;
  #relisting: Promise<void> | undefined;
  #backoffMs = 0;
  #stopped = false;
  #synced: Promise<void> | undefined;

  constructor(readonly o: InformerOptions<T>) {
    this.cache = new ObjectCache<T>({ indexed: o.indexed ?? true });
    const terms = parseFieldTerms(o.fieldSelector);
    const labels = parseLabelSelector(o.labelSelector);
    const fields = fieldMatcher(terms, selectableFields(o.type.group, o.type.resource));
    this.#filter = labels && fields ? (x) => labels(x) && fields(x) : labels ?? fields;
    const isPods = o.type.group === '' && o.type.resource === 'pods';
    this.#nodeName = isPods ? terms.find((t) => t.field === 'spec.nodeName' && !t.negated)?.value : undefined;
    this.#scope = scopeKey({ type: o.type, namespace: o.namespace, nodeName: this.#nodeName });
    this.#subject = watchSubject(o.type, { namespace: o.namespace, nodeName: this.#nodeName });
  }

  on(handlers: InformerHandlers<T>): this {
    this.#handlers.push(handlers);
    return this;
  }

  /** The revision the cache reflects. */
  get revision(): number {
    return this.#revision;
  }

  /** Starts following; resolves once the cache holds the server's state (synced). */
  start(): Promise<void> {
    this.#stopListening = this.o.hub.listen(this.#subject, (e) => this.#onEvent(e));
    this.#synced = this.#relist();
    return this.#synced;
  }

  stop(): void {
    this.#stopped = true;
    this.#stopListening?.();
  }

  #onEvent(e: BusEvent): void {
    if (this.#stopped) return;
    if (!this.#following) {
      this.#buffer.push(e);
      return;
    }
    if (e.revision <= this.#revision) return;
    const prev = e.chain?.[this.#scope];
    if (prev !== undefined && prev !== this.#head) {
      // A message of this scope was lost between #head and this event: the cache may be wrong.
      this.#buffer = [e];
      void this.#relist();
      return;
    }
    this.#head = e.revision;
    this.#apply(e);
  }

  #apply(e: BusEvent): void {
    this.#revision = Math.max(this.#revision, e.revision);
    const seen = transform(e, this.#filter);
    if (!seen) return;
    const obj = seen.object as T;
    // What the handlers send, they send on the API server's word.
    const frame = enter(actorIds.apiserver(), undefined);
    try {
      if (seen.type === 'DELETED') {
        const old = this.cache.remove(cacheKey(obj));
        if (old) for (const h of this.#handlers) h.delete?.(obj);
        return;
      }
      const old = this.cache.put(obj);
      for (const h of this.#handlers) old ? h.update?.(old, obj) : h.add?.(obj);
    } finally {
      leave(frame);
    }
  }

  /** Lists, replaces the cache (telling handlers what changed), then catches up to the live subjects. */
  #relist(): Promise<void> {
    if (this.#relisting) return this.#relisting;
    this.#following = false;
    this.#relisting = (async () => {
      for (;;) {
        if (this.#stopped) return;
        try {
          // The subscription is live at the server first: later changes arrive on it.
          await this.o.hub.bus.flush();
          await this.#listAndCatchUp();
          this.#backoffMs = 0;
          return;
        } catch (e) {
          if (!(e instanceof StatusError && e.code === 410) && this.#backoffMs >= BACKOFF_MS.max) throw e;
          this.#backoffMs = this.#backoffMs ? Math.min(this.#backoffMs * 2, BACKOFF_MS.max) : e instanceof StatusError && e.code === 410 ? 0 : BACKOFF_MS.first;
          if (this.#backoffMs) await new Promise<void>((r) => this.o.clock.setTimeout(r, this.#backoffMs));
        }
      }
    })().finally(() => (this.#relisting = undefined));
    return this.#relisting;
  }

  async #listAndCatchUp(): Promise<void> {
    const { client, type, namespace, labelSelector, fieldSelector } = this.o;
    const list = await client.listAll(type, namespace, { labelSelector, fieldSelector });
    this.lists++;
    const listed = Number(list.metadata.resourceVersion);
    // Type first, then the item (which has none, as list items come): V8 shares one hidden class
    // among objects built this way, where adding keys after a spread gives each its own.
    const fresh = new Map(list.items.map((o) => [cacheKey(o), { apiVersion: list.apiVersion, kind: type.kind, ...o } as T]));
    asSender(actorIds.apiserver(), () => {
      for (const key of [...this.cache.keys()]) if (!fresh.has(key)) {
        const old = this.cache.remove(key)!;
        for (const h of this.#handlers) h.delete?.(old);
      }
      for (const obj of fresh.values()) {
        const old = this.cache.put(obj);
        if (!old) for (const h of this.#handlers) h.add?.(obj);
        else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) for (const h of this.#handlers) h.update?.(old, obj);
      }
    });
    this.#revision = listed;
    // The changes since the list, page after page; the last page names the scope's chain head.
    for (let after = listed; ;) {
      const page = await client.changes({ group: type.group, version: type.version, resource: type.resource, namespace, nodeName: this.#nodeName, after });
      if ('status' in page) throw new StatusError(page.status.code ?? 410, page.status.reason ?? 'Expired', page.status.message ?? 'expired');
      for (const e of page.events) if (e.revision > this.#revision) this.#apply(e);
      if (page.more) {
        after = page.revision;
        continue;
      }
      this.#revision = Math.max(this.#revision, page.revision);
      this.#head = page.head;
      break;
    }
    this.#following = true;
    const buffered = this.#buffer;
    this.#buffer = [];
    for (const e of buffered) this.#onEvent(e);
  }
}
