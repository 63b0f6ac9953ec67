// The wire codec of bus messages: msgpackr. Records (shared structures) are off: a structure a
// process learns would have to reach every other process before its first message does, and
// plain maps decode the same everywhere. Encode once per event; every subscriber gets those bytes.
import { Packr } from 'msgpackr';

const packr = new Packr({ useRecords: false, moreTypes: false, mapsAsObjects: true, int64AsType: 'number' });

export function encode(value: unknown): Uint8Array {
  return packr.pack(value);
}

export function decode<T = unknown>(data: Uint8Array): T {
  return packr.unpack(data) as T;
}
