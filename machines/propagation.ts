// Which garbage-collector finalizers a delete leaves on its object, as the real store's deletion
// does (generic registry `deletionFinalizersForGarbageCollection`): `orphan` asks the collector to
// take the ownerReferences to the object off its dependents before it goes; `foregroundDeletion`
// asks it to delete the dependents first. Background (and a kind's default) asks for neither: the
// object goes at once and the collector deletes its dependents afterwards.
//
// What decides, highest first: the request's orphanDependents, then its propagationPolicy, then
// the finalizer the object already carries from an earlier delete, then the kind's default. A
// later delete may so swap one finalizer for the other, or take both off (Background).
//
// The object machine (object.ts) asks these while it decides a delete; they allocate only when
// the finalizers change, since the machine asks before it commits to anything.
import type { ResourceType } from '../actors/api/resources.ts';

const ORPHAN = 'orphan';
const FOREGROUND = 'foregroundDeletion';

/** What a delete asks of the object's dependents. */
export interface PropagationRequest {
  /** The object's resource, which decides the default. */
  readonly resource: Pick<ResourceType, 'group' | 'resource'>;
  /** Orphan, Background or Foreground. */
  readonly propagationPolicy?: string | undefined;
  /** The deprecated form of the policy (true: Orphan); never set together with it. */
  readonly orphanDependents?: boolean | undefined;
}

/**
 * What a delete does to dependents when it names no policy. Every served group version deletes
 * them (in the background), but batch/v1 Jobs, which orphan their pods for compatibility (kubectl
 * asks for Background), and events: they are never garbage collected, so deletes of them neither
 * add nor keep these finalizers. (Orphan is the default otherwise only for versions not served
 * here: extensions/v1beta1 and apps/v1beta2 ReplicaSets, core/v1 ReplicationControllers.)
 */
type DefaultPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';
const DEFAULTS: Record<string, DefaultPolicy> = { '/events': 'Unsupported', 'events.k8s.io/events': 'Unsupported', 'batch/jobs': 'OrphanDependents' };
const defaultPolicy = (r: PropagationRequest['resource']): DefaultPolicy => DEFAULTS[`${r.group}/${r.resource}`] ?? 'DeleteDependents';

const isPolicyFinalizer = (f: string) => f === ORPHAN || f === FOREGROUND;

/** The GC finalizer an earlier delete left, the first in the list when (invalidly) both are. */
const earlier = (finalizers: readonly string[]) => finalizers.find(isPolicyFinalizer);

function orphans(finalizers: readonly string[], req: PropagationRequest): boolean {
  const fallback = defaultPolicy(req.resource);
  if (fallback === 'Unsupported') return false;
  if (req.orphanDependents !== undefined) return req.orphanDependents;
  if (req.propagationPolicy) return req.propagationPolicy === 'Orphan';
  const kept = earlier(finalizers);
  return kept ? kept === ORPHAN : fallback === 'OrphanDependents';
}

function deletesInForeground(finalizers: readonly string[], req: PropagationRequest): boolean {
  if (defaultPolicy(req.resource) === 'Unsupported') return false;
  if (req.orphanDependents !== undefined) return false;
  if (req.propagationPolicy) return req.propagationPolicy === 'Foreground';
  return earlier(finalizers) === FOREGROUND;
}

/** The delete adds or takes off a policy finalizer (a reorder is no change). */
export function propagationChanges(finalizers: readonly string[], req: PropagationRequest): boolean {
  return orphans(finalizers, req) !== finalizers.includes(ORPHAN) || deletesInForeground(finalizers, req) !== finalizers.includes(FOREGROUND);
}

/** Some finalizer is left on the object after the delete: one of its own, or the policy's. */
export function finalizersRemain(finalizers: readonly string[], req: PropagationRequest): boolean {
  return finalizers.some((f) => !isPolicyFinalizer(f)) || orphans(finalizers, req) || deletesInForeground(finalizers, req);
}

/**
 * The finalizers after the delete: `finalizers` itself when they stay as they are; otherwise the
 * others in their order, then the one asked for.
 */
export function propagate(finalizers: readonly string[], req: PropagationRequest): readonly string[] {
  if (!propagationChanges(finalizers, req)) return finalizers;
  const next = finalizers.filter((f) => !isPolicyFinalizer(f));
  if (orphans(finalizers, req)) next.push(ORPHAN);
  if (deletesInForeground(finalizers, req)) next.push(FOREGROUND);
  return next;
}
