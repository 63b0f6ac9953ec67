// report.html: one self-contained page drawn from a Report. Inline CSS and inline SVG only (no
// scripts, fonts, stylesheets or images to fetch), so it opens offline and can be mailed around.
// A pure function of the report: no dates, no randomness, so the same report gives the same bytes.
// All text from the report is escaped; hover details are SVG <title> tooltips.
import { barChart, lineChart, type LineSeries, type TimeMarker } from './charts.ts';
import { card, CSS, figure, section, table } from './page.ts';
import { escapeHtml } from './escape.ts';
import { autoscalingSection } from './autoscaling-html.ts';
import { usageSection } from './usage-html.ts';
import { replicasSection } from './replicas-html.ts';
import { formatClock, formatCount, formatInteger, formatList, formatMs, formatPercent } from './format.ts';
import type { FaultRecord, Histogram, Percentiles, Report } from './types.ts';

const MAX_REASON_ROWS = 100;
const MAX_FAULT_ROWS = 500;
const TARGETS_SHOWN = 5;
const TARGETS_IN_TOOLTIP = 100;
const TARGETS_ON_CHART = 2;
const COLOURS = { pending: '#f28e2b', running: '#4e79a7', succeeded: '#59a14f', failed: '#e15759', memory: '#b07aa1' };

function perVirtualSecond(count: number, durationMs: number): string {
  return durationMs > 0 ? `${formatCount(count / (durationMs / 1000))}/s` : '–';
}

function percentileRows(p: Percentiles): [string, string][] {
  return [['p50', formatMs(p.p50)], ['p90', formatMs(p.p90)], ['p99', formatMs(p.p99)], ['max', formatMs(p.max)], ['pods measured', formatInteger(p.count)]];
}

function header(r: Report): string {
  const meta: [string, string][] = [
    ['Seed', String(r.seed)],
    ['Virtual duration', `${formatMs(r.scenario.durationMs)} (${formatClock(r.scenario.durationMs)})`],
    ['Sample interval', formatMs(r.series.intervalMs)],
  ];
  const items = meta.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('');
  const description = r.scenario.description ? `<p class="desc">${escapeHtml(r.scenario.description)}</p>` : '';
  return `<header><h1>orchsim run: ${escapeHtml(r.scenario.name)}</h1>${description}` +
    `<dl class="meta">${items}<div><dt>Trace hash</dt><dd><code>${escapeHtml(r.traceHash)}</code></dd></div></dl></header>`;
}

function summarySection(r: Report): string {
  const s = r.summary;
  const durationMs = r.scenario.durationMs;
  return section('summary', 'Summary', `<div class="cards">${[
    card('Cluster', [
      ['Nodes', formatInteger(s.nodes)],
      ['Zones', formatInteger(r.zones.length)],
      ['Events', formatInteger(s.events)],
      ['Events per virtual second', perVirtualSecond(s.events, durationMs)],
      ['API requests', formatInteger(s.apiRequests)],
      ['API requests per virtual second', perVirtualSecond(s.apiRequests, durationMs)],
    ]),
    card('Pods', [
      ['Created', formatInteger(s.pods.created)],
      ['Scheduled', formatInteger(s.pods.scheduled)],
      ['Running', formatInteger(s.pods.running)],
      ['Succeeded', formatInteger(s.pods.succeeded)],
      ['Failed', formatInteger(s.pods.failed)],
      ['Pending', formatInteger(s.pods.pending)],
      ['Deleted', formatInteger(s.pods.deleted)],
      ['Evicted', formatInteger(s.pods.evicted)],
    ]),
    card('Scheduling', [
      ['Throughput', `${formatCount(s.schedulingThroughputPerSec)} pods/s`],
      ['Attempts', formatInteger(s.schedulingAttempts)],
      ['Unschedulable attempts', formatInteger(s.unschedulableAttempts)],
      ['Preemptions', formatInteger(s.preemptions)],
      ...percentileRows(s.schedulingLatencyMs).map(([k, v]): [string, string] => [`Latency ${k}`, v]),
    ]),
    card('Pod startup (creation to Running)', percentileRows(s.podStartupMs)),
    ...(r.requestTime ? [requestTimeCard(r.requestTime)] : []),
  ].join('\n')}</div>`);
}

