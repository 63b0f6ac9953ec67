// How the replica count the metrics propose becomes the one written, as the real controller
// normalizes it (kubernetes pkg/controller/podautoscaler/horizontal.go, 1.32). Each autoscaler has
// a memory: its recent unstabilized recommendations and, with a behavior, its recent scale events.
//
// - Without `behavior`: the highest recommendation within --horizontal-pod-autoscaler-downscale-stabilization
//   (stabilizeRecommendation), then clamped to [minReplicas, maxReplicas] and to a scale-up of at most
//   max(2 × current, 4) (convertDesiredReplicasWithRules).
// - With `behavior`: the recommendation kept between the lowest within scaleUp's window and the highest
//   within scaleDown's (a scaleDown without a window takes the flag's), then limited by the policies
//   over the replicas added and removed in each policy's period (selectPolicy Max, Min or Disabled).
// Each returns the conditions the real one sets: AbleToScale's reason and ScalingLimited's.
// Times are compared as Go's Before/After do (strictly), so a sample exactly at a cutoff counts as the real one counts it.
import type { HorizontalPodAutoscalerBehavior, HPAScalingRules } from 'kubernetes-types/autoscaling/v2.js';

export interface ScaleEvent {
  /** Replicas added (or removed), never negative. */
  change: number;
  atMs: number;
  outdated: boolean;
}

/** An autoscaler's memory between syncs; the functions here update it in place, as the real controller's maps are. */
export interface ScalingMemory {
  recommendations: { replicas: number; atMs: number }[];
  scaleUps: ScaleEvent[];
  scaleDowns: ScaleEvent[];
}

