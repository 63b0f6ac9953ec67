// The report page's node groups section, when the scenario ran a cluster autoscaler: each group's
// node count over the run (a step at every join and removal, read at the report's sample times)
// and a table of its bounds, node-hours and cost.
import { lineChart, type TimeMarker } from './charts.ts';
import { figure, section, table } from './page.ts';
import { formatCount, formatInteger } from './format.ts';
import type { Report } from './types.ts';

/** The count in force at each sample time: the last change at or before it. */
function stepsAt(changes: readonly [number, number][], tMs: readonly number[]): number[] {
  let i = 0;
  return tMs.map((t) => {
    while (i + 1 < changes.length && changes[i + 1]![0] <= t) i++;
    return changes[i]?.[1] ?? 0;
  });
}

export function autoscalingSection(r: Report, markers: readonly TimeMarker[]): string {
  const groups = r.autoscaling?.groups;
  if (!groups) return '';
  const title = 'Nodes per node group';
  const chart = figure(title, lineChart({ title, tMs: r.series.tMs, series: groups.map((g) => ({ label: g.name, values: stepsAt(g.nodes, r.series.tMs) })), markers }));
  const rows = groups.map((g) => [g.name, `${formatInteger(g.min)}..${formatInteger(g.max)}`, formatInteger(g.nodes[0]?.[1] ?? 0),
    formatInteger(Math.max(...g.nodes.map(([, n]) => n))), formatCount(g.nodeHours), g.costPerHour === undefined ? '–' : formatCount(g.costPerHour),
    g.cost === undefined ? '–' : formatCount(g.cost)]);
  return section('autoscaling', 'Node groups (cluster autoscaler)', `<div class="charts">${chart}</div>\n` +
    table(['group', 'min..max', 'at the start', 'most', 'node-hours', 'cost per hour', 'cost'], rows));
}
