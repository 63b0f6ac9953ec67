// The generic registry: every stored kind's create, update and delete, with the metadata rules
// of seed 000, the kind's rules (kind.ts, kinds/), admission, dry-run and the store's optimistic concurrency.
// It knows nothing of HTTP: handlers decode requests and encode what it returns.
import type { UserInfo } from '../auth/authorizer.ts';
import { transition } from 'xstate';
import { addedFinalizers, objectMachine, type DeleteEvent, type FinalizersChangedEvent, type ObjectContext, type ObjectEvent,
  type ObjectSnapshot, type ObjectState } from '../../../machines/object.ts';
import { nameSuffix, timestamp, uuid, type Clock, type Random } from '../../api/env.ts';
import { withFields } from '../../api/objects.ts';
import { apiVersionOf, RESOURCES, type ResourceType } from '../../api/resources.ts';
import { alreadyExists, badRequest, conflict, invalid, isAlreadyExists, notFound, StatusError, tooLargeResourceVersion, type StatusCause, type Target } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { ActorSystem } from '../../system/actor-system.ts';
import { actorIds } from '../../system/ids.ts';
import type { AdmissionAttributes, AdmissionChain, AdmissionLookup, Operation } from '../admission/chain.ts';
import { recordUpdate } from '../patch/apply.ts';
import { StorageError } from '../storage/errors.ts';
import type { ListOptions, ListResult, Store } from '../storage/store.ts';
import { validateAnnotations, validateFinalizers, validateGenerateName, validateLabels, validateName } from '../validation/names.ts';
import { modelName } from '../validation/schema.ts';
import { NOTHING_RESERVED, type Allocator, type AllocatorSettings, type Reservation } from './allocator.ts';
import { deepEqual } from './deep-equal.ts';
import { collectionKey, objectKey } from './keys.ts';
import type { Kind } from './kind.ts';
import { kindOf, storedTypeOf } from './kinds/index.ts';

export interface RegistryEnv {
  store: Store;
  clock: Clock;
  random: Random;
  admission: AdmissionChain;
  keyPrefix: string;
  /** Where objects are recorded while they terminate. */
  system: ActorSystem;
  /** What admission plugins may read of the store. */
  lookup: AdmissionLookup;
  /** The pools kinds with an allocator draw from (allocator.ts). */
  allocation: AllocatorSettings;
}

export interface WriteOptions {
  dryRun: boolean;
  fieldManager: string;
  subresource?: string;
  /** Server-side apply already wrote metadata.managedFields: do not record an Update entry on top. */
  applied?: boolean;
  /** The server's own bootstrap writes (the system namespaces) are not subject to admission. */
  skipAdmission?: boolean;
  /** An update's tryUpdate returns an object nobody else holds (a decoded body): no private copy is needed. */
  ownResult?: boolean;
  /** Who asks, for admission (the RBAC escalation checks, webhooks); absent for the server's own writes. */
  user?: UserInfo;
  /** The fieldValidation the request named, as admission webhooks are told it. */
  fieldValidation?: string;
  /** Where admission adds the answer's warnings. */
  warnings?: string[];
}

export interface DeleteOptions {
  dryRun: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  /** Orphan, Background or Foreground: see machines/propagation.ts. */
  propagationPolicy?: string;
  /** The deprecated form of the policy (true: Orphan); never set together with propagationPolicy. */
  orphanDependents?: boolean;
  /** Who asks, for admission. */
  user?: UserInfo;
  /** Where admission adds the answer's warnings. */
  warnings?: string[];
}

export interface DeleteResult {
  object: KObject;
  /** True when the object left the store; false when it is now (or still) terminating. */
  removed: boolean;
}

/** Given the stored object (undefined when absent), the object to write. */
export type TryUpdate = (current: KObject | undefined) => KObject | Promise<KObject>;

/** A change the object machine (machines/object.ts) took: written by the registry, then recorded. */
interface Step {
  readonly event: ObjectEvent;
  readonly before: ObjectSnapshot;
  readonly after: ObjectSnapshot;
}

