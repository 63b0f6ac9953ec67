// The objects the Priority, LimitRanger and ResourceQuota plugins read on every pod create:
// PriorityClasses by name, and each namespace's ResourceQuotas and LimitRanges, kept in memory
// from the store's commits as the real plugins read informer caches. A namespace with neither
// costs a pod create two map lookups, never a store read.
import type { ResourceType } from '../../api/resources.ts';
import type { KObject } from '../../api/types.ts';
import { collectionKey } from '../registry/keys.ts';
import type { Store } from '../storage/store.ts';
import { LIMIT_RANGES, RESOURCE_QUOTAS } from '../../api/model/core.ts';
import { PRIORITY_CLASSES } from '../../api/model/scheduling.ts';

/** Objects of one namespaced kind, by namespace, each namespace's sorted by name. */
class ByNamespace {
  readonly #objects = new Map<string, Map<string, KObject>>();
  readonly #sorted = new Map<string, KObject[]>();

  put(obj: KObject, deleted: boolean): void {
    const ns = obj.metadata.namespace ?? '';
    let m = this.#objects.get(ns);
    if (!m) this.#objects.set(ns, (m = new Map()));
    if (deleted) m.delete(obj.metadata.name!);
    else m.set(obj.metadata.name!, obj);
    if (m.size === 0) this.#objects.delete(ns);
    this.#sorted.delete(ns);
  }

  /** The namespace's objects by name, or undefined when it has none. */
  in(namespace: string): readonly KObject[] | undefined {
    let list = this.#sorted.get(namespace);
    if (list) return list;
    const m = this.#objects.get(namespace);
    if (!m) return undefined;
    list = [...m.values()].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    this.#sorted.set(namespace, list);
    return list;
  }
}

export class PolicyObjects {
  readonly #classes = new Map<string, KObject>();
  #globalDefault: KObject | undefined | null = null;
  readonly #quotas = new ByNamespace();
  readonly #limitRanges = new ByNamespace();
  readonly #prefixes: [ResourceType, string][];
  readonly #unsubscribe: () => void;

  constructor(readonly store: Store, keyPrefix: string) {
    this.#prefixes = [PRIORITY_CLASSES, RESOURCE_QUOTAS, LIMIT_RANGES].map((t) => [t, collectionKey(keyPrefix, t, undefined)]);
    this.#unsubscribe = store.onChange((c) => {
      for (const [t, prefix] of this.#prefixes) if (c.key.startsWith(prefix)) return this.#put(t, c.object, c.type === 'DELETED');
    });
  }

  /** Reads what the store holds; changes after come through onChange. */
  async load(): Promise<void> {
    for (const [t, prefix] of this.#prefixes) for (const obj of (await this.store.list(prefix)).items) this.#put(t, obj, false);
  }

  close(): void {
    this.#unsubscribe();
  }

  #put(t: ResourceType, obj: KObject, deleted: boolean): void {
    if (t === RESOURCE_QUOTAS) return this.#quotas.put(obj, deleted);
    if (t === LIMIT_RANGES) return this.#limitRanges.put(obj, deleted);
    if (deleted) this.#classes.delete(obj.metadata.name!);
    else this.#classes.set(obj.metadata.name!, obj);
    this.#globalDefault = null;
  }

  priorityClass(name: string): KObject | undefined {
    return this.#classes.get(name);
  }

  /** The global default class; of several (a race can make two), the one of lowest value. */
  globalDefault(): KObject | undefined {
    if (this.#globalDefault !== null) return this.#globalDefault;
    let found: KObject | undefined;
    for (const pc of this.#classes.values()) {
      const { globalDefault, value = 0 } = pc as { globalDefault?: boolean; value?: number };
      if (globalDefault === true && (!found || ((found as { value?: number }).value ?? 0) > value)) found = pc;
    }
    this.#globalDefault = found;
    return found;
  }

  quotas(namespace: string): readonly KObject[] | undefined {
    return this.#quotas.in(namespace);
  }

  limitRanges(namespace: string): readonly KObject[] | undefined {
    return this.#limitRanges.in(namespace);
  }
}
