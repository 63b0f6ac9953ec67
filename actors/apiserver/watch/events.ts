// A watch event as it travels on the bus: the change record of the store, encoded once.
import { selectableFields } from '../../api/fields.ts';
import type { ResourceType } from '../../api/resources.ts';
import type { KObject } from '../../api/types.ts';
import { Deferred, type Message } from '../../../transport/bus.ts';
import { decode, encode } from '../../../transport/codec.ts';
import { payload, valueOf } from '../../../transport/payload.ts';
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

/**
 * The event of a change, as a Deferred body: subscribers in this process share the event itself
 * (and the store's objects in it, which nobody mutates), with the whole previous state; it is
 * encoded, once, only if it leaves the process.
 */
export function changeBody(c: ChangeRecord, type: ResourceType, chain?: Record<string, number>): Deferred<BusEvent> {
  const event: BusEvent = c.prev ? { type: c.type, revision: c.revision, object: c.object, prev: c.prev } : { type: c.type, revision: c.revision, object: c.object };
  if (chain) event.chain = chain;
  return new Deferred(event, (e) => encode(wireForm(e, type)));
}

function wireForm(e: BusEvent, type: ResourceType): BusEvent {
  const { prev, ...rest } = e;
  return prev ? { ...rest, prevView: selectorView(type, prev), prevRaw: encode(prev) } : rest;
}

/** What selectors read of the previous state. */
export const prevForFilter = (e: BusEvent): KObject | undefined => e.prev ?? e.prevView;

/** The whole previous state, decoded once per event on first need. */
export function prevState(e: BusEvent): KObject | undefined {
  if (!e.prev && e.prevRaw) e.prev = decode<KObject>(e.prevRaw);
  return e.prev;
}

/** The event a message carries: its value in process, else decoded from its bytes. */
export const eventOf = (msg: Message): BusEvent => valueOf<BusEvent>(msg);
export const progressBody = (revision: number): Deferred<Progress> => payload({ revision });
export const progressOf = (msg: Message): Progress => valueOf<Progress>(msg);
