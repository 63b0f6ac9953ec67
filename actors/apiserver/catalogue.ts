// The types one API server serves: the built-in resource table (actors/api/resources.ts) and the
// types its CustomResourceDefinitions add while it runs. Routing, discovery, OpenAPI, the watch
// fan-out and the bus read types here, so a type a definition adds or takes away is seen by all of
// them at once. Types are grouped by their owner (a definition's name): an owner's types are
// replaced together, and objects of a resource are stored under one key prefix whatever version
// they are served at (registry/keys.ts), so the storage type of a group and resource is one.
import { groupVersion, groupVersions, lookupKind, lookupResource, RESOURCES, type ResourceType } from '../api/resources.ts';
import { defineKindOf } from './registry/kinds/index.ts';
import type { Json } from '../api/types.ts';
import type { Kind } from './registry/kind.ts';

/** A type defined at run time, with the rules of its kind. */
export interface DefinedType {
  type: ResourceType;
  kind: Kind;
  /** The version whose type objects of this group and resource are stored as. */
  storage: boolean;
  /** The OpenAPI v3 component schemas of the kind and its List, by name. */
  openapi?: { [name: string]: Json };
}

export class Catalogue {
  /** `group/version/resource` of every type defined at run time. */
  readonly #byPath = new Map<string, ResourceType>();
  /** `apiVersion/kind`. */
  readonly #byKind = new Map<string, ResourceType>();
  /** `group/resource` → the type objects are stored as: the built-in type, or a definition's storage version. */
  readonly #stored = new Map<string, ResourceType>(RESOURCES.map((t) => [`${t.group}/${t.resource}`, t]));
  readonly #owned = new Map<string, readonly DefinedType[]>();
  readonly #definitions = new WeakMap<ResourceType, DefinedType>();
  #all: readonly ResourceType[] = RESOURCES;
  #groupVersions: readonly { group: string; version: string }[] = groupVersions();
  readonly #listeners = new Set<() => void>();
  /** Grows with every change of the defined types: caches of what is served compare it. */
  generation = 0;

  lookup(group: string, version: string, resource: string): ResourceType | undefined {
    return lookupResource(group, version, resource) ?? this.#byPath.get(`${group}/${version}/${resource}`);
  }

  lookupKind(apiVersion: string, kind: string): ResourceType | undefined {
    return lookupKind(apiVersion, kind) ?? this.#byKind.get(`${apiVersion}/${kind}`);
  }

  /** The type objects of `group`/`resource` are stored as, whatever version they were written at. */
  storedType(group: string, resource: string): ResourceType | undefined {
    return this.#stored.get(`${group}/${resource}`);
  }

  /** Every served type: the built-in table, then the defined types in the order they were defined. */
  all(): readonly ResourceType[] {
    return this.#all;
  }

  /** Served group versions, in the order discovery lists them: built-in first; a group's preferred version first. */
  groupVersions(): readonly { group: string; version: string }[] {
    return this.#groupVersions;
  }

  /** How a type defined at run time was defined; undefined for a built-in type. */
  definedType(t: ResourceType): DefinedType | undefined {
    return this.#definitions.get(t);
  }

  /** The types `owner` defines now. */
  owned(owner: string): readonly DefinedType[] {
    return this.#owned.get(owner) ?? [];
  }

  /** Replaces the types `owner` defines (none: it defines nothing any more). */
  define(owner: string, types: readonly DefinedType[]): void {
    for (const d of this.owned(owner)) this.#forget(d.type);
    if (types.length === 0) this.#owned.delete(owner);
    else this.#owned.set(owner, types);
    for (const d of types) {
      const t = d.type;
      this.#byPath.set(`${t.group}/${t.version}/${t.resource}`, t);
      this.#byKind.set(`${groupVersion(t.group, t.version)}/${t.kind}`, t);
      if (d.storage) this.#stored.set(`${t.group}/${t.resource}`, t);
      defineKindOf(t, d.kind);
      this.#definitions.set(t, d);
    }
    this.#rebuild();
  }

  /** Calls `listener` after every change of the defined types; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #forget(t: ResourceType): void {
    this.#byPath.delete(`${t.group}/${t.version}/${t.resource}`);
    this.#byKind.delete(`${groupVersion(t.group, t.version)}/${t.kind}`);
    if (this.#stored.get(`${t.group}/${t.resource}`) === t) this.#stored.delete(`${t.group}/${t.resource}`);
  }

  #rebuild(): void {
    const defined = [...this.#owned.values()].flat().map((d) => d.type);
    this.#all = [...RESOURCES, ...defined];
    const byGroup = new Map<string, Set<string>>();
    for (const t of defined) {
      let versions = byGroup.get(t.group);
      if (!versions) byGroup.set(t.group, (versions = new Set()));
      versions.add(t.version);
    }
    this.#groupVersions = [...groupVersions(),
      ...[...byGroup].flatMap(([group, versions]) => [...versions].sort(byVersionPriority).map((version) => ({ group, version })))];
    this.generation++;
    for (const l of this.#listeners) l();
  }
}

const VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Kubernetes' version order (apimachinery version.CompareKubeAwareVersionStrings): GA before beta
 * before alpha, higher numbers first, then versions that do not look like one, alphabetically.
 */
export function byVersionPriority(a: string, b: string): number {
  const rank = (v: string): [number, number, number] | undefined => {
    const m = VERSION.exec(v);
    if (!m) return undefined;
    return [m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, Number(m[1]), Number(m[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  if (ra && rb) return rb[0] - ra[0] || rb[1] - ra[1] || rb[2] - ra[2];
  if (ra) return -1;
  if (rb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
