// SVG charts as strings: a line chart over virtual time and a bar chart over labelled buckets.
// Pure functions of their options (the same input gives the same markup) with a bounded output:
// lines keep at most a few points per pixel column, hover targets and fault markers are capped.
// Every coordinate goes through `coord`, so no "NaN" or "Infinity" can reach the page; every text
// goes through `escapeHtml`. Hover details are SVG <title> elements: tooltips without script.
// No text is cut short or drawn over another: the margins grow to the widest tick label, legend
// labels wrap (chart-text.ts), fault labels stack in rows above the plot.
import { coord, legend, LINE_HEIGHT, textWidth, widest, type LegendItem } from './chart-text.ts';
import { escapeHtml } from './escape.ts';
import { formatClock, formatCount, formatInteger, formatPercent } from './format.ts';
import { clockDigits, niceTicks, timeTicks } from './ticks.ts';

/** Tableau 10: distinct hues that stay readable on white; series past ten repeat them dashed. */
export const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#76b7b2', '#b07aa1', '#edc948', '#9c755f', '#ff9da7', '#bab0ac'];
const MARKER_COLOUR = '#c0392b';
const WIDTH = 640;
const PLOT_HEIGHT = 170;
const MARGIN = { left: 54, right: 30, bottom: 30 };
const LABEL_GAP = 8; // between two labels side by side
const TILT = (40 * Math.PI) / 180; // of bar labels too wide to stand side by side
const MAX_HOVER_COLUMNS = 240;
const MAX_MARKERS = 200;
// Rows of fault labels above a plot; a fault that finds no room keeps its line and tooltip (the
// report's fault table lists every fault).
const MAX_MARKER_LABEL_ROWS = 4;

export interface LineSeries {
  label: string;
  /** One value per sample time; missing or non-finite values leave a gap. */
  values: readonly number[];
  color?: string;
}

/** A fault on a time chart: a dashed line at `atMs` labelled `label`, shaded until `untilMs` when it recovered. */
export interface TimeMarker {
  atMs: number;
  untilMs?: number;
  /** Drawn beside the line, so short: what and where (`zonePartition pool-01 +19 more`). */
  label: string;
  /** The tooltip, when it says more than the label. */
  detail?: string;
}

