// What a controller last wrote of each object it keeps, so that a sync reading an informer cache
// that has not caught up with its own writes does nothing rather than act on the old copy (and,
// say, create a second EndpointSlice): the job of the real endpointslice controller's tracker and
// the endpoints controller's stale-endpoints tracker. Once the cache holds the written version,
// or a newer one, the entry is forgotten.
import type { KObject } from '../../api/types.ts';

const version = (o: KObject | undefined) => Number(o?.metadata.resourceVersion ?? 0);

export class WrittenVersions {
  /** Key → the version written; for a deleted object, minus the version it had. */
  readonly #written = new Map<string, number>();

  wrote(key: string, obj: KObject): void {
    this.#written.set(key, version(obj));
  }

  deleted(key: string, obj: KObject): void {
    this.#written.set(key, -version(obj));
  }

  /** Whether `cached` (the cache's copy under `key`, if any) predates this controller's last write of it. */
  stale(key: string, cached: KObject | undefined): boolean {
    const written = this.#written.get(key);
    if (written === undefined) return false;
    const behind = written >= 0 ? !cached || version(cached) < written : cached !== undefined && version(cached) <= -written;
    if (!behind) this.#written.delete(key);
    return behind;
  }

  /** Whether `obj` is this controller's own last write under `key` (its informer event needs no sync). */
  own(key: string, obj: KObject): boolean {
    return this.#written.get(key) === version(obj);
  }
}
