// The subject scheme of watch events on the bus. Every change of an object is published on
// its object subject; a pod's change is also published on the subject of the node it is (or
// was) bound to, so a node agent watching `spec.nodeName=N` receives only its own pods' events:
// the cost of an event grows with the watchers it matches, not with all watchers.
//
//   orch.w.<group>.<resource>.o.<namespace>.<name>   every event (namespace `_` for cluster scope)
//   orch.w.core.pods.n.<node>                         pods bound to <node> before or after the change (`_`: unbound)
//   orch.w.progress                                   the newest revision, published in order after its events
//
// Secrets' subjects (orch.w.core.secrets.…) carry their metadata only; whole Secrets stay on a bus
// inside the API server's process.
import { nodeNameOf } from '../../api/fields.ts';
import type { ResourceType } from '../../api/resources.ts';
import type { KObject } from '../../api/types.ts';
import type { ChangeRecord } from '../storage/store.ts';

export const PROGRESS_SUBJECT = 'orch.w.progress';
const NONE = '_';

/** Subject tokens may not hold `.`, `*`, `>` or spaces: escape everything but [A-Za-z0-9-] as %XX. */
export function token(s: string): string {
  if (s === '') return NONE;
  return s.replace(/[^A-Za-z0-9-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

const bases = new WeakMap<ResourceType, string>();

function base(type: ResourceType): string {
  let b = bases.get(type);
  if (b === undefined) bases.set(type, (b = `orch.w.${token(type.group || 'core')}.${token(type.resource)}`));
  return b;
}

/**
 * Tokens of namespaces and node names, which repeat on every event (object names do not). The
 * table starts over past its bound, as shared strings do.
 */
const repeated = new Map<string, string>();
const REPEATED_MAX = 65_536;

function repeatedToken(s: string): string {
  let t = repeated.get(s);
  if (t === undefined) {
    if (repeated.size >= REPEATED_MAX) repeated.clear();
    repeated.set(s, (t = token(s)));
  }
  return t;
}

const isPods = (type: ResourceType) => type.group === '' && type.resource === 'pods';

/**
 * Kinds whose contents never travel on the bus: Secrets. Their whole events go to the API
 * server's own watchers on a bus of its process alone (Fanout, WatchHub); the bus carries their
 * metadata only (`metadataOnly`), which is what watchers elsewhere (the garbage collector, the
 * namespace controller) read of them, as the real ones use metadata informers.
 */
export const isPrivate = (type: ResourceType) => type.group === '' && type.resource === 'secrets';
const PRIVATE_PREFIX = 'orch.w.core.secrets.';
export const isPrivateSubject = (subject: string) => subject.startsWith(PRIVATE_PREFIX);

/** A private kind's change as the bus carries it: both states as metadata only. */
export const redacted = (c: ChangeRecord): ChangeRecord => ({ ...c, object: metadataOnly(c.object), ...(c.prev ? { prev: metadataOnly(c.prev) } : {}) });

/** What of a private kind's object the bus carries: identity, labels, owners and lifecycle; no data, no annotations (last-applied holds the data). */
export function metadataOnly(obj: KObject): KObject {
  const m = obj.metadata;
  const kept: KObject['metadata'] = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds',
    'labels', 'ownerReferences', 'finalizers'] as const)
    if (m[k] !== undefined) (kept as Record<string, unknown>)[k] = m[k];
  return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: kept };
}

/** Where a change is published. */
export function eventSubjects(type: ResourceType, obj: KObject, prev?: KObject): string[] {
  const ns = type.scope === 'Namespaced' ? repeatedToken(obj.metadata.namespace ?? '') : NONE;
  const subjects = [`${base(type)}.o.${ns}.${token(obj.metadata.name ?? '')}`];
  if (isPods(type)) {
    const now = nodeNameOf(obj);
    subjects.push(`${base(type)}.n.${repeatedToken(now)}`);
    if (prev && nodeNameOf(prev) !== now) subjects.push(`${base(type)}.n.${repeatedToken(nodeNameOf(prev))}`);
  }
  return subjects;
}

export interface WatchScope {
  namespace?: string;
  name?: string;
  /** For pods: the value of a `spec.nodeName=` field selector term. */
  nodeName?: string;
}

/** The one subject (pattern) a watcher of this scope subscribes to. */
export function watchSubject(type: ResourceType, scope: WatchScope): string {
  if (isPods(type) && scope.nodeName !== undefined) return `${base(type)}.n.${token(scope.nodeName)}`;
  const ns = type.scope === 'Namespaced' ? (scope.namespace !== undefined ? token(scope.namespace) : '*') : NONE;
  const name = scope.name !== undefined ? token(scope.name) : '*';
  return `${base(type)}.o.${ns}.${name}`;
}
