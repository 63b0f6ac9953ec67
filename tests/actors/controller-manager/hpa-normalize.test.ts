// How a proposed count becomes the written one, worked by hand from the real controller's rules
// (horizontal.go, 1.32): the downscale stabilization window and the scale-up limit without a
// behavior; with one, the windows of both directions and the policies over their periods; and the
// AbleToScale and ScalingLimited reasons each sets.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { HorizontalPodAutoscalerBehavior } from 'kubernetes-types/autoscaling/v2.js';
import { newMemory, normalize, normalizeWithBehavior, recordInitialRecommendation, storeScaleEvent } from '../../../actors/controller-manager/controllers/hpa-normalize.ts';

const T0 = 1_000_000;
const WINDOW = 300_000;

test('without a behavior a scale-up is at most twice the current count, and at least to 4', () => {
  const up = normalize(newMemory(), T0, WINDOW, { current: 1, desired: 10, min: 1, max: 10 });
  assert.is(up.replicas, 4);
  assert.equal(up.scalingLimited, { status: 'True', reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' });
  assert.equal(up.ableToScale, { status: 'True', reason: 'ReadyForNewScale', message: 'recommended size matches current size' });
  const capped = normalize(newMemory(), T0, WINDOW, { current: 3, desired: 10, min: 1, max: 5 });
  assert.is(capped.replicas, 5, 'maxReplicas 5 is below the limit of 6');
  assert.equal(capped.scalingLimited, { status: 'True', reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' });
  const within = normalize(newMemory(), T0, WINDOW, { current: 3, desired: 4, min: 1, max: 5 });
  assert.equal([within.replicas, within.scalingLimited], [4, { status: 'False', reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' }]);
});

test('without a behavior a scale-down waits for the highest recommendation of the window, the current count among them from the first sync', () => {
  const memory = newMemory();
  recordInitialRecommendation(memory, 3, T0);
  const early = normalize(memory, T0 + 15_000, WINDOW, { current: 3, desired: 1, min: 1, max: 5 });
  assert.is(early.replicas, 3);
  assert.equal(early.ableToScale, { status: 'True', reason: 'ScaleDownStabilized', message: 'recent recommendations were higher than current one, applying the highest recent recommendation' });
  assert.equal(early.scalingLimited.status, 'False', 'the stabilized count is not limited');
  assert.is(normalize(memory, T0 + WINDOW, WINDOW, { current: 3, desired: 1, min: 1, max: 5 }).replicas, 3, 'a recommendation exactly a window old still counts');
  const late = normalize(memory, T0 + WINDOW + 1, WINDOW, { current: 3, desired: 1, min: 1, max: 5 });
  assert.equal([late.replicas, late.ableToScale.reason], [1, 'ReadyForNewScale']);
  assert.equal(memory.recommendations.map((r) => r.replicas), [1, 1, 1], 'the outdated one replaced, not added to');
});

test('a count below minReplicas is raised to it', () => {
  const n = normalize(newMemory(), T0, WINDOW, { current: 3, desired: 0, min: 2, max: 5 });
  assert.equal([n.replicas, n.scalingLimited], [2, { status: 'True', reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' }]);
});

/** The defaults the API server writes into a behavior's scaleUp. */
const DEFAULT_UP = { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] };

test('with a behavior a scale-up is limited by the policy that allows most over its period, counting the replicas already added in it', () => {
  const behavior: HorizontalPodAutoscalerBehavior = { scaleUp: DEFAULT_UP, scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] } };
  const memory = newMemory();
  recordInitialRecommendation(memory, 2, T0);
  // From 2: 4 pods more is 6, 100% more is 4: Max picks 6.
  const first = normalizeWithBehavior(memory, T0, behavior, WINDOW, { current: 2, desired: 20, min: 1, max: 30 });
  assert.equal([first.replicas, first.scalingLimited.reason, first.scalingLimited.status], [6, 'ScaleUpLimit', 'True']);
  storeScaleEvent(memory, behavior, 2, 6, T0);
  // 10 s later the period began at 2 replicas: still 6 at most.
  assert.is(normalizeWithBehavior(memory, T0 + 10_000, behavior, WINDOW, { current: 6, desired: 20, min: 1, max: 30 }).replicas, 6);
  // 16 s later the period begins at 6: 10 by pods, 12 by percent.
  assert.is(normalizeWithBehavior(memory, T0 + 16_000, behavior, WINDOW, { current: 6, desired: 20, min: 1, max: 30 }).replicas, 12);
});

test('with a behavior a scale-down waits for its window, the flag\'s when it sets none, then goes as its policies allow', () => {
  const down = { selectPolicy: 'Min', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }, { type: 'Percent', value: 50, periodSeconds: 60 }] };
  const unset: HorizontalPodAutoscalerBehavior = { scaleUp: DEFAULT_UP, scaleDown: down };
  const memory = newMemory();
  recordInitialRecommendation(memory, 10, T0);
  const held = normalizeWithBehavior(memory, T0 + 15_000, unset, WINDOW, { current: 10, desired: 2, min: 1, max: 10 });
  assert.equal([held.replicas, held.ableToScale.reason], [10, 'ScaleDownStabilized'], 'the 5 minute window of the flag holds it');
  const now: HorizontalPodAutoscalerBehavior = { scaleUp: DEFAULT_UP, scaleDown: { ...down, stabilizationWindowSeconds: 0 } };
  // Min picks the smaller change: 1 pod (to 9) rather than 50% (to 5).
  const limited = normalizeWithBehavior(newMemory(), T0, now, WINDOW, { current: 10, desired: 2, min: 1, max: 10 });
  assert.equal([limited.replicas, limited.scalingLimited.reason], [9, 'ScaleDownLimit']);
  const disabled = normalizeWithBehavior(newMemory(), T0, { scaleUp: DEFAULT_UP, scaleDown: { ...down, stabilizationWindowSeconds: 0, selectPolicy: 'Disabled' } }, WINDOW,
    { current: 10, desired: 2, min: 1, max: 10 });
  assert.is(disabled.replicas, 10, 'Disabled: no scale-down at all');
});

test('a scale-up window keeps the lowest recent recommendation', () => {
  const behavior: HorizontalPodAutoscalerBehavior = { scaleUp: { ...DEFAULT_UP, stabilizationWindowSeconds: 60 }, scaleDown: { selectPolicy: 'Max', stabilizationWindowSeconds: 0, policies: [] } };
  const memory = newMemory();
  recordInitialRecommendation(memory, 2, T0);
  const n = normalizeWithBehavior(memory, T0 + 15_000, behavior, WINDOW, { current: 2, desired: 5, min: 1, max: 10 });
  assert.equal([n.replicas, n.ableToScale.reason], [2, 'ScaleUpStabilized']);
  assert.is(normalizeWithBehavior(memory, T0 + 61_000, behavior, WINDOW, { current: 2, desired: 5, min: 1, max: 10 }).replicas, 5, 'the 2 has left the window');
});

test.run();