/** Filled in by #prepareUpdate for an object being deleted: what its machine makes of the update. */
interface Deletion {
  step?: Step | undefined;
}

/** Filled in by #prepareUpdate: what the update took of the kind's pools, until it is stored or abandoned. */
interface Held {
  reservation: Reservation;
}

const MAX_UPDATE_RETRIES = 16;
const NONE: readonly string[] = [];

/** How many names a create with generateName tries before it answers AlreadyExists (the real maxNameGenerationCreateAttempts). */
const GENERATE_NAME_ATTEMPTS = 8;

export class Registry {
  readonly #uids: Random;
  readonly #names: Random;
  /** Storage key → actor system id of each terminating object this registry recorded. */
  readonly #terminating = new Map<string, string>();
  /** Each kind's allocator, made on first use (null: the kind has none). */
  readonly #allocators = new Map<Kind, Allocator | null>();

  constructor(readonly env: RegistryEnv) {
    this.#uids = env.random.fork('uids');
    this.#names = env.random.fork('generated-names');
  }

  key(type: ResourceType, namespace: string | undefined, name: string): string {
    return objectKey(this.env.keyPrefix, storedTypeOf(type), namespace, name);
  }

  async get(type: ResourceType, namespace: string | undefined, name: string, revision?: number): Promise<KObject> {
    const obj = await this.#storage(() => this.env.store.get(this.key(type, namespace, name), revision), type, name);
    if (!obj) throw notFound(target(type, name));
    return shown(type, obj);
  }

  async list(type: ResourceType, namespace: string | undefined, opts: ListOptions): Promise<ListResult> {
    const listed = await this.#storage(() => this.env.store.list(collectionKey(this.env.keyPrefix, storedTypeOf(type), namespace), opts), type, '');
    const view = kindOf(type).view;
    return view ? { ...listed, items: listed.items.map(view.fromStored) } : listed;
  }

