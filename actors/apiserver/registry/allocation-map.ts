// A finite pool of items 0..size-1 (the addresses of a Service range, the ports of the node-port
// range), as the real allocator's bitmap with an offset (pkg/registry/core/service/allocator):
// items below `offset` form a static band that a request naming its item gets first, so picks
// made for the caller look in the upper band first, from a random start, scanning forward and
// wrapping, and only then in the static band. The random start comes from a seeded stream, so
// the same seed picks the same items.
import type { Random } from '../../api/env.ts';

export class AllocationMap {
  readonly #taken = new Set<number>();

  constructor(readonly size: number, readonly offset: number, readonly random: Random) {
    if (!(offset >= 0 && offset <= size)) throw new RangeError(`offset ${offset} is outside a pool of ${size}`);
  }

  get free(): number {
    return this.size - this.#taken.size;
  }

  has(item: number): boolean {
    return this.#taken.has(item);
  }

  /** Takes `item`; false when it was taken already. */
  allocate(item: number): boolean {
    if (this.#taken.has(item)) return false;
    this.#taken.add(item);
    return true;
  }

  /** Takes a free item, the upper band first; undefined when the pool is full. */
  allocateNext(): number | undefined {
    if (this.#taken.size >= this.size) return undefined;
    const item = this.#scan(this.offset, this.size - this.offset) ?? this.#scan(0, this.offset);
    if (item !== undefined) this.#taken.add(item);
    return item;
  }

  release(item: number): void {
    this.#taken.delete(item);
  }

  /** The first free item of [from, from + count), from a random start, wrapping. */
  #scan(from: number, count: number): number | undefined {
    if (count <= 0) return undefined;
    const start = Math.floor(this.random.next() * count);
    for (let i = 0; i < count; i++) {
      const item = from + ((start + i) % count);
      if (!this.#taken.has(item)) return item;
    }
    return undefined;
  }
}

/**
 * The static band of a pool of `size` items, as the real allocators size it: min(max(min,
 * size / step), max), none for pools of `min` items or fewer. IP ranges use (16, 256, 16) on the
 * range's whole size; node-port ranges (16, 128, 32).
 */
export function staticBand(size: number, { min, max, step }: { min: number; max: number; step: number }): number {
  if (size <= min) return 0;
  return Math.min(Math.max(min, Math.floor(size / step)), max);
}
