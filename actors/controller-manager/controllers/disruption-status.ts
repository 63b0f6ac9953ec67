// What the disruption controller computes for a budget from its pods, as the real one does:
//
// - desiredHealthy: maxUnavailable (an integer, or a percentage of the expected pods rounded up)
//   taken from the expected pods, never below 0; else minAvailable as an integer (the expected
//   pods are then simply the pods selected) or as a percentage of the expected pods, rounded up.
// - disruptedPods: the pods an eviction approved that are not yet being deleted, kept until
//   DeletionTimeout after their approval; the earliest such deadline is when to look again.
// - currentHealthy: the Ready pods not being deleted and not awaited in disruptedPods.
// - disruptionsAllowed: currentHealthy - desiredHealthy, 0 when negative or no pods are expected.
import { setCondition } from '../../api/conditions.ts';
import {
  budgetStatus, conditionsUpToDate, DELETION_TIMEOUT_MS, DISRUPTION_ALLOWED, SYNC_FAILED, withDisruptionAllowedCondition,
  type PodDisruptionBudgetSpec, type PodDisruptionBudgetStatus,
} from '../../api/disruption-budget.ts';
import { timestamp } from '../../api/env.ts';
import { isReady } from '../../api/fields.ts';
import type { KObject } from '../../api/types.ts';

export interface Counts {
  expected: number;
  desired: number;
}

/** intstr.GetScaledValueFromIntOrPercent, with its errors. */
export function scaledIntOrPercent(v: number | string, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const fail = (why: string) => new Error(`invalid value for IntOrString: ${why}`);
  if (!v.endsWith('%')) throw fail('invalid type: string is not a percentage');
  const digits = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) throw fail(`invalid value ${JSON.stringify(v)}: strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax`);
  const exact = (Number(digits) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/**
 * The expected and desired healthy pods of `spec` over `pods`; `expectedScale` is asked only when
 * the spec needs the pods' controllers (getExpectedPodCount).
 */
export async function expectedCounts(spec: PodDisruptionBudgetSpec, pods: readonly KObject[],
  expectedScale: () => Promise<{ expected: number; unmanaged: string[] }>): Promise<Counts & { unmanaged: string[] }> {
  if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
    const { expected, unmanaged } = await expectedScale();
    const desired = Math.max(0, expected - scaledIntOrPercent(spec.maxUnavailable, expected, true));
    return { expected, desired, unmanaged };
  }
  if (typeof spec.minAvailable === 'number') return { expected: pods.length, desired: spec.minAvailable, unmanaged: [] };
  if (typeof spec.minAvailable === 'string') {
    const { expected, unmanaged } = await expectedScale();
    return { expected, desired: scaledIntOrPercent(spec.minAvailable, expected, true), unmanaged };
  }
  return { expected: 0, desired: 0, unmanaged: [] };
}

const deadlineOf = (approved: string) => (Date.parse(approved) || 0) + DELETION_TIMEOUT_MS;

/**
 * The disruptedPods entries still awaited at `nowMs` (buildDisruptedPodMap), the pods whose
 * deletion never came, and when the next entry runs out. An entry runs out at its deadline
 * itself, so that a recheck due now is never scheduled again at the same instant.
 */
export function awaitedDisruptions(pods: readonly KObject[], disrupted: Record<string, string> | undefined, nowMs: number):
  { awaited: Record<string, string>; notDeleted: KObject[]; recheckAtMs: number | undefined } {
  const awaited: Record<string, string> = {};
  const notDeleted: KObject[] = [];
  let recheckAtMs: number | undefined;
  if (!disrupted) return { awaited, notDeleted, recheckAtMs };
  for (const pod of pods) {
    const approved = pod.metadata.deletionTimestamp ? undefined : disrupted[pod.metadata.name!];
    if (approved === undefined) continue;
    const deadline = deadlineOf(approved);
    if (deadline <= nowMs) notDeleted.push(pod);
    else {
      awaited[pod.metadata.name!] = approved;
      recheckAtMs = Math.min(recheckAtMs ?? deadline, deadline);
    }
  }
  return { awaited, notDeleted, recheckAtMs };
}

/** Ready pods neither being deleted nor awaited as disrupted (countHealthyPods). */
export function countHealthy(pods: readonly KObject[], awaited: Record<string, string>): number {
  let healthy = 0;
  for (const pod of pods) if (!pod.metadata.deletionTimestamp && awaited[pod.metadata.name!] === undefined && isReady(pod)) healthy++;
  return healthy;
}

const sameMap = (a: Record<string, string> | undefined, b: Record<string, string>) => {
  const keys = Object.keys(a ?? {});
  return keys.length === Object.keys(b).length && keys.every((k) => a![k] === b[k]);
};

/** The status to write, or undefined when the stored one already says it all (updatePdbStatus). */
export function computedStatus(pdb: KObject, counts: Counts, healthy: number, awaited: Record<string, string>, nowMs: number): PodDisruptionBudgetStatus | undefined {
  const old = budgetStatus(pdb);
  const allowed = counts.expected <= 0 ? 0 : Math.max(0, healthy - counts.desired);
  const generation = pdb.metadata.generation ?? 0;
  if (old.currentHealthy === healthy && old.desiredHealthy === counts.desired && old.expectedPods === counts.expected
    && old.disruptionsAllowed === allowed && sameMap(old.disruptedPods, awaited) && (old.observedGeneration ?? 0) === generation && conditionsUpToDate(pdb))
    return undefined;
  const status: PodDisruptionBudgetStatus = {
    ...(generation ? { observedGeneration: generation } : {}), ...(Object.keys(awaited).length ? { disruptedPods: awaited } : {}),
    disruptionsAllowed: allowed, currentHealthy: healthy, desiredHealthy: counts.desired, expectedPods: counts.expected,
    ...(old.conditions ? { conditions: old.conditions } : {}),
  };
  return withDisruptionAllowedCondition(status, timestamp(nowMs));
}

/** What a failed sync writes (failSafe): no disruptions allowed, the DisruptionAllowed condition saying why. */
export function failSafeStatus(pdb: KObject, message: string, nowMs: number): PodDisruptionBudgetStatus {
  const old = budgetStatus(pdb);
  const conditions = setCondition(old.conditions ?? [], { type: DISRUPTION_ALLOWED, status: 'False', reason: SYNC_FAILED, message,
    ...(old.observedGeneration ? { observedGeneration: old.observedGeneration } : {}) }, timestamp(nowMs));
  return { ...old, disruptionsAllowed: 0, conditions };
}
