// Where objects live in the store: /registry/<group>/<resource>/[<namespace>/]<name>. Keys of one
// resource share a prefix, and of one namespace a longer one, so lists are range reads.
import type { ResourceType } from '../../api/resources.ts';

export const DEFAULT_PREFIX = '/registry';

/** What a key is made of: a type's group, resource and scope (whether or not this server serves it). */
export type KeyedType = Pick<ResourceType, 'group' | 'resource' | 'scope'>;

export function objectKey(prefix: string, type: KeyedType, namespace: string | undefined, name: string): string {
  return type.scope === 'Namespaced' ? `${collectionKey(prefix, type, namespace)}${name}` : `${collectionKey(prefix, type, undefined)}${name}`;
}

/** The prefix of a collection: one namespace's, or every namespace's when `namespace` is undefined. */
export function collectionKey(prefix: string, type: KeyedType, namespace: string | undefined): string {
  const base = `${prefix}/${type.group || 'core'}/${type.resource}/`;
  return namespace !== undefined && type.scope === 'Namespaced' ? `${base}${namespace}/` : base;
}
