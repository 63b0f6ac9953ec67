// The controller manager's options: seed 001's defaults, and a clear error for each bad value.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTROLLER_MANAGER_TABLE, controllerEnabled, controllerManagerFromScenario, controllerManagerOptions } from '../../../actors/controller-manager/options.ts';
import { checkOptionTable, type OptionCase } from '../../helpers/option-cases.ts';
import { commonRows, delegatedAuthRows, leaderElectRows } from '../../helpers/seed-common-options.ts';
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

test('each bad value given in code names the option, the value and the rule', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ nodeMonitorPeriodMs: 0 }, 'invalid value "0s" for --node-monitor-period: must be a duration greater than 0'],
    [{ nodeEvictionRate: -1 }, 'invalid value "-1" for --node-eviction-rate: must not be negative'],
    [{ unhealthyZoneThreshold: 1.5 }, 'invalid value "1.5" for --unhealthy-zone-threshold: must be a fraction greater than 0 and at most 1'],
    [{ largeClusterSizeThreshold: 2.5 }, 'invalid value 2.5 for --large-cluster-size-threshold (largeClusterSizeThreshold): must be of kind int32'],
    [{ concurrentReplicasetSyncs: 0 }, 'invalid value "0" for --concurrent-replicaset-syncs: must be at least 1'],
    [{ controllers: ['-nope'] }, 'invalid value "[-nope]" for --controllers: names "nope", which is not a controller'],
    [{ nodeMonitorGrace: 1 }, 'unknown controller manager option nodeMonitorGrace'],
    [{ leaderElectRenewDeadlineMs: 15_000 }, '--leader-elect-lease-duration (15s) must be greater than --leader-elect-renew-deadline (15s)'],
    [{ leaderElectRetryPeriodMs: 9_000 }, '--leader-elect-renew-deadline (10s) must be greater than 1.2 × --leader-elect-retry-period (9s)'],
    [{ leaderElectResourceName: '' }, 'invalid value "" for --leader-elect-resource-name: must not be empty'],
  ];
  for (const [options, message] of cases)
    assert.throws(() => controllerManagerOptions(options as never), (e: Error) => e.message.startsWith(message), message);
});

