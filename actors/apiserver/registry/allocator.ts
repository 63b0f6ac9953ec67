// What a kind's objects hold of the server's own finite pools (a Service's cluster IPs and node
// ports), as the real registry's allocators (pkg/registry/core/service/storage/alloc.go): taken
// when an object is written, given back when it leaves the store, and rebuilt from the store when
// a server starts on one (the real repair loop's work at start). The pools are the server's, in
// memory, never stored: the registry makes one allocator for each kind that declares one
// (Kind.allocator) and asks it on that kind's writes only. No I/O; picks come from a seeded stream.
import type { Random } from '../../api/env.ts';
import type { KObject } from '../../api/types.ts';

/** The server's options allocators read. */
export interface AllocatorSettings {
  /** --service-cluster-ip-range: one CIDR, or one of each family (the first is the default family). */
  serviceClusterIPRange: readonly string[];
  /** --service-node-port-range, inclusive. */
  serviceNodePortRange: { base: number; size: number };
  random: Random;
}

/**
 * What one write took and would give up, until the write is stored or abandoned. As the real
 * allocators, a write takes what it needs at once and gives up what it no longer needs only once
 * stored: better to hold an item a moment too long than to hand it out twice.
 */
export interface Reservation {
  /** The write is stored: give back what it no longer needs. */
  commit(): void;
  /** The write failed: give back what it took. */
  revert(): void;
}

export interface Allocator {
  /** Fills in what a new object is given (in place), taking it; throws a Status to refuse. A dry run takes nothing. */
  create(obj: KObject, dryRun: boolean): Reservation;
  /** The same for an update of `current` into `next` (in place), which may also give things back. */
  update(next: KObject, current: KObject, dryRun: boolean): Reservation;
  /** Gives back what an object that left the store held. */
  release(obj: KObject): void;
  /** Takes what a stored object holds, as found when the server starts. */
  restore(obj: KObject): void;
}

export const NOTHING_RESERVED: Reservation = { commit: () => {}, revert: () => {} };
