// Hosts one CustomResourceDefinition machine (machines/custom-resource-definition.ts) per
// definition in the store, as `crd/<name>`, and does what it asks, as the real API server's
// in-process apiextensions controllers do: tells it whether the definition's names are free of
// other definitions' (crd/ computeNames), serves its types in the catalogue and writes NamesAccepted and Established, and,
// once it is being deleted, deletes its objects, then removes the cleanup finalizer. It follows
// the definitions through the store's commits, so a definition serves from the moment it is
// established, in this process, on the server's clock.
import { fromPromise, type Actor } from 'xstate';
import { timestamp } from '../../api/env.ts';
import { lookupResource } from '../../api/resources.ts';
import { isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { customResourceDefinitionMachine } from '../../../machines/custom-resource-definition.ts';
import type { ActorSystem } from '../../system/actor-system.ts';
import { actorIds } from '../../system/ids.ts';
import type { Catalogue } from '../catalogue.ts';
import { collectionKey } from '../registry/keys.ts';
import { CLEANUP_FINALIZER } from '../registry/kinds/custom-resource-definition.ts';
import type { Registry } from '../registry/registry.ts';
import { fields, list } from '../registry/tables-format.ts';
import { computeNames, type CustomResourceDefinition } from '../crd/index.ts';
import { customTypes } from './custom-types.ts';

export const CRDS = lookupResource('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!;

/** The real controllers requeue with back-off; 5 s is the finalizer's poll between checks. */
const RETRY_MS = 5_000;
const MANAGER = 'kube-apiserver';

type Condition = { type: string; status: string; reason: string; message: string; lastTransitionTime?: string };

export class CustomResourceDefinitions {
  readonly #actors = new Map<string, Actor<typeof customResourceDefinitionMachine>>();
  /** Each definition as the store last had it. */
  readonly #seen = new Map<string, KObject>();
  #unsubscribe: (() => void) | undefined;

  constructor(readonly registry: Registry, readonly catalogue: Catalogue, readonly system: ActorSystem) {}

  /** Follows the definitions from now on, then takes those already stored. */
  async start(): Promise<void> {
    const env = this.registry.env;
    const prefix = collectionKey(env.keyPrefix, CRDS, undefined);
    this.#unsubscribe = env.store.onChange((c) => {
      if (!c.key.startsWith(prefix)) return;
      if (c.type === 'DELETED') this.#gone(c.object.metadata.name!);
      else this.#observe(c.object);
    });
    for (const crd of (await this.registry.list(CRDS, undefined, {})).items) this.#observe(crd);
  }

  stop(): void {
    this.#unsubscribe?.();
    for (const actor of this.#actors.values()) actor.stop();
    this.#actors.clear();
  }

  #observe(crd: KObject): void {
    const name = crd.metadata.name!;
    const before = this.#seen.get(name);
    this.#seen.set(name, crd);
    const actor = this.#actors.get(name) ?? this.#host(name);
    if (crd.metadata.deletionTimestamp) {
      // Still served for reads and deletes while its objects go, but no longer for creates.
      if (this.catalogue.owned(name).length > 0) this.catalogue.define(name, customTypes(crd, true));
      return void actor.send({ type: 'DELETING' });
    }
    if (before && before.metadata.generation !== crd.metadata.generation) actor.send({ type: 'SPEC_CHANGED' });
    this.#checkNames(crd);
  }

  /** What the naming controller makes of `crd`'s names, beside every other definition. */
  #naming(crd: KObject) {
    return computeNames(crd as unknown as CustomResourceDefinition, [...this.#seen.values()] as unknown as CustomResourceDefinition[]);
  }

  /** Tells the machine whether `crd`'s names are free of the other definitions'. */
  #checkNames(crd: KObject): void {
    this.#actors.get(crd.metadata.name!)?.send({ type: 'NAMES', accepted: this.#naming(crd).namesAccepted.status === 'True' });
  }

  #gone(name: string): void {
    this.#seen.delete(name);
    this.catalogue.define(name, []);
    const actor = this.#actors.get(name);
    this.#actors.delete(name);
    actor?.send({ type: 'GONE' });
    actor?.stop();
    // A definition whose names clashed with this one's may have them now.
    for (const crd of this.#seen.values()) if (!crd.metadata.deletionTimestamp) this.#checkNames(crd);
  }

  #host(name: string): Actor<typeof customResourceDefinitionMachine> {
    const machine = customResourceDefinitionMachine.provide({
      actions: { reject: () => void this.#writeNaming(name).catch(reportFailure(name)) },
      actors: {
        establish: fromPromise(() => this.#establish(name)),
        deleteInstances: fromPromise(() => this.#deleteInstances(name)),
        finalize: fromPromise(() => this.#finalize(name)),
      },
    });
    const actor = this.system.host(machine, { id: actorIds.crd(name), input: { name, retryMs: RETRY_MS } });
    this.#actors.set(name, actor);
    actor.start();
    return actor;
  }

  async #establish(name: string): Promise<void> {
    const crd = await this.registry.get(CRDS, undefined, name);
    if (crd.metadata.deletionTimestamp) return;
    this.catalogue.define(name, customTypes(crd, false));
    await this.#writeNaming(name);
  }

  /** Writes what the naming and establishing controllers conclude of the definition's names. */
  async #writeNaming(name: string): Promise<void> {
    await this.#writeStatus(name, (status, crd) => {
      const naming = this.#naming(crd);
      return { ...status, acceptedNames: naming.acceptedNames,
        conditions: withConditions(list(status.conditions) as Condition[], this.#now(), [naming.namesAccepted as Condition, naming.established as Condition]) };
    });
  }

  /** Deletes every object of the definition's resource, whatever version it was written at; fails while some remain. */
  async #deleteInstances(name: string): Promise<void> {
    const stored = this.catalogue.owned(name).find((d) => d.storage)?.type;
    if (!stored) return;
    await this.#terminatingCondition(name, 'InstanceDeletionInProgress', 'CustomResource deletion is in progress');
    const { items } = await this.registry.list(stored, undefined, {});
    for (const obj of items) {
      try {
        await this.registry.delete(stored, obj.metadata.namespace, obj.metadata.name!, { dryRun: false, propagationPolicy: 'Background' });
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
    const left = (await this.registry.list(stored, undefined, { limit: 1 })).items.length;
    if (left > 0) throw new Error(`${left} ${stored.resource} remain`);
  }

  async #finalize(name: string): Promise<void> {
    await this.#terminatingCondition(name, 'InstanceDeletionCompleted', 'removed all instances');
    await this.registry.update(CRDS, undefined, name, (crd) => {
      const finalizers = (crd!.metadata.finalizers ?? []).filter((f) => f !== CLEANUP_FINALIZER);
      return { ...crd!, metadata: { ...crd!.metadata, finalizers } };
    }, { dryRun: false, fieldManager: MANAGER });
  }

  #terminatingCondition(name: string, reason: string, message: string): Promise<void> {
    return this.#writeStatus(name, (status) => ({ ...status,
      conditions: withConditions(list(status.conditions) as Condition[], this.#now(), [{ type: 'Terminating', status: 'True', reason, message }]) }));
  }

  async #writeStatus(name: string, next: (status: Record<string, unknown>, crd: KObject) => Record<string, unknown>): Promise<void> {
    await this.registry.update(CRDS, undefined, name, (crd) => ({ ...crd!, status: next(fields(crd!.status), crd!) }),
      { dryRun: false, fieldManager: MANAGER, subresource: 'status' });
  }

  #now(): string {
    return timestamp(this.registry.env.clock.now());
  }
}

/** A status write that failed is logged: the next change of the definition writes it again. */
const reportFailure = (name: string) => (e: unknown) => {
  if (!isNotFound(e)) console.error(`customresourcedefinition ${name}: ${(e as Error).message}`);
};

/** `conditions` with each of `set` in place of its type's, its transition time kept while its status stays. */
function withConditions(conditions: Condition[], now: string, set: Condition[]): Condition[] {
  const out = [...conditions];
  for (const c of set) {
    const i = out.findIndex((o) => o.type === c.type);
    const old = i >= 0 ? out[i] : undefined;
    const lastTransitionTime = old && old.status === c.status ? old.lastTransitionTime ?? now : now;
    const updated = { type: c.type, status: c.status, lastTransitionTime, reason: c.reason, message: c.message };
    if (i >= 0) out[i] = updated;
    else out.push(updated);
  }
  return out;
}

