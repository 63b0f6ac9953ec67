// One informer per resource (and namespace) for all the controllers of a process, as client-go's
// shared informer factory: each controller registers its handlers, then starting the factory
// lists and follows each resource once however many controllers read it.
import type { Clock } from '../api/env.ts';
import type { ResourceType } from '../api/resources.ts';
import type { KObject } from '../api/types.ts';
import { WatchHub } from '../apiserver/watch/hub.ts';
import type { Bus } from '../../transport/bus.ts';
import { ApiClient } from './client.ts';
import { Informer } from './informer.ts';

export class SharedInformers {
  readonly #client: ApiClient;
  readonly #hub: WatchHub;
  readonly #informers = new Map<string, Informer>();
  readonly #started = new Map<Informer, Promise<void>>();

  constructor(bus: Bus, readonly clock: Clock, userAgent: string) {
    this.#client = new ApiClient(bus, userAgent, undefined, undefined, { clock });
    this.#hub = new WatchHub(bus);
  }

  /** The informer of `type` (in `namespace`, or all); created on first ask. */
  get<T extends KObject>(type: ResourceType<T>, namespace?: string): Informer<T> {
    const key = `${type.group}/${type.resource}/${namespace ?? ''}`;
    // Every informer of a key was made from the one resource of that key, so of its type.
    let informer = this.#informers.get(key) as Informer<T> | undefined;
    if (!informer) {
      informer = new Informer<T>({ client: this.#client, hub: this.#hub, clock: this.clock, type, ...(namespace ? { namespace } : {}) });
      this.#informers.set(key, informer);
    }
    return informer;
  }

  /** Starts every informer not started yet; resolves once all are synced. */
  start(): Promise<void> {
    for (const informer of this.#informers.values()) if (!this.#started.has(informer)) this.#started.set(informer, informer.start());
    return Promise.all(this.#started.values()).then(() => undefined);
  }

  stop(): void {
    for (const informer of this.#informers.values()) informer.stop();
  }

  get all(): Informer[] {
    return [...this.#informers.values()];
  }
}
