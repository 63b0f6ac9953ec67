// PodDisruptionBudget (policy/v1): the spec users write, the status the disruption controller
// computes and the eviction subresource spends, and the rules both share (the real
// component-helpers/apps/poddisruptionbudget): the DisruptionAllowed condition follows
// disruptionsAllowed, and a pod an eviction approved stays out of the healthy count for
// DeletionTimeout while its deletion is awaited.
import { findCondition, setCondition, type Condition } from './conditions.ts';
import type { KObject } from './types.ts';

export interface PodDisruptionBudgetSpec {
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  /** A LabelSelector: absent selects no pods, `{}` every pod of the namespace. */
  selector?: unknown;
  /** IfHealthyBudget when absent. */
  unhealthyPodEvictionPolicy?: string;
}

export interface PodDisruptionBudgetStatus {
  observedGeneration?: number;
  /** Pod name → when an eviction of it was approved (RFC 3339). */
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: Condition[];
}

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';
export const SUFFICIENT_PODS = 'SufficientPods';
export const INSUFFICIENT_PODS = 'InsufficientPods';
export const SYNC_FAILED = 'SyncFailed';
export const ALWAYS_ALLOW = 'AlwaysAllow';

/** How long an approved eviction keeps its pod out of currentHealthy before the controller gives up on its deletion (DeletionTimeout). */
export const DELETION_TIMEOUT_MS = 2 * 60_000;

export const budgetSpec = (pdb: KObject): PodDisruptionBudgetSpec => (pdb.spec ?? {}) as PodDisruptionBudgetSpec;

/** The status as stored, its counts 0 where absent (as Go reads them). */
export function budgetStatus(pdb: KObject): PodDisruptionBudgetStatus {
  const s = (pdb.status ?? {}) as Partial<PodDisruptionBudgetStatus>;
  return { ...s, disruptionsAllowed: s.disruptionsAllowed ?? 0, currentHealthy: s.currentHealthy ?? 0, desiredHealthy: s.desiredHealthy ?? 0, expectedPods: s.expectedPods ?? 0 };
}

/** `status` with its DisruptionAllowed condition set from disruptionsAllowed (UpdateDisruptionAllowedCondition). */
export function withDisruptionAllowedCondition(status: PodDisruptionBudgetStatus, now: string): PodDisruptionBudgetStatus {
  const allowed = status.disruptionsAllowed > 0;
  const conditions = setCondition(status.conditions ?? [], {
    type: DISRUPTION_ALLOWED, status: allowed ? 'True' : 'False', reason: allowed ? SUFFICIENT_PODS : INSUFFICIENT_PODS, message: '',
    ...(status.observedGeneration ? { observedGeneration: status.observedGeneration } : {}),
  }, now);
  return { ...status, conditions };
}

/** Whether the condition says what disruptionsAllowed says, for the PDB's current generation (ConditionsAreUpToDate). */
export function conditionsUpToDate(pdb: KObject): boolean {
  const status = budgetStatus(pdb);
  const c = findCondition(status.conditions, DISRUPTION_ALLOWED);
  if (!c || (status.observedGeneration ?? 0) !== (pdb.metadata.generation ?? 0)) return false;
  return status.disruptionsAllowed > 0 ? c.status === 'True' && c.reason === SUFFICIENT_PODS : c.status === 'False' && c.reason === INSUFFICIENT_PODS;
}
