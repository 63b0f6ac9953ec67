// A scenario's node groups (`autoscaling:` on a pool) and its `clusterAutoscaler:` section: what
// they parse to, and every mistake named by its field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clusterAutoscalerFromScenario } from '../../../actors/cluster-autoscaler/options.ts';
import { nodeNames, parseScenario, ScenarioError } from '../../../sim/scenario/load.ts';

const parse = (text: string) => parseScenario(text, { name: 'scenario', dir: '.' });

function rejects(text: string, path: string, message: string): void {
  try {
    parse(text);
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    assert.is(e.message, `scenario.yaml: ${path}: ${message}`);
    assert.is(e.path, path);
    return;
  }
  assert.unreachable(`parsed without error:\n${text}`);
}

const pool = (fields: string) => `duration: 1h\nnodePools: [{ name: g, ${fields} }]\n`;
const GROUP = pool('count: 2, costPerHour: 0.5, autoscaling: { min: 1, max: 12 }');

test('an autoscaled pool keeps its bounds, may start empty, and names its nodes by the width of max - 1', () => {
  const s = parse(GROUP);
  assert.equal(s.nodePools[0]!.autoscaling, { min: 1, max: 12 });
  assert.equal(nodeNames(s.nodePools[0]!), ['g-00', 'g-01']);
  assert.is(parse(pool('count: 0, autoscaling: { min: 0, max: 3 }')).nodePools[0]!.count, 0);
  assert.is(s.clusterAutoscaler, undefined);
});

test('autoscaling bounds must hold min <= count <= max, each named when wrong', () => {
  rejects(pool('count: 5, autoscaling: { min: 1, max: 3 }'), 'nodePools[0].autoscaling', 'must have min <= count <= max (count is 5), got {"min":1,"max":3}');
  rejects(pool('count: 2, autoscaling: { min: 4, max: 3 }'), 'nodePools[0].autoscaling.min', 'must be at most max (3), got 4');
  rejects(pool('count: 2, autoscaling: { min: -1, max: 3 }'), 'nodePools[0].autoscaling.min', 'must be a non-negative integer, got -1');
  rejects(pool('count: 2, autoscaling: { min: 1 }'), 'nodePools[0].autoscaling.max', 'required (must be a positive integer)');
  rejects(pool('count: 2, autoscaling: { min: 1, max: 3, maximum: 4 }'), 'nodePools[0].autoscaling.maximum', 'unknown field; allowed fields: min, max');
  rejects(pool('count: 0'), 'nodePools[0].count', 'must be a positive integer, got 0');
});

test('clusterAutoscaler takes the real flags by name and a provisioning delay, defaults the rest', () => {
  const s = parse(`${GROUP}clusterAutoscaler: { scan-interval: 20s, expander: "price,least-waste", provisioningDelay: 2m }\n`);
  assert.equal(s.clusterAutoscaler, { flags: { 'scan-interval': '20s', expander: 'price,least-waste' }, provisioningDelayMs: 120_000 });
  const o = clusterAutoscalerFromScenario(s.clusterAutoscaler!.flags);
  assert.equal([o.scanIntervalMs, o.expander, o.scaleDownUnneededTimeMs, o.scaleDownDelayAfterAddMs, o.scaleDownUtilizationThreshold, o.maxNodeProvisionTimeMs],
    [20_000, ['price', 'least-waste'], 600_000, 600_000, 0.5, 900_000]);
  assert.is(parse(`${GROUP}clusterAutoscaler: {}\n`).clusterAutoscaler!.provisioningDelayMs, 60_000);
});

test('a bad autoscaler flag, an unknown expander or a bad delay is an error of the section', () => {
  rejects(`${GROUP}clusterAutoscaler: { scan-intervall: 10s }\n`, 'clusterAutoscaler', 'unknown cluster autoscaler option "scan-intervall"; did you mean "scan-interval"?');
  rejects(`${GROUP}clusterAutoscaler: { expander: grpc }\n`, 'clusterAutoscaler',
    'invalid value "[grpc]" for --expander: "grpc" is not an expander this simulator has (random, least-waste, price, most-pods, priority; grpc needs a server of its own)');
  rejects(`${GROUP}clusterAutoscaler: { scale-down-utilization-threshold: 1.5 }\n`, 'clusterAutoscaler', 'invalid value "1.5" for --scale-down-utilization-threshold: must be between 0 and 1');
  rejects(`${GROUP}clusterAutoscaler: { provisioningDelay: soon }\n`, 'clusterAutoscaler.provisioningDelay', 'must be a Go duration such as 300ms, 30s, 5m or 1h30m, got "soon"');
  rejects(`${GROUP}clusterAutoscaler: [scan-interval]\n`, 'clusterAutoscaler',
    'must be a mapping of cluster autoscaler flags (scan-interval: 10s, expander: least-waste, ...) and provisioningDelay, got ["scan-interval"]');
  rejects(`${pool('count: 2')}clusterAutoscaler: {}\n`, 'clusterAutoscaler', 'needs a node pool with autoscaling: { min, max } to scale');
});

