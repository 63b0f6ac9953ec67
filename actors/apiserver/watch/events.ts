// A watch event as it travels on the bus: the change record of the store, encoded once.
import { selectableFields } from '../../api/fields.ts';
import type { ResourceType } from '../../api/resources.ts';
import type { KObject } from '../../api/types.ts';
import { decode, encode } from '../../../transport/codec.ts';
import type { ChangeRecord, ChangeType } from '../storage/store.ts';

export interface BusEvent {
  type: ChangeType;
  revision: number;
  object: KObject;
  /** The state before the change (in this process, or once `prevState` has read `prevRaw`). */
  prev?: KObject;
  /**
   * On the wire the previous state travels as two parts, so a receiver decodes only what it
   * needs: `prevView`, the labels and selectable fields (what selectors read, to see an object
   * start or stop matching), and `prevRaw`, the whole state still encoded, read only by a
   * watcher that must send it (an object that stopped matching).
   */
  prevView?: KObject;
  prevRaw?: Uint8Array;
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

/** The parts of an object selectors read: name, namespace, labels, and the kind's selectable fields. */
function selectorView(type: ResourceType, obj: KObject): KObject {
  const m = obj.metadata;
  const view: KObject = { metadata: { name: m.name, namespace: m.namespace, ...(m.labels ? { labels: m.labels } : {}) } };
  for (const path of Object.keys(selectableFields(type.group, type.resource))) {
    if (path.startsWith('metadata.')) continue;
    const parts = path.split('.');
    let from: unknown = obj;
    for (const p of parts) from = from && typeof from === 'object' ? (from as Record<string, unknown>)[p] : undefined;
    if (from === undefined) continue;
    let to = view as Record<string, unknown>;
    for (const p of parts.slice(0, -1)) to = (to[p] ??= {}) as Record<string, unknown>;
    to[parts[parts.length - 1]] = from;
  }
  return view;
}

export function encodeChange(c: ChangeRecord, type: ResourceType, chain?: Record<string, number>): Uint8Array {
  const wire: BusEvent = { type: c.type, revision: c.revision, object: c.object };
  if (c.prev) {
    wire.prevView = selectorView(type, c.prev);
    wire.prevRaw = encode(c.prev);
  }
  if (chain) wire.chain = chain;
  const data = encode(wire);
  // Receivers in this process get the event with the whole previous state, nothing to decode.
  encoded.set(data, c.prev ? { ...wire, prev: c.prev } : wire);
  return data;
}

/** What selectors read of the previous state. */
export const prevForFilter = (e: BusEvent): KObject | undefined => e.prev ?? e.prevView;

/** The whole previous state, decoded once per event on first need. */
export function prevState(e: BusEvent): KObject | undefined {
  if (!e.prev && e.prevRaw) e.prev = decode<KObject>(e.prevRaw);
  return e.prev;
}

/** The event in `data`: the one encoded here when these are bytes this process published, else decoded. */
export const decodeEvent = (data: Uint8Array): BusEvent => encoded.get(data) ?? decode<BusEvent>(data);
export const encodeProgress = (revision: number): Uint8Array => encode({ revision });
export const decodeProgress = (data: Uint8Array): Progress => decode<Progress>(data);