/** Where the requests' time went (the scenario's request-time model): network, the server's queue, its service. */
function requestTimeCard(t: NonNullable<Report['requestTime']>): string {
  return card('Request time (each API request)', [
    ['Requests over the bus', formatInteger(t.requests)],
    ['Network, each way', formatMs(t.networkMs)],
    ['Waiting for a server slot p50 / p99', `${formatMs(t.queueMs.p50)} / ${formatMs(t.queueMs.p99)}`],
    ['Served p50 / p99', `${formatMs(t.serviceMs.p50)} / ${formatMs(t.serviceMs.p99)}`],
  ]);
}

/** Each fault's line on the time charts, labelled with its kind and its zone or first targets; the tooltip tells the rest. */
function faultMarkers(faults: readonly FaultRecord[]): TimeMarker[] {
  return faults.map((f) => ({
    atMs: f.atMs,
    ...(f.recoveredAtMs !== undefined ? { untilMs: f.recoveredAtMs } : {}),
    // A zone's fault is named by its zone: its nodes are the whole zone (or drawn from it).
    label: [f.kind, f.kind === 'zonePartition' && f.zone ? f.zone : formatList(f.targets, TARGETS_ON_CHART)].filter(Boolean).join(' '),
    detail: `${f.kind}${f.zone ? ` (${f.zone})` : ''} at ${formatClock(f.atMs)}: ${formatList(f.targets, TARGETS_SHOWN) || 'no targets'}` +
      (f.recoveredAtMs !== undefined ? `, recovered at ${formatClock(f.recoveredAtMs)}` : ''),
  }));
}

const percentValues = (ratios: readonly number[]) => ratios.map((v) => v * 100);
const percentAxis = { yMax: 100, yFormat: (v: number) => (Number.isFinite(v) ? `${formatCount(v)}%` : '–') };

function timeSection(r: Report, markers: readonly TimeMarker[]): string {
  const s = r.series;
  const chart = (title: string, series: LineSeries[], extra: { yMax?: number; yFormat?: (v: number) => string } = {}) =>
    figure(title, lineChart({ title, tMs: s.tMs, series, markers, ...extra }));
  const note = markers.length > 0 ? '<p class="muted">Dashed red lines mark faults, labelled with their kind and targets; the shading lasts until recovery.</p>' : '';
  return section('time', 'Over virtual time', `${note}<div class="charts">${[
    chart('Pods by phase', [
      { label: 'pending', values: s.podsPending, color: COLOURS.pending },
      { label: 'running', values: s.podsRunning, color: COLOURS.running },
      { label: 'succeeded', values: s.podsSucceeded, color: COLOURS.succeeded },
      { label: 'failed', values: s.podsFailed, color: COLOURS.failed },
    ]),
    chart('Nodes ready', [{ label: 'nodes ready', values: s.nodesReady, color: COLOURS.succeeded }]),
    chart('Pods scheduled per second', [{ label: 'bindings/s', values: s.scheduledPerSec, color: COLOURS.running }]),
    chart('Events and API requests per second', [
      { label: 'events/s', values: s.eventsPerSec },
      { label: 'API requests/s', values: s.apiRequestsPerSec },
    ]),
    chart('CPU and memory requested / allocatable', [
      { label: 'CPU', values: percentValues(s.cpuUtilisation), color: COLOURS.running },
      { label: 'memory', values: percentValues(s.memoryUtilisation), color: COLOURS.memory },
    ], percentAxis),
  ].join('\n')}</div>`);
}

function bucketLabels(h: Histogram): string[] {
  const lastBound = h.boundsMs[h.boundsMs.length - 1];
  return h.counts.map((_, i) => {
    const bound = h.boundsMs[i];
    if (bound !== undefined) return `≤${formatMs(bound)}`;
    return lastBound === undefined ? 'all' : `>${formatMs(lastBound)}`;
  });
}

function histogramSection(r: Report): string {
  const chart = (title: string, h: Histogram, p: Percentiles) => {
    const note = p.count > 0 ? `p50 ${formatMs(p.p50)} · p90 ${formatMs(p.p90)} · p99 ${formatMs(p.p99)} · ${formatInteger(p.count)} pods` : '';
    return figure(title, barChart({ title, labels: bucketLabels(h), values: h.counts }), note);
  };
  return section('latency', 'Latency distributions', `<div class="charts">${[
    chart('Scheduling latency (creation to binding)', r.histograms.schedulingLatencyMs, r.summary.schedulingLatencyMs),
    chart('Pod startup (creation to Running)', r.histograms.podStartupMs, r.summary.podStartupMs),
  ].join('\n')}</div>`);
}

