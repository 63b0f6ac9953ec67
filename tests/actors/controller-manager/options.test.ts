// The controller manager's options: seed 001's defaults, and a clear error for each bad value.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { controllerEnabled, controllerManagerOptions } from '../../../actors/controller-manager/options.ts';
import { tolerationMs } from '../../../actors/controller-manager/controllers/taint-eviction.ts';

test('defaults are the seed\'s', () => {
  const o = controllerManagerOptions();
  assert.equal([o.nodeMonitorPeriodMs, o.nodeMonitorGracePeriodMs, o.nodeStartupGracePeriodMs], [5_000, 40_000, 60_000]);
  assert.equal([o.nodeEvictionRate, o.secondaryNodeEvictionRate, o.largeClusterSizeThreshold, o.unhealthyZoneThreshold], [0.1, 0.01, 50, 0.55]);
  assert.equal([o.orchApiQps, o.orchApiBurst, o.controllers], [20, 30, ['*']]);
  assert.equal([o.terminatedPodGcThreshold, o.concurrentReplicasetSyncs], [12_500, 5]);
  assert.equal([o.leaderElect, o.leaderElectLeaseDurationMs, o.leaderElectRenewDeadlineMs, o.leaderElectRetryPeriodMs], [true, 15_000, 10_000, 2_000]);
  assert.equal([o.leaderElectResourceName, o.leaderElectResourceNamespace], ['orch-controller-manager', 'orch-system']);
});

test('each bad value names the option and the rule', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ nodeMonitorPeriodMs: 0 }, /nodeMonitorPeriodMs must be a duration greater than 0, got 0/],
    [{ nodeEvictionRate: -1 }, /nodeEvictionRate must be a number of at least 0/],
    [{ unhealthyZoneThreshold: 1.5 }, /unhealthyZoneThreshold must be a fraction/],
    [{ largeClusterSizeThreshold: 2.5 }, /largeClusterSizeThreshold must be an integer/],
    [{ concurrentReplicasetSyncs: 0 }, /concurrentReplicasetSyncs must be an integer of at least 1, got 0/],
    [{ terminatedPodGcThreshold: 1.5 }, /terminatedPodGcThreshold must be an integer, got 1.5/],
    [{ controllers: ['-nope'] }, /controllers names "nope", which is not a controller/],
    [{ nodeMonitorGrace: 1 }, /unknown controller manager option nodeMonitorGrace/],
    [{ leaderElectRenewDeadlineMs: 15_000 }, /leaseDuration \(15000 ms\) must be greater than renewDeadline \(15000 ms\)/],
    [{ leaderElectRetryPeriodMs: 9_000 }, /renewDeadline \(10000 ms\) must be greater than 1.2 × retryPeriod \(9000 ms\)/],
    [{ leaderElectResourceName: '' }, /leaderElectResourceName must be a non-empty string/],
  ];
  for (const [options, message] of cases) assert.throws(() => controllerManagerOptions(options as never), message);
});

test('--controllers: * runs all but the -named; a name alone runs only it', () => {
  assert.ok(controllerEnabled(['*'], 'taint-eviction-controller'));
  assert.not.ok(controllerEnabled(['*', '-taint-eviction-controller'], 'taint-eviction-controller'));
  assert.ok(controllerEnabled(['node-lifecycle-controller'], 'node-lifecycle-controller'));
  assert.not.ok(controllerEnabled(['node-lifecycle-controller'], 'taint-eviction-controller'));
});

test('toleration time: untolerated taints evict now, the shortest tolerationSeconds wins, none tolerates for ever', () => {
  const unreachable = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
  const dedicated = { key: 'dedicated', value: 'gpu', effect: 'NoExecute' };
  const t300 = { key: unreachable.key, operator: 'Exists' as const, effect: 'NoExecute' as const, tolerationSeconds: 300 };
  assert.is(tolerationMs([unreachable], []), undefined);
  assert.is(tolerationMs([unreachable], [t300]), 300_000);
  assert.is(tolerationMs([unreachable, dedicated], [t300]), undefined, 'one untolerated taint is enough');
  assert.is(tolerationMs([unreachable, dedicated], [t300, { key: 'dedicated', value: 'gpu', effect: 'NoExecute', tolerationSeconds: 60 }]), 60_000);
  assert.is(tolerationMs([unreachable], [{ operator: 'Exists' }]), -1, 'no tolerationSeconds: for ever');
  assert.is(tolerationMs([unreachable], [{ ...t300, tolerationSeconds: 0 }]), 0);
});

test.run();
