// Admission, in the real server's two phases: mutating plugins run in order after decoding and
// defaulting, before the object is validated; validating plugins run in order after it is
// validated, just before storage (so an invalid object never charges a quota). A delete, with no
// object to validate, runs both at once. A plugin rejects by throwing a StatusError. A plugin
// whose mutation asks for it (a mutating webhook that changed the object) has the whole mutating
// phase run once more, as the real reinvocation handler does.
import type { ResourceType } from '../../api/resources.ts';
import type { Target } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { UserInfo } from '../auth/authorizer.ts';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/**
 * The options a write was asked with, as an AdmissionReview carries them: a create's or update's
 * field manager and validation mode, a delete's grace period, preconditions and propagation.
 */
export interface OperationOptions {
  fieldManager?: string;
  fieldValidation?: string;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: string;
}

/** The reinvocation of the mutating phase: asked for by a plugin during the first round, run once. */
export interface Reinvocation {
  requested: boolean;
  reinvoking: boolean;
}

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
  options?: OperationOptions;
  /** Where plugins add warnings for the answer's Warning headers; absent where nobody reads them. */
  warnings?: string[];
  /** Created by the first plugin that asks for a second mutating round. */
  reinvocation?: Reinvocation;
}

/** What a plugin's refusal names (admission.NewForbidden: `pods "x" is forbidden: ...`). */
export const targetOf = (a: AdmissionAttributes): Target => ({ group: a.type.group, resource: a.type.resource, name: a.name });

/** What plugins may read: the store's current objects, without going through admission again. */
export interface AdmissionLookup {
  getNamespace(name: string): Promise<KObject | undefined>;
  getServiceAccount(namespace: string, name: string): Promise<KObject | undefined>;
}

export interface AdmissionPlugin {
  readonly name: string;
  mutate?(a: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void>;
  validate?(a: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void>;
}

export class AdmissionChain {
  constructor(readonly plugins: readonly AdmissionPlugin[]) {}

  /**
   * The mutating phase, then its reinvocation when a plugin asked for one. A promise only when
   * some plugin answers with one: awaiting each would cost every write a dozen promises.
   */
  mutate(a: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void> {
    const first = this.#run('mutate', 0, a, lookup);
    return first ? first.then(() => this.#reinvoke(a, lookup)) : this.#reinvoke(a, lookup);
  }

  validate(a: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void> {
    return this.#run('validate', 0, a, lookup);
  }

  /** Both phases at once, for a write with nothing to validate in between (a delete). */
  admit(a: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void> {
    const mutating = this.mutate(a, lookup);
    return mutating ? mutating.then(() => this.validate(a, lookup)) : this.validate(a, lookup);
  }

  #reinvoke(a: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void> {
    const r = a.reinvocation;
    if (!r?.requested || r.reinvoking) return undefined;
    r.reinvoking = true;
    return this.#run('mutate', 0, a, lookup);
  }

  #run(phase: 'mutate' | 'validate', from: number, a: AdmissionAttributes, lookup: AdmissionLookup): void | Promise<void> {
    for (let i = from; i < this.plugins.length; i++) {
      const pending = this.plugins[i]![phase]?.(a, lookup);
      if (pending) return pending.then(() => this.#run(phase, i + 1, a, lookup));
    }
  }
}