export interface LineChartOptions {
  title: string;
  tMs: readonly number[];
  series: readonly LineSeries[];
  /** The least top of the value axis (100 for percentages); data above it still fits. */
  yMax?: number;
  /** Tick labels and tooltips; formatCount by default. */
  yFormat?: (value: number) => string;
  /** A value axis of named states: values are indices into these names, with a tick (and label) for each. */
  yCategories?: readonly string[];
  markers?: readonly TimeMarker[];
  /** An x axis of plain numbers (e.g. nodes) instead of virtual time: `tMs` then holds those numbers. */
  xFormat?: (x: number) => string;
  /** The plain numbers are whole (nodes): ticks one or more apart, never between two. */
  xIntegers?: boolean;
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

function svgOpen(title: string, height: number): string {
  const t = escapeHtml(title);
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${coord(height)}" role="img" aria-label="${t}" font-size="11"><title>${t}</title>`;
}

interface ValueScale {
  min: number;
  max: number;
  ticks: readonly number[];
  format: (v: number) => string;
}

function valueScale(o: LineChartOptions): ValueScale {
  const names = o.yCategories;
  // A tick per name and none between: a tick between two names has no name of its own, and
  // rounding it to a neighbour's names that neighbour twice.
  if (names?.length) return { min: 0, max: Math.max(1, names.length - 1), ticks: names.map((_, i) => i), format: (v) => names[Math.round(v)] ?? '–' };
  const values = extent(o.series.flatMap((s) => s.values.slice(0, o.tMs.length))) ?? [0, 0];
  return { ...niceTicks(Math.min(0, values[0]), Math.max(o.yMax ?? 0, values[1])), format: o.yFormat ?? formatCount };
}

/** Grid lines and tick labels, right-aligned in the left margin (which `leftMargin` makes wide enough). */
function valueAxis(scale: ValueScale, sy: (v: number) => number, frame: Frame): string {
  const right = frame.left + frame.width;
  const ticks = scale.ticks
    .map((t) => {
      const y = coord(sy(t));
      return `<line x1="${frame.left}" y1="${y}" x2="${right}" y2="${y}" stroke="#e3e6ea"/>` +
        `<text x="${frame.left - 6}" y="${y}" dy="0.32em" text-anchor="end" fill="#555">${escapeHtml(scale.format(t))}</text>`;
    })
    .join('');
  return `<g class="y-axis">${ticks}</g>`;
}

/** The left margin: room for the widest value label and half the first x label. */
const leftMargin = (valueLabels: readonly string[], firstX = '') => Math.ceil(Math.max(MARGIN.left, widest(valueLabels) + 12, textWidth(firstX) / 2 + 2));

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

interface PlacedMarker {
  marker: TimeMarker;
  /** Where its label sits: beside the line, in a row above the plot (none when every row was taken there). */
  label?: { x: number; end: boolean; row: number };
}

/**
 * The markers inside the domain, each label beside its line (to its right, or to its left near the
 * chart's right edge) in the first row where it clears the labels already there; rows fill left to right.
 */
function placeMarkers(markers: readonly TimeMarker[], domain: [number, number], sx: (t: number) => number): { placed: PlacedMarker[]; rows: number } {
  const rowEnds: number[] = [];
  const placed = markers
    .filter((m) => Number.isFinite(m.atMs) && m.atMs >= domain[0] && m.atMs <= domain[1])
    .slice(0, MAX_MARKERS)
    .sort((a, b) => a.atMs - b.atMs)
    .map((marker): PlacedMarker => {
      const x = sx(marker.atMs);
      const width = textWidth(marker.label);
      const end = x + 3 + width > WIDTH - 2;
      const from = end ? x - 3 - width : x + 3;
      let row = rowEnds.findIndex((e) => e + LABEL_GAP <= from);
      if (row < 0 && rowEnds.length < MAX_MARKER_LABEL_ROWS) row = rowEnds.length;
      if (row < 0) return { marker };
      rowEnds[row] = from + width;
      return { marker, label: { x: end ? x - 3 : x + 3, end, row } };
    });
  return { placed, rows: rowEnds.length };
}

function markerLayer(placed: readonly PlacedMarker[], domain: [number, number], sx: (t: number) => number, frame: Frame, labelsTop: number): string {
  const bottom = coord(frame.top + frame.height);
  return placed
    .map(({ marker: m, label }) => {
      const x = coord(sx(m.atMs));
      const until = m.untilMs !== undefined && Number.isFinite(m.untilMs) && m.untilMs > m.atMs ? Math.min(m.untilMs, domain[1]) : undefined;
      const band = until === undefined ? '' :
        `<rect x="${x}" y="${coord(frame.top)}" width="${coord(sx(until) - sx(m.atMs))}" height="${coord(frame.height)}" fill="${MARKER_COLOUR}" fill-opacity="0.07"/>`;
      // A labelled line reaches up to its label's row.
      const top = coord(label ? labelsTop + label.row * LINE_HEIGHT + 1 : frame.top);
      const text = label ? `<text class="fault-label" x="${coord(label.x)}" y="${coord(labelsTop + label.row * LINE_HEIGHT + 11)}"` +
        `${label.end ? ' text-anchor="end"' : ''} fill="${MARKER_COLOUR}">${escapeHtml(m.label)}</text>` : '';
      return `<g class="marker"><title>${escapeHtml(m.detail ?? m.label)}</title>${band}` +
        `<line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="${MARKER_COLOUR}" stroke-width="1.2" stroke-dasharray="4 3"/>` +
        `<line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="transparent" stroke-width="8"/>${text}</g>`;
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

interface XAxis {
  domain: [number, number];
  ticks: number[];
  format: (x: number) => string;
}

/** Virtual time from 0 (or the first sample) to the last sample, in clock ticks; or plain numbers from the first to the last. */
function xAxis(o: LineChartOptions, times: [number, number]): XAxis {
  if (o.xFormat) {
    const domain: [number, number] = [times[0], times[1] > times[0] ? times[1] : times[0] + 1];
    const ticks = niceTicks(domain[0], domain[1], 5, o.xIntegers ? 1 : 0).ticks.filter((t) => t >= domain[0] && t <= domain[1]);
    return { domain, ticks, format: o.xFormat };
  }
  const start = Math.min(0, times[0]);
  const domain: [number, number] = [start, times[1] > start ? times[1] : start + 1000];
  const { stepMs, ticksMs } = timeTicks(domain[0], domain[1]);
  const clock = { withHours: domain[1] >= 3_600_000, fractionDigits: clockDigits(stepMs) };
  return { domain, ticks: ticksMs, format: (t) => formatClock(t, clock) };
}

/** Grid lines and ticks at every tick; labels at as many as stand side by side without touching. */
function xAxisLines(x: XAxis, sx: (t: number) => number, frame: Frame): string {
  const bottom = frame.top + frame.height;
  const labels = x.ticks.map(x.format);
  const spacing = x.ticks.length > 1 ? sx(x.ticks[1]!) - sx(x.ticks[0]!) : Infinity;
  const every = Math.max(1, Math.ceil((widest(labels) + LABEL_GAP) / spacing));
  const ticks = x.ticks
    .map((t, i) => {
      const at = coord(sx(t));
      // 18 px down: clear of the lowest value label, which is centred on the same corner.
      const label = i % every === 0 ? `<text x="${at}" y="${coord(bottom + 18)}" text-anchor="middle" fill="#555">${escapeHtml(labels[i]!)}</text>` : '';
      return `<line x1="${at}" y1="${coord(frame.top)}" x2="${at}" y2="${coord(bottom)}" stroke="#f0f2f4"/>` +
        `<line x1="${at}" y1="${coord(bottom)}" x2="${at}" y2="${coord(bottom + 4)}" stroke="#888"/>${label}`;
    })
    .join('');
  return `<g class="x-axis">${ticks}</g>`;
}

/** Values over virtual time (or plain numbers), y from 0; the margins fit the tick labels, fault labels get rows above the plot. */
export function lineChart(o: LineChartOptions): string {
  const times = extent(o.tMs);
  if (!times || o.series.length === 0) return emptyChart(o.title, 'No samples');
  const scale = valueScale(o);
  const x = xAxis(o, times);
  const xLabels = x.ticks.map(x.format);
  const left = leftMargin(scale.ticks.map(scale.format), xLabels[0]);
  const width = WIDTH - left - Math.ceil(Math.max(MARGIN.right, textWidth(xLabels.at(-1) ?? '') / 2 + 2));
  const items: LegendItem[] = o.series.map((s, i) => ({
    label: s.label,
    color: s.color ?? PALETTE[i % PALETTE.length]!,
    ...(i >= PALETTE.length ? { dash: '6 3' } : {}),
  }));
  const key = legend(items, left, width);
  const sx = (t: number) => left + ((t - x.domain[0]) / (x.domain[1] - x.domain[0])) * width;
  const markers = placeMarkers(o.markers ?? [], x.domain, sx);
  const labelsTop = 10 + key.height;
  // 6 px under the last row of fault labels, clear of the top value label, centred on the frame's top.
  const frame: Frame = { left, top: labelsTop + (markers.rows > 0 ? markers.rows * LINE_HEIGHT + 6 : 0), width, height: PLOT_HEIGHT };
  const sy = (v: number) => frame.top + frame.height - ((v - scale.min) / (scale.max - scale.min)) * frame.height;
  return svgOpen(o.title, frame.top + frame.height + MARGIN.bottom) + key.svg + valueAxis(scale, sy, frame) + xAxisLines(x, sx, frame) +
    o.series.map((s, i) => seriesPath(o.tMs, s.values, sx, sy, items[i]!)).join('') +
    frameLines(frame) + hoverColumns(o, sx, frame, x.format, scale.format) + markerLayer(markers.placed, x.domain, sx, frame, labelsTop) + '</svg>';
}

/**
 * One bar per label. Labels too wide to stand side by side tilt, and those too close to clear
 * their neighbours even tilted are left to every second (or third...) bar; each is whole, with the
 * room below and to the left of the plot it needs.
 */
export function barChart(o: BarChartOptions): string {
  const n = Math.min(o.labels.length, o.values.length);
  if (n === 0) return emptyChart(o.title, 'No data');
  const values = o.values.slice(0, n).map((v) => (Number.isFinite(v) && v > 0 ? v : 0));
  const labels = o.labels.slice(0, n);
  const total = values.reduce((a, b) => a + b, 0);
  const y = niceTicks(0, Math.max(0, ...values));
  const longest = widest(labels);
  let left = leftMargin(y.ticks.map(formatCount));
  let band = (WIDTH - left - MARGIN.right) / n;
  const tilt = longest + 6 > band;
  // A tilted label reaches left of its bar's centre by cos 40° of its length, and a little more for its height.
  const overhang = tilt ? Math.cos(TILT) * textWidth(labels[0]!) + 10 - band / 2 : 0;
  if (overhang > left) {
    left = Math.ceil(overhang);
    band = (WIDTH - left - MARGIN.right) / n;
  }
  const every = tilt ? Math.max(1, Math.ceil((LINE_HEIGHT + 2) / (band * Math.sin(TILT)))) : 1;
  // Room above the plot for the count over the tallest bar.
  const frame: Frame = { left, top: 20, width: WIDTH - left - MARGIN.right, height: PLOT_HEIGHT };
  const bottom = frame.top + frame.height;
  const labelSpace = tilt ? Math.ceil(16 + Math.sin(TILT) * longest) : MARGIN.bottom;
  const sy = (v: number) => bottom - (v / (y.max - y.min)) * frame.height;
  const colour = o.color ?? PALETTE[0]!;
  const texts: string[] = [];
  const bars = values.map((v, i) => {
    const label = labels[i]!;
    const cx = frame.left + (i + 0.5) * band;
    const barWidth = Math.max(1, band * 0.8);
    const share = total > 0 ? ` (${formatPercent(v / total)})` : '';
    const top = sy(v);
    const countText = formatCount(v);
    const count = v > 0 && textWidth(countText) + 4 <= band ? `<text x="${coord(cx)}" y="${coord(top - 4)}" text-anchor="middle" fill="#333">${escapeHtml(countText)}</text>` : '';
    if (i % every === 0) texts.push(tilt
      ? `<text x="${coord(cx)}" y="${coord(bottom + 12)}" text-anchor="end" transform="rotate(${coord((-TILT * 180) / Math.PI)} ${coord(cx)} ${coord(bottom + 12)})" fill="#555">${escapeHtml(label)}</text>`
      : `<text x="${coord(cx)}" y="${coord(bottom + 18)}" text-anchor="middle" fill="#555">${escapeHtml(label)}</text>`);
    return `<g><title>${escapeHtml(`${label}: ${formatInteger(v)}${share}`)}</title>` +
      `<rect class="hover" x="${coord(frame.left + i * band)}" y="${coord(frame.top)}" width="${coord(band)}" height="${coord(frame.height)}" fill="transparent"/>` +
      `<rect x="${coord(cx - barWidth / 2)}" y="${coord(top)}" width="${coord(barWidth)}" height="${coord(bottom - top)}" fill="${colour}"/>${count}</g>`;
  });
  const scale: ValueScale = { ...y, format: formatCount };
  return svgOpen(o.title, bottom + labelSpace) + valueAxis(scale, sy, frame) + bars.join('') + `<g class="x-axis">${texts.join('')}</g>` + frameLines(frame) + '</svg>';
}