/** The report's zones in its order, then any zone only the series know about, sorted. */
function zoneNames(r: Report): string[] {
  const extra = Object.keys(r.series.perZone).filter((z) => !r.zones.includes(z)).sort();
  return [...r.zones, ...extra];
}

function zoneSection(r: Report, markers: readonly TimeMarker[]): string {
  const zones = zoneNames(r);
  if (zones.length === 0) return section('zones', 'By zone', '<p class="muted">No zones.</p>');
  const perZone = (pick: (z: Report['series']['perZone'][string]) => readonly number[], scale = 1): LineSeries[] =>
    zones.map((z) => {
      const data = Object.hasOwn(r.series.perZone, z) ? pick(r.series.perZone[z]!) : [];
      return { label: z === '' ? '(no zone)' : z, values: scale === 1 ? data : data.map((v) => v * scale) };
    });
  const chart = (title: string, series: LineSeries[], extra: { yMax?: number; yFormat?: (v: number) => string } = {}) =>
    figure(title, lineChart({ title, tMs: r.series.tMs, series, markers, ...extra }));
  return section('zones', 'By zone', `<div class="charts">${[
    chart('Nodes ready by zone', perZone((z) => z.nodesReady)),
    chart('Pods running by zone', perZone((z) => z.podsRunning)),
    chart('CPU requested / allocatable by zone', perZone((z) => z.cpuUtilisation, 100), percentAxis),
  ].join('\n')}</div>`);
}

function unschedulableSection(r: Report): string {
  const entries = Object.entries(r.unschedulable).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return section('unschedulable', 'Unschedulable reasons', '<p class="muted">Every pod was scheduled at its first attempt.</p>');
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  const rows = entries.slice(0, MAX_REASON_ROWS).map(([reason, n]) => [
    reason,
    { text: formatInteger(n), numeric: true },
    { text: total > 0 ? formatPercent(n / total) : '–', numeric: true },
  ]);
  const more = entries.length > MAX_REASON_ROWS ? `<p class="muted">${entries.length - MAX_REASON_ROWS} more reasons not shown.</p>` : '';
  return section('unschedulable', 'Unschedulable reasons',
    '<p class="muted">Pods that failed at least one scheduling attempt, by the binding constraint of their last failed attempt: among the nodes their own selector, affinity and tolerations allow, the reason that ruled out the most, counted as its "0/N nodes are available" message counts (of equal counts, the one the message lists first); a pod those bounds left no node counts under the bound that ruled out the most.</p>' +
      table(['Reason', { text: 'Pods', numeric: true }, { text: 'Share', numeric: true }], rows) + more);
}

function pendingSection(r: Report): string {
  if (r.pending.length === 0) return section('pending', 'Pods still pending', '<p class="muted">No pod was waiting for a node at the end of the run.</p>');
  const rows = r.pending.map((p) => [
    p.pod,
    { text: formatInteger(p.attempts), numeric: true },
    { text: formatClock(p.lastAttemptMs), numeric: true },
    p.message,
    Object.entries(p.filtered).map(([plugin, reasons]) => `${plugin}: ${Object.values(reasons).reduce((a, b) => a + b, 0)}`).join(', '),
  ]);
  return section('pending', 'Pods still pending',
    '<p class="muted">The scheduler\'s last decision for each pod still without a node at the end (the first 100 by name): its message, and how many nodes each filter plugin ruled out.</p>' +
      table(['Pod', { text: 'Attempts', numeric: true }, { text: 'Last attempt', numeric: true }, 'Why', 'Nodes filtered out by'], rows));
}

const ZONE_STATES = ['Initial', 'Normal', 'PartialDisruption', 'FullDisruption'];

/** A zone's state as its index in ZONE_STATES; a state not listed leaves a gap rather than a point below the axis. */
const zoneStateIndex = (state: string) => (ZONE_STATES.includes(state) ? ZONE_STATES.indexOf(state) : Number.NaN);

