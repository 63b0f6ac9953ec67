// Two reports side by side (`orchsim compare A B`): their figures, each zone's outcome, and where
// their node and pod timelines part, every row marked when the two differ. Pure: two reports in,
// rows out; the terminal and compare.html draw them.
import { formatClock, formatCount, formatInteger, formatMs, formatPercent } from './format.ts';
import type { Report, TimelineEntry } from './types.ts';

export interface Row {
  label: string;
  a: string;
  b: string;
  /** B against A, for numbers that differ: `+3 (+12.5%)`. */
  delta?: string;
  changed: boolean;
}

export interface Group {
  title: string;
  rows: Row[];
  /** What the group left out (`+120 more pods differ`). */
  more?: string;
}

export interface Comparison {
  a: string;
  b: string;
  groups: Group[];
  /** Rows that differ, over every group. */
  changes: number;
}

/** Timeline rows shown per kind: the first where the two part. */
const TIMELINE_ROWS = 20;

export function compareReports(a: Report, b: Report, names: { a: string; b: string }): Comparison {
  const groups = [runGroup(a, b), figures(a, b), zones(a, b), timelines('Node timelines', a.timelines?.nodes ?? {}, b.timelines?.nodes ?? {}),
    timelines('Pod timelines', a.timelines?.pods ?? {}, b.timelines?.pods ?? {})];
  return { a: names.a, b: names.b, groups, changes: groups.reduce((n, g) => n + g.rows.filter((r) => r.changed).length, 0) };
}

const text = (label: string, a: string, b: string): Row => ({ label, a, b, changed: a !== b });

/** A number on both sides, formatted; the delta when they differ. */
function num(label: string, a: number, b: number, format: (v: number) => string = formatInteger): Row {
  const row: Row = { label, a: format(a), b: format(b), changed: a !== b };
  if (a !== b) {
    const d = b - a;
    const pct = a !== 0 ? ` (${d > 0 ? '+' : ''}${formatCount(Math.round((d / Math.abs(a)) * 1000) / 10)}%)` : '';
    row.delta = `${d > 0 ? '+' : '-'}${format(Math.abs(d))}${pct}`;
  }
  return row;
}

function runGroup(a: Report, b: Report): Group {
  return { title: 'Runs', rows: [
    text('scenario', a.scenario.name, b.scenario.name),
    num('seed', a.seed, b.seed, String),
    num('duration', a.scenario.durationMs, b.scenario.durationMs, formatMs),
    text('event trace', a.traceHash.slice(0, 12), b.traceHash.slice(0, 12)),
    text('faults', a.faults.map((f) => `${f.kind} ${formatClock(f.atMs)}`).join(', ') || 'none', b.faults.map((f) => `${f.kind} ${formatClock(f.atMs)}`).join(', ') || 'none'),
  ] };
}

function figures(a: Report, b: Report): Group {
  const s = a.summary;
  const t = b.summary;
  const pods = (k: keyof typeof s.pods) => num(`pods ${k}`, s.pods[k], t.pods[k]);
  const lastDip = (r: Report) => Math.max(0, ...r.replicaSetDips.map((d) => (d.toMs ?? r.scenario.durationMs) - d.fromMs));
  return { title: 'Figures', rows: [
    num('nodes', s.nodes, t.nodes),
    pods('created'), pods('scheduled'), pods('running'), pods('succeeded'), pods('failed'), pods('pending'), pods('deleted'), pods('evicted'),
    num('scheduling latency p50', s.schedulingLatencyMs.p50, t.schedulingLatencyMs.p50, formatMs),
    num('scheduling latency p99', s.schedulingLatencyMs.p99, t.schedulingLatencyMs.p99, formatMs),
    num('pod startup p50', s.podStartupMs.p50, t.podStartupMs.p50, formatMs),
    num('pod startup p99', s.podStartupMs.p99, t.podStartupMs.p99, formatMs),
    num('scheduling attempts', s.schedulingAttempts, t.schedulingAttempts),
    num('unschedulable attempts', s.unschedulableAttempts, t.unschedulableAttempts),
    num('preemptions', s.preemptions, t.preemptions),
    num('taints', s.taints, t.taints),
    num('taint evictions', s.taintEvictions, t.taintEvictions),
    num('leader failovers', a.failovers.length, b.failovers.length),
    num('replica set dips', a.replicaSetDips.length, b.replicaSetDips.length),
    num('longest dip', lastDip(a), lastDip(b), formatMs),
    num('highest CPU requested', Math.max(0, ...a.series.cpuUtilisation), Math.max(0, ...b.series.cpuUtilisation), formatPercent),
    num('API requests', s.apiRequests, t.apiRequests),
  ] };
}

