// What the store can refuse. The registry turns these into Status errors; the store itself
// knows nothing about resources or HTTP (as apiserver pkg/storage/errors.go).

export type StorageErrorCode = 'KeyNotFound' | 'KeyExists' | 'RevisionConflict' | 'Compacted' | 'TooLargeRevision';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    readonly revision: number,
    message: string,
  ) {
    super(message);
  }
}

export const keyNotFound = (key: string, rev: number) => new StorageError('KeyNotFound', key, rev, `key ${key} not found`);
export const keyExists = (key: string, rev: number) => new StorageError('KeyExists', key, rev, `key ${key} already exists`);
export const revisionConflict = (key: string, rev: number) =>
  new StorageError('RevisionConflict', key, rev, `key ${key} was modified since revision ${rev}`);
export const compacted = (rev: number, compactedRev: number) =>
  new StorageError('Compacted', '', rev, `revision ${rev} has been compacted (oldest kept is ${compactedRev})`);
export const tooLargeRevision = (rev: number, current: number) =>
  new StorageError('TooLargeRevision', '', rev, `revision ${rev} is newer than the current revision ${current}`);
