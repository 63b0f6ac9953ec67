// The report page's node groups section, when the scenario ran a cluster autoscaler: each group's
// node count over the run and what its nodes cost from the start (report.series.nodeGroups, read
// from the groups' histories at the sample times, sim/group-series.ts), and a table of its
// bounds, node-hours and cost.
import { lineChart, type LineSeries, type TimeMarker } from './charts.ts';
import { figure, section, table } from './page.ts';
import { formatCost, formatCount, formatInteger } from './format.ts';
import type { Report } from './types.ts';

function charts(r: Report, markers: readonly TimeMarker[]): string[] {
  const series = r.series.nodeGroups;
  if (!series) return [];
  const names = Object.keys(series);
  const chart = (title: string, lines: LineSeries[], yFormat?: (v: number) => string) =>
    figure(title, lineChart({ title, tMs: r.series.tMs, series: lines, markers, ...(yFormat ? { yFormat } : {}) }));
  const costed = names.filter((g) => series[g]!.cost);
  const total = r.series.tMs.map((_, i) => costed.reduce((sum, g) => sum + series[g]!.cost![i]!, 0));
  return [
    chart('Nodes per node group', names.map((g) => ({ label: g, values: series[g]!.nodes }))),
    ...(costed.length ? [chart('Node group cost so far', [
      ...costed.map((g) => ({ label: g, values: series[g]!.cost! })),
      ...(costed.length > 1 ? [{ label: 'all groups', values: total, color: '#555' }] : []),
    ], formatCost)] : []),
  ];
}

export function autoscalingSection(r: Report, markers: readonly TimeMarker[]): string {
  const groups = r.autoscaling?.groups;
  if (!groups) return '';
  const rows = groups.map((g) => [g.name, `${formatInteger(g.min)}..${formatInteger(g.max)}`, formatInteger(g.nodes[0]?.[1] ?? 0),
    formatInteger(Math.max(...g.nodes.map(([, n]) => n))), formatCount(g.nodeHours), g.costPerHour === undefined ? '–' : formatCount(g.costPerHour),
    g.cost === undefined ? '–' : formatCount(g.cost)]);
  return section('autoscaling', 'Node groups (cluster autoscaler)', `<div class="charts">${charts(r, markers).join('\n')}</div>\n` +
    table(['group', 'min..max', 'at the start', 'most', 'node-hours', 'cost per hour', 'cost'], rows));
}
