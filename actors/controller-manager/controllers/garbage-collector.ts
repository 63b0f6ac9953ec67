// The garbage collector: the three ways a delete treats an object's dependents (the objects that
// name it in their ownerReferences), as the real collector carries them out.
//
// - Background (the default for every kind served): the owner goes at once; a dependent whose
//   owners are all gone is then deleted, one that keeps some owner loses the references to the
//   gone ones. An owner counts as gone only when a live read of it finds nothing with that uid (a
//   cache can lag behind a create, as the real collector verifies too).
// - Orphan: the API server keeps the owner with the `orphan` finalizer; the collector takes the
//   references to it off all its dependents, then the finalizer, and the owner goes.
// - Foreground: the API server keeps the owner with the `foregroundDeletion` finalizer; the
//   collector deletes its dependents (those with other owners left only lose the reference), and
//   takes the finalizer off once no dependent with blockOwnerDeletion=true is left. A dependent
//   that has dependents of its own is deleted in the foreground too, so the wait runs down the
//   whole tree; one whose own dependent is also deleting in the foreground first stops blocking
//   its owners (a cycle would wait forever).
//
// Dependents are found in a graph kept from the informers (owner uid to dependent keys); it
// watches every stored kind the server serves: the built-in ones from the start, and custom
// resources as discovery finds them, looked for again every RESYNC_MS (the real collector's
// 30 s), so a custom object owning Deployments takes them with it. Keys are reconciled from a
// work queue: an owner's key finishes its deletion, a dependent's key judges its owners.
import { RESOURCES, type ResourceType } from '../../api/resources.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject, OwnerReference } from '../../api/types.ts';
import { discoverResources } from '../../client/discovery.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';

/**
 * The kinds watched, as dependents and as owners: every stored kind but Events, core and
 * events.k8s.io alike, as the real collector's DefaultIgnoredResources (an Event is never an
 * owner and expires on its own).
 */
const watchable = (t: ResourceType) => t.verbs.includes('watch') && t.verbs.includes('delete') && !(t.resource === 'events' && (t.group === '' || t.group === 'events.k8s.io'));
/** How often the kinds served are looked for again (the real controller manager's garbage collector sync period). */
export const RESYNC_MS = 30_000;
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';
/** Live reads and writes of an owner's finalizers before a conflict is left to the queue's retry. */
const FINALIZER_ATTEMPTS = 5;

export interface GarbageCollectorInit extends QueuedControllerInit {
  /** Told of each object it deletes. */
  onCollect?: (kind: string, key: string) => void;
}

type Standing = 'solid' | 'dangling' | 'waiting';
interface Dependent { type: ResourceType; obj: KObject; ref: OwnerReference }

