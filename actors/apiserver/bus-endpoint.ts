// The API server on the bus: actors in any process reach it by request/reply, as kubectl does
// over HTTPS. Two subjects, served by a queue group so several API servers share the load:
//   orch.api.request   a wire request (method, url, headers, body) → the response
//   orch.api.changes   the changes of one scope after a revision → events (Secrets' metadata only), the
//                      newest revision, and the scope's chain head, so a watcher can follow the live
//                      subjects after it; authorized as a watch of that scope; in pages (`more`) of at most CHANGES_PAGE_EVENTS events, fewer when a page
//                      would be larger than the bus carries (NATS's max_payload)
import { nodeNameOf } from '../api/fields.ts';
import { StatusError, badRequest, internal, type Status } from '../api/status.ts';
import { Deferred, type Bus, type Subscription } from '../../transport/bus.ts';
import { encode } from '../../transport/codec.ts';
import { payload, valueOf } from '../../transport/payload.ts';
import type { ApiResponse } from './handlers/response.ts';
import { collectionKey } from './registry/keys.ts';
import { storedTypeOf } from './registry/kinds/index.ts';
import type { ApiRequest, ServedTypes } from './request.ts';
import { StorageError } from './storage/errors.ts';
import type { Store } from './storage/store.ts';
import { scopeKey, type Chains } from './watch/chains.ts';
import type { BusEvent } from './watch/events.ts';
import { isPrivate, redacted } from './watch/subjects.ts';

export const REQUEST_SUBJECT = 'orch.api.request';
export const CHANGES_SUBJECT = 'orch.api.changes';
const QUEUE = 'orch-apiserver';

export interface ChangesRequest {
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  nodeName?: string;
  after: number;
  /** The caller's Authorization header, as on orch.api.request: the changes are a watch, authorized as one. */
  authorization?: string;
}

/**
 * A page of the backlog. With `more`, `revision` is that of its last event: ask again after it;
 * the last page has the store's revision and the scope's chain head.
 */
export type ChangesReply = { revision: number; head: number; events: BusEvent[]; more?: true } | { status: Status };

/** The most events one changes reply holds. */
export const CHANGES_PAGE_EVENTS = 500;

export interface WireResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Uint8Array;
  /** The object the body encodes, for a client in this process; never sent to another. */
  value?: unknown;
}


export function changesAfter(store: Store, chains: Chains, keyPrefix: string, q: ChangesRequest, types: ServedTypes, limit = CHANGES_PAGE_EVENTS): ChangesReply {
  const type = types.lookup(q.group, q.version, q.resource);
  if (!type) return { status: badRequest(`unknown resource ${q.group}/${q.version}/${q.resource}`).status };
  const prefix = collectionKey(keyPrefix, storedTypeOf(type), q.namespace);
  const secret = isPrivate(type);
  const head = chains.head(scopeKey({ type, namespace: q.namespace, nodeName: q.nodeName }));
  const revision = store.revision;
  if (q.after >= revision) return { revision, head, events: [] };
  try {
    const events: BusEvent[] = [];
    for (const c of store.changesSince(q.after)) {
      if (!c.key.startsWith(prefix)) continue;
      if (q.nodeName !== undefined && nodeNameOf(c.object) !== q.nodeName && nodeNameOf(c.prev) !== q.nodeName) continue;
      if (events.length === limit) return { revision: events[limit - 1]!.revision, head: 0, events, more: true };
      const e = secret ? redacted(c) : c;
      events.push(e.prev ? { type: e.type, revision: e.revision, object: e.object, prev: e.prev } : { type: e.type, revision: e.revision, object: e.object });
    }
    return { revision, head, events };
  } catch (e) {
    if (e instanceof StorageError && e.code === 'Compacted')
      return { status: new StatusError(410, 'Expired', `too old resource version: ${q.after} (${store.compactedRevision})`).status };
    throw e;
  }
}

/** Why a changes request may not be answered (its 401 or 403), or undefined to answer it. */
export type ChangesRefusal = (q: ChangesRequest) => Status | undefined | Promise<Status | undefined>;