test('priorities give the priority expander its configuration, checked as the real expander reads it', () => {
  const s = parse(`${GROUP}clusterAutoscaler: { expander: "priority,least-waste", priorities: { 10: [spot.*, '^gpu-\\d+$'], 1: [g] } }\n`);
  assert.equal(s.clusterAutoscaler!.priorities, { 1: ['g'], 10: ['spot.*', '^gpu-\\d+$'] });
  assert.equal(s.clusterAutoscaler!.flags, { expander: 'priority,least-waste' });
  assert.equal(clusterAutoscalerFromScenario(s.clusterAutoscaler!.flags).expander, ['priority', 'least-waste']);
  rejects(`${GROUP}clusterAutoscaler: { priorities: [spot] }\n`, 'clusterAutoscaler.priorities',
    'must be a mapping of priority to a list of node group name patterns ({10: [spot.*], 1: [ondemand]}), got ["spot"]');
  rejects(`${GROUP}clusterAutoscaler: { priorities: { high: [spot] } }\n`, 'clusterAutoscaler.priorities.high', 'must be keyed by an integer priority');
  rejects(`${GROUP}clusterAutoscaler: { priorities: { 10: spot } }\n`, 'clusterAutoscaler.priorities["10"]', 'must be a list of node group name patterns, got "spot"');
  rejects(`${GROUP}clusterAutoscaler: { priorities: { 10: [] } }\n`, 'clusterAutoscaler.priorities["10"]', 'must list at least one of node group name patterns, got []');
  rejects(`${GROUP}clusterAutoscaler: { priorities: { 10: ["spot("] } }\n`, 'clusterAutoscaler.priorities',
    "Can't compile regexp rule for priority 10 and rule spot(: Invalid regular expression: /spot(/: Unterminated group");
});

test('provisioningFailure is a probability on an autoscaled pool only', () => {
  assert.is(parse(pool('count: 1, provisioningFailure: 0.25, autoscaling: { min: 0, max: 3 }')).nodePools[0]!.provisioningFailure, 0.25);
  assert.is(parse(GROUP).nodePools[0]!.provisioningFailure, undefined);
  rejects(pool('count: 1, provisioningFailure: 2, autoscaling: { min: 0, max: 3 }'), 'nodePools[0].provisioningFailure', 'must be a probability from 0 to 1, got 2');
  rejects(pool('count: 1, provisioningFailure: 0.5'), 'nodePools[0].provisioningFailure',
    'belongs to pools with autoscaling: only the nodes the cluster autoscaler asks for can fail to come');
});

test('a capacityShortage fault names an autoscaled pool and may end', () => {
  const two = `duration: 1h\nnodePools: [{ name: g, count: 1, autoscaling: { min: 0, max: 3 } }, { name: fixed, count: 1 }]\n`;
  const s = parse(`${two}faults: [{ kind: capacityShortage, pool: g, at: 5m, recoverAfter: 20m }]\n`);
  assert.equal(s.faults, [{ kind: 'capacityShortage', atMs: 300_000, count: 0, pool: 'g', recoverAfterMs: 1_200_000 }]);
  rejects(`${two}faults: [{ kind: capacityShortage, at: 5m }]\n`, 'faults[0].pool', 'is required for capacityShortage: the autoscaled pool the cloud has no machines for');
  rejects(`${two}faults: [{ kind: capacityShortage, pool: fixed, at: 5m }]\n`, 'faults[0].pool', 'must name a pool with autoscaling: (g), got "fixed"');
  rejects(`${two}faults: [{ kind: capacityShortage, pool: g, count: 2, at: 5m }]\n`, 'faults[0].count', "does not apply to capacityShortage: it hits a pool's new machines, not nodes");
});

test.run();