  async create(type: ResourceType, namespace: string | undefined, obj: KObject, opts: WriteOptions): Promise<KObject> {
    const kind = kindOf(type);
    if (kind.view) return shown(type, await this.create(kind.view.of, namespace, kind.view.toStored(this.#validView(type, obj)), opts));
    const meta = obj.metadata;
    obj.apiVersion = kind.storageApiVersion ?? apiVersionOf(type);
    obj.kind = type.kind;
    this.#checkNamespace(type, namespace, obj);
    if (meta.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
    const generated = !meta.name && meta.generateName !== undefined;
    if (generated) meta.name = `${meta.generateName}${nameSuffix(this.#names)}`;
    const now = timestamp(this.env.clock.now());
    meta.uid = uuid(this.#uids);
    meta.creationTimestamp = now;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (kind.hasGeneration) meta.generation = 1;
    else delete meta.generation;
    kind.defaults(obj);
    const attrs = opts.skipAdmission ? undefined : this.#attrs('CREATE', type, namespace, obj, undefined, opts);
    const mutating = attrs && this.env.admission.mutate(attrs, this.env.lookup);
    if (mutating) await mutating;
    // Taken after mutating admission and before the kind's preparation, as the real store's BeginCreate.
    const reservation = this.#allocatorOf(kind)?.create(obj, opts.dryRun) ?? NOTHING_RESERVED;
    try {
      // A generated name taken already is generated again, up to 8 tries, as the real store's
      // createWithGenerateNameRetry (RetryGenerateName, GA in 1.32).
      for (let attempt = 1; ; attempt++) {
        try {
          const created = await this.#store(type, namespace, obj, opts, now, attrs);
          reservation.commit();
          return created;
        } catch (e) {
          if (!generated || attempt >= GENERATE_NAME_ATTEMPTS || !isAlreadyExists(e)) throw e;
          meta.name = `${meta.generateName}${nameSuffix(this.#names)}`;
        }
      }
    } catch (e) {
      reservation.revert();
      throw e;
    }
  }

  /**
   * The end of a create: the kind's preparation (after mutating admission, as the real
   * BeforeCreate: a pod's QoS class sees the LimitRanger's defaults), validation, validating
   * admission, managed fields, and the store (or, for a dry run, the check that it would not collide).
   */
  async #store(type: ResourceType, namespace: string | undefined, obj: KObject, opts: WriteOptions, now: string, attrs: AdmissionAttributes | undefined): Promise<KObject> {
    const kind = kindOf(type);
    const meta = obj.metadata;
    kind.prepareForCreate(obj);
    this.#validate(type, obj, undefined);
    const validating = attrs && this.env.admission.validate(attrs, this.env.lookup);
    if (validating) await validating;
    const written = opts.applied ? obj : recordUpdate(undefined, obj, { manager: opts.fieldManager, model: modelName(obj.apiVersion!, type.kind), apiVersion: obj.apiVersion!, now, ...shapeOf(kind) });
    if (opts.dryRun) {
      // The real request would collide with a live object: so does its dry run.
      if (await this.env.store.get(this.key(type, namespace, meta.name!))) throw alreadyExists(target(type, meta.name));
      return written;
    }
    try {
      return await this.env.store.create(this.key(type, namespace, meta.name!), written);
    } catch (e) {
      if (e instanceof StorageError && e.code === 'KeyExists') throw alreadyExists(target(type, meta.name));
      throw e;
    }
  }

  /** The kind's allocator, if it has one. */
  #allocatorOf(kind: Kind): Allocator | undefined {
    if (kind.allocator === undefined) return undefined;
    let allocator = this.#allocators.get(kind);
    if (allocator === undefined) this.#allocators.set(kind, (allocator = kind.allocator(this.env.allocation)));
    return allocator ?? undefined;
  }

  /**
   * Takes for every stored object of a kind with an allocator what it holds: a server starting on
   * an existing store hands out nothing already in use. Call before serving.
   */
  async restoreAllocations(): Promise<void> {
    for (const type of RESOURCES) {
      const allocator = this.#allocatorOf(kindOf(type));
      if (!allocator) continue;
      const { items } = await this.env.store.list(collectionKey(this.env.keyPrefix, type, undefined));
      for (const obj of items) allocator.restore(obj);
    }
  }

  /**
   * Reads the object, asks `tryUpdate` for the new one, applies the update rules, and writes it
   * if the stored object did not change meanwhile (else it tries again). Returns whether it created.
   */
  async update(type: ResourceType, namespace: string | undefined, name: string, tryUpdate: TryUpdate,
    opts: WriteOptions & { forceAllowCreate?: boolean }): Promise<{ object: KObject; created: boolean }> {
    const view = kindOf(type).view;
    if (view) {
      const result = await this.update(view.of, namespace, name,
        async (current) => view.toStored(this.#validView(type, await tryUpdate(current && view.fromStored(current)))), opts);
      return { ...result, object: view.fromStored(result.object) };
    }
    return this.#guaranteed(type, name, async () => {
      const key = this.key(type, namespace, name);
      const current = await this.env.store.get(key);
      if (!current && !opts.subresource && (opts.forceAllowCreate || kindOf(type).allowCreateOnUpdate)) {
        const obj = structuredClone(await tryUpdate(undefined));
        this.#checkName(obj, name);
        return { object: await this.create(type, namespace, obj, opts), created: true };
      }
      if (!current) throw notFound(target(type, name));
      // Patch results share unchanged subtrees with the stored object, which nobody may change:
      // the top level and metadata (which every update writes) are copied, the rest is written
      // copy-on-write below, so unchanged subtrees stay shared and compare by identity.
      const result = await tryUpdate(current);
      const next = opts.ownResult ? result : { ...result, metadata: { ...result.metadata } };
      const userVersion = next.metadata.resourceVersion;
      if (userVersion && userVersion !== current.metadata.resourceVersion) throw conflict(target(type, name));
      // Only updates of objects being deleted ask the object machine: the others are the hot path.
      const deletion: Deletion | undefined = current.metadata.deletionTimestamp ? {} : undefined;
      const held: Held = { reservation: NOTHING_RESERVED };
      const prepared = await this.#prepareUpdate(type, namespace, name, next, current, opts, deletion, held);
      if (prepared === current || opts.dryRun) {
        held.reservation.commit();
        return { object: prepared, created: false };
      }
      try {
        const object = await this.#commitUpdate(type, key, prepared, current, deletion?.step);
        held.reservation.commit();
        return { object, created: false };
      } catch (e) {
        // Tried again on a lost race, as the real store's GuaranteedUpdate: a writer that named a
        // version is then told 409 by the check above, a patch applies again to the newer object.
        held.reservation.revert();
        throw e;
      }
    });
  }

  /**
   * Changes a stored object straight in storage, as the real registry's GuaranteedUpdate does for
   * operations such as binding: no admission, validation, defaulting or managed fields, only the
   * object `mutate` returns (sharing what it leaves unchanged) written at the read revision, read
   * and tried again on a conflicting write. `mutate` throws to refuse; `uid` is a precondition.
   */
  async guaranteedUpdate(type: ResourceType, namespace: string | undefined, name: string, mutate: (current: KObject) => KObject,
    opts: { dryRun: boolean; uid?: string }): Promise<KObject> {
    return this.#guaranteed(type, name, async () => {
      const key = this.key(type, namespace, name);
      const current = await this.env.store.get(key);
      if (!current) throw notFound(target(type, name));
      if (opts.uid && opts.uid !== current.metadata.uid)
        throw conflict(target(type, name), `Precondition failed: UID in precondition: ${opts.uid}, UID in object meta: ${current.metadata.uid}`);
      const next = mutate(current);
      if (opts.dryRun) return next;
      return this.env.store.update(key, { ...next, metadata: { ...next.metadata } }, Number(current.metadata.resourceVersion));
    });
  }

  /**
   * The guaranteed-update loop every read-modify-write of the registry shares, as the real
   * storage's GuaranteedUpdate: `attempt` reads the object, decides, and writes at the revision
   * it read; a write that lost to another writer is tried again, up to MAX_UPDATE_RETRIES times,
   * and then, as any other refusal of the store, answered 409. `attempt`'s own refusals end it.
   */
  async #guaranteed<T>(type: ResourceType, name: string, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (e) {
        if (!(e instanceof StorageError)) throw e;
        if (e.code !== 'RevisionConflict' || tries >= MAX_UPDATE_RETRIES) throw conflict(target(type, name));
      }
    }
  }

  async #prepareUpdate(type: ResourceType, namespace: string | undefined, name: string, next: KObject, current: KObject,
    opts: WriteOptions, deletion: Deletion | undefined, held: Held): Promise<KObject> {
    const kind = kindOf(type);
    next.apiVersion = kind.storageApiVersion ?? apiVersionOf(type);
    next.kind = type.kind;
    this.#checkNamespace(type, namespace, next);
    this.#checkName(next, name);
    const meta = next.metadata;
    const old = current.metadata;
    if (meta.uid && meta.uid !== old.uid)
      throw conflict(target(type, name), `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${old.uid}`);
    meta.uid = old.uid;
    meta.creationTimestamp = old.creationTimestamp;
    meta.resourceVersion = old.resourceVersion;
    if (old.deletionTimestamp) meta.deletionTimestamp = old.deletionTimestamp;
    else delete meta.deletionTimestamp;
    if (old.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
    else delete meta.deletionGracePeriodSeconds;
    meta.managedFields ??= old.managedFields;
    if (old.generation !== undefined) meta.generation = old.generation;
    else delete meta.generation;
    const subresource = opts.subresource;
    if (subresource === 'status') {
      // A status write changes status only (ResetObjectMetaForStatus).
      const status = next.status;
      Object.assign(next, { ...current, metadata: { ...old, managedFields: meta.managedFields }, status });
    } else if (subresource !== undefined) {
      kind.subresourceWrites[subresource]?.(next, current);
    } else {
      if (kind.hasStatus) {
        if (current.status === undefined) delete next.status;
        else next.status = current.status;
      }
      kind.prepareForUpdate(next, current);
    }
    kind.defaults(next);
    const attrs = this.#attrs('UPDATE', type, namespace, next, current, opts);
    const mutating = this.env.admission.mutate(attrs, this.env.lookup);
    if (mutating) await mutating;
    if (deletion) deletion.step = finalizersChanged(kind, next, current);
    // What the main resource's update takes and gives up of the kind's pools.
    if (subresource === undefined) held.reservation = this.#allocatorOf(kind)?.update(next, current, opts.dryRun) ?? NOTHING_RESERVED;
    try {
      this.#validate(type, next, current, opts.subresource, deletion?.step);
      if (kind.hasGeneration && kind.specChanged(next, current)) next.metadata.generation = (old.generation ?? 0) + 1;
      // After the generation moves, as the real PrepareForUpdate moves it before validating admission.
      const validating = this.env.admission.validate(attrs, this.env.lookup);
      if (validating) await validating;
    } catch (e) {
      held.reservation.revert();
      throw e;
    }
    if (deepEqual(next, current)) return current; // nothing changed: no write, no new revision
    if (opts.applied) return next;
    const now = timestamp(this.env.clock.now());
    return recordUpdate(current, next, { manager: opts.fieldManager, model: modelName(next.apiVersion!, type.kind), apiVersion: next.apiVersion!, now, ...shapeOf(kind),
      ...(opts.subresource ? { subresource: opts.subresource } : {}) });
  }

  /** Writes an update; if the object machine took the update to Removed, the object then leaves the store. */
  async #commitUpdate(type: ResourceType, key: string, next: KObject, current: KObject, step: Step | undefined): Promise<KObject> {
    const written = await this.env.store.update(key, next, Number(current.metadata.resourceVersion));
    if (!step) return written;
    const removed = step.after.value === 'Removed';
    const object = removed ? await this.env.store.delete(key, Number(written.metadata.resourceVersion)) : written;
    if (removed) this.#allocatorOf(kindOf(type))?.release(written);
    this.#record(type, key, current, step);
    return object;
  }

  /**
   * Asks the object machine what a delete does (machines/object.ts: finalizers, grace period,
   * propagation, a kind that blocks removal) and writes its answer: Removed deletes the object,
   * Terminating writes the deletion metadata, no transition leaves it as it is.
   */
  async delete(type: ResourceType, namespace: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const kind = kindOf(type);
    if (kind.view) {
      const result = await this.delete(kind.view.of, namespace, name, opts);
      return { ...result, object: kind.view.fromStored(result.object) };
    }
    return this.#guaranteed(type, name, async () => {
      const key = this.key(type, namespace, name);
      const current = await this.env.store.get(key);
      if (!current) throw notFound(target(type, name));
      checkPreconditions(type, name, current, opts.preconditions);
      const attrs: AdmissionAttributes = { operation: 'DELETE', type, namespace, name, dryRun: opts.dryRun, old: current, options: opts,
        ...(opts.user ? { user: opts.user } : {}), ...(opts.warnings ? { warnings: opts.warnings } : {}) };
      const admitting = this.env.admission.admit(attrs, this.env.lookup);
      if (admitting) await admitting;
      // A first delete may write something of its kind's first (a finalizer its cleanup needs).
      const live = current.metadata.deletionTimestamp ? current : kind.prepareForDelete(current);
      const before = deletionSnapshot(live, kind);
      const event: DeleteEvent = { type: 'DELETE', atMs: this.env.clock.now(), gracePeriodSeconds: kind.gracePeriodSeconds(current, opts.gracePeriodSeconds),
        resource: type, propagationPolicy: opts.propagationPolicy, orphanDependents: opts.orphanDependents };
      const [after] = transition(objectMachine, before, event);
      if (after === before) return { object: current, removed: false };
      const removed = after.value === 'Removed';
      const next = removed ? current : terminatingObject(live, before.context, after.context, kind);
      if (opts.dryRun) return { object: next, removed };
      const revision = Number(current.metadata.resourceVersion);
      const object = removed ? await this.env.store.delete(key, revision) : await this.env.store.update(key, next, revision);
      if (removed) this.#allocatorOf(kind)?.release(current);
      this.#record(type, key, current, { event, before, after });
      return { object, removed };
    });
  }

  /**
   * Records a committed step of an object's machine in the actor system. An object that begins
   * terminating is tracked from Live; one already terminating that the system does not know (the
   * server restarted on its store) from Terminating; one that leaves the store stops. An object
   * removed at once is not recorded.
   */
  #record(type: ResourceType, key: string, obj: KObject, step: Step): void {
    const from = step.before.value as ObjectState;
    const to = step.after.value as ObjectState;
    if (from === 'Live' && to === 'Removed') return;
    const system = this.env.system;
    let id = this.#terminating.get(key);
    if (id === undefined || from === 'Live') {
      // An actor still here for a Live object belonged to an earlier one of that name, which left the store unseen.
      if (id !== undefined) system.untrack(id);
      id = system.track(actorIds.object(type, type.scope === 'Cluster' ? undefined : obj.metadata.namespace, obj.metadata.name!), objectMachine.id, from);
    }
    system.move(id, step.event.type, to);
    if (to !== 'Removed') return void this.#terminating.set(key, id);
    system.untrack(id);
    this.#terminating.delete(key);
  }

  #attrs(operation: Operation, type: ResourceType, namespace: string | undefined, object: KObject, old: KObject | undefined, opts: WriteOptions): AdmissionAttributes {
    return { operation, type, namespace, name: object.metadata.name ?? '', dryRun: opts.dryRun, object, options: opts, ...(old ? { old } : {}),
      ...(opts.subresource ? { subresource: opts.subresource } : {}), ...(opts.user ? { user: opts.user } : {}),
      ...(opts.warnings ? { warnings: opts.warnings } : {}) };
  }

  #checkNamespace(type: ResourceType, namespace: string | undefined, obj: KObject): void {
    const meta = obj.metadata;
    if (type.scope === 'Cluster') {
      delete meta.namespace;
      return;
    }
    if (meta.namespace && namespace !== undefined && meta.namespace !== namespace)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    meta.namespace = namespace ?? meta.namespace;
  }

  #checkName(obj: KObject, name: string): void {
    const given = obj.metadata.name;
    if (given === undefined || given === '') obj.metadata.name = name;
    else if (given !== name) throw badRequest(`the name of the object (${given}) does not match the name on the URL (${name})`);
  }

  /** `step`: an update of a terminating object as its machine took it; no transition means it was rejected. */
  #validate(type: ResourceType, obj: KObject, old: KObject | undefined, subresource?: string, step?: Step): void {
    const kind = kindOf(type);
    const meta = obj.metadata;
    const causes: StatusCause[] = [];
    if (!meta.name && !meta.generateName) causes.push({ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' });
    else causes.push(...validateName(meta.name, kind.nameRule));
    if (meta.generateName) causes.push(...validateGenerateName(meta.generateName, kind.nameRule));
    if (type.scope === 'Namespaced' && !meta.namespace) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'metadata.namespace' });
    causes.push(...validateLabels(meta.labels), ...validateAnnotations(meta.annotations), ...validateFinalizers(meta.finalizers));
    causes.push(...kind.validate(obj, old, subresource));
    if (old) causes.push(...kind.validateUpdate(obj, old));
    if (step && step.after === step.before) causes.push(finalizersForbidden(step));
    if (causes.length > 0) throw invalid(type.group, type.kind, meta.name ?? meta.generateName ?? '', causes);
  }

  /** `obj` checked by its view kind's own rules before it is stored as another kind. */
  #validView(type: ResourceType, obj: KObject): KObject {
    const causes = kindOf(type).validate(obj, undefined, undefined);
    if (causes.length > 0) throw invalid(type.group, type.kind, obj.metadata.name ?? '', causes);
    return obj;
  }

  async #storage<T>(read: () => Promise<T>, type: ResourceType, name: string): Promise<T> {
    try {
      return await read();
    } catch (e) {
      if (!(e instanceof StorageError)) throw e;
      // etcd's answer to a read below the compacted revision (apiserver pkg/storage/etcd3/errors.go).
      if (e.code === 'Compacted') throw new StatusError(410, 'Expired', 'The resourceVersion for the provided list is too old.');
      if (e.code === 'TooLargeRevision')
        throw tooLargeResourceVersion(e.revision, this.env.store.revision);
      throw notFound(target(type, name));
    }
  }
}

