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
  rejects(`${GROUP}clusterAutoscaler: { expander: priority }\n`, 'clusterAutoscaler',
    'invalid value "[priority]" for --expander: "priority" is not an expander this simulator has (random, least-waste, price, most-pods; priority and grpc need their own configuration)');
  rejects(`${GROUP}clusterAutoscaler: { scale-down-utilization-threshold: 1.5 }\n`, 'clusterAutoscaler', 'invalid value "1.5" for --scale-down-utilization-threshold: must be between 0 and 1');
  rejects(`${GROUP}clusterAutoscaler: { provisioningDelay: soon }\n`, 'clusterAutoscaler.provisioningDelay', 'must be a Go duration such as 300ms, 30s, 5m or 1h30m, got "soon"');
  rejects(`${GROUP}clusterAutoscaler: [scan-interval]\n`, 'clusterAutoscaler',
    'must be a mapping of cluster autoscaler flags (scan-interval: 10s, expander: least-waste, ...) and provisioningDelay, got ["scan-interval"]');
  rejects(`${pool('count: 2')}clusterAutoscaler: {}\n`, 'clusterAutoscaler', 'needs a node pool with autoscaling: { min, max } to scale');
});

test.run();
