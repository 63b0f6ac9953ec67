// An in-process API server on a manual clock whose store can be held: while held, every read and
// write waits, so requests stay in flight for as long as a test wants (the "slow handler" of the
// limit, deadline and shutdown tests).
import { apiServerOptions, type ApiServerOptions } from '../../../../actors/apiserver/options.ts';
import { ApiServer } from '../../../../actors/apiserver/server.ts';
import { MemoryStore } from '../../../../actors/apiserver/storage/memory.ts';
import type { ListOptions, ListResult } from '../../../../actors/apiserver/storage/store.ts';
import type { ApiResponse } from '../../../../actors/apiserver/handlers/response.ts';
import type { KObject } from '../../../../actors/api/types.ts';
import { seededRandom } from '../../../../sim/random.ts';
import { manualClock, type ManualClock } from '../../../helpers/manual-clock.ts';
import { settle } from '../../../helpers/watch-stream.ts';

class HeldStore extends MemoryStore {
  gate: Promise<void> | undefined;
  /** Calls waiting at the gate now. */
  waiting = 0;

  async #pass(): Promise<void> {
    if (!this.gate) return;
    this.waiting++;
    await this.gate;
    this.waiting--;
  }

  override async get(key: string, revision?: number): Promise<KObject | undefined> {
    await this.#pass();
    return super.get(key, revision);
  }

  override async list(prefix: string, opts?: ListOptions): Promise<ListResult> {
    await this.#pass();
    return super.list(prefix, opts);
  }

  override async create(key: string, obj: KObject): Promise<KObject> {
    await this.#pass();
    return super.create(key, obj);
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  json: any;
  text: string;
}

export interface HeldServer {
  server: ApiServer;
  clock: ManualClock;
  store: HeldStore;
  /** From now on, store calls wait until `release()`. */
  hold(): void;
  release(): void;
  /** Starts a request; the promise settles with its answer. */
  send(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** Lets every queued microtask and immediate run. */
  settle(): Promise<void>;
}

export function answer(r: ApiResponse): Answer {
  const text = typeof r.body === 'string' ? r.body : Buffer.from(r.body).toString('utf8');
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, json, text };
}

export async function heldServer(options: Partial<ApiServerOptions> = {}): Promise<HeldServer> {
  const clock = manualClock();
  const store = new HeldStore();
  const server = new ApiServer(apiServerOptions({ etcdCompactionIntervalMs: 0, ...options }), { clock, random: seededRandom(11), store });
  await server.start();
  let open: (() => void) | undefined;
  return {
    server, clock, store,
    hold() {
      store.gate = new Promise((resolve) => (open = resolve));
    },
    release() {
      store.gate = undefined;
      open?.();
    },
    async send(method, url, body, headers = {}) {
      const bytes = body === undefined ? new Uint8Array() : Buffer.from(JSON.stringify(body));
      const h = body === undefined ? headers : { 'content-type': 'application/json', ...headers };
      return answer(await server.handle({ method, url, headers: h, body: bytes }));
    },
    settle: () => settle(),
  };
}

export const CM = '/api/v1/namespaces/default/configmaps';
export const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
