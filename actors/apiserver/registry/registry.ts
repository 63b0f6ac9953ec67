// The generic registry: every stored kind's create, update and delete, with the metadata rules
// of seed 000, the kind's strategy, admission, dry-run and the store's optimistic concurrency.
// It knows nothing of HTTP: handlers decode requests and encode what it returns.
import { nameSuffix, timestamp, uuid, type Clock, type Random } from '../../api/env.ts';
import { withFields } from '../../api/objects.ts';
import { apiVersionOf, type ResourceType } from '../../api/resources.ts';
import { alreadyExists, badRequest, conflict, invalid, notFound, StatusError, tooLargeResourceVersion, type StatusCause, type Target } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { AdmissionChain, AdmissionLookup, Operation } from '../admission/chain.ts';
import { recordUpdate } from '../patch/apply.ts';
import { StorageError } from '../storage/errors.ts';
import type { ListOptions, ListResult, Store } from '../storage/store.ts';
import { validateAnnotations, validateFinalizers, validateGenerateName, validateLabels, validateName } from '../validation/names.ts';
import { modelName } from '../validation/schema.ts';
import { deepEqual } from './deep-equal.ts';
import { applyDefaults } from './defaults.ts';
import { collectionKey, objectKey } from './keys.ts';
import { propagationFinalizers } from './propagation.ts';
import { strategyFor } from './strategy.ts';

export interface RegistryEnv {
  store: Store;
  clock: Clock;
  random: Random;
  admission: AdmissionChain;
  keyPrefix: string;
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
}

export interface DeleteOptions {
  dryRun: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  /** Orphan, Background or Foreground: see propagation.ts. */
  propagationPolicy?: string;
  /** The deprecated form of the policy (true: Orphan); never set together with propagationPolicy. */
  orphanDependents?: boolean;
}

export interface DeleteResult {
  object: KObject;
  /** True when the object left the store; false when it is now (or still) terminating. */
  removed: boolean;
}

/** Given the stored object (undefined when absent), the object to write. */
export type TryUpdate = (current: KObject | undefined) => KObject | Promise<KObject>;

/** Types whose PUT on a missing name creates the object (AllowCreateOnUpdate in real registries). */
const CREATE_ON_UPDATE = new Set(['/events', 'coordination.k8s.io/leases']);
const MAX_UPDATE_RETRIES = 16;

export class Registry {
  readonly #uids: Random;
  readonly #names: Random;
  readonly lookup: AdmissionLookup;

  constructor(readonly env: RegistryEnv) {
    this.#uids = env.random.fork('uids');
    this.#names = env.random.fork('generated-names');
    const nsType = { group: '', resource: 'namespaces', scope: 'Cluster' } as ResourceType;
    this.lookup = { getNamespace: (name) => env.store.get(objectKey(env.keyPrefix, nsType, undefined, name)) };
  }

  key(type: ResourceType, namespace: string | undefined, name: string): string {
    return objectKey(this.env.keyPrefix, type, namespace, name);
  }

  async get(type: ResourceType, namespace: string | undefined, name: string, revision?: number): Promise<KObject> {
    const obj = await this.#storage(() => this.env.store.get(this.key(type, namespace, name), revision), type, name);
    if (!obj) throw notFound(target(type, name));
    return obj;
  }

  list(type: ResourceType, namespace: string | undefined, opts: ListOptions): Promise<ListResult> {
    return this.#storage(() => this.env.store.list(collectionKey(this.env.keyPrefix, type, namespace), opts), type, '');
  }