/** Zone states, NoExecute taints and evictions, and the leaders of each lock with the failovers between them. */
function controlPlaneSection(r: Report, markers: readonly TimeMarker[]): string {
  const s = r.series;
  const chart = (title: string, series: LineSeries[], extra: { yCategories?: readonly string[] } = {}) =>
    figure(title, lineChart({ title, tMs: s.tMs, series, markers, ...extra }));
  const zones = Object.keys(s.zoneStates).sort();
  // Taints and the evictions they cause on two charts, each on its own scale: a zone is tainted at
  // 0.1 nodes/s while its pods go at several per second, so on one scale the taints lie flat on
  // zero. Two charts over the same time axis, rather than a second value axis on one: with two
  // axes, where the lines cross and which is higher means nothing, yet it is what the eye reads.
  const charts = [
    chart('NoExecute taints set per second', [{ label: 'taints/s', values: s.taintsPerSec, color: COLOURS.failed }]),
    chart('Pods deleted for NoExecute taints per second', [{ label: 'evictions/s', values: s.taintEvictionsPerSec, color: COLOURS.pending }]),
    ...(zones.length ? [chart('Zone states (node lifecycle controller)', zones.map((z) => ({ label: z, values: s.zoneStates[z]!.map(zoneStateIndex) })),
      { yCategories: ZONE_STATES })] : []),
  ];
  const terms = r.leadership.map((t) => [t.lock, t.holder, { text: formatClock(t.fromMs), numeric: true }, { text: t.toMs !== undefined ? formatClock(t.toMs) : 'end', numeric: true }]);
  const failovers = r.failovers.map((f) => [f.lock, `${f.from} → ${f.to}`, { text: formatClock(f.atMs), numeric: true }, { text: formatMs(f.gapMs), numeric: true }]);
  const termTable = terms.length ? table(['Lock', 'Leader', { text: 'From', numeric: true }, { text: 'To', numeric: true }], terms) : '<p class="muted">No leader election.</p>';
  const failoverTable = failovers.length ? table(['Lock', 'Failover', { text: 'Leaderless from', numeric: true }, { text: 'Without a leader', numeric: true }], failovers) : '';
  const dips = r.replicaSetDips.slice(0, MAX_FAULT_ROWS).map((d) => [d.replicaSet, { text: formatInteger(d.desired), numeric: true }, { text: formatClock(d.fromMs), numeric: true },
    { text: d.toMs !== undefined ? formatMs(d.toMs - d.fromMs) : 'still short', numeric: true }]);
  const dipTable = dips.length ? `<h3>ReplicaSets short of Ready pods</h3>\n${table(['ReplicaSet', { text: 'Desired', numeric: true }, { text: 'From', numeric: true }, { text: 'Back after', numeric: true }], dips)}` : '';
  return section('control-plane', 'Control plane', `<div class="charts">${charts.join('\n')}</div>\n<h3>Leaders</h3>\n${termTable}\n${failoverTable}\n${dipTable}`);
}

function faultSection(r: Report): string {
  if (r.faults.length === 0) return section('faults', 'Faults', '<p class="muted">No faults.</p>');
  const faults = r.faults.map((f, i) => ({ f, i })).sort((a, b) => a.f.atMs - b.f.atMs || a.i - b.i).map(({ f }) => f);
  const rows = faults.slice(0, MAX_FAULT_ROWS).map((f) => [
    f.kind,
    { text: formatClock(f.atMs), numeric: true },
    { text: formatList(f.targets, TARGETS_SHOWN) || '–', title: formatList(f.targets, TARGETS_IN_TOOLTIP) },
    { text: f.recoveredAtMs !== undefined ? formatClock(f.recoveredAtMs) : '–', numeric: true },
    { text: f.recoveredAtMs !== undefined ? formatMs(f.recoveredAtMs - f.atMs) : '–', numeric: true },
  ]);
  const more = faults.length > MAX_FAULT_ROWS ? `<p class="muted">${faults.length - MAX_FAULT_ROWS} more faults not shown.</p>` : '';
  const head = ['Kind', { text: 'At', numeric: true }, 'Targets', { text: 'Recovered at', numeric: true }, { text: 'Lasted', numeric: true }];
  return section('faults', 'Faults', table(head, rows) + more);
}

export function renderReportHtml(report: Report): string {
  const markers = faultMarkers(report.faults);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>orchsim: ${escapeHtml(report.scenario.name)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body><main>',
    header(report),
    summarySection(report),
    timeSection(report, markers),
    histogramSection(report),
    zoneSection(report, markers),
    // Only in a report of a cluster that breathes: any other page stays as it was, byte for byte.
    ...[usageSection(report, markers), replicasSection(report, markers)].filter((html) => html !== ''),
    autoscalingSection(report, markers),
    controlPlaneSection(report, markers),
    unschedulableSection(report),
    pendingSection(report),
    faultSection(report),
    `<footer>orchsim report, format version ${escapeHtml(String(report.version))}. Times are virtual, from the start of the run.</footer>`,
    '</main></body>',
    '</html>',
    '',
  ].join('\n');
}
