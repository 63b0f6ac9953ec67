// The typed client every actor uses: the API server's requests over the bus (request/reply on
// orch.api.request), answers decoded from JSON, failures as the StatusError the server sent.
// A 429 carrying Retry-After (the server's in-flight limit, its shutdown, a disruption budget) is
// sent again after that many seconds on the client's clock, at most `maxRetries` times, as
// client-go does (rest/with_retry.go); without a clock the 429 is the caller's.
import type { Clock } from '../api/env.ts';
import { apiVersionOf, type ResourceType } from '../api/resources.ts';
import { jsonCopy } from '../api/json-copy.ts';
import { StatusError, type Status } from '../api/status.ts';
import type { KList, KObject } from '../api/types.ts';
import { Deferred, type Bus } from '../../transport/bus.ts';
import { encode } from '../../transport/codec.ts';
import { payload, valueOf } from '../../transport/payload.ts';
import { CHANGES_SUBJECT, REQUEST_SUBJECT, type ChangesReply, type ChangesRequest, type WireResponse } from '../apiserver/bus-endpoint.ts';
import type { ApiRequest } from '../apiserver/request.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { noteRequest } from '../system/senders.ts';

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
}

/** client-go's pager's page size. */
export const LIST_PAGE_SIZE = 500;

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

const PATCH_CONTENT: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

function collectionPath(type: ResourceType, namespace: string | undefined): string {
  const root = type.group ? `/apis/${type.group}/${type.version}` : '/api/v1';
  return type.scope === 'Namespaced' && namespace !== undefined ? `${root}/namespaces/${encodeURIComponent(namespace)}/${type.resource}` : `${root}/${type.resource}`;
}

function objectPath(type: ResourceType, namespace: string | undefined, name: string, subresource?: string): string {
  return `${collectionPath(type, namespace)}/${encodeURIComponent(name)}${subresource ? `/${subresource}` : ''}`;
}

/** How a client waits out 429s: on `clock` (the limiter's when not given), at most `maxRetries` times (client-go's 10). */
export interface RetryOptions {
  clock?: Clock;
  maxRetries?: number;
}

const DEFAULT_MAX_RETRIES = 10;

