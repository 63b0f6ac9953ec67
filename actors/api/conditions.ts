// metav1.Condition, the condition of the newer kinds (PodDisruptionBudget among them), and how
// apimachinery's meta helpers set one: FindStatusCondition and SetStatusCondition.

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  /** Left out when 0, as the real JSON omits it. */
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export function findCondition(conditions: readonly Condition[] | undefined, type: string): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * `conditions` with `c` set, as SetStatusCondition sets it: a new type is appended with `now` as
 * its transition time; an existing one keeps its place, and its transition time unless its status
 * changes. Returns the same array when nothing changed.
 */
export function setCondition(conditions: readonly Condition[], c: Omit<Condition, 'lastTransitionTime'>, now: string): Condition[] {
  const at = conditions.findIndex((x) => x.type === c.type);
  const generation = c.observedGeneration ? { observedGeneration: c.observedGeneration } : {};
  const next: Condition = { type: c.type, status: c.status, ...generation, lastTransitionTime: now, reason: c.reason, message: c.message };
  if (at < 0) return [...conditions, next];
  const old = conditions[at]!;
  if (old.status === c.status && old.reason === c.reason && old.message === c.message && (old.observedGeneration ?? 0) === (c.observedGeneration ?? 0))
    return conditions as Condition[];
  if (old.status === c.status) next.lastTransitionTime = old.lastTransitionTime;
  return conditions.map((x, i) => (i === at ? next : x));
}
