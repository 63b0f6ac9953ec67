// A workload's pod templates kept as ControllerRevisions, as the DaemonSet and StatefulSet
// controllers keep them (the real pkg/controller/history):
//
// - A revision is named `<owner>-<hash>`: the hash of its template, and of the collision count
//   once that count is above 0. It carries the template's labels plus `controller-revision-hash:
//   <hash>`, is controlled by the owner, holds `{ spec: { template } }` as its `data`, and has a
//   `revision` one above the owner's newest.
// - A revision is found by its data. One holding the current template that is not the newest is
//   given the next number, which is what a rollback looks like.
// - A name already taken by a revision with other data is a hash collision: the collision count
//   goes up and the next name is tried. The owner keeps that count in its status.
// - Revisions not in use, counted lowest number first, beyond revisionHistoryLimit are deleted.
//   Which revisions are in use is the owner's call: the ones its pods are labelled with, and its
//   current and update revisions.
import { isAlreadyExists, isConflict, isNotFound } from '../../api/status.ts';
import type { KObject, OwnerReference } from '../../api/types.ts';
import type { ApiClient } from '../../client/client.ts';
import type { ObjectCache } from '../../client/cache.ts';
import { templateHash } from './deployment-rules.ts';
import { CONTROLLER_REVISIONS } from '../../api/model/apps.ts';

export const REVISION_HASH = 'controller-revision-hash';
/** At most this many names are tried before a create gives up (the real loop has no bound). */
const MAX_COLLISIONS = 100;

type Rec = Record<string, unknown>;
export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] };
  spec?: Rec;
}

export const revisionNumber = (r: KObject): number => (r as { revision?: number }).revision ?? 0;
/** The pod template a revision holds. */
export const revisionTemplate = (r: KObject): PodTemplate => (r as { data?: { spec?: { template?: PodTemplate } } }).data?.spec?.template ?? {};

/** The reference a workload puts on what it controls (its pods, its revisions). */
export const controllerRef = (owner: KObject, kind: string): OwnerReference =>
  ({ apiVersion: 'apps/v1', kind, name: owner.metadata.name!, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true });

/** The revisions `owner` controls, lowest number first (ties by name). */
export function ownedRevisions(cache: ObjectCache, owner: KObject): KObject[] {
  return cache.inNamespace(owner.metadata.namespace ?? '')
    .filter((r) => (r.metadata.ownerReferences ?? []).some((ref) => ref.controller && ref.uid === owner.metadata.uid))
    .sort((a, b) => revisionNumber(a) - revisionNumber(b) || (a.metadata.name! < b.metadata.name! ? -1 : 1));
}

/** The hash naming a template's revision; the collision count changes it once above 0. */
export function revisionHash(template: PodTemplate, collisionCount = 0): string {
  return templateHash(collisionCount > 0 ? { template, collisionCount } : template);
}

export interface SyncedRevision {
  /** The revision holding the current template (the update revision). */
  revision: KObject;
  collisionCount: number;
}

/**
 * Makes sure a revision holds `template` and is the newest: made, or an old one renumbered.
 * `revisions` are the owner's, as `ownedRevisions` gives them.
 */
export async function syncRevision(client: ApiClient, owner: KObject, kind: string, template: PodTemplate, revisions: KObject[], collisionCount = 0): Promise<SyncedRevision> {
  const data = { spec: { template } };
  const next = Math.max(0, ...revisions.map(revisionNumber)) + 1;
  const equal = revisions.filter((r) => sameData((r as { data?: unknown }).data, data));
  const mine = equal.at(-1);
  if (mine && mine === revisions.at(-1)) return { revision: mine, collisionCount };
  if (mine) {
    const renumbered = await client.patch(CONTROLLER_REVISIONS, mine.metadata.namespace, mine.metadata.name!, { revision: next }, 'merge').catch(lostRace);
    return { revision: renumbered ?? { ...mine, revision: next } as KObject, collisionCount };
  }
  for (let attempt = 0; attempt < MAX_COLLISIONS; attempt++, collisionCount++) {
    const hash = revisionHash(template, collisionCount);
    const revision = { metadata: { name: `${owner.metadata.name}-${hash}`, namespace: owner.metadata.namespace,
      labels: { ...template.metadata?.labels, [REVISION_HASH]: hash }, ownerReferences: [controllerRef(owner, kind)] }, data, revision: next } as unknown as KObject;
    try {
      return { revision: await client.create(CONTROLLER_REVISIONS, revision), collisionCount };
    } catch (e) {
      if (!(isAlreadyExists(e) || isConflict(e))) throw e;
    }
    // The name is taken: by this very template (a cache that has not caught up), or a collision.
    const taken = await client.get(CONTROLLER_REVISIONS, owner.metadata.namespace, revision.metadata.name!).catch(lostRace);
    if (taken && sameData((taken as { data?: unknown }).data, data)) return { revision: taken, collisionCount };
  }
  throw new Error(`${kind} ${owner.metadata.namespace}/${owner.metadata.name}: no free ControllerRevision name after ${MAX_COLLISIONS} hash collisions`);
}

/** Deletes the revisions not `live`, lowest number first, beyond `limit` of them. */
export async function truncateHistory(client: ApiClient, revisions: KObject[], live: (r: KObject) => boolean, limit: number): Promise<void> {
  const history = revisions.filter((r) => !live(r)).sort((a, b) => revisionNumber(a) - revisionNumber(b));
  for (const old of history.slice(0, Math.max(0, history.length - limit)))
    await client.delete(CONTROLLER_REVISIONS, old.metadata.namespace, old.metadata.name!, { preconditions: { uid: old.metadata.uid } }).catch(lostRace);
}

/** Equal JSON trees, whatever their keys' order. */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameData(x, b[i]));
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Rec)[k] !== undefined), kb = Object.keys(b).filter((k) => (b as Rec)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameData((a as Rec)[k], (b as Rec)[k]));
}

/** A write that lost a race (the object is gone, or changed): the next event settles it. */
function lostRace(e: unknown): undefined {
  if (isNotFound(e) || isConflict(e)) return undefined;
  throw e;
}
