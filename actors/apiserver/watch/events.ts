// A watch event as it travels on the bus: the change record of the store, encoded once.
import type { KObject } from '../../api/types.ts';
import { decode, encode } from '../../../transport/codec.ts';
import type { ChangeRecord, ChangeType } from '../storage/store.ts';

export interface BusEvent {
  type: ChangeType;
  revision: number;
  object: KObject;
  /** The state before the change, so selector watchers see objects start or stop matching. */
  prev?: KObject;
  /** Per scope the event belongs to, the revision of that scope's previous event (chains.ts). */
  chain?: Record<string, number>;
}

export interface Progress {
  revision: number;
}

/**
 * Events this process encoded, by their bytes. The in-process bus hands every subscriber the very
 * bytes that were published, so their event needs no decoding: its subscribers share the one
 * event object (and the store's objects in it, which nobody mutates). Bytes from NATS are new
 * buffers: they are decoded. An entry lives as long as its bytes, which die once delivered.
 */
const encoded = new WeakMap<Uint8Array, BusEvent>();

export function encodeChange(c: ChangeRecord, chain?: Record<string, number>): Uint8Array {
  const e: BusEvent = { type: c.type, revision: c.revision, object: c.object };
  if (c.prev) e.prev = c.prev;
  if (chain) e.chain = chain;
  const data = encode(e);
  encoded.set(data, e);
  return data;
}

/** The event in `data`: the one encoded here when these are bytes this process published, else decoded. */
export const decodeEvent = (data: Uint8Array): BusEvent => encoded.get(data) ?? decode<BusEvent>(data);
export const encodeProgress = (revision: number): Uint8Array => encode({ revision });
export const decodeProgress = (data: Uint8Array): Progress => decode<Progress>(data);