/** A stored object as `type` shows it: itself, or converted for a view kind. */
const shown = (type: ResourceType, obj: KObject): KObject => kindOf(type).view?.fromStored(obj) ?? obj;

/** A custom kind's shape for managed fields, which built-in kinds take from their models. */
const shapeOf = (kind: Kind) => (kind.schema ? { shape: kind.schema.shape, statusSubresource: kind.hasStatus } : {});

export function target(type: ResourceType, name: string | undefined): Target {
  return { group: type.group, resource: type.resource, name };
}

function checkPreconditions(type: ResourceType, name: string, current: KObject, p: DeleteOptions['preconditions']): void {
  if (!p) return;
  if (p.uid && p.uid !== current.metadata.uid)
    throw conflict(target(type, name), `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${current.metadata.uid}`);
  if (p.resourceVersion && p.resourceVersion !== current.metadata.resourceVersion)
    throw conflict(target(type, name), `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion}`);
}

/** The object's deletion lifecycle as its stored metadata has it: Live, or Terminating since deletionTimestamp. */
function deletionSnapshot(obj: KObject, kind: Kind): ObjectSnapshot {
  const meta = obj.metadata;
  const since = meta.deletionTimestamp;
  const context: ObjectContext = { finalizers: meta.finalizers ?? NONE, blocked: kind.blocksRemoval(obj),
    deletionMs: since ? Date.parse(since) : undefined, gracePeriodSeconds: meta.deletionGracePeriodSeconds ?? 0 };
  return objectMachine.resolveState({ value: since ? 'Terminating' : 'Live', context });
}

