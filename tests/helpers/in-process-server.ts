// An API server called in process through `handle()`, on a manual clock and a fixed seed: the
// fast way to pin the resource protocol down without HTTPS.
import type { ApiServerOptions } from '../../actors/apiserver/options.ts';
import { bareServerOptions } from './bare-server.ts';
import { ApiServer } from '../../actors/apiserver/server.ts';
import { seededRandom } from '../../sim/random.ts';
import { manualClock, type ManualClock } from './manual-clock.ts';

export interface Reply {
  status: number;
  headers: Record<string, string | string[]>;
  /** The body as text (Protobuf bodies: see `bytes`). */
  text: string;
  bytes: Uint8Array;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: any;
}

export interface CallOptions {
  /** An object is sent as JSON; a string or bytes as they are. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Harness {
  server: ApiServer;
  clock: ManualClock;
  call(method: string, url: string, opts?: CallOptions): Promise<Reply>;
  get(url: string, headers?: Record<string, string>): Promise<Reply>;
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<Reply>;
  put(url: string, body: unknown, headers?: Record<string, string>): Promise<Reply>;
  patch(url: string, body: unknown, contentType: string, headers?: Record<string, string>): Promise<Reply>;
  del(url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** The store's revision: unchanged when a request stored nothing. */
  revision(): number;
}

function toBytes(body: unknown): Uint8Array {
  if (body === undefined) return new Uint8Array(0);
  if (body instanceof Uint8Array) return body;
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
}

export async function startServer(options: Partial<ApiServerOptions> = {}, seed = 7): Promise<Harness> {
  const clock = manualClock();
  const server = new ApiServer(bareServerOptions({ etcdCompactionIntervalMs: 0, ...options }), { clock, random: seededRandom(seed) });
  await server.start();
  const call = async (method: string, url: string, opts: CallOptions = {}): Promise<Reply> => {
    const r = await server.handle({ method, url, headers: { ...opts.headers }, body: toBytes(opts.body) });
    const bytes = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : r.body;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: r.status, headers: r.headers, text, bytes, json };
  };
  return {
    server, clock, call,
    get: (url, headers) => call('GET', url, { headers }),
    post: (url, body, headers) => call('POST', url, { body, headers }),
    put: (url, body, headers) => call('PUT', url, { body, headers }),
    patch: (url, body, contentType, headers) => call('PATCH', url, { body, headers: { 'content-type': contentType, ...headers } }),
    del: (url, body, headers) => call('DELETE', url, { body, headers }),
    revision: () => server.store.revision,
  };
}

/** A header's values as a list (absent: empty). */
export function headerValues(r: Reply, name: string): string[] {
  const v = r.headers[name.toLowerCase()];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

export const MERGE = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC = 'application/strategic-merge-patch+json';
export const APPLY = 'application/apply-patch+yaml';

export const configMap = (name: string, data: Record<string, string> = { k: 'v' }, labels?: Record<string, string>) => ({
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(labels ? { labels } : {}) }, data,
});

export const pod = (name: string, extra: { labels?: Record<string, string>; nodeName?: string; finalizers?: string[] } = {}) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, ...(extra.labels ? { labels: extra.labels } : {}), ...(extra.finalizers ? { finalizers: extra.finalizers } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...(extra.nodeName ? { nodeName: extra.nodeName } : {}) },
});

/** A ControllerRevision; `revision: null` leaves the field out. */
export const controllerRevision = (name: string, revision: number | null = 1, data: unknown = { spec: { template: { x: 1 } } },
  labels?: Record<string, string>) => ({
  apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name, ...(labels ? { labels } : {}) },
  ...(revision !== null ? { revision } : {}), data,
});
