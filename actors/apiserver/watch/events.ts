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
}

export interface Progress {
  revision: number;
}

export function encodeChange(c: ChangeRecord): Uint8Array {
  const e: BusEvent = c.prev ? { type: c.type, revision: c.revision, object: c.object, prev: c.prev } : { type: c.type, revision: c.revision, object: c.object };
  return encode(e);
}

export const decodeEvent = (data: Uint8Array): BusEvent => decode<BusEvent>(data);
export const encodeProgress = (revision: number): Uint8Array => encode({ revision });
export const decodeProgress = (data: Uint8Array): Progress => decode<Progress>(data);
