// The pod creations and deletions a controller waits to see in its informer before it acts on an
// object again (client-go's ControllerExpectations): after it writes, its cache lags behind, and
// acting on the stale cache would make or remove pods twice. Expectations not met within five
// minutes are given up (ExpectationsTimeout), so a lost event never blocks an object for ever.
import type { Clock } from '../api/env.ts';

/** Expectations not met within this long are given up. */
const EXPECTATIONS_TTL_MS = 5 * 60_000;

interface Expected {
  adds: number;
  deletes: number;
  atMs: number;
}

export class Expectations {
  readonly #byKey = new Map<string, Expected>();

  constructor(readonly clock: Clock) {}

  /** From now on, `key` waits for `adds` creations and `deletes` deletions. */
  expect(key: string, adds: number, deletes: number): void {
    this.#byKey.set(key, { adds, deletes, atMs: this.clock.now() });
  }

  /** `n` creations (or deletions) of `key`'s were seen, or will never be (their requests failed). */
  observed(key: string, what: 'adds' | 'deletes', n = 1): void {
    const e = this.#byKey.get(key);
    if (e) e[what] -= n;
  }

  /** Nothing is awaited for `key` any more, or the wait expired. */
  satisfied(key: string): boolean {
    const e = this.#byKey.get(key);
    return !e || (e.adds <= 0 && e.deletes <= 0) || this.clock.now() - e.atMs > EXPECTATIONS_TTL_MS;
  }

  forget(key: string): void {
    this.#byKey.delete(key);
  }
}
