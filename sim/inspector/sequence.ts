// The sequence view's records: what passed between a few chosen actors. The page chooses the actors
// (PUT /inspect/api/sequence); from then on, each actor system the inspector shows keeps the
// records that concern them: their starts, transitions and stops, the events they sent to other
// actors (a transition whose sender is one of them), and the requests they sent to the API server.
// Each chosen actor's newest records, kept by the system, are there from the moment it is chosen.
// Records of actors no longer chosen stay until dropped for room but are not answered. Under
// `orchsim run --ui` every run is watched from its start, so a run replayed from 0:00 to go back
// holds the chosen actors' whole story up to the time it stops at.
import type { ActorSystem } from '../../actors/system/actor-system.ts';
import type { InspectionRecord, SendRecord } from '../../actors/system/records.ts';
import { InspectError } from './query.ts';

/** Actors a sequence follows at most. */
export const MAX_ACTORS = 12;
/** Records a system's sequence keeps, the oldest dropped first. */
const MAX_KEPT = 20_000;
const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 5_000;
const MAX_ID_LENGTH = 512;

export type SequenceRecord = InspectionRecord | SendRecord;

export interface SequenceAnswer {
  /** The process clock's time, as in the summary. */
  readonly timeMs: number;
  /** The chosen actors, in the order chosen. */
  readonly actors: readonly string[];
  readonly from: number;
  readonly to: number;
  /** The records in [from, to] (the newest `limit` of them), oldest first. */
  readonly records: readonly SequenceRecord[];
  /** Records in [from, to] left out by `limit`. */
  readonly omitted: number;
  /** The time of the oldest record kept: earlier ones were dropped (absent while none was). */
  readonly keptSince?: number;
}

interface Recording {
  records: SequenceRecord[];
  dropped: boolean;
}

export class Sequences {
  #actors: readonly string[] = [];
  #chosen = new Set<string>();
  readonly #recordings = new WeakMap<ActorSystem, Recording>();

  /** Keeps `system`'s records of the chosen actors from now on (call it as the system begins, to miss none). */
  watch(system: ActorSystem): void {
    if (this.#recordings.has(system)) return;
    const recording: Recording = { records: [], dropped: false };
    this.#recordings.set(system, recording);
    const keep = (r: SequenceRecord) => {
      if (this.#chosen.size === 0 || !this.#concerns(r)) return;
      if (recording.records.length === MAX_KEPT) {
        recording.records.splice(0, MAX_KEPT / 10);
        recording.dropped = true;
      }
      recording.records.push(r);
    };
    system.onRecord(keep);
    system.onSend(keep);
  }

  /** Follows `actors` (ids) from now on in every watched system; `system`'s sequence gets their kept records at once. */
  choose(system: ActorSystem, body: unknown): void {
    const actors = (body as { actors?: unknown } | null)?.actors;
    if (!Array.isArray(actors) || actors.length > MAX_ACTORS || !actors.every((a) => typeof a === 'string' && a.length > 0 && a.length <= MAX_ID_LENGTH)) {
      throw new InspectError(400, `the body must be {"actors": [<actor id>, ...]}, at most ${MAX_ACTORS} ids, got ${JSON.stringify(body)?.slice(0, 200)}`);
    }
    const ids = [...new Set(actors as string[])];
    const added = ids.filter((id) => !this.#chosen.has(id));
    this.#actors = ids;
    this.#chosen = new Set(ids);
    this.watch(system);
    const recording = this.#recordings.get(system)!;
    const kept = recording.records;
    const seen = new Set(kept.map((r) => ('seq' in r ? r.seq : -1)));
    const before = kept.length;
    for (const id of added) for (const r of system.history(id) ?? []) if (!seen.has(r.seq)) kept.push(r);
    // Stable: records at one time keep their order (a send has no seq of its own).
    if (kept.length > before) kept.sort((a, b) => a.t - b.t || ('seq' in a && 'seq' in b ? a.seq - b.seq : 0));
  }

  /** `system`'s sequence, as GET /inspect/api/sequence?from=&to=&limit= asks. */
  query(system: ActorSystem, params: URLSearchParams): SequenceAnswer {
    for (const key of params.keys()) if (!['from', 'to', 'limit'].includes(key)) throw new InspectError(400, `unknown parameter ${JSON.stringify(key)}; the sequence takes from, to (virtual ms) and limit`);
    const timeMs = system.elapsedMs();
    const from = wholeOf(params.get('from'), 'from', 0);
    const to = wholeOf(params.get('to'), 'to', timeMs);
    if (to < from) throw new InspectError(400, `"to" (${to}) is before "from" (${from})`);
    const limit = wholeOf(params.get('limit'), 'limit', DEFAULT_LIMIT);
    if (limit < 1 || limit > MAX_LIMIT) throw new InspectError(400, `limit must be a whole number from 1 to ${MAX_LIMIT}, got ${limit}`);
    const recording = this.#recordings.get(system);
    const all = recording?.records ?? [];
    const inRange = all.filter((r) => r.t >= from && r.t <= to && this.#concerns(r));
    const records = inRange.slice(-limit);
    return { timeMs, actors: this.#actors, from, to, records, omitted: inRange.length - records.length,
      ...(recording?.dropped && all.length ? { keptSince: all[0]!.t } : {}) };
  }

  #concerns(r: SequenceRecord): boolean {
    return this.#chosen.has(r.id) || (r.kind === 'transition' && r.sender !== undefined && this.#chosen.has(r.sender));
  }
}

/** A whole number given as `name` (`fallback` when absent), or a 400. */
function wholeOf(text: string | null, name: string, fallback: number): number {
  if (text === null || text === '') return fallback;
  const n = Number(text);
  if (!(Number.isInteger(n) && n >= 0)) throw new InspectError(400, `${name} must be a whole number, got ${JSON.stringify(text)}`);
  return n;
}
