// Gap detection for watchers in other processes. The bus may lose messages (a NATS subscriber
// cut off as a slow consumer, a reconnect): every event names, for each scope it belongs to
// (its type, its namespace, the node a pod is bound to), the revision of the previous event in
// that scope. A watcher of one scope that sees a `prev` other than the last revision it holds
// knows it missed something and relists.
import { nodeNameOf } from '../../api/fields.ts';
import type { ResourceType } from '../../api/resources.ts';
import type { KObject } from '../../api/types.ts';

export interface ScopeRequest {
  type: ResourceType;
  namespace?: string;
  /** Pods bound to this node ('' for unbound pods). */
  nodeName?: string;
}

const typeKey = (t: ResourceType) => `${t.group}/${t.resource}`;

/** The scope a watcher follows: the narrowest the event subjects carry. */
export function scopeKey(s: ScopeRequest): string {
  if (s.nodeName !== undefined && s.type.group === '' && s.type.resource === 'pods') return `node/${s.nodeName}`;
  if (s.namespace !== undefined && s.type.scope === 'Namespaced') return `${typeKey(s.type)}/${s.namespace}`;
  return typeKey(s.type);
}


/** A type's scope keys, made once: its own, and one per namespace. */
interface TypeScopes {
  key: string;
  namespaces: Map<string, string>;
}

export class Chains {
  readonly #heads = new Map<string, number>();
  readonly #types = new Map<ResourceType, TypeScopes>();
  readonly #nodes = new Map<string, string>();

  /** Records an event and returns, per scope it belongs to, the revision of the scope's previous event (0: none). */
  link(type: ResourceType, obj: KObject, prev: KObject | undefined, revision: number): Record<string, number> {
    let t = this.#types.get(type);
    if (!t) this.#types.set(type, (t = { key: typeKey(type), namespaces: new Map() }));
    const scopes = [t.key];
    if (type.scope === 'Namespaced') {
      const ns = obj.metadata.namespace ?? '';
      let key = t.namespaces.get(ns);
      if (key === undefined) t.namespaces.set(ns, (key = `${t.key}/${ns}`));
      scopes.push(key);
    }
    if (type.group === '' && type.resource === 'pods') {
      const node = nodeNameOf(obj);
      scopes.push(this.#nodeScope(node));
      if (prev && nodeNameOf(prev) !== node) scopes.push(this.#nodeScope(nodeNameOf(prev)));
    }
    // A dictionary from the start: its keys name nodes and namespaces, and an object literal given
    // them would make V8 build a hidden class per combination met (8 times slower per event).
    const links: Record<string, number> = Object.create(null);
    for (const s of scopes) {
      links[s] = this.#heads.get(s) ?? 0;
      this.#heads.set(s, revision);
    }
    return links;
  }

  #nodeScope(node: string): string {
    let key = this.#nodes.get(node);
    if (key === undefined) this.#nodes.set(node, (key = `node/${node}`));
    return key;
  }

  /** The revision of the newest event published in a scope (0: none yet). */
  head(scope: string): number {
    return this.#heads.get(scope) ?? 0;
  }
}
