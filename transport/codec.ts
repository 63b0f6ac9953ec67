// The wire codec of bus messages: msgpackr records over a fixed table of shared structures
// (structures.ts). An object whose keys are a table entry travels as the entry's id and its values,
// and decodes through msgpackr's compiled readers; any other object is a plain MessagePack map.
// The table is code, the same in every process, and frozen: `maxSharedStructures` is its length
// and there are no own structures, so a process never learns one, and every message decodes
// alone, in any process, with nothing exchanged first. Encode once per event; every subscriber
// gets those bytes.
//
// Each message starts with 0xC1, a byte MessagePack never uses (a plain decoder refuses the
// message), then two bytes of the table's hash: a process built with another table refuses the
// message instead of reading its ids as other shapes (unless the hashes collide: 1 in 65,536).
// The check lives here, not in the subjects, because every message, nested ones (prevRaw)
// included, must carry it.
import { createHash } from 'node:crypto';
import { Packr, RESERVE_START_SPACE, Unpackr, type Options } from 'msgpackr';
import { SHARED_STRUCTURES } from './structures.ts';

const MARK = 0xc1;
const HEADER_BYTES = 3;
/**
 * msgpackr's lookup trie (`structures.transitions`, internal) gains a node per key sequence it
 * meets and, with no own structures, is never pruned (keys such as `k:{"ip":"10.0.3.7"}` never
 * repeat): it is dropped every so many packs, as msgpackr does itself after many own structures,
 * and the next pack rebuilds it from the table. The bytes do not depend on it.
 */
const PACKS_PER_TRIE = 1 << 12;

type Trie = { structures?: { transitions?: unknown } };

export class CodecError extends Error {}

export interface Codec {
  /** The table's hash, as every message carries it. */
  readonly tag: number;
  encode(value: unknown): Uint8Array;
  decode<T = unknown>(data: Uint8Array): T;
}

const tagOf = (table: readonly (readonly string[])[]): number => createHash('sha256').update(JSON.stringify(table)).digest().readUInt16BE(0);
const hex = (tag: number) => tag.toString(16).padStart(4, '0');

/** A codec over `table`; two built from equal tables (in one process or two) read each other's bytes. */
export function createCodec(table: readonly (readonly string[])[] = SHARED_STRUCTURES): Codec {
  const tag = tagOf(table);
  const [hi, lo] = [tag >> 8, tag & 0xff];
  const options: Options = {
    useRecords: true, mapsAsObjects: true, moreTypes: false, int64AsType: 'number',
    maxSharedStructures: table.length, maxOwnStructures: 0,
    // getStructures, not `structures`: only that path marks ids past the 32nd as two-byte ones for
    // the decoder. msgpackr hangs its tries and readers on the arrays: each instance gets copies.
    getStructures: () => table.map((keys) => [...keys]),
  };
  const packr = new Packr(options);
  let packs = 0;
  const unpackr = new Unpackr(options);
  // Load the table now: loaded inside the first message, msgpackr decodes the rest of that message
  // from a copy, and its binary values come out as copies of another class.
  unpackr.unpack(packr.pack({}));
  return {
    tag,
    encode(value) {
      if (++packs === PACKS_PER_TRIE) {
        packs = 0;
        const structures = (packr as Trie).structures;
        if (structures) structures.transitions = null;
      }
      const data = packr.pack(value, RESERVE_START_SPACE | HEADER_BYTES);
      data[0] = MARK;
      data[1] = hi;
      data[2] = lo;
      return data;
    },
    decode<T>(data: Uint8Array): T {
      if (data.length < HEADER_BYTES || data[0] !== MARK || data[1] !== hi || data[2] !== lo) {
        const seen = data.length >= HEADER_BYTES && data[0] === MARK ? `table ${hex((data[1] << 8) | data[2])}` : 'no codec header';
        throw new CodecError(`undecodable bus message: ${seen}, this process has table ${hex(tag)}; run the same orchsim build in every process`);
      }
      return unpackr.unpack(data, { start: HEADER_BYTES }) as T;
    },
  };
}

const codec = createCodec();

export const encode = (value: unknown): Uint8Array => codec.encode(value);
export const decode = <T = unknown>(data: Uint8Array): T => codec.decode<T>(data);
