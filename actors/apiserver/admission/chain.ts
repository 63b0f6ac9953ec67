// Admission: after decoding and defaulting, before validation and storage. Mutating plugins run
// first, in order; then validating plugins. A plugin rejects by throwing a StatusError.
import type { ResourceType } from '../../api/resources.ts';
import type { KObject } from '../../api/types.ts';
import type { UserInfo } from '../auth/authorizer.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

export interface AdmissionAttributes {
  operation: Operation;
  type: ResourceType;
  namespace?: string;
  name: string;
  subresource?: string;
  dryRun: boolean;
  /** The object being written (CREATE, UPDATE); mutating plugins change it in place. */
  object?: KObject;
  /** The stored object (UPDATE, DELETE). */
  old?: KObject;
  /** Who asks; absent for the server's own writes. */
  user?: UserInfo;
}

/** What plugins may read: the store's current objects, without going through admission again. */
export interface AdmissionLookup {
  getNamespace(name: string): Promise<KObject | undefined>;
}

export interface AdmissionPlugin {
  readonly name: string;
  mutate?(a: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void>;
  validate?(a: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void>;
}

export class AdmissionChain {
  constructor(readonly plugins: readonly AdmissionPlugin[]) {}

  /** Waits only on plugins that answer with a promise: an await of each would cost every write a dozen promises. */
  async admit(a: AdmissionAttributes, lookup: AdmissionLookup): Promise<void> {
    for (const p of this.plugins) {
      const pending = p.mutate?.(a, lookup);
      if (pending) await pending;
    }
    for (const p of this.plugins) {
      const pending = p.validate?.(a, lookup);
      if (pending) await pending;
    }
  }
}
