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

export function encodeChange(c: ChangeRecord, chain?: Record<string, number>): Uint8Array {
  const e: BusEvent = { type: c.type, revision: c.revision, object: c.object };
  if (c.prev) e.prev = c.prev;
  if (chain) e.chain = chain;
  return encode(e);
}

export const decodeEvent = (data: Uint8Array): BusEvent => decode<BusEvent>(data);
export const encodeProgress = (revision: number): Uint8Array => encode({ revision });
export const decodeProgress = (data: Uint8Array): Progress => decode<Progress>(data);