/** A zone's states as runs: `Normal 0:00, FullDisruption 5:50, Normal 15:10`. */
function stateRuns(tMs: readonly number[], states: readonly string[] | undefined): string {
  if (!states?.length) return 'none';
  const out: string[] = [];
  states.forEach((s, i) => {
    if (i === 0 || s !== states[i - 1]) out.push(`${s} ${formatClock(tMs[i] ?? 0)}`);
  });
  return out.join(', ');
}

function zones(a: Report, b: Report): Group {
  const keys = [...new Set([...a.zones, ...b.zones])].sort();
  const last = (v: readonly number[] | undefined) => v?.at(-1) ?? 0;
  const rows = keys.flatMap((z) => {
    const x = a.series.perZone[z];
    const y = b.series.perZone[z];
    const stateKey = (r: Report) => Object.keys(r.series.zoneStates).find((k) => k === z || k.endsWith(`:${z}`));
    const sa = stateKey(a);
    const sb = stateKey(b);
    return [
      num(`${z}: nodes Ready at the end`, last(x?.nodesReady), last(y?.nodesReady)),
      num(`${z}: pods running at the end`, last(x?.podsRunning), last(y?.podsRunning)),
      text(`${z}: states`, stateRuns(a.series.tMs, sa ? a.series.zoneStates[sa] : undefined), stateRuns(b.series.tMs, sb ? b.series.zoneStates[sb] : undefined)),
    ];
  });
  return { title: 'Zones', rows };
}

const entryText = (e: TimelineEntry | undefined) => (e ? `${formatClock(e[0], { fractionDigits: 1 })} ${e[1]}${e[2] !== undefined ? ` ${e[2]}` : ''}` : 'nothing');

/** Each node (or pod) whose timeline differs: the first entry where the two part. */
function timelines(title: string, a: Record<string, TimelineEntry[]>, b: Record<string, TimelineEntry[]>): Group {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const rows: Row[] = [];
  let differ = 0;
  for (const key of keys) {
    const x = a[key];
    const y = b[key];
    if (x && y && x.length === y.length && x.every((e, i) => sameEntry(e, y[i]!))) continue;
    differ++;
    if (rows.length === TIMELINE_ROWS) continue;
    if (!x || !y) rows.push({ label: key, a: x ? `${x.length} entries` : 'absent', b: y ? `${y.length} entries` : 'absent', changed: true });
    else {
      const i = x.findIndex((e, k) => !y[k] || !sameEntry(e, y[k]));
      const at = i < 0 ? x.length : i;
      rows.push({ label: key, a: entryText(x[at]), b: entryText(y[at]), changed: true });
    }
  }
  if (differ === 0) rows.push({ label: `every one of ${formatInteger(keys.length)}`, a: 'same', b: 'same', changed: false });
  return { title, rows, ...(differ > rows.length ? { more: `+${formatInteger(differ - rows.length)} more differ` } : {}) };
}

const sameEntry = (x: TimelineEntry, y: TimelineEntry) => x[0] === y[0] && x[1] === y[1] && x[2] === y[2];

/** The comparison as terminal lines: a column each, `≠` before rows that differ. */
export function renderComparison(c: Comparison): string {
  const lines = [`A: ${c.a}`, `B: ${c.b}`, c.changes === 0 ? 'no differences' : `${formatInteger(c.changes)} rows differ (marked ≠)`];
  for (const g of c.groups) {
    const labelWidth = Math.max(...g.rows.map((r) => r.label.length), 4);
    const aWidth = Math.max(...g.rows.map((r) => r.a.length), 1);
    lines.push('', g.title);
    for (const r of g.rows) {
      const tail = r.changed ? `  ${r.b}${r.delta ? `  ${r.delta}` : ''}` : '';
      lines.push(`${r.changed ? '≠' : ' '} ${r.label.padEnd(labelWidth)}  ${r.changed ? r.a.padEnd(aWidth) : r.a}${tail}`.trimEnd());
    }
    if (g.more) lines.push(`  ${g.more}`);
  }
  return lines.join('\n');
}
