// The block `orchsim run` prints on stdout when a run ends: the report's key figures as aligned
// plain text (no colours; the caller decides about terminals). Wall-clock figures are not in the
// report, which must not depend on the machine, so the caller passes them in here.
import { formatBytes, formatClock, formatCount, formatInteger, formatList, formatMs } from './format.ts';
import type { Percentiles, Report, ResourceSeries } from './types.ts';

const LABEL_WIDTH = 16;
const TOP_REASONS = 5;
const FAULTS_SHOWN = 5;
const TARGETS_SHOWN = 3;

export interface WallFigures {
  wallMs: number;
  peakRssBytes: number;
}

/** Control characters (newlines, terminal escapes) from a scenario file would break the block or the terminal. */
function plain(text: string): string {
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');
}

/** A labelled line; further lines of the same entry are indented under the value. */
function entry(label: string, ...values: string[]): string[] {
  const pad = ' '.repeat(LABEL_WIDTH);
  return values.map((v, i) => (i === 0 ? label.padEnd(LABEL_WIDTH) : pad) + v);
}

function percentiles(p: Percentiles): string {
  if (p.count === 0) return 'none measured';
  return `p50 ${formatMs(p.p50)}  p90 ${formatMs(p.p90)}  p99 ${formatMs(p.p99)}  max ${formatMs(p.max)}  (${formatInteger(p.count)} pods)`;
}

function perVirtualSecond(count: number, durationMs: number): string {
  return durationMs > 0 ? ` (${formatCount(count / (durationMs / 1000))} per virtual second)` : '';
}

function reasons(unschedulable: Record<string, number>): string[] {
  const sorted = Object.entries(unschedulable).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  if (sorted.length === 0) return ['none'];
  const top = sorted.slice(0, TOP_REASONS);
  const width = Math.max(...top.map(([, n]) => formatInteger(n).length));
  const lines = top.map(([reason, n]) => `${formatInteger(n).padStart(width)}  ${plain(reason)}`);
  const rest = sorted.slice(TOP_REASONS);
  if (rest.length > 0) {
    const pods = rest.reduce((sum, [, n]) => sum + n, 0);
    lines.push(`+${rest.length} more reason${rest.length === 1 ? '' : 's'} (${formatInteger(pods)} pods)`);
  }
  return lines;
}

function faults(report: Report): string[] {
  if (report.faults.length === 0) return ['none'];
  const ordered = report.faults.map((f, i) => ({ f, i })).sort((a, b) => a.f.atMs - b.f.atMs || a.i - b.i).map(({ f }) => f);
  const shown = ordered.slice(0, FAULTS_SHOWN);
  // Times right-aligned, so the kinds line up whatever the number of digits.
  const width = Math.max(...shown.map((f) => formatClock(f.atMs).length));
  const lines = shown.map((f) => {
    const targets = f.targets.length > 0 ? ` on ${plain(formatList(f.targets, TARGETS_SHOWN))}` : '';
    const recovered = f.recoveredAtMs !== undefined ? `, recovered at ${formatClock(f.recoveredAtMs)}` : ', not recovered';
    return `${formatClock(f.atMs).padStart(width)}  ${plain(f.kind)}${targets}${recovered}`;
  });
  if (ordered.length > FAULTS_SHOWN) lines.push(`+${ordered.length - FAULTS_SHOWN} more`);
  return lines;
}

/** How often sets fell short of their Ready count and how long the slowest took to get back. */
function dips(report: Report): string {
  const back = report.replicaSetDips.filter((d) => d.toMs !== undefined).map((d) => d.toMs! - d.fromMs);
  const open = report.replicaSetDips.length - back.length;
  return `${formatInteger(report.replicaSetDips.length)} times short of Ready pods` +
    (back.length ? `, back at the desired count after p50 ${formatMs(percentileOf(back, 0.5))}, max ${formatMs(Math.max(...back))}` : '') +
    (open ? `, ${open} still short at the end` : '');
}

const percentileOf = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

/** Per lock: its terms and failovers, with the longest gap without a leader. */
function leaders(report: Report): string[] {
  const locks = [...new Set(report.leadership.map((t) => t.lock))].sort();
  if (locks.length === 0) return ['no leader election'];
  return locks.map((lock) => {
    const terms = report.leadership.filter((t) => t.lock === lock).length;
    const gaps = report.failovers.filter((f) => f.lock === lock).map((f) => f.gapMs);
    const failovers = gaps.length === 0 ? 'no failover' : `${gaps.length} failover${gaps.length === 1 ? '' : 's'}, longest ${formatMs(Math.max(...gaps))} without a leader`;
    return `${plain(lock)}: ${terms} term${terms === 1 ? '' : 's'}, ${failovers}`;
  });
}

/** Where a request's time went: the network both ways, the server's queue, its service. */
function requestTime(t: NonNullable<Report['requestTime']>): string[] {
  const p = (x: Percentiles) => `p50 ${formatMs(x.p50)}  p99 ${formatMs(x.p99)}  max ${formatMs(x.max)}`;
  return [`${formatInteger(t.requests)} requests over the bus, each ${formatMs(t.networkMs)} of network each way`,
    `waiting for a server slot: ${p(t.queueMs)}`, `served: ${p(t.serviceMs)}`,
    'a component also waits for its own client\'s QPS limit before sending'];
}

