// The expanders choose among the groups that would help, as the real ones rank them; the list is
// applied in turn and a random draw (from the seeded stream) breaks what ties are left.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Node } from '../../../actors/api/model/core.ts';
import type { NodeGroup } from '../../../actors/cluster-autoscaler/cloud-provider.ts';
import { bestOption, type Option, type PriorityConfig } from '../../../actors/cluster-autoscaler/expander.ts';
import { parsePriorities } from '../../../actors/cluster-autoscaler/priorities.ts';
import type { PodInfo } from '../../../actors/scheduler/framework.ts';
import { podInfo } from '../../../actors/scheduler/pod-info.ts';
import { seededRandom } from '../../../sim/random.ts';

const group = (id: string, costPerHour?: number): NodeGroup =>
  ({ id, minSize: 0, maxSize: 10, targetSize: () => 0, instances: () => [], templateNode: () => ({ metadata: { name: id } }) as Node, costPerHour });
const pods = (n: number, cpu: string): PodInfo[] => Array.from({ length: n }, (_, i) =>
  podInfo({ metadata: { name: `p${i}`, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu, memory: '1Gi' } } }] } }));
const option = (g: NodeGroup, nodeCount: number, helped: PodInfo[], cpuPerNode: number, memoryPerNode: number): Option =>
  ({ group: g, nodeCount, pods: helped, offered: { milliCPU: nodeCount * cpuPerNode, memory: nodeCount * memoryPerNode } });

const GI = 2 ** 30;
const small = option(group('small', 0.2), 2, pods(4, '1'), 2_000, 8 * GI); // 4 CPU asked of 4 offered
const large = option(group('large', 0.5), 1, pods(4, '1'), 8_000, 32 * GI); // 4 of 8: more waste
const most = option(group('most', 1), 2, pods(6, '1'), 8_000, 32 * GI);
const choose = (options: Option[], expanders: Parameters<typeof bestOption>[1], seed = 1) => bestOption(options, expanders, seededRandom(seed))?.group.id;

test('least-waste takes the option that leaves the least CPU and memory idle', () => {
  assert.is(choose([large, small], ['least-waste']), 'small');
});

test('most-pods takes the option that schedules the most pods', () => {
  assert.is(choose([small, large, most], ['most-pods']), 'most');
});

test('price takes the cheapest per pod helped, leaving out groups without a price unless none has one', () => {
  assert.is(choose([large, small, most], ['price']), 'small'); // 0.4 / 4 pods against 0.5 / 4 and 2 / 6
  const unpriced = option(group('unpriced'), 1, pods(4, '1'), 8_000, 32 * GI);
  assert.is(choose([unpriced, large], ['price']), 'large');
});

test('expanders apply in turn, and random breaks the last tie from the seeded stream, the same for the same seed', () => {
  assert.is(choose([most, large, small], ['most-pods', 'least-waste']), 'most');
  const tied = [small, option(group('twin', 0.2), 2, pods(4, '1'), 2_000, 8 * GI)];
  const picks = new Set(Array.from({ length: 20 }, (_, seed) => choose(tied, ['least-waste'], seed)));
  assert.equal([...picks].sort(), ['small', 'twin'], 'either may win a tie');
  assert.is(choose(tied, ['random'], 7), choose(tied, ['random'], 7));
  assert.is(choose([], ['random']), undefined);
});

/** The priority expander's configuration from the ConfigMap's text, and the warnings it records. */
function priorityConfig(text: string | undefined, invalid?: string) {
  const warnings: string[] = [];
  const config: PriorityConfig = { priorities: text === undefined ? undefined : parsePriorities(text), warn: (reason, message) => void warnings.push(`${reason}: ${message}`),
    ...(invalid !== undefined ? { invalid } : {}) };
  return { config, warnings };
}
const spotA = option(group('spot-a', 0.1), 1, pods(4, '1'), 8_000, 32 * GI);
const spotB = option(group('spot-b', 0.1), 1, pods(4, '1'), 4_000, 16 * GI); // no CPU idle: less waste than spot-a
const ondemand = option(group('ondemand', 0.5), 1, pods(4, '1'), 4_000, 16 * GI);
const choosePriority = (options: Option[], expanders: Parameters<typeof bestOption>[1], config: PriorityConfig, seed = 1) =>
  bestOption(options, expanders, seededRandom(seed), config)?.group.id;

test('priority takes the groups matching the highest priority, a pattern matching anywhere in the name', () => {
  const { config, warnings } = priorityConfig('10:\n  - spot\n1:\n  - ondemand\n  - .*\n');
  assert.is(choosePriority([ondemand, spotA], ['priority'], config), 'spot-a');
  assert.equal(warnings, []);
  const picks = new Set(Array.from({ length: 20 }, (_, seed) => choosePriority([ondemand, spotA, spotB], ['priority'], config, seed)));
  assert.equal([...picks].sort(), ['spot-a', 'spot-b'], 'random breaks the tie between the two spot groups, never the lower priority');
});

test('priority chained with least-waste: the highest priority first, then the least idle among its groups', () => {
  const { config } = priorityConfig('10: [spot-.*]\n1: [ondemand]\n');
  for (let seed = 0; seed < 10; seed++) assert.is(choosePriority([ondemand, spotA, spotB], ['priority', 'least-waste'], config, seed), 'spot-b');
});

test('priority leaves out a group no pattern names, and says so on its ConfigMap', () => {
  const { config, warnings } = priorityConfig('5: [ondemand]\n');
  assert.is(choosePriority([spotA, ondemand], ['priority'], config), 'ondemand');
  assert.equal(warnings, ["PriorityConfigMapNotMatchedGroup: Priority expander: node group spot-a not found in priority expander configuration. The group won't be used."]);
});

test('priority filters nothing when its ConfigMap is missing, wrong, or names none of the groups', () => {
  const missing = priorityConfig(undefined);
  assert.is(choosePriority([ondemand, spotA], ['priority', 'price'], missing.config), 'spot-a', 'the next expander decides');
  assert.equal(missing.warnings, []);
  const wrong = priorityConfig(undefined, "Wrong configmap for priority expander, doesn't contain priorities key. Ignoring update.");
  assert.is(choosePriority([ondemand, spotA], ['priority', 'price'], wrong.config), 'spot-a');
  assert.equal(wrong.warnings, ["PriorityConfigMapInvalid: Wrong configmap for priority expander, doesn't contain priorities key. Ignoring update."]);
  const none = priorityConfig('3: [gpu]\n');
  assert.is(choosePriority([ondemand, spotA], ['priority', 'price'], none.config), 'spot-a');
  assert.ok(none.warnings.includes('PriorityConfigMapNoGroupMatched: Priority expander: no priorities info found for any of the expansion options. No options filtered.'));
});

test.run();
