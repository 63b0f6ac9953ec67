// How a kind's wire shape (kubernetes-types: TypeScript declarations of the real API, nothing at
// run time) becomes the shape the store, the caches and every actor hold: our ObjectMeta, any
// apiVersion and kind (the store writes them), a status that the registry and controllers may set,
// and still a KObject, so that generic code (the registry, the watch, the caches) takes it as is.
import { lookupResource, type ResourceType } from '../resources.ts';
import type { KObject } from '../types.ts';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

export type Stored<T> = Omit<Writable<T>, 'metadata' | 'apiVersion' | 'kind'> & KObject;

/**
 * The resource of the table (`api/resources.ts`) whose objects have the shape `T`: clients and
 * informers given it return `T`. The one place where a resource is matched to its type.
 */
export function typedResource<T extends KObject>(group: string, version: string, resource: string): ResourceType<T> {
  const type = lookupResource(group, version, resource);
  if (!type) throw new Error(`no resource ${resource} in ${group || 'core'}/${version}`);
  return type as ResourceType<T>;
}