/** Each node group: its nodes at the start, fewest and most, its node-hours and what they cost. */
function autoscaling(a: NonNullable<Report['autoscaling']>): string[] {
  return a.groups.map((g) => {
    const counts = g.nodes.map(([, n]) => n);
    const cost = g.cost === undefined ? '' : `, cost ${formatCount(g.cost)}`;
    return `${plain(g.name)} (${g.min}..${g.max}): ${counts[0]} at the start, ${Math.min(...counts)} to ${Math.max(...counts)} nodes, ${formatCount(g.nodeHours)} node-hours${cost}`;
  });
}

/** Each zone and pool: the most CPU and memory used and requested at one sample, and what was allocatable then at most. */
function usage(u: NonNullable<Report['series']['usage']>): string[] {
  const peak = (values: readonly number[]) => (values.length ? Math.max(...values) : 0);
  const line = (what: string, r: ResourceSeries) =>
    `${plain(what)}: CPU used ${formatCount(peak(r.cpuUsed))}, requested ${formatCount(peak(r.cpuRequested))} of ${formatCount(peak(r.cpuAllocatable))} cores; ` +
    `memory used ${formatBytes(peak(r.memoryUsed))}, requested ${formatBytes(peak(r.memoryRequested))} of ${formatBytes(peak(r.memoryAllocatable))}`;
  return [...Object.entries(u.perZone).map(([z, r]) => line(`zone ${z}`, r)), ...Object.entries(u.perPool).map(([p, r]) => line(`pool ${p}`, r))];
}

/** Each autoscaled Deployment: the range of its desired and Ready replicas and the most CPU use its autoscaler measured. */
function replicas(d: NonNullable<Report['series']['deployments']>): string[] {
  const range = (values: readonly (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null);
    return known.length ? `${formatCount(Math.min(...known))} to ${formatCount(Math.max(...known))}` : 'none';
  };
  return Object.entries(d).map(([name, s]) => {
    const use = s.cpuUtilization.filter((v): v is number => v !== null);
    const target = s.targetCPUUtilization === undefined ? '' : ` (target ${s.targetCPUUtilization}%)`;
    return `${plain(name)} (${s.minReplicas}..${s.maxReplicas}): desired ${range(s.desired)}, ready ${range(s.ready)}, ` +
      (use.length ? `CPU use up to ${formatCount(Math.max(...use))}%${target}` : 'CPU use never measured');
  });
}

function wallLines(durationMs: number, wall: WallFigures): string[] {
  const speed = wall.wallMs > 0 ? ` (${formatCount(durationMs / wall.wallMs)} virtual s per wall s)` : '';
  return [...entry('wall time', `${formatMs(wall.wallMs)}${speed}`), ...entry('peak memory', `${formatBytes(wall.peakRssBytes)} RSS`)];
}

/** The block as lines joined by newlines, without a trailing newline (the caller prints it as one line). */
export function renderSummary(report: Report, wall?: WallFigures): string {
  const s = report.summary;
  const durationMs = report.scenario.durationMs;
  const pods = s.pods;
  const description = plain(report.scenario.description).trim();
  const lines = [
    ...entry('scenario', plain(report.scenario.name) + (description ? ` (${description})` : '')),
    ...entry('seed', String(report.seed)),
    ...entry('trace hash', plain(report.traceHash)),
    ...entry('virtual time', `${formatMs(durationMs)} (${formatClock(durationMs)})`),
    ...entry('nodes', formatInteger(s.nodes)),
    ...entry('pods', `${formatInteger(pods.created)} created, ${formatInteger(pods.scheduled)} scheduled`,
      `${formatInteger(pods.running)} running, ${formatInteger(pods.succeeded)} succeeded, ${formatInteger(pods.failed)} failed`,
      `${formatInteger(pods.pending)} pending, ${formatInteger(pods.deleted)} deleted, ${formatInteger(pods.evicted)} evicted`),
    ...entry('scheduling', `${formatCount(s.schedulingThroughputPerSec)} pods/s`,
      `latency ${percentiles(s.schedulingLatencyMs)}`,
      `${formatInteger(s.schedulingAttempts)} attempts, ${formatInteger(s.unschedulableAttempts)} unschedulable, ${formatInteger(s.preemptions)} preemptions`),
    ...entry('pod startup', percentiles(s.podStartupMs)),
    ...entry('unschedulable', ...reasons(report.unschedulable)),
    ...entry('faults', ...faults(report)),
    ...entry('evictions', `${formatInteger(s.taints)} NoExecute taints, ${formatInteger(s.taintEvictions)} pods deleted for them`),
    ...entry('leaders', ...leaders(report)),
    ...(report.replicaSetDips.length ? entry('replica sets', dips(report)) : []),
    ...entry('events', formatInteger(s.events) + perVirtualSecond(s.events, durationMs)),
    ...entry('api requests', formatInteger(s.apiRequests) + perVirtualSecond(s.apiRequests, durationMs)),
    ...(report.requestTime ? entry('request time', ...requestTime(report.requestTime)) : []),
    ...(report.autoscaling ? entry('autoscaling', ...autoscaling(report.autoscaling)) : []),
    ...(report.series.usage ? entry('usage peaks', ...usage(report.series.usage)) : []),
    ...(report.series.deployments && Object.keys(report.series.deployments).length ? entry('replicas', ...replicas(report.series.deployments)) : []),
    ...(wall ? wallLines(durationMs, wall) : []),
  ];
  return lines.join('\n');
}