/** Retry-After in whole seconds, as client-go reads it; undefined when absent or not a number. */
function retryAfterSeconds(headers: WireResponse['headers']): number | undefined {
  const raw = headers['retry-after'] ?? headers['Retry-After'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

// Buffer.from slices a shared pool for small bodies; TextEncoder allocates a backing store each time.
const encodeJson = (body: unknown): Uint8Array => Buffer.from(JSON.stringify(body), 'utf8');

/**
 * The wire request. A JSON body (apply's YAML aside) also goes as a copy the request owns, which a
 * server in this process reads instead of the text; the text is written only if the request
 * leaves the process.
 */
function requestOf(method: string, url: string, headers: ApiRequest['headers'], body: unknown, contentType: string): ApiRequest {
  if (body === undefined) return { method, url, headers, body: new Uint8Array() };
  const value = contentType === PATCH_CONTENT.apply ? undefined : jsonCopy(body);
  if (value === undefined) return { method, url, headers, body: encodeJson(body) };
  let bytes: Uint8Array | undefined;
  return {
    method, url, headers, value,
    get body() {
      return (bytes ??= encodeJson(value));
    },
  };
}

/** In this process the request itself; encoded without its value if it leaves. */
const wireRequest = (req: ApiRequest): Deferred<ApiRequest> =>
  new Deferred(req, ({ method, url, headers, body }) => encode({ method, url, headers, body }));

export class ApiClient {
  readonly #retryClock: Clock | undefined;
  readonly #maxRetries: number;

  constructor(
    readonly bus: Bus,
    /** The field manager and User-Agent of this client's writes. */
    readonly userAgent: string,
    readonly timeoutMs = 30_000,
    /** The client's QPS and burst limit towards the API server, when it has one. */
    readonly limiter?: RateLimiter,
    retry: RetryOptions = {},
  ) {
    this.#retryClock = retry.clock ?? limiter?.clock;
    this.#maxRetries = retry.maxRetries ?? DEFAULT_MAX_RETRIES;
    if (!(Number.isInteger(this.#maxRetries) && this.#maxRetries >= 0)) throw new RangeError(`maxRetries must be an integer of at least 0, got ${retry.maxRetries}`);
  }

  async request(method: string, url: string, body?: unknown, contentType = 'application/json', accept = 'application/json'): Promise<unknown> {
    const headers = { 'user-agent': this.userAgent, accept, ...(body !== undefined ? { 'content-type': contentType } : {}) };
    const req = requestOf(method, url, headers, body, contentType);
    noteRequest(method, url);
    let reply: WireResponse;
    for (let attempt = 0; ; attempt++) {
      // Every attempt takes its turn with the rate limiter, as client-go throttles each try.
      const wait = this.limiter?.wait();
      if (wait) await wait;
      reply = valueOf<WireResponse>(await this.bus.request(REQUEST_SUBJECT, wireRequest(req), this.timeoutMs));
      const seconds = reply.status === 429 ? retryAfterSeconds(reply.headers) : undefined;
      const clock = this.#retryClock;
      if (seconds === undefined || clock === undefined || attempt >= this.#maxRetries) break;
      await new Promise<void>((resolve) => clock.setTimeout(resolve, seconds * 1000));
    }
    // From a server in this process, an object comes as itself (the store's, never to be modified).
    const b = reply.value === undefined ? reply.body : undefined;
    const parsed = b === undefined ? reply.value : b.length ? JSON.parse(Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8')) : undefined;
    if (reply.status >= 400) {
      const s = parsed as Status;
      throw new StatusError(reply.status, s?.reason ?? 'Unknown', s?.message ?? `HTTP ${reply.status}`, s?.details, s?.metadata);
    }
    return parsed;
  }

  get<T extends KObject>(type: ResourceType<T>, namespace: string | undefined, name: string): Promise<T> {
    return this.request('GET', objectPath(type, namespace, name)) as Promise<T>;
  }

  list<T extends KObject>(type: ResourceType<T>, namespace: string | undefined, opts: ListOptions = {}): Promise<KList<T>> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(opts)) if (v !== undefined && v !== '') q.set(k, String(v));
    const qs = q.toString();
    return this.request('GET', `${collectionPath(type, namespace)}${qs ? `?${qs}` : ''}`) as Promise<KList<T>>;
  }

  /**
   * A whole collection in pages of `pageSize`, as client-go's pager lists for informers: every
   * page comes from the first one's snapshot, and no one answer has to carry the whole list.
   */
  async listAll<T extends KObject>(type: ResourceType<T>, namespace: string | undefined, opts: Pick<ListOptions, 'labelSelector' | 'fieldSelector'> = {}, pageSize = LIST_PAGE_SIZE): Promise<KList<T>> {
    const first = await this.list(type, namespace, { ...opts, limit: pageSize });
    const items = first.items;
    for (let token = first.metadata.continue; token; ) {
      const page = await this.list(type, namespace, { ...opts, limit: pageSize, continue: token });
      for (const item of page.items) items.push(item);
      token = page.metadata.continue;
    }
    return { ...first, metadata: { resourceVersion: first.metadata.resourceVersion }, items };
  }

  create<T extends KObject>(type: ResourceType<T>, obj: KObject): Promise<T> {
    return this.request('POST', collectionPath(type, obj.metadata.namespace), { apiVersion: apiVersionOf(type), kind: type.kind, ...obj }) as Promise<T>;
  }

  /** A PUT of the object or of its `status` or `finalize` subresource (which answer the object). */
  update<T extends KObject>(type: ResourceType<T>, obj: KObject, subresource?: 'status' | 'finalize'): Promise<T> {
    return this.request('PUT', objectPath(type, obj.metadata.namespace, obj.metadata.name!, subresource), obj) as Promise<T>;
  }

  patch<T extends KObject>(type: ResourceType<T>, namespace: string | undefined, name: string, patch: unknown, kind: PatchType = 'merge', subresource?: 'status'): Promise<T> {
    const manager = kind === 'apply' ? `?fieldManager=${encodeURIComponent(this.userAgent)}` : '';
    return this.request('PATCH', `${objectPath(type, namespace, name, subresource)}${manager}`, patch, PATCH_CONTENT[kind]) as Promise<T>;
  }

  /** Deletes every object of `type` in `namespace` (deletecollection). */
  deleteCollection(type: ResourceType, namespace: string): Promise<unknown> {
    return this.request('DELETE', collectionPath(type, namespace));
  }

  /** Deletes with DeleteOptions: a grace period, preconditions (only the object with this uid), what becomes of dependents. */
  delete(type: ResourceType, namespace: string | undefined, name: string,
    options: { gracePeriodSeconds?: number; preconditions?: { uid?: string }; propagationPolicy?: 'Orphan' | 'Foreground' | 'Background' } = {}): Promise<unknown> {
    return this.request('DELETE', objectPath(type, namespace, name), Object.keys(options).length ? options : undefined);
  }

  /** The changes of a scope after `after`, for a watcher joining the live subjects (bus-endpoint.ts). */
  async changes(q: ChangesRequest): Promise<ChangesReply> {
    return valueOf<ChangesReply>(await this.bus.request(CHANGES_SUBJECT, payload(q), this.timeoutMs));
  }
}
