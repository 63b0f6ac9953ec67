// SVG charts as strings: a line chart over virtual time and a bar chart over labelled buckets.
// Pure functions of their options (the same input gives the same markup) with a bounded output:
// lines keep at most a few points per pixel column, hover targets and fault markers are capped.
// Every coordinate goes through `coord`, so no "NaN" or "Infinity" can reach the page; every text
// goes through `escapeHtml`. Hover details are SVG <title> elements: tooltips without script.
import { escapeHtml } from './escape.ts';
import { formatClock, formatCount, formatInteger, formatPercent } from './format.ts';
import { clockDigits, niceTicks, timeTicks } from './ticks.ts';

/** Tableau 10: distinct hues that stay readable on white; series past ten repeat them dashed. */
export const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#76b7b2', '#b07aa1', '#edc948', '#9c755f', '#ff9da7', '#bab0ac'];
const MARKER_COLOUR = '#c0392b';
const WIDTH = 640;
const PLOT_HEIGHT = 170;
const MARGIN = { left: 54, right: 30, bottom: 30 };
const CHAR_WIDTH = 6.2; // at font-size 11, near enough for layout
const MAX_HOVER_COLUMNS = 240;
const MAX_MARKERS = 200;
const MAX_LEGEND_LABEL = 40;

export interface LineSeries {
  label: string;
  /** One value per sample time; missing or non-finite values leave a gap. */
  values: readonly number[];
  color?: string;
}

/** A fault on a time chart: a dashed line at `atMs`, shaded until `untilMs` when it recovered. */
export interface TimeMarker {
  atMs: number;
  untilMs?: number;
  label: string;
}

export interface LineChartOptions {
  title: string;
  tMs: readonly number[];
  series: readonly LineSeries[];
  /** The least top of the value axis (100 for percentages); data above it still fits. */
  yMax?: number;
  /** Tick labels and tooltips; formatCount by default. */
  yFormat?: (value: number) => string;
  markers?: readonly TimeMarker[];
  /** An x axis of plain numbers (e.g. nodes) instead of virtual time: `tMs` then holds those numbers. */
  xFormat?: (x: number) => string;
}

export interface BarChartOptions {
  title: string;
  labels: readonly string[];
  values: readonly number[];
  color?: string;
}

interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A coordinate with one decimal; anything not finite becomes 0 rather than "NaN". */
function coord(v: number): string {
  if (!Number.isFinite(v)) return '0';
  const r = Math.round(v * 10) / 10;
  return String(r === 0 ? 0 : r);
}

function extent(values: Iterable<number>): [number, number] | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : undefined;
}

function shorten(label: string): string {
  return label.length > MAX_LEGEND_LABEL ? `${label.slice(0, MAX_LEGEND_LABEL - 1)}…` : label;
}

function svgOpen(title: string, height: number): string {
  const t = escapeHtml(title);
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${coord(height)}" role="img" aria-label="${t}" font-size="11"><title>${t}</title>`;
}

interface LegendItem {
  label: string;
  color: string;
  dash?: string;
}

/** Swatches and labels in rows that wrap at the plot's width. */
function legend(items: readonly LegendItem[], frameLeft: number, maxWidth: number): { svg: string; height: number } {
  const parts: string[] = [];
  let x = 0;
  let row = 0;
  for (const item of items) {
    const label = shorten(item.label);
    const itemWidth = 22 + label.length * CHAR_WIDTH + 14;
    if (x > 0 && x + itemWidth > maxWidth) {
      x = 0;
      row++;
    }
    const y = 12 + row * 16;
    const dash = item.dash ? ` stroke-dasharray="${item.dash}"` : '';
    parts.push(
      `<line x1="${coord(frameLeft + x)}" y1="${y - 4}" x2="${coord(frameLeft + x + 16)}" y2="${y - 4}" stroke="${item.color}" stroke-width="3"${dash}/>` +
        `<text x="${coord(frameLeft + x + 22)}" y="${y}" fill="#333">${escapeHtml(label)}</text>`,
    );
    x += itemWidth;
  }
  return { svg: `<g class="legend">${parts.join('')}</g>`, height: items.length === 0 ? 0 : (row + 1) * 16 + 4 };
}