export function serveOnBus(bus: Bus, handle: (req: ApiRequest) => Promise<ApiResponse>, changes: (q: ChangesRequest, limit: number) => ChangesReply,
  refuse: ChangesRefusal): () => void {
  const subs: Subscription[] = [
    bus.subscribe(REQUEST_SUBJECT, (msg) => {
      if (!msg.reply) return;
      const reply = msg.reply;
      let req: ApiRequest;
      try {
        req = valueOf<ApiRequest>(msg);
      } catch {
        return bus.publish(reply, wireBody(toWire({ status: 400, headers: {}, body: JSON.stringify(badRequest('undecodable bus request').status) })));
      }
      // A request with a value comes from this process's client, whole; its body is made on demand.
      const whole = req.value !== undefined ? req : { ...req, headers: req.headers ?? {}, body: req.body ?? new Uint8Array() };
      void handle(whole).then((r) => {
        // Streams (watches) are HTTP's; over the bus a watcher follows the subjects (orch.api.changes).
        const out = r.stream ? { status: 400, headers: {}, body: JSON.stringify(badRequest(`watch over the bus: subscribe to the watch subjects and ask ${CHANGES_SUBJECT} for the backlog`).status) } : r;
        answer(bus, reply, out);
      });
    }, { queue: QUEUE }),
    bus.subscribe(CHANGES_SUBJECT, (msg) => {
      if (!msg.reply) return;
      // Answered in the same turn when the refusal needs no I/O, as before changes were authorized.
      let q: ChangesRequest;
      try {
        q = valueOf<ChangesRequest>(msg);
      } catch {
        return bus.publish(msg.reply, payload({ status: badRequest('undecodable changes request').status }));
      }
      const refused = refuse(q);
      if (refused instanceof Promise) void refused.then((r) => answerChanges(bus, msg.reply!, q, changes, r));
      else answerChanges(bus, msg.reply, q, changes, refused);
    }, { queue: QUEUE }),
  ];
  return () => subs.forEach((s) => s.unsubscribe());
}

/**
 * Publishes a page of changes; a page the bus refuses (over NATS's max_payload) is made again with
 * half its events, down to one; an event too large alone is answered with a 500 that says so.
 */
function answerChanges(bus: Bus, reply: string, q: ChangesRequest, changes: (q: ChangesRequest, limit: number) => ChangesReply, refused: Status | undefined): void {
  if (refused) return bus.publish(reply, payload({ status: refused }));
  for (let limit = CHANGES_PAGE_EVENTS; ;) {
    let page: ChangesReply;
    try {
      page = changes(q, limit);
    } catch (e) {
      page = { status: (e instanceof StatusError ? e : badRequest(String(e))).status };
    }
    try {
      return bus.publish(reply, payload(page));
    } catch (e) {
      if ('status' in page || page.events.length <= 1) {
        const why = `a change after revision ${q.after} could not be sent on the bus: ${(e as Error).message}`;
        try {
          return bus.publish(reply, payload({ status: internal(why).status }));
        } catch {
          return; // The bus is closed or gone: the request times out, as over a cut link.
        }
      }
      limit = page.events.length >> 1;
    }
  }
}

/**
 * Publishes a response; one the bus refuses (over NATS's max_payload: an unpaged list of a large
 * collection) is answered with a 500 saying so, rather than left to time out.
 */
function answer(bus: Bus, reply: string, out: Pick<ApiResponse, 'status' | 'headers' | 'body' | 'value'>): void {
  const wire = toWire(out);
  try {
    bus.publish(reply, wireBody(wire));
  } catch (e) {
    const why = `the answer (${wire.body.length} bytes) could not be sent on the bus: ${(e as Error).message}; list with limit and continue to page it`;
    try {
      bus.publish(reply, wireBody(toWire({ status: 500, headers: {}, body: JSON.stringify(internal(why).status) })));
    } catch {
      // The bus is closed or gone: the client's request times out, as it would over a cut link.
    }
  }
}

const bytesOf = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body);

/** The response on the bus; with a value, its body is made only if someone reads it. */
function toWire(r: Pick<ApiResponse, 'status' | 'headers' | 'body' | 'value'>): WireResponse {
  if (r.value === undefined) return { status: r.status, headers: r.headers, body: bytesOf(r.body) };
  let body: Uint8Array | undefined;
  return {
    status: r.status,
    headers: r.headers,
    get body() {
      return (body ??= bytesOf(r.body));
    },
    value: r.value,
  };
}

/** In this process the response itself; encoded (without the value) only if it leaves. */
const wireBody = (w: WireResponse): Deferred<WireResponse> =>
  new Deferred(w, ({ status, headers, body }) => encode({ status, headers, body }));