/**
 * An update of a terminating object as its machine takes it; undefined when neither its
 * finalizers (order included) nor its kind's block on removal changed: then there is no event.
 */
function finalizersChanged(kind: Kind, next: KObject, current: KObject): Step | undefined {
  const finalizers = next.metadata.finalizers ?? NONE;
  const blocked = kind.blocksRemoval(next);
  if (blocked === kind.blocksRemoval(current) && sameList(finalizers, current.metadata.finalizers ?? NONE)) return undefined;
  const before = deletionSnapshot(current, kind);
  const event: FinalizersChangedEvent = { type: 'FINALIZERS_CHANGED', finalizers, blocked };
  return { event, before, after: transition(objectMachine, before, event)[0] };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The real server's answer to a finalizer added to an object being deleted. */
function finalizersForbidden(step: Step): StatusCause {
  const added = addedFinalizers(step.before.context.finalizers, (step.event as FinalizersChangedEvent).finalizers);
  return { reason: 'FieldValueForbidden', field: 'metadata.finalizers',
    message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}` };
}

/**
 * `current` as the machine's Terminating context has it, writing the finalizers and the deletion
 * timestamp and grace period only where they changed. An object entering Terminating gets a new
 * generation (kinds that count them) and what else its kind changes then (a Namespace's phase).
 */
function terminatingObject(current: KObject, before: ObjectContext, after: ObjectContext, kind: Kind): KObject {
  const meta = current.metadata;
  let metadata = after.finalizers === before.finalizers ? meta : withFinalizers(meta, after.finalizers);
  if (after.deletionMs !== before.deletionMs)
    metadata = withFields(metadata, { deletionTimestamp: timestamp(after.deletionMs!), deletionGracePeriodSeconds: after.gracePeriodSeconds });
  const next: KObject = { ...current, metadata };
  if (meta.deletionTimestamp) return next;
  if (kind.hasGeneration) metadata.generation = (meta.generation ?? 0) + 1;
  kind.beginTerminating(next);
  return next;
}

/** `meta` with these finalizers; with none, without the field. */
function withFinalizers(meta: KObject['metadata'], finalizers: readonly string[]): KObject['metadata'] {
  const { finalizers: _old, ...rest } = meta;
  return finalizers.length > 0 ? withFields(rest, { finalizers: finalizers as string[] }) : rest;
}
