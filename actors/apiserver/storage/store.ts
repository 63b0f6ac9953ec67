// The versioned store's contract, shared by the in-memory store and (later) etcd.
//
// One cluster-wide revision counter: every successful write increments it by exactly one and
// produces exactly one change record, in revision order. Objects stored are owned by the store
// and never mutated afterwards; readers must copy before changing anything.
import type { KObject } from '../../api/types.ts';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ChangeRecord {
  type: ChangeType;
  key: string;
  /** The object after the change; for DELETED, the last state with the deletion's resourceVersion. */
  object: KObject;
  /** The object before the change (absent for ADDED): watchers with selectors need both sides. */
  prev?: KObject;
  revision: number;
}

export interface ListOptions {
  /** Read the state at this revision (must be inside the compaction window); default: newest. */
  revision?: number;
  /** Start after this key (exclusive): how continue tokens resume. */
  after?: string;
  /** Stop after this many matching items. */
  limit?: number;
  /** Keep only objects this accepts; `limit` counts kept items. */
  filter?: (obj: KObject) => boolean;
}

export interface ListResult {
  items: KObject[];
  /** The revision the list was read at. */
  revision: number;
  /** The last key returned when more matching items may follow, for the next chunk's `after`. */
  lastKey?: string;
  /** Keys under the prefix not returned, counted without the filter (an estimate with one). */
  remaining: number;
}

export interface Store {
  /** The newest revision committed. */
  readonly revision: number;
  /** History below this revision is gone: reads at it or later, and change feeds from it, still work (as etcd's compaction). */
  readonly compactedRevision: number;

  // Reads and writes are asynchronous so that a remote backend (etcd) fits the same contract.
  get(key: string, revision?: number): Promise<KObject | undefined>;
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;

  /** Fails with KeyExists when the key holds a live object. Sets metadata.resourceVersion. */
  create(key: string, obj: KObject): Promise<KObject>;
  /** Fails with KeyNotFound, or RevisionConflict when `expectedRevision` is not the key's last modification. */
  update(key: string, obj: KObject, expectedRevision?: number): Promise<KObject>;
  /** Returns the removed object stamped with the deletion's revision. */
  delete(key: string, expectedRevision?: number): Promise<KObject>;

  /** Every change after `revision`, in order. Fails with Compacted or TooLargeRevision. */
  changesSince(revision: number): ChangeRecord[];
  /** Called synchronously after each commit, in revision order. Returns an unsubscribe function. */
  onChange(listener: (change: ChangeRecord) => void): () => void;

  /** Forget history at and below `revision` (never the current state). */
  compact(revision: number): void;
  close(): void;
}
