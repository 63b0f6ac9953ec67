// The scheduler's options against seed 001: every flag and configuration field, its default, a
// valid value and each invalid form; --config with flags over it; --write-config-to's document.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OptionError } from '../../../actors/api/options/table.ts';
import { CONFIG_API_VERSION, CONFIG_KIND, SCHEDULER_CONFIG, SCHEDULER_FLAGS, configDocument, defaultSchedulerOptions, schedulerFromArgs, schedulerFromScenario, schedulerOptions } from '../../../actors/scheduler/options.ts';
import { checkOptionTable, type OptionCase } from '../../helpers/option-cases.ts';
import { commonRows, delegatedAuthRows, leaderElectRows } from '../../helpers/seed-common-options.ts';

const FLAG_ROWS: OptionCase[] = [
  ...commonRows('scheduler'),
  { name: 'config', default: undefined, valid: '/etc/orch/scheduler.yaml' },
  { name: 'write-config-to', default: undefined, valid: '/tmp/scheduler.yaml' },
  { name: 'secure-port', default: '10259', valid: '0', invalid: [['65536', 'must be a port from 0 to 65535'], ['-1', 'must be a port']] },
  { name: 'orchconfig', default: undefined, valid: '/etc/orch/scheduler.conf' },
  { name: 'master', default: undefined, valid: 'nats://127.0.0.1:4222' },
  { name: 'inspect-log', default: undefined, valid: '/var/log/orchsim/inspect.jsonl' },
  { name: 'inspect-machines', default: '[]', valid: 'controller,zone', invalid: [['zone,zones', 'names "zones", which is not a machine']] },
  ...leaderElectRows('orch-scheduler'),
  { name: 'lock-object-name', default: 'orch-scheduler', valid: 'old-lock' },
  { name: 'lock-object-namespace', default: 'orch-system', valid: 'kube-system' },
  { name: 'pod-max-in-unschedulable-pods-duration', default: '5m0s', valid: '1m0s', invalid: [['0s', 'must be greater than 0']] },
  ...delegatedAuthRows('scheduler'),
  { name: 'orch-api-qps', default: '50', valid: '200.5', invalid: [['-1', 'must not be negative']] },
  { name: 'orch-api-burst', default: '100', valid: '300', invalid: [['-5', 'must not be negative']] },
  { name: 'explanations-kept', default: '10000', valid: '0', invalid: [['-1', 'must not be negative']] },
];

const CONFIG_ROWS: OptionCase[] = [
  { name: 'leaderElection.leaderElect', default: 'true', valid: 'false' },
  { name: 'leaderElection.leaseDuration', default: '15s', valid: '20s', invalid: [['8s', 'leaderElection.leaseDuration (8s) must be greater than leaderElection.renewDeadline (10s)']] },
  { name: 'leaderElection.renewDeadline', default: '10s', valid: '8s', invalid: [['0s', 'must be greater than 0']] },
  { name: 'leaderElection.retryPeriod', default: '2s', valid: '1s', invalid: [['10s', 'must be greater than 1.2 × leaderElection.retryPeriod (10s)']] },
  { name: 'leaderElection.resourceLock', default: 'leases', valid: 'configmapsleases', invalid: [['endpoints', 'must be one of']] },
  { name: 'leaderElection.resourceName', default: 'orch-scheduler', valid: 'lock', invalid: [['', 'must not be empty']] },
  { name: 'leaderElection.resourceNamespace', default: 'orch-system', valid: 'ns', invalid: [['', 'must not be empty']] },
  { name: 'clientConnection.kubeconfig', default: undefined, valid: '/etc/orch/scheduler.conf' },
  { name: 'clientConnection.qps', default: '50', valid: '500', invalid: [['-1', 'must not be negative']] },
  { name: 'clientConnection.burst', default: '100', valid: '1000', invalid: [['-1', 'must not be negative']] },
  { name: 'clientConnection.contentType', default: 'application/vnd.orchestrator.protobuf', valid: 'application/json' },
  { name: 'clientConnection.acceptContentTypes', default: undefined, valid: 'application/json' },
  { name: 'parallelism', default: '16', valid: '4', invalid: [['0', 'must be greater than 0']] },
  { name: 'percentageOfNodesToScore', default: '0', valid: '50', invalid: [['101', 'must be from 0 (adaptive) to 100'], ['-1', 'must be from 0']] },
  { name: 'podInitialBackoffSeconds', default: '1', valid: '2', invalid: [['0', 'must be greater than 0'], ['11', 'podMaxBackoffSeconds (10) must be at least podInitialBackoffSeconds (11)']] },
  { name: 'podMaxBackoffSeconds', default: '10', valid: '60', invalid: [['0', 'must be greater than 0']] },
];

test('every scheduler flag of seed 001: default, a valid value, each invalid form', () => {
  assert.ok(checkOptionTable(SCHEDULER_FLAGS, FLAG_ROWS) > FLAG_ROWS.length);
});