function valueAxis(ticks: readonly number[], sy: (v: number) => number, frame: Frame, format: (v: number) => string): string {
  const right = frame.left + frame.width;
  return ticks
    .map((t) => {
      const y = coord(sy(t));
      return `<line x1="${frame.left}" y1="${y}" x2="${right}" y2="${y}" stroke="#e3e6ea"/>` +
        `<text x="${frame.left - 6}" y="${y}" dy="0.32em" text-anchor="end" fill="#555">${escapeHtml(format(t))}</text>`;
    })
    .join('');
}

function frameLines(frame: Frame): string {
  const bottom = frame.top + frame.height;
  return `<line x1="${frame.left}" y1="${coord(frame.top)}" x2="${frame.left}" y2="${coord(bottom)}" stroke="#888"/>` +
    `<line x1="${frame.left}" y1="${coord(bottom)}" x2="${frame.left + frame.width}" y2="${coord(bottom)}" stroke="#888"/>`;
}

function emptyChart(title: string, message: string): string {
  const frame: Frame = { left: MARGIN.left, top: 10, width: WIDTH - MARGIN.left - MARGIN.right, height: PLOT_HEIGHT };
  const height = frame.top + frame.height + MARGIN.bottom;
  return svgOpen(title, height) + frameLines(frame) +
    `<text x="${coord(frame.left + frame.width / 2)}" y="${coord(frame.top + frame.height / 2)}" text-anchor="middle" fill="#777">${escapeHtml(message)}</text></svg>`;
}

/** Per pixel column, the first, lowest, highest and last point: the line looks the same, with bounded size. */
function decimate(points: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < points.length; ) {
    const column = Math.round(points[i]![0]);
    let j = i;
    let low = i;
    let high = i;
    for (; j < points.length && Math.round(points[j]![0]) === column; j++) {
      if (points[j]![1] < points[low]![1]) low = j;
      if (points[j]![1] > points[high]![1]) high = j;
    }
    for (const k of [...new Set([i, low, high, j - 1])].sort((a, b) => a - b)) out.push(points[k]!);
    i = j;
  }
  return out;
}

/** The series as polylines, broken at missing values; a lone point is drawn as a dot. */
function seriesPath(tMs: readonly number[], values: readonly number[], sx: (t: number) => number, sy: (v: number) => number, item: LegendItem): string {
  const segments: [number, number][][] = [[]];
  const n = Math.min(tMs.length, values.length);
  for (let i = 0; i < n; i++) {
    const t = tMs[i]!;
    const v = values[i]!;
    if (Number.isFinite(t) && Number.isFinite(v)) segments[segments.length - 1]!.push([sx(t), sy(v)]);
    else if (segments[segments.length - 1]!.length > 0) segments.push([]);
  }
  const dash = item.dash ? ` stroke-dasharray="${item.dash}"` : '';
  return segments
    .filter((s) => s.length > 0)
    .map((s) => {
      if (s.length === 1) return `<circle cx="${coord(s[0]![0])}" cy="${coord(s[0]![1])}" r="3" fill="${item.color}"/>`;
      const points = decimate(s).map(([x, y]) => `${coord(x)},${coord(y)}`).join(' ');
      return `<polyline points="${points}" fill="none" stroke="${item.color}" stroke-width="1.8" stroke-linejoin="round"${dash}/>`;
    })
    .join('');
}