  async create(type: ResourceType, namespace: string | undefined, obj: KObject, opts: WriteOptions): Promise<KObject> {
    const strategy = strategyFor(type);
    const meta = obj.metadata;
    obj.apiVersion = apiVersionOf(type);
    obj.kind = type.kind;
    this.#checkNamespace(type, namespace, obj);
    if (meta.resourceVersion) throw badRequest('resourceVersion should not be set on objects to be created');
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${nameSuffix(this.#names)}`;
    const now = timestamp(this.env.clock.now());
    meta.uid = uuid(this.#uids);
    meta.creationTimestamp = now;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    if (strategy.hasGeneration) meta.generation = 1;
    else delete meta.generation;
    resetStatusOnCreate(type, obj);
    applyDefaults(type.resource, type.group, obj);
    if (!opts.skipAdmission) await this.env.admission.admit(this.#attrs('CREATE', type, namespace, obj, undefined, opts), this.lookup);
    this.#validate(type, obj, undefined);
    const written = opts.applied ? obj : recordUpdate(undefined, obj, { manager: opts.fieldManager, model: modelName(obj.apiVersion, type.kind), apiVersion: obj.apiVersion, now });
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

  /**
   * Reads the object, asks `tryUpdate` for the new one, applies the update rules, and writes it
   * if the stored object did not change meanwhile (else it tries again). Returns whether it created.
   */
  async update(type: ResourceType, namespace: string | undefined, name: string, tryUpdate: TryUpdate,
    opts: WriteOptions & { forceAllowCreate?: boolean }): Promise<{ object: KObject; created: boolean }> {
    for (let attempt = 0; ; attempt++) {
      const key = this.key(type, namespace, name);
      const current = await this.env.store.get(key);
      if (!current && !opts.subresource && (opts.forceAllowCreate || CREATE_ON_UPDATE.has(`${type.group}/${type.resource}`))) {
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
      const prepared = await this.#prepareUpdate(type, namespace, name, next, current, opts);
      if (prepared === current || opts.dryRun) return { object: prepared, created: false };
      try {
        return { object: await this.#commitUpdate(key, prepared, current), created: false };
      } catch (e) {
        const retry = e instanceof StorageError && e.code === 'RevisionConflict' && !userVersion && attempt < MAX_UPDATE_RETRIES;
        if (!retry) throw e instanceof StorageError ? conflict(target(type, name)) : e;
      }
    }
  }

  /**
   * Changes a stored object straight in storage, as the real registry's GuaranteedUpdate does for
   * operations such as binding: no admission, validation, defaulting or managed fields, only the
   * object `mutate` returns (sharing what it leaves unchanged) written at the read revision, read
   * and tried again on a conflicting write. `mutate` throws to refuse; `uid` is a precondition.
   */
  async guaranteedUpdate(type: ResourceType, namespace: string | undefined, name: string, mutate: (current: KObject) => KObject,
    opts: { dryRun: boolean; uid?: string }): Promise<KObject> {
    for (let attempt = 0; ; attempt++) {
      const key = this.key(type, namespace, name);
      const current = await this.env.store.get(key);
      if (!current) throw notFound(target(type, name));
      if (opts.uid && opts.uid !== current.metadata.uid)
        throw conflict(target(type, name), `Precondition failed: UID in precondition: ${opts.uid}, UID in object meta: ${current.metadata.uid}`);
      const next = mutate(current);
      if (opts.dryRun) return next;
      try {
        return await this.env.store.update(key, { ...next, metadata: { ...next.metadata } }, Number(current.metadata.resourceVersion));
      } catch (e) {
        if (!(e instanceof StorageError && e.code === 'RevisionConflict' && attempt < MAX_UPDATE_RETRIES)) throw e instanceof StorageError ? conflict(target(type, name)) : e;
      }
    }
  }

  async #prepareUpdate(type: ResourceType, namespace: string | undefined, name: string, next: KObject, current: KObject,
    opts: WriteOptions): Promise<KObject> {
    const strategy = strategyFor(type);
    next.apiVersion = apiVersionOf(type);
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
    if (opts.subresource === 'status') {
      // A status write changes status only (ResetObjectMetaForStatus).
      const status = next.status;
      Object.assign(next, { ...current, metadata: { ...old, managedFields: meta.managedFields }, status });
    } else if (opts.subresource === 'finalize') {
      // finalize changes a namespace's spec.finalizers only.
      const finalizers = (next.spec as { finalizers?: unknown } | undefined)?.finalizers;
      Object.assign(next, { ...current, metadata: { ...old, managedFields: meta.managedFields } });
      next.spec = { ...(next.spec as object), finalizers: finalizers ?? [] };
    } else if (strategy.hasStatus && opts.subresource === undefined) {
      if (current.status === undefined) delete next.status;
      else next.status = current.status;
    }
    applyDefaults(type.resource, type.group, next);
    await this.env.admission.admit(this.#attrs('UPDATE', type, namespace, next, current, opts), this.lookup);
    this.#validate(type, next, current);
    if (strategy.hasGeneration && !deepEqual(next.spec, current.spec)) next.metadata.generation = (old.generation ?? 0) + 1;
    if (deepEqual(next, current)) return current; // nothing changed: no write, no new revision
    if (opts.applied) return next;
    const now = timestamp(this.env.clock.now());
    return recordUpdate(current, next, { manager: opts.fieldManager, model: modelName(next.apiVersion!, type.kind), apiVersion: next.apiVersion!, now,
      ...(opts.subresource ? { subresource: opts.subresource } : {}) });
  }

  /** Writes an update; an object whose deletion was pending and is now free of finalizers leaves the store. */
  async #commitUpdate(key: string, next: KObject, current: KObject): Promise<KObject> {
    const expected = Number(current.metadata.resourceVersion);
    if (next.metadata.deletionTimestamp && this.#removable(next)) {
      const written = await this.env.store.update(key, next, expected);
      return this.env.store.delete(key, Number(written.metadata.resourceVersion));
    }
    return this.env.store.update(key, next, expected);
  }

  #removable(obj: KObject): boolean {
    const isNamespace = obj.kind === 'Namespace' && obj.apiVersion === 'v1';
    const blocked = isNamespace && ((obj.spec as { finalizers?: unknown[] } | undefined)?.finalizers?.length ?? 0) > 0;
    return !blocked && (obj.metadata.finalizers?.length ?? 0) === 0 && (obj.metadata.deletionGracePeriodSeconds ?? 0) === 0;
  }

  /**
   * Deletes at once an object nothing holds; otherwise marks it terminating (deletionTimestamp)
   * and keeps it until its finalizers are gone and its grace period is over. The propagation
   * policy first adds or removes the garbage collector's finalizers (propagation.ts), except on
   * an object whose graceful deletion is already under way and not shortened by this request.
   */
  async delete(type: ResourceType, namespace: string | undefined, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const strategy = strategyFor(type);
    for (let attempt = 0; ; attempt++) {
      const key = this.key(type, namespace, name);
      const current = await this.env.store.get(key);
      if (!current) throw notFound(target(type, name));
      checkPreconditions(type, name, current, opts.preconditions);
      await this.env.admission.admit({ operation: 'DELETE', type, namespace, name, dryRun: opts.dryRun, old: current }, this.lookup);
      const grace = strategy.gracePeriodSeconds?.(current, opts.gracePeriodSeconds) ?? 0;
      const held = gracePending(current, grace) ? current : withFinalizers(current, propagationFinalizers(type, current.metadata.finalizers, opts));
      const pending = (held.metadata.finalizers?.length ?? 0) > 0 || (strategy.blocksRemoval?.(held) ?? false) || grace > 0;
      try {
        if (!pending) {
          if (opts.dryRun) return { object: current, removed: true };
          return { object: await this.env.store.delete(key, Number(current.metadata.resourceVersion)), removed: true };
        }
        const next = this.#markDeleting(held, grace, strategy.hasGeneration);
        if (next === current || opts.dryRun) return { object: next, removed: false };
        return { object: await this.env.store.update(key, next, Number(current.metadata.resourceVersion)), removed: false };
      } catch (e) {
        if (!(e instanceof StorageError && e.code === 'RevisionConflict' && attempt < MAX_UPDATE_RETRIES)) throw e;
      }
    }
  }

  /** Sets deletionTimestamp (now + grace), or shortens a pending grace period; returns `current` when neither applies. */
  #markDeleting(current: KObject, grace: number, hasGeneration: boolean): KObject {
    const meta = current.metadata;
    let fromMs = this.env.clock.now();
    if (meta.deletionTimestamp) {
      const shorter = meta.deletionGracePeriodSeconds !== undefined && grace < meta.deletionGracePeriodSeconds;
      if (!shorter) return current;
      // A shorter period counts from when deletion was first asked for, not from now (rest.BeforeDelete).
      fromMs = Date.parse(meta.deletionTimestamp) - (meta.deletionGracePeriodSeconds ?? 0) * 1000;
    }
    const next: KObject = { ...current, metadata: withFields(meta, { deletionTimestamp: timestamp(fromMs + grace * 1000), deletionGracePeriodSeconds: grace }) };
    if (hasGeneration && !meta.deletionTimestamp) next.metadata.generation = (meta.generation ?? 0) + 1;
    if (current.kind === 'Namespace' && current.apiVersion === 'v1') next.status = { ...(current.status as object), phase: 'Terminating' };
    return next;
  }

  #attrs(operation: Operation, type: ResourceType, namespace: string | undefined, object: KObject, old: KObject | undefined, opts: WriteOptions) {
    return { operation, type, namespace, name: object.metadata.name ?? '', dryRun: opts.dryRun, object, ...(old ? { old } : {}),
      ...(opts.subresource ? { subresource: opts.subresource } : {}) };
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

  #validate(type: ResourceType, obj: KObject, old: KObject | undefined): void {
    const strategy = strategyFor(type);
    const meta = obj.metadata;
    const causes: StatusCause[] = [];
    if (!meta.name && !meta.generateName) causes.push({ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' });
    else causes.push(...validateName(meta.name, strategy.nameRule));
    if (meta.generateName) causes.push(...validateGenerateName(meta.generateName, strategy.nameRule));
    if (type.scope === 'Namespaced' && !meta.namespace) causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'metadata.namespace' });
    causes.push(...validateLabels(meta.labels), ...validateAnnotations(meta.annotations), ...validateFinalizers(meta.finalizers));
    causes.push(...(strategy.validate?.(obj) ?? []));
    if (old) {
      causes.push(...(strategy.validateUpdate?.(obj, old) ?? []));
      if (old.metadata.deletionTimestamp) {
        const before = new Set(old.metadata.finalizers ?? []);
        const added = (meta.finalizers ?? []).filter((f) => !before.has(f));
        if (added.length > 0)
          causes.push({ reason: 'FieldValueForbidden', field: 'metadata.finalizers',
            message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}` });
      }
    }
    if (causes.length > 0) throw invalid(type.group, type.kind, meta.name ?? meta.generateName ?? '', causes);
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

/** A terminating object whose grace period runs on and is not shortened: its finalizers are no longer a delete's to change. */
function gracePending(current: KObject, grace: number): boolean {
  const period = current.metadata.deletionGracePeriodSeconds ?? 0;
  return !!current.metadata.deletionTimestamp && period > 0 && grace >= period;
}

/** `obj` with these finalizers (none: the field goes), or `obj` itself when `finalizers` is undefined. */
function withFinalizers(obj: KObject, finalizers: string[] | undefined): KObject {
  if (!finalizers) return obj;
  const { finalizers: _old, ...meta } = obj.metadata;
  return { ...obj, metadata: finalizers.length > 0 ? withFields(meta, { finalizers }) : meta };
}

/** What create keeps of a submitted status: pods start Pending, namespaces Active, workloads empty. */
function resetStatusOnCreate(type: ResourceType, obj: KObject): void {
  const key = `${type.group}/${type.resource}`;
  if (key === '/pods') obj.status = { phase: 'Pending', qosClass: qosClass(obj) };
  else if (key === '/namespaces') obj.status = { phase: 'Active' };
  else if (key !== '/nodes' && strategyFor(type).hasStatus) delete obj.status;
}

function qosClass(pod: KObject): string {
  const containers = ((pod.spec as { containers?: unknown[] } | undefined)?.containers ?? []) as { resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> } }[];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = lim[r];
      const q = req[r] ?? l;
      if (l === undefined || String(q) !== String(l)) guaranteed = false;
    }
  }
  return guaranteed ? 'Guaranteed' : any ? 'Burstable' : 'BestEffort';
}