const ROWS: OptionCase[] = [
  ...commonRows('controller-manager'),
  { name: 'secure-port', default: '10257', valid: '0', invalid: [['70000', 'must be a port from 0 to 65535']] },
  { name: 'orchconfig', default: undefined, valid: '/etc/orch/cm.conf' },
  { name: 'master', default: undefined, valid: 'nats://127.0.0.1:4222' },
  { name: 'inspect-log', default: undefined, valid: '/var/log/orchsim/inspect.jsonl' },
  { name: 'inspect-machines', default: '[]', valid: 'controller,zone', invalid: [['zone,zones', 'names "zones", which is not a machine']] },
  { name: 'controllers', default: '[*]', valid: '*,-taint-eviction-controller,bootstrapsigner,tokencleaner,nodelifecycle', invalid: [['*,-nope', 'names "nope", which is not a controller']] },
  { name: 'controller-start-interval', default: undefined, valid: '1s', invalid: [['-1s', 'must not be negative']] },
  { name: 'allocate-node-cidrs', default: 'false', valid: 'true' },
  { name: 'cluster-cidr', default: undefined, valid: '10.244.0.0/16' },
  { name: 'service-cluster-ip-range', default: undefined, valid: '10.96.0.0/12,fd00::/108', invalid: [['10.0.0.0/16,10.1.0.0/16,10.2.0.0/16', 'must be at most two CIDRs']] },
  { name: 'cidr-allocator-type', default: 'RangeAllocator', valid: 'CloudAllocator' },
  { name: 'node-cidr-mask-size', default: undefined, valid: '24', invalid: [['129', 'must be from 0 to 128']] },
  { name: 'node-cidr-mask-size-ipv4', default: '24', valid: '26', invalid: [['33', 'must be from 0 to 32']] },
  { name: 'node-cidr-mask-size-ipv6', default: '64', valid: '80', invalid: [['129', 'must be from 0 to 128']] },
  { name: 'configure-cloud-routes', default: 'true', valid: 'false' },
  { name: 'route-reconciliation-period', default: '10s', valid: '1m0s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'cloud-config', default: undefined, valid: '/etc/cloud.conf' },
  { name: 'cloud-provider', default: undefined, valid: 'external' },
  { name: 'external-cloud-volume-plugin', default: undefined, valid: 'gce' },
  { name: 'cluster-name', default: 'orch', valid: 'prod' },
  { name: 'cluster-signing-duration', default: '8760h0m0s', valid: '720h', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'enable-dynamic-provisioning', default: 'true', valid: 'false' },
  { name: 'enable-garbage-collector', default: 'true', valid: 'false' },
  { name: 'enable-hostpath-provisioner', default: 'false', valid: 'true' },
  { name: 'enable-leader-migration', default: 'false', valid: 'true' },
  { name: 'leader-migration-config', default: undefined, valid: '/etc/orch/migration.yaml' },
  { name: 'endpoint-updates-batch-period', default: undefined, valid: '500ms', invalid: [['-1s', 'must not be negative']] },
  { name: 'endpointslice-updates-batch-period', default: undefined, valid: '1s', invalid: [['-1s', 'must not be negative']] },
  { name: 'mirroring-endpointslice-updates-batch-period', default: undefined, valid: '1s', invalid: [['-1s', 'must not be negative']] },
  { name: 'max-endpoints-per-slice', default: '100', valid: '500', invalid: [['0', 'must be from 1 to 1000'], ['1001', 'must be from 1 to 1000']] },
  { name: 'mirroring-max-endpoints-per-subset', default: '1000', valid: '100', invalid: [['0', 'must be at least 1']] },
  { name: 'attach-detach-reconcile-sync-period', default: '1m0s', valid: '2s', invalid: [['1s', 'must be longer than 1s']] },
  { name: 'disable-attach-detach-reconcile-sync', default: 'false', valid: 'true' },
  { name: 'pvclaimbinder-sync-period', default: '15s', valid: '30s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'pv-recycler-minimum-timeout-nfs', default: '300', valid: '60', invalid: [['-1', 'must not be negative']] },
  { name: 'pv-recycler-increment-timeout-nfs', default: '30', valid: '60', invalid: [['-1', 'must not be negative']] },
  { name: 'pv-recycler-minimum-timeout-hostpath', default: '60', valid: '30', invalid: [['-1', 'must not be negative']] },
  { name: 'pv-recycler-timeout-increment-hostpath', default: '30', valid: '10', invalid: [['-1', 'must not be negative']] },
  { name: 'pv-recycler-pod-template-filepath-nfs', default: undefined, valid: '/etc/recycler.yaml' },
  { name: 'pv-recycler-pod-template-filepath-hostpath', default: undefined, valid: '/etc/recycler.yaml' },
  { name: 'namespace-sync-period', default: '5m0s', valid: '1m0s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'resource-quota-sync-period', default: '5m0s', valid: '1m0s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'min-resync-period', default: '12h0m0s', valid: '1h0m0s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'horizontal-pod-autoscaler-sync-period', default: '15s', valid: '30s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'horizontal-pod-autoscaler-downscale-stabilization', default: '5m0s', valid: '1m0s', invalid: [['-1s', 'must not be negative']] },
  { name: 'horizontal-pod-autoscaler-cpu-initialization-period', default: '5m0s', valid: '1m0s', invalid: [['-1s', 'must not be negative']] },
  { name: 'horizontal-pod-autoscaler-initial-readiness-delay', default: '30s', valid: '10s', invalid: [['-1s', 'must not be negative']] },
  { name: 'horizontal-pod-autoscaler-tolerance', default: '0.1', valid: '0.2', invalid: [['-0.1', 'must not be negative']] },
  ...leaderElectRows('orch-controller-manager'),
  { name: 'node-monitor-period', default: '5s', valid: '2s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'node-monitor-grace-period', default: '40s', valid: '20s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'node-startup-grace-period', default: '1m0s', valid: '30s', invalid: [['-5s', 'must be a duration greater than 0']] },
  { name: 'pod-eviction-timeout', default: '5m0s', valid: '2m0s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'node-eviction-rate', default: '0.1', valid: '0.5', invalid: [['-0.1', 'must not be negative']] },
  { name: 'secondary-node-eviction-rate', default: '0.01', valid: '0', invalid: [['-1', 'must not be negative']] },
  { name: 'large-cluster-size-threshold', default: '50', valid: '20', invalid: [['-1', 'must not be negative']] },
  { name: 'unhealthy-zone-threshold', default: '0.55', valid: '0.7', invalid: [['0', 'must be a fraction greater than 0 and at most 1'], ['1.1', 'must be a fraction']] },
  { name: 'terminated-pod-gc-threshold', default: '12500', valid: '0' },
  { name: 'orch-api-content-type', default: 'application/vnd.orchestrator.protobuf', valid: 'application/json' },
  { name: 'flex-volume-plugin-dir', default: '/usr/libexec/orch/nodeagent-plugins/volume/exec/', valid: '/opt/flex' },
  { name: 'volume-host-allow-local-loopback', default: 'true', valid: 'false' },
  { name: 'volume-host-cidr-denylist', default: undefined, valid: '169.254.0.0/16' },
  ...delegatedAuthRows('controller-manager'),
  { name: 'use-service-account-credentials', default: 'false', valid: 'true' },
  { name: 'root-ca-file', default: undefined, valid: '/etc/orch/ca.crt' },
  { name: 'service-account-private-key-file', default: undefined, valid: '/etc/orch/sa.key' },
  { name: 'cluster-signing-cert-file', default: undefined, valid: '/etc/orch/ca.crt' },
  { name: 'cluster-signing-key-file', default: undefined, valid: '/etc/orch/ca.key' },
  ...['apiserver-client', 'apiserver-client-nodeagent', 'nodeagent-serving', 'legacy-unknown'].flatMap((s): OptionCase[] => [
    { name: `cluster-signing-${s}-cert-file`, default: undefined, valid: `/etc/orch/${s}.crt` },
    { name: `cluster-signing-${s}-key-file`, default: undefined, valid: `/etc/orch/${s}.key` },
  ]),
  { name: 'orch-api-qps', default: '20', valid: '100', invalid: [['-1', 'must not be negative']] },
  { name: 'orch-api-burst', default: '30', valid: '200', invalid: [['-1', 'must not be negative']] },
  ...(['deployment 5', 'endpoint 5', 'ephemeralvolume 5', 'gc 20', 'namespace 10', 'rc 5', 'replicaset 5', 'resource-quota 5', 'service-endpoint 5', 'service 1', 'serviceaccount-token 5', 'statefulset 5', 'ttl-after-finished 5', 'daemonset 2',
    // Not in seed 001's list; the real controller manager's --concurrent-job-syncs and --concurrent-cron-job-syncs.
    'job 5', 'cron-job 5']
    .map((entry): OptionCase => {
      const [what, dflt] = entry.split(' ');
      return { name: `concurrent-${what}-syncs`, default: dflt, valid: '3', invalid: [['0', 'must be at least 1']] };
    })),
  { name: 'mirroring-concurrent-service-endpoint-syncs', default: '5', valid: '2', invalid: [['0', 'must be at least 1']] },
];

test('every controller manager option of seed 001: default, a valid value, each invalid form', () => {
  assert.ok(checkOptionTable(CONTROLLER_MANAGER_TABLE, ROWS) > ROWS.length);
});

test('the general signing pair excludes the signer-specific files', () => {
  assert.throws(() => CONTROLLER_MANAGER_TABLE.parse(['--cluster-signing-cert-file=a.crt', '--cluster-signing-nodeagent-serving-key-file=b.key']),
    /exclude the signer-specific files such as --cluster-signing-nodeagent-serving-key-file/);
});

test('a scenario sets the controller manager\'s flags by name', () => {
  const o = controllerManagerFromScenario({ 'node-monitor-grace-period': '20s', controllers: ['*', '-pod-garbage-collector'], 'node-eviction-rate': 0.5 });
  assert.equal([o.nodeMonitorGracePeriodMs, o.controllers, o.nodeEvictionRate], [20_000, ['*', '-pod-garbage-collector'], 0.5]);
  assert.throws(() => controllerManagerFromScenario({ nodeMonitorGracePeriod: '20s' }), /unknown controller manager option "nodeMonitorGracePeriod"/);
});

test('--controllers: * runs all but the -named; a name alone runs only it; older names work', () => {
  assert.ok(controllerEnabled(['*'], 'taint-eviction-controller'));
  assert.not.ok(controllerEnabled(['*', '-taint-eviction-controller'], 'taint-eviction-controller'));
  assert.ok(controllerEnabled(['node-lifecycle-controller'], 'node-lifecycle-controller'));
  assert.not.ok(controllerEnabled(['node-lifecycle-controller'], 'taint-eviction-controller'));
  assert.ok(controllerEnabled(['nodelifecycle'], 'node-lifecycle-controller'));
  assert.not.ok(controllerEnabled(['*', '-podgc'], 'pod-garbage-collector'));
  assert.ok(controllerEnabled(['*', '-bootstrapsigner'], 'garbage-collector'));
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