export interface ConditionValue {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export interface Normalized {
  replicas: number;
  ableToScale: ConditionValue;
  scalingLimited: ConditionValue;
}

/** The bounds a normalization works within. */
export interface Bounds {
  current: number;
  desired: number;
  min: number;
  max: number;
}

const READY = { status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' } as const;
const DOWN_STABILIZED = { status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' } as const;
const UP_STABILIZED = { status: 'True', reason: 'ScaleUpStabilized', message: 'recent recommendations were lower than current one, applying the lowest recent recommendation' } as const;
const WITHIN = { reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' };
const UP_LIMIT = { reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
const TOO_MANY = { reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
const DOWN_LIMIT = { reason: 'ScaleDownLimit', message: 'the desired replica count is decreasing faster than the maximum scale rate' };
const TOO_FEW = { reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' };

export const newMemory = (): ScalingMemory => ({ recommendations: [], scaleUps: [], scaleDowns: [] });

/** The target's replicas count as a recommendation from the first sync on (recordInitialRecommendation). */
export function recordInitialRecommendation(memory: ScalingMemory, current: number, nowMs: number): void {
  if (memory.recommendations.length === 0) memory.recommendations.push({ replicas: current, atMs: nowMs });
}

/** Replaces the oldest-found outdated recommendation with `replicas`, or adds it. */
function record(memory: ScalingMemory, old: number, replicas: number, nowMs: number): void {
  if (old >= 0) memory.recommendations[old] = { replicas, atMs: nowMs };
  else memory.recommendations.push({ replicas, atMs: nowMs });
}

const limited = (replicas: number, stabilized: number, limit: { reason: string; message: string }): ConditionValue =>
  ({ status: replicas === stabilized ? 'False' : 'True', ...limit });

/** Without a behavior (normalizeDesiredReplicas). */
export function normalize(memory: ScalingMemory, nowMs: number, downscaleWindowMs: number, b: Bounds): Normalized {
  const cutoff = nowMs - downscaleWindowMs;
  let stabilized = b.desired, old = -1;
  memory.recommendations.forEach((r, i) => {
    if (r.atMs < cutoff) old = i;
    else if (r.replicas > stabilized) stabilized = r.replicas;
  });
  record(memory, old, b.desired, nowMs);
  const ableToScale = stabilized !== b.desired ? DOWN_STABILIZED : READY;
  const scaleUpLimit = Math.trunc(Math.max(2 * b.current, 4));
  const [maximum, limit] = b.max > scaleUpLimit ? [scaleUpLimit, UP_LIMIT] : [b.max, TOO_MANY];
  const [replicas, reason] = stabilized < b.min ? [b.min, TOO_FEW] : stabilized > maximum ? [maximum, limit] : [stabilized, WITHIN];
  return { replicas, ableToScale, scalingLimited: limited(replicas, stabilized, reason) };
}

/** The behavior's rules, a scaleDown without a window taking the flag's (maybeInitScaleDownStabilizationWindow). */
function windows(behavior: HorizontalPodAutoscalerBehavior, downscaleWindowMs: number): { upMs: number; downMs: number } {
  const up = behavior.scaleUp?.stabilizationWindowSeconds ?? 0;
  const down = behavior.scaleDown?.stabilizationWindowSeconds ?? Math.trunc(downscaleWindowMs / 1000);
  return { upMs: up * 1000, downMs: down * 1000 };
}

/** The recommendation kept within the windows' lowest and highest (stabilizeRecommendationWithBehaviors). */
function stabilize(memory: ScalingMemory, nowMs: number, w: { upMs: number; downMs: number }, b: Bounds) {
  const upCutoff = nowMs - w.upMs, downCutoff = nowMs - w.downMs;
  let up = b.desired, down = b.desired, old = -1;
  memory.recommendations.forEach((r, i) => {
    if (r.atMs > upCutoff) up = Math.min(r.replicas, up);
    if (r.atMs > downCutoff) down = Math.max(r.replicas, down);
    if (r.atMs < upCutoff && r.atMs < downCutoff) old = i;
  });
  const recommendation = Math.min(Math.max(b.current, up), down);
  record(memory, old, b.desired, nowMs);
  return { recommendation, condition: b.desired >= b.current ? UP_STABILIZED : DOWN_STABILIZED };
}

/** The replicas changed by `events` within `periodSeconds` before now (getReplicasChangePerPeriod). */
function changeInPeriod(periodSeconds: number, events: readonly ScaleEvent[], nowMs: number): number {
  const cutoff = nowMs - periodSeconds * 1000;
  let sum = 0;
  for (const e of events) if (e.atMs > cutoff) sum += e.change;
  return sum;
}

/** The most replicas (up) or the fewest (down) the policies allow now (calculateScaleUpLimitWithScalingRules, calculateScaleDownLimitWithBehaviors). */
export function policyLimit(direction: 'up' | 'down', current: number, memory: ScalingMemory, rules: HPAScalingRules, nowMs: number): number {
  const select = rules.selectPolicy ?? 'Max';
  if (select === 'Disabled') return current;
  // Up, Max picks the most replicas; down, Max picks the fewest (the largest change).
  const most = (direction === 'up') === (select !== 'Min');
  let result = most ? -(2 ** 31) : 2 ** 31 - 1;
  for (const p of rules.policies ?? []) {
    const start = current - changeInPeriod(p.periodSeconds, memory.scaleUps, nowMs) + changeInPeriod(p.periodSeconds, memory.scaleDowns, nowMs);
    let proposed: number;
    if (direction === 'up') proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    else proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    result = most ? Math.max(result, proposed) : Math.min(result, proposed);
  }
  return result;
}

/** The policies' rate applied to the stabilized recommendation (convertDesiredReplicasWithBehaviorRate). */
function rate(memory: ScalingMemory, nowMs: number, behavior: HorizontalPodAutoscalerBehavior, b: Bounds): [number, { reason: string; message: string }] {
  if (b.desired > b.current) {
    const limit = Math.max(policyLimit('up', b.current, memory, behavior.scaleUp ?? {}, nowMs), b.current);
    const [maximum, why] = b.max > limit ? [limit, UP_LIMIT] : [b.max, TOO_MANY];
    if (b.desired > maximum) return [maximum, why];
  } else if (b.desired < b.current) {
    const limit = Math.min(policyLimit('down', b.current, memory, behavior.scaleDown ?? {}, nowMs), b.current);
    const [minimum, why] = b.min < limit ? [limit, DOWN_LIMIT] : [b.min, TOO_FEW];
    if (b.desired < minimum) return [minimum, why];
  }
  return [b.desired, WITHIN];
}

/** With a behavior (normalizeDesiredReplicasWithBehaviors). */
export function normalizeWithBehavior(memory: ScalingMemory, nowMs: number, behavior: HorizontalPodAutoscalerBehavior, downscaleWindowMs: number, b: Bounds): Normalized {
  const { recommendation, condition } = stabilize(memory, nowMs, windows(behavior, downscaleWindowMs), b);
  const ableToScale = recommendation !== b.desired ? condition : READY;
  const [replicas, reason] = rate(memory, nowMs, behavior, { ...b, desired: recommendation });
  return { replicas, ableToScale, scalingLimited: limited(replicas, recommendation, reason) };
}

const longestPeriod = (rules: HPAScalingRules | undefined) => Math.max(0, ...(rules?.policies ?? []).map((p) => p.periodSeconds));

/** A rescale remembered for the policies' periods, reusing an outdated slot (storeScaleEvent); none without a behavior. */
export function storeScaleEvent(memory: ScalingMemory, behavior: HorizontalPodAutoscalerBehavior | undefined, from: number, to: number, nowMs: number): void {
  if (!behavior) return;
  const up = to > from;
  const events = up ? memory.scaleUps : memory.scaleDowns;
  const cutoff = nowMs - longestPeriod(up ? behavior.scaleUp : behavior.scaleDown) * 1000;
  let old = -1;
  events.forEach((e, i) => {
    if (e.atMs < cutoff) e.outdated = true;
    if (e.outdated) old = i;
  });
  const event = { change: Math.abs(to - from), atMs: nowMs, outdated: false };
  if (old >= 0) events[old] = event;
  else events.push(event);
}
