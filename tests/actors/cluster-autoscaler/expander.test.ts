// The expanders choose among the groups that would help, as the real ones rank them; the list is
// applied in turn and a random draw (from the seeded stream) breaks what ties are left.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Node } from '../../../actors/api/model/core.ts';
import type { NodeGroup } from '../../../actors/cluster-autoscaler/cloud-provider.ts';
import { bestOption, type Option } from '../../../actors/cluster-autoscaler/expander.ts';
import type { PodInfo } from '../../../actors/scheduler/framework.ts';
import { podInfo } from '../../../actors/scheduler/pod-info.ts';
import { seededRandom } from '../../../sim/random.ts';

const group = (id: string, costPerHour?: number): NodeGroup =>
  ({ id, minSize: 0, maxSize: 10, targetSize: () => 0, templateNode: () => ({ metadata: { name: id } }) as Node, costPerHour });
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

test.run();