const ownersOf = (o: KObject | undefined) => o?.metadata.ownerReferences ?? [];
/** Queue keys: `<group>/<resource>/<namespace>/<name>`. */
const keyOf = (t: ResourceType, o: KObject) => `${t.group}/${t.resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const terminatingWith = (o: KObject, finalizer: string) => !!o.metadata.deletionTimestamp && (o.metadata.finalizers ?? []).includes(finalizer);
/** An owner the collector has to finish: orphaning, or deleting its dependents first. */
const awaitsCollector = (o: KObject) => terminatingWith(o, ORPHAN) || terminatingWith(o, FOREGROUND);

export class GarbageCollector extends QueuedController {
  readonly #onCollect: GarbageCollectorInit['onCollect'];
  /** Dependents by the uid of an owner they name. */
  readonly #dependents = new Map<string, Set<string>>();
  /** The kinds watched, by `group/resource`. */
  readonly #watched = new Map<string, ResourceType>();
  /** The same kinds by `group/kind`: what an owner reference names (at whatever version). */
  readonly #byKind = new Map<string, ResourceType>();

  constructor(init: GarbageCollectorInit) {
    super('generic-garbage-collector', init, { periodMs: RESYNC_MS, pass: () => this.#rediscover() });
    this.#onCollect = init.onCollect;
    for (const type of RESOURCES.filter(watchable)) this.#watch(type);
  }

  #watch(type: ResourceType): void {
    this.#watched.set(`${type.group}/${type.resource}`, type);
    this.#byKind.set(`${type.group}/${type.kind}`, type);
    this.informers.get(type).on({
      add: (o) => this.#seen(type, undefined, o),
      update: (old, o) => this.#seen(type, old, o),
      delete: (o) => this.#gone(type, o),
    });
  }

  /** Watches the kinds served now that it did not (custom resources defined since), and starts their informers. */
  async #rediscover(): Promise<void> {
    const fresh = (await discoverResources(this.client)).filter((t) => watchable(t) && !this.#watched.has(`${t.group}/${t.resource}`));
    if (fresh.length === 0) return;
    for (const type of fresh) this.#watch(type);
    await this.informers.start();
  }

  /** The watched kind an owner reference names; undefined for a kind the collector does not watch. */
  #kindOf(ref: OwnerReference): ResourceType | undefined {
    return this.#byKind.get(`${groupOf(ref.apiVersion)}/${ref.kind}`);
  }

  #seen(type: ResourceType, old: KObject | undefined, o: KObject): void {
    const key = keyOf(type, o);
    const owners = ownersOf(o);
    for (const ref of ownersOf(old)) if (!owners.some((r) => r.uid === ref.uid)) this.#dependents.get(ref.uid)?.delete(key);
    for (const ref of owners) {
      let set = this.#dependents.get(ref.uid);
      if (!set) this.#dependents.set(ref.uid, (set = new Set()));
      set.add(key);
    }
    if (awaitsCollector(o)) this.queue.add(key);
    // A dependent that changed (a reference dropped or unblocked, deletion begun) may free an owner waiting on it.
    for (const ref of [...ownersOf(old), ...owners]) this.#wakeOwner(ref, o.metadata.namespace);
    // A dependent whose owner the cache does not hold may be an orphan: look.
    if (owners.some((ref) => !this.#cached(ref, o.metadata.namespace))) this.queue.add(key);
  }

  #gone(type: ResourceType, o: KObject): void {
    const uid = o.metadata.uid ?? '';
    const dependents = this.#dependents.get(uid);
    this.#dependents.delete(uid);
    for (const key of dependents ?? []) this.queue.add(key);
    for (const ref of ownersOf(o)) {
      this.#dependents.get(ref.uid)?.delete(keyOf(type, o));
      this.#wakeOwner(ref, o.metadata.namespace);
    }
  }

  /** Queues the owner `ref` names when it waits on the collector. */
  #wakeOwner(ref: OwnerReference, namespace: string | undefined): void {
    const type = this.#kindOf(ref);
    if (!type) return;
    const owner = this.informers.get(type).cache.get(namespaceOf(type, namespace), ref.name);
    if (owner?.metadata.uid === ref.uid && awaitsCollector(owner)) this.queue.add(keyOf(type, owner));
  }

  #cached(ref: OwnerReference, namespace: string | undefined): boolean {
    const type = this.#kindOf(ref);
    if (!type) return true; // an owner of a kind not watched is never judged gone
    const owner = this.informers.get(type).cache.get(namespaceOf(type, namespace), ref.name);
    return owner?.metadata.uid === ref.uid;
  }

  /** The object a queue key names, as the cache holds it. */
  #lookup(key: string): { type: ResourceType; obj: KObject | undefined } {
    const [group, resource, namespace, name] = key.split('/') as [string, string, string, string];
    const type = this.#watched.get(`${group}/${resource}`)!;
    return { type, obj: this.informers.get(type).cache.get(namespaceOf(type, namespace), name) };
  }

  /** The cached objects that still name `owner`, with the reference each holds to it. */
  #dependentsOf(owner: KObject): Dependent[] {
    const out: Dependent[] = [];
    for (const key of this.#dependents.get(owner.metadata.uid ?? '') ?? []) {
      const { type, obj } = this.#lookup(key);
      const ref = ownersOf(obj).find((r) => r.uid === owner.metadata.uid);
      if (obj && ref) out.push({ type, obj, ref });
    }
    return out;
  }

  protected async sync(key: string): Promise<void> {
    const { type, obj } = this.#lookup(key);
    if (!obj) return;
    if (terminatingWith(obj, ORPHAN)) return this.#orphanDependents(type, obj);
    if (terminatingWith(obj, FOREGROUND)) return this.#deleteDependents(type, obj);
    // Being deleted otherwise is a one-way trip: its dependents are looked at once it is gone.
    if (obj.metadata.deletionTimestamp) return;
    return this.#judge(type, obj);
  }

  /** Takes the references to `owner` off its dependents, then its `orphan` finalizer. */
  async #orphanDependents(type: ResourceType, owner: KObject): Promise<void> {
    for (const d of this.#dependentsOf(owner)) {
      const kept = ownersOf(d.obj).filter((r) => r.uid !== owner.metadata.uid);
      // Refused (a newer version exists): the dependent's event for it queues the owner again.
      if (!(await this.#setOwners(d.type, d.obj, kept))) return;
    }
    await this.#removeFinalizer(type, owner, ORPHAN);
  }

  /** Has the dependents of `owner` deleted, and takes its `foregroundDeletion` finalizer off once none blocks it. */
  async #deleteDependents(type: ResourceType, owner: KObject): Promise<void> {
    const dependents = this.#dependentsOf(owner);
    if (!dependents.some((d) => d.ref.blockOwnerDeletion === true)) return this.#removeFinalizer(type, owner, FOREGROUND);
    for (const d of dependents) if (!terminatingWith(d.obj, FOREGROUND)) this.queue.add(keyOf(d.type, d.obj));
  }

  /** A dependent: deleted when no owner of it stands, cut loose from the gone and the waiting ones otherwise. */
  async #judge(type: ResourceType, o: KObject): Promise<void> {
    const owners = ownersOf(o);
    if (owners.length === 0) return;
    const standing = new Map<OwnerReference, Standing>();
    for (const ref of owners) standing.set(ref, await this.#standing(ref, o.metadata.namespace));
    const solid = owners.filter((r) => standing.get(r) === 'solid');
    const waiting = owners.some((r) => standing.get(r) === 'waiting');
    if (solid.length === owners.length) return;
    if (solid.length > 0) {
      // A reference to a waiting owner goes too, or that owner would wait on this object for ever.
      await this.#setOwners(type, o, solid);
      return;
    }
    const dependents = this.#dependentsOf(o);
    if (waiting && dependents.length > 0) {
      if (dependents.some((d) => terminatingWith(d.obj, FOREGROUND)) && !(await this.#unblockOwners(type, o))) return;
      return this.#delete(type, o, 'Foreground');
    }
    // Nothing waits on it: its own finalizer, if an earlier delete left one, says how it goes.
    const policy = (o.metadata.finalizers ?? []).includes(ORPHAN) ? 'Orphan' : (o.metadata.finalizers ?? []).includes(FOREGROUND) ? 'Foreground' : 'Background';
    return this.#delete(type, o, policy);
  }

  /** Whether the owner `ref` names exists (solid), is gone (dangling), or is deleting its dependents first (waiting). */
  async #standing(ref: OwnerReference, namespace: string | undefined): Promise<Standing> {
    const type = this.#kindOf(ref);
    if (!type) return 'solid'; // an owner of a kind not watched is never judged gone
    const cached = this.informers.get(type).cache.get(namespaceOf(type, namespace), ref.name);
    let owner = cached?.metadata.uid === ref.uid ? cached : undefined;
    if (!owner) {
      try {
        owner = await this.client.get(type, namespaceOf(type, namespace), ref.name);
      } catch (e) {
        if (isNotFound(e)) return 'dangling';
        throw e;
      }
      if (owner.metadata.uid !== ref.uid) return 'dangling';
    }
    return terminatingWith(owner, FOREGROUND) ? 'waiting' : 'solid';
  }

  async #delete(type: ResourceType, o: KObject, propagationPolicy: 'Orphan' | 'Foreground' | 'Background'): Promise<void> {
    this.#onCollect?.(type.kind, `${o.metadata.namespace ?? ''}/${o.metadata.name}`);
    const options = { preconditions: { uid: o.metadata.uid }, propagationPolicy };
    await this.#tolerated(() => this.client.delete(type, namespaceOf(type, o.metadata.namespace), o.metadata.name!, options));
  }

  /** Writes `o`'s ownerReferences, only over the version the cache holds; false when that was refused. */
  #setOwners(type: ResourceType, o: KObject, refs: OwnerReference[]): Promise<boolean> {
    const metadata = { uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion, ownerReferences: refs.length > 0 ? refs : null };
    return this.#tolerated(() => this.client.patch(type, namespaceOf(type, o.metadata.namespace), o.metadata.name!, { metadata }, 'merge'));
  }

  /** Stops `o`'s references from blocking its owners' foreground deletion. */
  #unblockOwners(type: ResourceType, o: KObject): Promise<boolean> {
    return this.#setOwners(type, o, ownersOf(o).map((r) => (r.blockOwnerDeletion ? { ...r, blockOwnerDeletion: false } : r)));
  }

  /** Takes `finalizer` off the live object (the cache may be behind), retrying on conflicts. */
  async #removeFinalizer(type: ResourceType, o: KObject, finalizer: string): Promise<void> {
    const namespace = namespaceOf(type, o.metadata.namespace);
    for (let attempt = 1; ; attempt++) {
      let live: KObject;
      try {
        live = await this.client.get(type, namespace, o.metadata.name!);
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      const finalizers = live.metadata.finalizers ?? [];
      if (live.metadata.uid !== o.metadata.uid || !finalizers.includes(finalizer)) return;
      const rest = finalizers.filter((f) => f !== finalizer);
      const metadata = { uid: live.metadata.uid, resourceVersion: live.metadata.resourceVersion, finalizers: rest.length > 0 ? rest : null };
      try {
        await this.client.patch(type, namespace, o.metadata.name!, { metadata }, 'merge');
        return;
      } catch (e) {
        const retry = isConflict(e) && attempt < FINALIZER_ATTEMPTS;
        if (isNotFound(e)) return;
        if (!retry) throw e;
      }
    }
  }

  /** Runs a write; false when the object is gone already or changed meanwhile (its next event brings it back here). */
  async #tolerated(write: () => Promise<unknown>): Promise<boolean> {
    try {
      await write();
      return true;
    } catch (e) {
      if (isNotFound(e) || isConflict(e)) return false;
      throw e;
    }
  }
}

/** The namespace to address an object of `type` by: none for cluster-scoped kinds. */
const namespaceOf = (t: ResourceType, namespace: string | undefined) => (t.scope === 'Namespaced' ? namespace : undefined);
