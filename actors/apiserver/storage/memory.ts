// The in-memory store: multi-version, like etcd. Each key keeps its versions inside the
// compaction window, so "the state at revision R" and "the changes after R" are answerable for
// any R the window holds; the change log is indexed by revision (revisions are contiguous).
import BTreeModule from 'sorted-btree';
import type BTreeClass from 'sorted-btree';
import type { KObject } from '../../api/types.ts';
import { compacted, keyExists, keyNotFound, revisionConflict, tooLargeRevision } from './errors.ts';
import type { ChangeRecord, ListOptions, ListResult, Store } from './store.ts';

// sorted-btree is CommonJS with `exports.default`.
const BTree = (BTreeModule as unknown as { default: typeof BTreeClass.default }).default;
type Tree = BTreeClass.default<string, Version[]>;

interface Version {
  revision: number;
  /** null: the key was deleted at this revision. */
  object: KObject | null;
}

const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A range's visible keys at one revision, in order, and their objects. */
interface Range {
  keys: string[];
  objects: KObject[];
}

/** Paged lists read at the same time (an informer's pages of pods, another's of nodes, ...). */
const RANGES_KEPT = 4;

/** The index of the first key after `key`. */
function upperBound(keys: readonly string[], key: string): number {
  let lo = 0, hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Stored objects are shared with every reader and between versions: nobody may change one. With
 * ORCHSIM_FREEZE=1 (the test runner sets it) each committed object is deep-frozen, so code that
 * writes into a stored object fails its tests instead of corrupting history in production.
 */
const FREEZE = process.env.ORCHSIM_FREEZE === '1';

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

export class MemoryStore implements Store {
  #revision: number;
  #compacted: number;
  /** Every key's versions, in key order: what lists and watches of a prefix walk. */
  #keys: Tree = new BTree<string, Version[]>(undefined, compareKeys);
  /**
   * The same arrays by key, for the point reads every write makes (two or three each): a hash
   * lookup instead of a descent comparing long keys that share their prefix at every level.
   */
  #byKey = new Map<string, Version[]>();
  /** log[i] is the change at revision #logBase + i. */
  #log: ChangeRecord[] = [];
  #logBase: number;
  /** Keys written since the last compaction: only these can hold more than one version. */
  #dirty = new Set<string>();
  #listeners = new Set<(c: ChangeRecord) => void>();
  /** Snapshots of ranges that paged lists are reading, newest last (see #range). */
  #ranges = new Map<string, Range>();

  constructor(initialRevision = 1) {
    this.#revision = initialRevision;
    this.#compacted = initialRevision;
    this.#logBase = initialRevision + 1;
  }

  get revision() {
    return this.#revision;
  }

  get compactedRevision() {
    return this.#compacted;
  }

  async get(key: string, revision?: number): Promise<KObject | undefined> {
    const at = this.#readRevision(revision);
    const versions = this.#byKey.get(key);
    return versions ? visibleAt(versions, at) ?? undefined : undefined;
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const at = this.#readRevision(opts.revision);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
    if (opts.after === undefined) return this.#firstPage(prefix, at, limit, opts.filter);
    // A later page of a paged list: from a snapshot of the range's visible objects at the first
    // page's revision, taken once, so each page costs its own length rather than the range's.
    const range = this.#range(prefix, at);
    const items: KObject[] = [];
    let i = upperBound(range.keys, opts.after);
    for (; i < range.keys.length && items.length < limit; i++) {
      const obj = range.objects[i]!;
      if (!opts.filter || opts.filter(obj)) items.push(obj);
    }
    const remaining = range.keys.length - i;
    return { items, revision: at, remaining, ...(remaining > 0 && items.length >= limit ? { lastKey: range.keys[i - 1]! } : {}) };
  }

  /**
   * An unpaged list, or a paged list's first page: one pass, counting the visible keys after the
   * page. Most such lists (a node agent's pods, by field selector) have no second page, so they
   * take no snapshot.
   */
  #firstPage(prefix: string, at: number, limit: number, filter: ListOptions['filter']): ListResult {
    const items: KObject[] = [];
    let lastKey: string | undefined;
    let remaining = 0;
    let full = false;
    this.#keys.forRange(prefix, prefixEnd(prefix), false, (key, versions) => {
      const obj = visibleAt(versions, at);
      if (!obj) return;
      if (full) {
        remaining++;
        return;
      }
      if (filter && !filter(obj)) return;
      items.push(obj);
      lastKey = key;
      if (items.length >= limit) full = true;
    });
    return { items, revision: at, remaining, ...(full && remaining > 0 ? { lastKey } : {}) };
  }

  /** The keys under `prefix` and their objects as of revision `at`, from the last few paged lists' snapshots. */
  #range(prefix: string, at: number): Range {
    const id = `${at}\0${prefix}`;
    let range = this.#ranges.get(id);
    if (!range) {
      range = { keys: [], objects: [] };
      const r = range;
      this.#keys.forRange(prefix, prefixEnd(prefix), false, (key, versions) => {
        const obj = visibleAt(versions, at);
        if (!obj) return;
        r.keys.push(key);
        r.objects.push(obj);
      });
      if (this.#ranges.size >= RANGES_KEPT) this.#ranges.delete(this.#ranges.keys().next().value!);
    } else this.#ranges.delete(id);
    this.#ranges.set(id, range);
    return range;
  }

  async create(key: string, obj: KObject): Promise<KObject> {
    const versions = this.#byKey.get(key);
    if (versions && versions[versions.length - 1].object) throw keyExists(key, this.#revision);
    return this.#commit('ADDED', key, obj, undefined);
  }

  async update(key: string, obj: KObject, expectedRevision?: number): Promise<KObject> {
    const prev = this.#current(key);
    if (expectedRevision !== undefined && resourceRevision(prev) !== expectedRevision) throw revisionConflict(key, expectedRevision);
    return this.#commit('MODIFIED', key, obj, prev);
  }

  async delete(key: string, expectedRevision?: number): Promise<KObject> {
    const prev = this.#current(key);
    if (expectedRevision !== undefined && resourceRevision(prev) !== expectedRevision) throw revisionConflict(key, expectedRevision);
    // The DELETED record carries the last state with the deletion's own revision.
    const last = { ...prev, metadata: { ...prev.metadata } };
    return this.#commit('DELETED', key, last, prev);
  }

  changesSince(revision: number): ChangeRecord[] {
    if (revision > this.#revision) throw tooLargeRevision(revision, this.#revision);
    if (revision < this.#compacted) throw compacted(revision, this.#compacted);
    return this.#log.slice(revision + 1 - this.#logBase);
  }

  onChange(listener: (change: ChangeRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  compact(revision: number): void {
    const target = Math.min(revision, this.#revision);
    if (target <= this.#compacted) return;
    this.#ranges.clear(); // they may hold versions compaction is about to drop
    for (const key of this.#dirty) {
      const versions = this.#byKey.get(key);
      if (!versions) continue;
      // Keep the newest version at or below the target (the state at the target), and all after it.
      let keepFrom = 0;
      for (let i = versions.length - 1; i >= 0; i--) {
        if (versions[i].revision <= target) {
          keepFrom = i;
          break;
        }
      }
      let kept = versions.slice(keepFrom);
      if (kept[0].object === null) kept = kept.slice(1);
      if (kept.length === 0) {
        this.#keys.delete(key);
        this.#byKey.delete(key);
      } else this.#setVersions(key, kept);
      if (kept.length <= 1 && (kept.length === 0 || kept[0].revision <= target)) this.#dirty.delete(key);
    }
    this.#log = this.#log.slice(target + 1 - this.#logBase);
    this.#logBase = target + 1;
    this.#compacted = target;
  }

  close(): void {
    this.#listeners.clear();
  }

  #readRevision(revision: number | undefined): number {
    if (revision === undefined) return this.#revision;
    if (revision > this.#revision) throw tooLargeRevision(revision, this.#revision);
    if (revision < this.#compacted) throw compacted(revision, this.#compacted);
    return revision;
  }

  #setVersions(key: string, versions: Version[]): void {
    this.#keys.set(key, versions);
    this.#byKey.set(key, versions);
  }

  #current(key: string): KObject {
    const versions = this.#byKey.get(key);
    const obj = versions?.[versions.length - 1].object;
    if (!obj) throw keyNotFound(key, this.#revision);
    return obj;
  }

  #commit(type: ChangeRecord['type'], key: string, obj: KObject, prev: KObject | undefined): KObject {
    const revision = ++this.#revision;
    obj.metadata.resourceVersion = String(revision);
    if (FREEZE) deepFreeze(obj);
    const versions = this.#byKey.get(key);
    const version: Version = { revision, object: type === 'DELETED' ? null : obj };
    if (versions) versions.push(version);
    else this.#setVersions(key, [version]);
    this.#dirty.add(key);
    const change: ChangeRecord = prev ? { type, key, object: obj, prev, revision } : { type, key, object: obj, revision };
    this.#log.push(change);
    for (const listener of this.#listeners) listener(change);
    return obj;
  }
}

function visibleAt(versions: Version[], revision: number): KObject | null {
  for (let i = versions.length - 1; i >= 0; i--) if (versions[i].revision <= revision) return versions[i].object;
  return null;
}

function resourceRevision(obj: KObject): number {
  return Number(obj.metadata.resourceVersion);
}

/** The smallest string greater than every string starting with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
