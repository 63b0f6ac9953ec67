// The rules of the Deployment controller that are pure functions of its objects: the template
// hash, maxSurge and maxUnavailable, proportional scaling, the progress deadline, the ReplicaSets'
// annotations and the status conditions, as the real controller's deploymentutil has them.
import type { KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { DeploymentCondition } from '../../api/model/apps.ts';

export const TEMPLATE_HASH = 'pod-template-hash';
export const REVISION = 'deployment.kubernetes.io/revision';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
export const DEFAULT_PROGRESS_DEADLINE_S = 600;
/** progressDeadlineSeconds at the int32 maximum means no deadline (the real HasProgressDeadline). */
export const NO_DEADLINE_S = 2 ** 31 - 1;

export type Rec = Record<string, unknown>;
export interface DeploymentSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] };
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Rec };
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}
export interface SetStatus {
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
}
export interface Counts {
  observedGeneration: number;
  replicas: number;
  updatedReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  unavailableReplicas: number;
}

/**
 * Keys sorted, so equal templates give equal text. A field holding null is left out, as absent:
 * the real controller compares decoded objects, where a null field is its zero value (a template
 * patched back by `kubectl rollout undo` carries `creationTimestamp: null`).
 */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => (value as Rec)[k] !== null).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Rec)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * A short name-safe hash of a pod template: FNV-1a over its canonical JSON, its decimal digits
 * mapped to the real alphabet without vowels (as rand.SafeEncodeString does).
 */
export function templateHash(template: unknown): string {
  let h = 0x811c9dc5;
  const text = canonical(template);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return [...String(h)].map((c) => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}

/** An int-or-percent of `total`: percentages round up for maxSurge and down for maxUnavailable. */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean, fallback: string): number {
  const value = v ?? fallback;
  if (typeof value === 'number') return value;
  const percent = Number(value.replace(/%$/, ''));
  const exact = (percent * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** maxSurge and maxUnavailable, never both 0 (the real ResolveFenceposts). */
export function fenceposts(d: DeploymentSpec, replicas: number): { surge: number; unavailable: number } {
  const ru = d.strategy?.rollingUpdate;
  const surge = scaledValue(ru?.maxSurge, replicas, true, '25%');
  let unavailable = scaledValue(ru?.maxUnavailable, replicas, false, '25%');
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export const isRolling = (spec: DeploymentSpec) => spec.strategy?.type !== 'Recreate';
/** The real MaxSurge: 0 for Recreate. */
export const maxSurge = (spec: DeploymentSpec) => (isRolling(spec) ? fenceposts(spec, spec.replicas ?? 1).surge : 0);

/** The progress deadline in ms, or undefined when the Deployment has none. */
export function progressDeadlineMs(spec: DeploymentSpec): number | undefined {
  const seconds = spec.progressDeadlineSeconds ?? DEFAULT_PROGRESS_DEADLINE_S;
  return seconds === NO_DEADLINE_S ? undefined : seconds * 1000;
}

/**
 * How many replicas of `toAdd` (negative: to remove) a set gets, given `added` so far: its share of
 * replicas + maxSurge by its size over the size it had at its last scaling (the real GetProportion).
 */
export function proportion(setReplicas: number, maxReplicas: number | undefined, replicas: number, surge: number, toAdd: number, added: number): number {
  if (setReplicas === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (replicas === 0) fraction = -setReplicas;
  else if (!maxReplicas) fraction = 0;
  else fraction = Math.round((setReplicas * (replicas + surge)) / maxReplicas) - setReplicas;
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

export const specOf = (rs: KObject) => (rs.spec ?? {}) as { replicas?: number; template?: DeploymentSpec['template'] };
export const statusOf = (rs: KObject) => (rs.status ?? {}) as SetStatus;
export const replicasOf = (rs: KObject) => specOf(rs).replicas ?? 0;
export const annotationOf = (rs: KObject, key: string) => {
  const v = rs.metadata.annotations?.[key];
  return v === undefined || !/^\d+$/.test(v) ? undefined : Number(v);
};
export const sum = (sets: KObject[], f: (rs: KObject) => number) => sets.reduce((n, rs) => n + f(rs), 0);
export const byAge = (a: KObject, b: KObject) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || cacheKey(a).localeCompare(cacheKey(b));
export const CONDITION_ORDER = ['Available', 'Progressing', 'ReplicaFailure'];

/**
 * Sets `c` among `conditions` as the real SetDeploymentCondition: unchanged when its status and
 * reason are, its transition time kept while its status is, stamped `now` otherwise.
 */
export function setCondition(conditions: DeploymentCondition[], c: DeploymentCondition, now: string): DeploymentCondition[] {
  const was = conditions.find((x) => x.type === c.type);
  if (was && was.status === c.status && was.reason === c.reason) return conditions;
  return putCondition(conditions, { ...c, lastUpdateTime: now, lastTransitionTime: was && was.status === c.status ? was.lastTransitionTime : now });
}

/** `c` in place of the condition of its type, the conditions in a stable order. */
export function putCondition(conditions: DeploymentCondition[], c: DeploymentCondition): DeploymentCondition[] {
  return [...conditions.filter((x) => x.type !== c.type), c].sort((a, b) => CONDITION_ORDER.indexOf(a.type) - CONDITION_ORDER.indexOf(b.type));
}
export const progressingOf = (conditions: DeploymentCondition[]) => conditions.find((c) => c.type === 'Progressing');
