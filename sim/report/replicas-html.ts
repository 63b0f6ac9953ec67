// The report page's autoscaled Deployments, when the scenario asked for usage or autoscaling: for
// each Deployment an HPA scales, its desired and Ready replicas over virtual time between the
// autoscaler's bounds, and the CPU use the autoscaler measured against its target
// (report.series.deployments, sim/replica-series.ts).
import { lineChart, type LineSeries, type TimeMarker } from './charts.ts';
import { figure, section } from './page.ts';
import { formatCount } from './format.ts';
import type { Report, ReplicaSeries } from './types.ts';

export const REPLICA_COLOURS = { desired: '#4e79a7', ready: '#59a14f', bound: '#bab0ac', use: '#e15759', target: '#9c755f' };

/** A missing value (null in the report) leaves a gap in the line. */
const gaps = (values: readonly (number | null)[]) => values.map((v) => v ?? Number.NaN);
const constant = (n: number, length: number) => new Array<number>(length).fill(n);

function charts(r: Report, name: string, s: ReplicaSeries, markers: readonly TimeMarker[]): string[] {
  const n = r.series.tMs.length;
  const replicas = `Replicas of ${name}`;
  const replicaLines: LineSeries[] = [
    { label: 'desired', values: gaps(s.desired), color: REPLICA_COLOURS.desired },
    { label: 'ready', values: gaps(s.ready), color: REPLICA_COLOURS.ready },
    { label: `max ${s.maxReplicas}`, values: constant(s.maxReplicas, n), color: REPLICA_COLOURS.bound },
  ];
  const use = `CPU use of ${name}'s pods (its autoscaler's measure)`;
  const useLines: LineSeries[] = [
    { label: 'average use / request', values: gaps(s.cpuUtilization), color: REPLICA_COLOURS.use },
    ...(s.targetCPUUtilization !== undefined ? [{ label: `target ${s.targetCPUUtilization}%`, values: constant(s.targetCPUUtilization, n), color: REPLICA_COLOURS.target }] : []),
  ];
  const note = `${s.autoscaler}: ${s.minReplicas}..${s.maxReplicas} replicas`;
  return [
    figure(replicas, lineChart({ title: replicas, tMs: r.series.tMs, series: replicaLines, markers, yFormat: formatCount }), note),
    figure(use, lineChart({ title: use, tMs: r.series.tMs, series: useLines, markers, yFormat: (v) => (Number.isFinite(v) ? `${formatCount(v)}%` : '–') })),
  ];
}

export function replicasSection(r: Report, markers: readonly TimeMarker[]): string {
  const deployments = r.series.deployments;
  if (!deployments || Object.keys(deployments).length === 0) return '';
  const figures = Object.entries(deployments).flatMap(([name, s]) => charts(r, name, s, markers));
  return section('replicas', 'Autoscaled Deployments',
    '<p class="muted">Each Deployment a HorizontalPodAutoscaler scales: the replicas it wants (spec.replicas) and has Ready, and the average CPU use of its pods as a share of their requests, as the autoscaler last measured it.</p>\n' +
      `<div class="charts">${figures.join('\n')}</div>`);
}
