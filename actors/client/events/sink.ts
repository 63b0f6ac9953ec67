// Where a recorder's events go: the component's typed client, as client-go's EventSinkImpl. An
// event is created, or patched (strategic merge) when it was written before, and created after
// all when the patch finds it gone. A write the server refused (any Status) is dropped, as the
// real broadcasters drop it; one nobody answered is tried again, at most MAX_TRIES times in all,
// after the caller's delay on the client's clock. Stopping drops what waits for a retry.
import type { Clock } from '../../api/env.ts';
import { isNotFound, StatusError } from '../../api/status.ts';
import type { ApiClient } from '../client.ts';
import { EVENTS, type CoreEvent } from './event.ts';

/** The real broadcasters' maxTriesPerEvent. */
export const MAX_TRIES = 12;
/** The real broadcasters' sleep between tries. */
export const RETRY_MS = 10_000;
/** Events waiting to be sent beyond this many are dropped (the real broadcasters' maxQueuedEvents). */
export const MAX_QUEUED = 1000;

/** The outcome of one try: the server's copy, a refusal (drop it), or no answer (try again). */
export type Attempt = { written: CoreEvent } | { refused: StatusError } | { unanswered: unknown };

export class EventSink {
  #stopped = false;
  readonly #waits = new Map<unknown, () => void>();

  constructor(readonly client: ApiClient, readonly clock: Clock) {}

  get stopped(): boolean {
    return this.#stopped;
  }

  /** One try: a patch when given (a create if the event is gone), else a create. */
  async write(event: CoreEvent, patch?: object): Promise<Attempt> {
    const { namespace, name } = event.metadata;
    try {
      if (patch) {
        try {
          return { written: (await this.client.patch(EVENTS, namespace, name, patch, 'strategic')) as CoreEvent };
        } catch (e) {
          if (!isNotFound(e)) throw e;
        }
      }
      const { resourceVersion: _, ...metadata } = event.metadata;
      return { written: (await this.client.create(EVENTS, { ...event, metadata })) as CoreEvent };
    } catch (e) {
      return e instanceof StatusError ? { refused: e } : { unanswered: e };
    }
  }

  /**
   * Tries `attempt` until it reports done, MAX_TRIES times at most, waiting `delayMs(tries)` (tries
   * made so far) between tries; gives up at once when the sink stops.
   */
  async retry(attempt: () => Promise<boolean>, delayMs: (tries: number) => number): Promise<void> {
    for (let tries = 1; !this.#stopped; tries++) {
      if ((await attempt()) || tries >= MAX_TRIES || this.#stopped) return;
      await this.#sleep(delayMs(tries));
    }
  }

  /** Ends every wait for a retry; nothing is written from now on. */
  stop(): void {
    this.#stopped = true;
    for (const [timer, wake] of this.#waits) {
      this.clock.clearTimeout(timer);
      wake();
    }
    this.#waits.clear();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = this.clock.setTimeout(() => {
        this.#waits.delete(timer);
        resolve();
      }, ms);
      this.#waits.set(timer, resolve);
    });
  }
}
