// The real cluster state registry's rules over time: a scale-up times out at the first loop
// strictly after max-node-provision-time; a failed group is backed off 5m, doubled by each failure
// after the last backoff ended up to 30m, forgotten 3h after its last failure or when a scale-up
// of it completes; a machine with no Node is long unregistered after max-node-provision-time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ClusterState, type GroupSight } from '../../../actors/cluster-autoscaler/cluster-state.ts';
import { clusterAutoscalerOptions } from '../../../actors/cluster-autoscaler/options.ts';

const M = 60_000;
const state = () => new ClusterState(clusterAutoscalerOptions());
const sight = (instances: string[], ready: number, target = instances.length): GroupSight => ({ id: 'g', target, instances, ready });
const none = () => false;
const TIMEOUT = { errorCode: 'timeout', errorMessage: 'Scale-up timed out' };

test('the default flags are the real ones: 15m to provision, backoff 5m to 30m, reset after 3h', () => {
  const o = clusterAutoscalerOptions();
  assert.equal([o.maxNodeProvisionTimeMs, o.initialNodeGroupBackoffMs, o.maxNodeGroupBackoffMs, o.nodeGroupBackoffResetTimeoutMs], [15 * M, 5 * M, 30 * M, 180 * M]);
});

test('a scale-up whose node never registers times out at the first loop strictly after max-node-provision-time, not before', () => {
  const s = state();
  s.scaleUp('g', 0);
  assert.equal(s.update(15 * M, [sight(['g-1'], 0)], none), [], 'exactly at the expected time it still waits');
  assert.equal(s.update(15 * M + 10_000, [sight(['g-1'], 0)], none), [{ groupId: 'g', afterMs: 15 * M + 10_000 }]);
  assert.equal(s.update(15 * M + 20_000, [sight(['g-1'], 0)], none), [], 'told once');
});

test('a further scale-up of the group moves its expected time on', () => {
  const s = state();
  s.scaleUp('g', 0);
  s.scaleUp('g', 10 * M);
  assert.equal(s.update(20 * M, [sight(['g-1', 'g-2'], 0)], none), []);
  assert.equal(s.update(25 * M + 1, [sight(['g-1', 'g-2'], 0)], none), [{ groupId: 'g', afterMs: 25 * M + 1 }], 'measured from the first request');
});

test('backoff: 5m, not lengthened by a failure during it, then doubled up to 30m by each failure after it ended', () => {
  const s = state();
  s.failed('g', 0, TIMEOUT);
  assert.equal(s.backoff('g', 5 * M - 1), TIMEOUT);
  assert.is(s.backoff('g', 5 * M), undefined, 'over at 5m');
  s.failed('g', 2 * M, TIMEOUT);
  assert.is(s.backoff('g', 7 * M), undefined, 'a failure during the backoff keeps its duration: 2m + 5m');
  let at = 8 * M;
  for (const minutes of [10, 20, 30, 30]) {
    s.failed('g', at, TIMEOUT);
    assert.ok(s.backoff('g', at + minutes * M - 1), `${minutes}m`);
    assert.is(s.backoff('g', at + minutes * M), undefined, `not longer than ${minutes}m`);
    at += minutes * M + 1;
  }
});

test('backoff is forgotten 3h after the last failure, and when a scale-up of the group completes', () => {
  const s = state();
  s.failed('g', 0, TIMEOUT);
  s.failed('g', 6 * M, TIMEOUT); // 10m
  s.update(6 * M + 180 * M + 1, [sight([], 0)], none);
  s.failed('g', 200 * M, TIMEOUT);
  assert.is(s.backoff('g', 205 * M), undefined, 'back to 5m after the reset');
  s.scaleUp('g', 201 * M);
  s.failed('g', 201 * M, TIMEOUT);
  s.update(202 * M, [sight(['g-1'], 1)], () => true);
  assert.is(s.backoff('g', 202 * M), undefined, 'the group got its nodes: backoff removed');
});

test('a machine with no Node is unregistered from the first loop that sees it, long unregistered after max-node-provision-time, and not upcoming then', () => {
  const s = state();
  s.update(10_000, [sight(['g-1'], 0)], none);
  assert.equal(s.unregistered('g').long, []);
  assert.is(s.upcoming(sight(['g-1'], 0)), 1);
  s.update(15 * M + 10_000, [sight(['g-1'], 0)], none);
  assert.equal(s.unregistered('g').long, [], 'exactly 15m: not yet');
  s.update(15 * M + 20_000, [sight(['g-1'], 0)], none);
  assert.equal(s.unregistered('g').long, ['g-1']);
  assert.is(s.upcoming(sight(['g-1'], 0)), 0);
  s.update(15 * M + 30_000, [sight([], 0, 0)], none);
  assert.equal(s.unregistered('g').long, [], 'gone from the cloud: forgotten');
});

test.run();