function markerLayer(markers: readonly TimeMarker[], domain: [number, number], sx: (t: number) => number, frame: Frame): string {
  const bottom = coord(frame.top + frame.height);
  return markers
    .filter((m) => Number.isFinite(m.atMs) && m.atMs >= domain[0] && m.atMs <= domain[1])
    .slice(0, MAX_MARKERS)
    .map((m) => {
      const x = coord(sx(m.atMs));
      const until = m.untilMs !== undefined && Number.isFinite(m.untilMs) && m.untilMs > m.atMs ? Math.min(m.untilMs, domain[1]) : undefined;
      const band = until === undefined ? '' :
        `<rect x="${x}" y="${coord(frame.top)}" width="${coord(sx(until) - sx(m.atMs))}" height="${coord(frame.height)}" fill="${MARKER_COLOUR}" fill-opacity="0.07"/>`;
      return `<g class="marker"><title>${escapeHtml(m.label)}</title>${band}` +
        `<line x1="${x}" y1="${coord(frame.top)}" x2="${x}" y2="${bottom}" stroke="${MARKER_COLOUR}" stroke-width="1.2" stroke-dasharray="4 3"/>` +
        `<line x1="${x}" y1="${coord(frame.top)}" x2="${x}" y2="${bottom}" stroke="transparent" stroke-width="8"/></g>`;
    })
    .join('');
}

/** Transparent columns, one per sample (or group of samples), whose tooltip lists every series' value. */
function hoverColumns(o: LineChartOptions, sx: (t: number) => number, frame: Frame, formatT: (t: number) => string, formatV: (v: number) => string): string {
  const n = o.tMs.length;
  const columns = Math.min(n, MAX_HOVER_COLUMNS);
  const right = frame.left + frame.width;
  const mid = (i: number) => (sx(o.tMs[i]!) + sx(o.tMs[i + 1]!)) / 2;
  const parts: string[] = [];
  for (let c = 0; c < columns; c++) {
    const first = Math.floor((c * n) / columns);
    const last = Math.floor(((c + 1) * n) / columns) - 1;
    const x0 = first === 0 ? frame.left : mid(first - 1);
    const x1 = last >= n - 1 ? right : mid(last);
    if (!Number.isFinite(o.tMs[last]!) || !(x1 > x0)) continue;
    const lines = [formatT(o.tMs[last]!), ...o.series.map((s) => `${s.label}: ${formatV(s.values[last] ?? NaN)}`)];
    parts.push(`<rect class="hover" x="${coord(x0)}" y="${coord(frame.top)}" width="${coord(x1 - x0)}" height="${coord(frame.height)}" fill="transparent"><title>${escapeHtml(lines.join('\n'))}</title></rect>`);
  }
  return parts.join('');
}

/** Values over virtual time, x from 0 (or the first sample) to the last sample, y from 0. */
export function lineChart(o: LineChartOptions): string {
  const times = extent(o.tMs);
  if (!times || o.series.length === 0) return emptyChart(o.title, 'No samples');
  const formatV = o.yFormat ?? formatCount;
  const items: LegendItem[] = o.series.map((s, i) => ({
    label: s.label,
    color: s.color ?? PALETTE[i % PALETTE.length]!,
    ...(i >= PALETTE.length ? { dash: '6 3' } : {}),
  }));
  const key = legend(items, MARGIN.left, WIDTH - MARGIN.left - MARGIN.right);
  const frame: Frame = { left: MARGIN.left, top: 10 + key.height, width: WIDTH - MARGIN.left - MARGIN.right, height: PLOT_HEIGHT };
  const start = o.xFormat ? times[0] : Math.min(0, times[0]);
  const domain: [number, number] = [start, times[1] > start ? times[1] : start + (o.xFormat ? 1 : 1000)];
  const values = extent(o.series.flatMap((s) => s.values.slice(0, o.tMs.length))) ?? [0, 0];
  const y = niceTicks(Math.min(0, values[0]), Math.max(o.yMax ?? 0, values[1]));
  const sx = (t: number) => frame.left + ((t - domain[0]) / (domain[1] - domain[0])) * frame.width;
  const sy = (v: number) => frame.top + frame.height - ((v - y.min) / (y.max - y.min)) * frame.height;
  const xTicks = o.xFormat ? { ticksMs: niceTicks(domain[0], domain[1]).ticks.filter((t) => t >= domain[0] && t <= domain[1]), stepMs: 0 } : timeTicks(domain[0], domain[1]);
  const clock = { withHours: domain[1] >= 3_600_000, fractionDigits: clockDigits(xTicks.stepMs) };
  const formatT = o.xFormat ?? ((t: number) => formatClock(t, clock));
  const bottom = frame.top + frame.height;
  const xAxis = xTicks.ticksMs
    .map((t) => {
      const x = coord(sx(t));
      return `<line x1="${x}" y1="${coord(frame.top)}" x2="${x}" y2="${coord(bottom)}" stroke="#f0f2f4"/>` +
        `<line x1="${x}" y1="${coord(bottom)}" x2="${x}" y2="${coord(bottom + 4)}" stroke="#888"/>` +
        `<text x="${x}" y="${coord(bottom + 16)}" text-anchor="middle" fill="#555">${escapeHtml(formatT(t))}</text>`;
    })
    .join('');
  return svgOpen(o.title, bottom + MARGIN.bottom) + key.svg + valueAxis(y.ticks, sy, frame, formatV) + xAxis +
    o.series.map((s, i) => seriesPath(o.tMs, s.values, sx, sy, items[i]!)).join('') +
    frameLines(frame) + hoverColumns(o, sx, frame, formatT, formatV) + markerLayer(o.markers ?? [], domain, sx, frame) + '</svg>';
}

