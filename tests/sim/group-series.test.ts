// A node group's history on the report's sample grid (sim/group-series.ts): the count in force at
// each sample, and the cost of the node time up to it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { groupSeries } from '../../sim/group-series.ts';
import type { GroupHistory } from '../../sim/cloud-provider.ts';

const group = (costPerHour?: number): GroupHistory => ({
  name: 'g', min: 0, max: 5, nodes: [[0, 2], [60_000, 3], [120_000, 1]], nodeHours: 0,
  ...(costPerHour !== undefined ? { costPerHour } : {}),
});

test('each sample takes the count of the last change at or before it', () => {
  assert.equal(groupSeries([group()], [30_000, 60_000, 90_000, 120_000, 180_000]).g!.nodes, [2, 3, 3, 1, 1]);
});

test('the cost so far is the node time up to the sample at the group\'s price, to a hundredth of a cent', () => {
  // 2 nodes for 30s, 60s; then 2 for 60s and 3 for 30s; then 2 for 60s, 3 for 60s and 1 for 60s: at 0.5 an hour.
  const hours = (nodeMs: number) => Math.round((nodeMs / 3_600_000) * 0.5 * 10_000) / 10_000;
  assert.equal(groupSeries([group(0.5)], [30_000, 60_000, 90_000, 180_000]).g!.cost,
    [hours(60_000), hours(120_000), hours(120_000 + 90_000), hours(120_000 + 180_000 + 60_000)]);
});

test('a group without a price has nodes and no cost', () => {
  assert.not.ok('cost' in groupSeries([group()], [0]).g!);
});

test.run();
