// The report page's usage section, when the scenario asked for usage or autoscaling: for each zone
// and each pool, CPU and memory used beside requested and allocatable over virtual time
// (report.series.usage, sim/usage-series.ts). Each resource on its own chart and scale: cores and
// bytes side by side on one axis would say nothing.
import { lineChart, type LineSeries, type TimeMarker } from './charts.ts';
import { figure, section } from './page.ts';
import { formatCount } from './format.ts';
import type { Report, ResourceSeries } from './types.ts';

export const USAGE_COLOURS = { used: '#4e79a7', requested: '#f28e2b', allocatable: '#9c755f' };
const GIB = 1024 ** 3;
const gib = (bytes: readonly number[]) => bytes.map((b) => b / GIB);
const coresAxis = { yFormat: (v: number) => formatCount(v) };
const gibAxis = { yFormat: (v: number) => `${formatCount(v)} GiB` };

/** The three lines of one resource, use drawn last: on top where a pod uses just what it requests. */
function lines(used: readonly number[], requested: readonly number[], allocatable: readonly number[]): LineSeries[] {
  return [
    { label: 'allocatable', values: allocatable, color: USAGE_COLOURS.allocatable },
    { label: 'requested', values: requested, color: USAGE_COLOURS.requested },
    { label: 'used', values: used, color: USAGE_COLOURS.used },
  ];
}

/** The CPU chart and the memory chart of one zone or pool (`what`: "zone zone-a", "pool general"). */
function charts(r: Report, what: string, s: ResourceSeries, markers: readonly TimeMarker[]): string[] {
  const cpu = `CPU in ${what} (cores)`;
  const memory = `Memory in ${what}`;
  return [
    figure(cpu, lineChart({ title: cpu, tMs: r.series.tMs, series: lines(s.cpuUsed, s.cpuRequested, s.cpuAllocatable), markers, ...coresAxis })),
    figure(memory, lineChart({ title: memory, tMs: r.series.tMs, series: lines(gib(s.memoryUsed), gib(s.memoryRequested), gib(s.memoryAllocatable)), markers, ...gibAxis })),
  ];
}

export function usageSection(r: Report, markers: readonly TimeMarker[]): string {
  const usage = r.series.usage;
  if (!usage) return '';
  const group = (kind: string, by: Record<string, ResourceSeries>) =>
    Object.keys(by).flatMap((name) => charts(r, `${kind} ${name === '' ? '(none)' : name}`, by[name]!, markers));
  const figures = [...group('zone', usage.perZone), ...group('pool', usage.perPool)];
  return section('usage', 'Usage beside requests',
    '<p class="muted">By zone, then by pool, over the Ready nodes: what their Running pods use (their usage models at each sample: the figures the metrics server serves), what the pods bound to them request, and what the nodes offer.</p>\n' +
      `<div class="charts">${figures.join('\n')}</div>`);
}