/** One bar per label; labels tilt when they would not fit side by side. */
export function barChart(o: BarChartOptions): string {
  const n = Math.min(o.labels.length, o.values.length);
  if (n === 0) return emptyChart(o.title, 'No data');
  const values = o.values.slice(0, n).map((v) => (Number.isFinite(v) && v > 0 ? v : 0));
  const total = values.reduce((a, b) => a + b, 0);
  const longest = Math.max(...o.labels.slice(0, n).map((l) => shorten(l).length));
  const band = (WIDTH - MARGIN.left - MARGIN.right) / n;
  const tilt = longest * CHAR_WIDTH + 6 > band;
  const every = Math.max(1, Math.ceil(14 / band)); // a label every 14 px at most
  // Room above the plot for the count over the tallest bar.
  const frame: Frame = { left: MARGIN.left, top: 20, width: WIDTH - MARGIN.left - MARGIN.right, height: PLOT_HEIGHT };
  const bottom = frame.top + frame.height;
  const labelSpace = tilt ? Math.min(110, 14 + longest * CHAR_WIDTH * 0.7) : MARGIN.bottom;
  const y = niceTicks(0, Math.max(0, ...values));
  const sy = (v: number) => bottom - (v / (y.max - y.min)) * frame.height;
  const colour = o.color ?? PALETTE[0]!;
  const bars = values.map((v, i) => {
    const label = o.labels[i]!;
    const cx = frame.left + (i + 0.5) * band;
    const barWidth = Math.max(1, band * 0.8);
    const share = total > 0 ? ` (${formatPercent(v / total)})` : '';
    const top = sy(v);
    const count = band >= 26 && v > 0 ? `<text x="${coord(cx)}" y="${coord(top - 4)}" text-anchor="middle" fill="#333">${escapeHtml(formatCount(v))}</text>` : '';
    const text = i % every !== 0 ? '' : tilt
      ? `<text x="${coord(cx)}" y="${coord(bottom + 12)}" text-anchor="end" transform="rotate(-40 ${coord(cx)} ${coord(bottom + 12)})" fill="#555">${escapeHtml(shorten(label))}</text>`
      : `<text x="${coord(cx)}" y="${coord(bottom + 16)}" text-anchor="middle" fill="#555">${escapeHtml(label)}</text>`;
    return `<g><title>${escapeHtml(`${label}: ${formatInteger(v)}${share}`)}</title>` +
      `<rect class="hover" x="${coord(frame.left + i * band)}" y="${coord(frame.top)}" width="${coord(band)}" height="${coord(frame.height)}" fill="transparent"/>` +
      `<rect x="${coord(cx - barWidth / 2)}" y="${coord(top)}" width="${coord(barWidth)}" height="${coord(bottom - top)}" fill="${colour}"/>${count}</g>${text}`;
  });
  return svgOpen(o.title, bottom + labelSpace) + valueAxis(y.ticks, sy, frame, formatCount) + bars.join('') + frameLines(frame) + '</svg>';
}