test('every configuration field (profiles aside: a list, checked below)', () => {
  // Fields are not flags: the table reads them from a document, so check each through readValues.
  for (const row of CONFIG_ROWS) {
    const spec = SCHEDULER_CONFIG.spec(row.name)!;
    const shown = spec.default === undefined ? undefined : (spec.kind.format as (v: unknown) => string)(spec.default);
    assert.is(shown, row.default, `${row.name}: default`);
    SCHEDULER_CONFIG.resolve(SCHEDULER_CONFIG.readValues({ [row.name]: row.valid }));
    for (const [text, says] of row.invalid ?? []) {
      assert.throws(() => SCHEDULER_CONFIG.resolve(SCHEDULER_CONFIG.readValues({ [row.name]: text })), (e: Error) => e instanceof OptionError && e.message.includes(says), `${row.name}=${text} should say ${says}`);
    }
  }
  assert.equal(SCHEDULER_CONFIG.specs.map((s) => s.name).filter((n) => n !== 'profiles').sort(), CONFIG_ROWS.map((r) => r.name).sort());
});

test('defaults are the seed\'s and the real scheduler\'s', () => {
  const o = defaultSchedulerOptions;
  assert.equal([o.leaderElect, o.leaderElectLeaseDurationMs, o.leaderElectRenewDeadlineMs, o.leaderElectRetryPeriodMs], [true, 15_000, 10_000, 2_000]);
  assert.equal([o.leaderElectResourceName, o.leaderElectResourceNamespace, o.schedulerName], ['orch-scheduler', 'orch-system', 'default-scheduler']);
  assert.equal([o.orchApiQps, o.orchApiBurst, o.podMaxInUnschedulablePodsDurationMs, o.percentageOfNodesToScore], [50, 100, 300_000, 0]);
  assert.equal(schedulerOptions(), o);
});

const FILE = {
  apiVersion: CONFIG_API_VERSION, kind: CONFIG_KIND,
  leaderElection: { leaseDuration: '30s', renewDeadline: '20s', resourceName: 'file-lock' },
  clientConnection: { qps: 500, burst: 1000 },
  percentageOfNodesToScore: 30,
  profiles: [{ schedulerName: 'batch-scheduler' }],
};

test('--config: the file, flags given over it, deprecated flags ignored with a warning', () => {
  const read = (path: string): Record<string, unknown> => {
    if (path !== 'sched.yaml') throw new Error(`read ${path}`);
    return structuredClone(FILE);
  };
  const r = schedulerFromArgs(['--config=sched.yaml', '--leader-elect-retry-period=3s', '--orch-api-qps=7', '--lock-object-name=old'], read);
  assert.equal([r.options.leaderElectLeaseDurationMs, r.options.leaderElectRenewDeadlineMs, r.options.leaderElectRetryPeriodMs], [30_000, 20_000, 3_000]);
  assert.equal([r.options.leaderElectResourceName, r.options.orchApiQps, r.options.orchApiBurst], ['file-lock', 500, 1000]);
  assert.equal([r.options.schedulerName, r.options.percentageOfNodesToScore], ['batch-scheduler', 30]);
  assert.ok(r.warnings.includes('--orch-api-qps is ignored: --config is set'), r.warnings.join('\n'));
  assert.ok(r.warnings.includes('--lock-object-name is ignored: --config is set'));
  // Without a file, the deprecated flags act (with their warning).
  const bare = schedulerFromArgs(['--orch-api-qps=7', '--lock-object-name=old'], read);
  assert.equal([bare.options.orchApiQps, bare.options.leaderElectResourceName], [7, 'old']);
  assert.ok(bare.warnings.some((w) => w.startsWith('Flag --orch-api-qps has been deprecated')));
});

test('a bad file names the file, the field, the value and the rule', () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ ...FILE, apiVersion: 'v1' }, `s.yaml: apiVersion must be ${CONFIG_API_VERSION}, got "v1"`],
    [{ ...FILE, kind: 'Pod' }, `s.yaml: kind must be ${CONFIG_KIND}, got "Pod"`],
    [{ ...FILE, percentageOfNodes: 3 }, 's.yaml: unknown scheduler configuration option "percentageOfNodes"; did you mean "percentageOfNodesToScore"?'],
    [{ ...FILE, leaderElection: { leaseDuration: 'soon' } }, 'invalid value "soon" for --leaderElection.leaseDuration: must be a duration'],
    [{ ...FILE, profiles: [{ schedulerName: 'a' }, { schedulerName: 'b' }] }, 'must list exactly one profile'],
    [{ ...FILE, profiles: [{ schedulerName: 'a', plugins: {} }] }, 'profile field plugins is not supported'],
  ];
  for (const [doc, says] of cases)
    assert.throws(() => schedulerFromArgs(['--config=s.yaml'], () => doc), (e: Error) => e instanceof OptionError && e.message.includes(says), says);
});

test('--write-config-to writes what --config reads back', () => {
  const r = schedulerFromArgs(['--config=s.yaml', '--leader-elect=false'], () => structuredClone(FILE));
  const doc = configDocument(r.options);
  const again = schedulerFromArgs(['--config=t.yaml'], () => structuredClone(doc));
  assert.equal(again.options, r.options);
});

test('a scenario sets flags by name and the file\'s fields', () => {
  const o = schedulerFromScenario({ 'leader-elect-lease-duration': '20s', percentageOfNodesToScore: 50, clientConnection: { qps: 500 } });
  assert.equal([o.leaderElectLeaseDurationMs, o.percentageOfNodesToScore, o.orchApiQps], [20_000, 50, 500]);
  assert.throws(() => schedulerFromScenario({ 'leader-elect-lease-duration': 'x' }), /invalid value "x" for --leader-elect-lease-duration/);
  assert.throws(() => schedulerFromScenario({ orchApiQps: 5 }), /unknown scheduler configuration option "orchApiQps"/);
});

test.run();
