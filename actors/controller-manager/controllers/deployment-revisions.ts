// How the Deployment controller numbers revisions and which annotations travel between a
// Deployment and its ReplicaSets, as the real deploymentutil has it:
//
// - The new ReplicaSet (the one holding the Deployment's template) has revision max(old) + 1: a set
//   made for a new template gets it at creation; a set that holds the template again (a rollback,
//   or a template set back by hand) is renumbered to it, its old number appended to
//   `deployment.kubernetes.io/revision-history` (comma separated, the oldest numbers dropped to
//   keep it within 2000 characters). A revision is never lowered: a set already above max(old) + 1
//   (old sets deleted since) keeps its number.
// - The Deployment carries its new set's revision in the same annotation.
// - Every other annotation of the Deployment (`kubernetes.io/change-cause` among them) is copied to
//   its new set, except the ones the controller owns and kubectl's last-applied configuration; none
//   is ever removed from a set.
// - A set made for the Deployment also carries its size: `desired-replicas` and `max-replicas`
//   (replicas + maxSurge); scaling keeps those current (deployment.ts).
import type { KObject } from '../../api/types.ts';
import { DESIRED_REPLICAS, MAX_REPLICAS, REVISION, maxSurge, type DeploymentSpec } from './deployment-rules.ts';

const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
/** The annotation that carried extensions/v1beta1's rollbackTo; never copied. */
const ROLLBACK_TO = 'deprecated.deployment.rollback.to';
/** The real maxRevHistoryLengthInChars. */
const MAX_HISTORY_CHARS = 2000;

/** Annotations a Deployment never hands to its sets. */
const ANNOTATIONS_TO_SKIP: ReadonlySet<string> = new Set([
  'kubectl.kubernetes.io/last-applied-configuration', REVISION, REVISION_HISTORY, DESIRED_REPLICAS, MAX_REPLICAS, ROLLBACK_TO,
]);

/** A set's revision: 0 when it has none, undefined when its annotation is not a number (it is then left out). */
function parsedRevision(rs: KObject): number | undefined {
  const v = rs.metadata.annotations?.[REVISION];
  if (v === undefined) return 0;
  return /^[+-]?\d+$/.test(v) ? Number(v) : undefined;
}

/** The highest revision among the sets (the real MaxRevision), 0 when none has one. */
export function maxRevision(sets: readonly KObject[]): number {
  return sets.reduce((max, rs) => Math.max(max, parsedRevision(rs) ?? 0), 0);
}

/**
 * The new set's annotations after the real SetNewReplicaSetAnnotations: the Deployment's copyable
 * annotations, the revision raised to `newRevision` (the old one kept in the history), and, for a
 * set about to be made (`exists` false), its size. Undefined when nothing changes, or when the
 * set's revision is not a number (the real controller then leaves the set alone).
 */
export function newSetAnnotations(d: KObject, current: Readonly<Record<string, string>>, newRevision: number, exists: boolean): Record<string, string> | undefined {
  const next = { ...current };
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) if (!ANNOTATIONS_TO_SKIP.has(k)) next[k] = v;
  const was = current[REVISION];
  if (was !== undefined && was !== '' && !/^[+-]?\d+$/.test(was)) return undefined;
  const wasNumber = was ? Number(was) : 0;
  if (wasNumber < newRevision) {
    next[REVISION] = String(newRevision);
    if (was !== undefined) appendHistory(next, was);
  }
  if (!exists) {
    const spec = (d.spec ?? {}) as DeploymentSpec;
    const replicas = spec.replicas ?? 1;
    next[DESIRED_REPLICAS] = String(replicas);
    next[MAX_REPLICAS] = String(replicas + maxSurge(spec));
  }
  const changed = Object.keys(next).some((k) => next[k] !== current[k]);
  return changed ? next : undefined;
}

/** Appends `revision` to the history, dropping the oldest entries while it would pass the limit. */
function appendHistory(annotations: Record<string, string>, revision: string): void {
  const history = annotations[REVISION_HISTORY] ?? '';
  if (history === '') {
    annotations[REVISION_HISTORY] = revision;
    return;
  }
  const entries = history.split(',');
  let length = history.length + revision.length + 1;
  let start = 0;
  while (length > MAX_HISTORY_CHARS && start < entries.length) length -= entries[start++]!.length + 1;
  // An entry longer than the limit alone cannot be appended: the real controller logs and skips it.
  if (length <= MAX_HISTORY_CHARS) annotations[REVISION_HISTORY] = [...entries.slice(start), revision].join(',');
}
