// Which garbage-collector finalizers a delete leaves on its object, as the real store's deletion
// does (generic registry `deletionFinalizersForGarbageCollection`): `orphan` asks the collector to
// take the ownerReferences to the object off its dependents before it goes; `foregroundDeletion`
// asks it to delete the dependents first. Background (and a kind's default) asks for neither: the
// object goes at once and the collector deletes its dependents afterwards.
//
// What decides, highest first: the request's orphanDependents, then its propagationPolicy, then
// the finalizer the object already carries from an earlier delete, then the kind's default. A
// later delete may so swap one finalizer for the other, or take both off (Background).
import type { ResourceType } from '../../api/resources.ts';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export interface PropagationOptions {
  propagationPolicy?: string;
  /** Deprecated by propagationPolicy; never set together with it. */
  orphanDependents?: boolean;
}

/**
 * What a delete does to dependents when it names no policy. Every served group version deletes
 * them (in the background), events excepted: they are never garbage collected, so deletes of them
 * neither add nor keep these finalizers. (Orphan is the default only for versions not served
 * here: extensions/v1beta1 and apps/v1beta2 ReplicaSets, core/v1 ReplicationControllers.)
 */
type DefaultPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';
const DEFAULTS: Record<string, DefaultPolicy> = { '/events': 'Unsupported', 'events.k8s.io/events': 'Unsupported' };
const defaultPolicy = (type: ResourceType): DefaultPolicy => DEFAULTS[`${type.group}/${type.resource}`] ?? 'DeleteDependents';

/** The GC finalizer an earlier delete left, the first in the list when (invalidly) both are. */
const earlier = (finalizers: readonly string[]) => finalizers.find((f) => f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER);

function shouldOrphan(type: ResourceType, finalizers: readonly string[], opts: PropagationOptions): boolean {
  const fallback = defaultPolicy(type);
  if (fallback === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return opts.orphanDependents;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Orphan';
  const kept = earlier(finalizers);
  return kept ? kept === ORPHAN_FINALIZER : fallback === 'OrphanDependents';
}

function shouldDeleteInForeground(type: ResourceType, finalizers: readonly string[], opts: PropagationOptions): boolean {
  if (defaultPolicy(type) === 'Unsupported') return false;
  if (opts.orphanDependents !== undefined) return false;
  if (opts.propagationPolicy) return opts.propagationPolicy === 'Foreground';
  return earlier(finalizers) === FOREGROUND_FINALIZER;
}

/**
 * The finalizers the object should carry after this delete, or undefined when they stay as they
 * are. The other finalizers keep their order; the one asked for is appended.
 */
export function propagationFinalizers(type: ResourceType, finalizers: readonly string[] = [], opts: PropagationOptions): string[] | undefined {
  const next = finalizers.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (shouldOrphan(type, finalizers, opts)) next.push(ORPHAN_FINALIZER);
  if (shouldDeleteInForeground(type, finalizers, opts)) next.push(FOREGROUND_FINALIZER);
  const before = new Set(finalizers);
  const after = new Set(next);
  const same = after.size === before.size && [...after].every((f) => before.has(f));
  return same ? undefined : next;
}
