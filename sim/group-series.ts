// The cluster autoscaler's node groups on the report's sample grid, built from their histories
// (sim/cloud-provider.ts): at each sample the nodes running, and what the group's nodes cost from
// the start up to then (node-hours times the group's cost per hour), so a chart of it rises
// faster while the group is large.
import type { GroupHistory } from './cloud-provider.ts';
import type { GroupSeries } from './report/types.ts';

/** Cost to a hundredth of a cent: enough for any cost per hour, and no float noise in the report. */
const roundCost = (x: number) => Math.round(x * 10_000) / 10_000;

/** The series of each group, by name, at the sample times `tMs` (virtual ms from the start, ascending). */
export function groupSeries(groups: readonly GroupHistory[], tMs: readonly number[]): Record<string, GroupSeries> {
  return Object.fromEntries(groups.map((g) => [g.name, oneGroup(g, tMs)]));
}

function oneGroup(g: GroupHistory, tMs: readonly number[]): GroupSeries {
  const nodes: number[] = [];
  const cost: number[] = [];
  // `i`: the last change at or before the sample; `nodeMs`: node time from the start to that change.
  let i = 0;
  let nodeMs = 0;
  for (const t of tMs) {
    while (i + 1 < g.nodes.length && g.nodes[i + 1]![0] <= t) {
      nodeMs += g.nodes[i]![1] * (g.nodes[i + 1]![0] - g.nodes[i]![0]);
      i++;
    }
    const [since, running] = g.nodes[i] ?? [0, 0];
    nodes.push(running);
    if (g.costPerHour !== undefined) cost.push(roundCost(((nodeMs + running * Math.max(0, t - since)) / 3_600_000) * g.costPerHour));
  }
  return { nodes, ...(g.costPerHour !== undefined ? { cost } : {}) };
}
