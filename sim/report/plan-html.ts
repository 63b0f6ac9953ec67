// plan.html: the answer of `orchsim plan`, the candidates it ran (a row each, with the worst figure
// over its seeds) and, per target, a chart of that figure against cluster size with the bound and,
// when the pools have a cost, one against cost per day (a dot per candidate, passed or missed).
import type { Candidate, PlanResult, RunFigures } from '../plan.ts';
import { lineChart, PALETTE, type LineSeries } from './charts.ts';
import { escapeHtml } from './escape.ts';
import { formatCost, formatCount, formatInteger, formatMs } from './format.ts';
import { CSS, figure, section, table } from './page.ts';

interface Metric {
  name: string;
  title: string;
  worst: (runs: RunFigures[]) => number;
  bound: number | undefined;
  format: (v: number) => string;
}

export function planMetrics(r: PlanResult): Metric[] {
  const t = r.targets;
  const max = (pick: (f: RunFigures) => number) => (runs: RunFigures[]) => Math.max(...runs.map(pick));
  return [
    { name: 'pendingAtEnd', title: 'Pods pending at the end', worst: max((f) => f.pendingAtEnd), bound: t.pendingAtEnd, format: formatInteger },
    { name: 'readyAtEnd', title: 'ReplicaSets short of Ready pods at the end', worst: (runs) => runs.filter((f) => !f.readyAtEnd).length, bound: t.readyAtEnd ? 0 : undefined, format: formatInteger },
    { name: 'schedulingLatencyP99', title: 'p99 scheduling latency', worst: max((f) => f.schedulingLatencyP99Ms), bound: t.schedulingLatencyP99Ms, format: formatMs },
    { name: 'podStartupP99', title: 'p99 pod startup', worst: max((f) => f.podStartupP99Ms), bound: t.podStartupP99Ms, format: formatMs },
    { name: 'cpuUtilisationMax', title: 'Highest CPU requested / allocatable', worst: max((f) => f.cpuUtilisationMax * 100), bound: t.cpuUtilisationMax === undefined ? undefined : t.cpuUtilisationMax * 100, format: (v) => `${formatCount(v)}%` },
  ];
}

export function renderPlanHtml(r: PlanResult): string {
  const metrics = planMetrics(r).filter((m) => m.bound !== undefined);
  const sizes = r.candidates.map((c) => c.totalNodes);
  const costed = r.candidates.some((c) => c.costPerDay !== undefined);
  // A no-break space holds a pool to its count (a node group's to its max), and a bound to its ≤, when a cell wraps.
  const countsText = (c: Candidate) => Object.entries(c.counts).map(([pool, n]) => `${pool}\u00a0${r.maxima.includes(pool) ? 'max\u00a0' : ''}${n}`).join(', ');
  const cost = (c: Candidate) => (c.costPerDay === undefined ? '' : `, ${formatCost(c.costPerDay)}\u00a0a\u00a0day`);
  const costCell = (c: Candidate) => ({ text: c.costPerDay === undefined ? '–' : formatCost(c.costPerDay), numeric: true });
  const answer = r.answer
    ? `<p class="desc">The ${r.minimise === 'cost' ? 'cheapest' : 'smallest'} cluster that met every target on every seed${r.members.length ? ', whichever zone it lost' : ''}: ` +
      `<b>${formatInteger(r.answer.totalNodes)} nodes</b> (${escapeHtml(countsText(r.answer) + cost(r.answer))}).</p>`
    : '<p class="desc">No candidate met every target, not even the largest: raise the plan\'s max.</p>';
  const rows = r.candidates.map((c) => [
    { text: formatInteger(c.totalNodes), numeric: true }, countsText(c), ...(costed ? [costCell(c)] : []),
    c.pass ? 'pass' : `missed ${c.missed.join(', ')}${c.missedOn.length ? ` losing ${c.missedOn.join(', ')}` : ''}`,
    ...metrics.map((m) => ({ text: m.format(m.worst(c.runs)), numeric: true })),
  ]);
  const head = [{ text: 'Nodes', numeric: true }, 'Pools', ...(costed ? [{ text: 'Cost a day', numeric: true }] : []), 'Result',
    ...metrics.map((m) => ({ text: `${m.title} (≤\u00a0${m.format(m.bound!)})`, numeric: true }))];
  // Pools chosen independently: the passing mixes no other undercuts in every pool, the answer among them.
  const frontier = r.frontier.length > 1 ? section('frontier', 'Frontier of mixes',
    table([{ text: 'Nodes', numeric: true }, 'Pools', ...(costed ? [{ text: 'Cost a day', numeric: true }] : []), ''],
      r.frontier.map((c) => [{ text: formatInteger(c.totalNodes), numeric: true }, countsText(c), ...(costed ? [costCell(c)] : []), c === r.answer ? 'the answer' : ''])) +
    `<p class="muted">Every mix that passed and that no other passing mix undercuts in every pool; ${r.minimise === 'cost'
      ? 'the answer is the passing candidate that cost least a day (with node groups, maybe one above the frontier: a group costs what it ran).'
      : 'the answer is the smallest.'}</p>`) : '';
  const worstOf = `worst of ${r.seeds.length} seed${r.seeds.length === 1 ? '' : 's'}${r.members.length ? ` × ${r.members.length} faults` : ''}`;
  const charts = metrics.map((m) => {
    const series: LineSeries[] = [
      { label: worstOf, values: r.candidates.map((c) => m.worst(c.runs)) },
      { label: 'target', values: r.candidates.map(() => m.bound!), color: '#e15759' },
    ];
    return figure(m.title, lineChart({ title: m.title, tMs: sizes, series, xFormat: (n) => `${formatInteger(n)} nodes`, xIntegers: true, yFormat: m.format }));
  });
  return ['<!doctype html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">', `<title>orchsim plan: ${escapeHtml(r.scenario)}</title>`, `<style>${CSS}</style>`,
    '</head>', '<body><main>', `<header><h1>orchsim plan: ${escapeHtml(r.scenario)}</h1>${answer}</header>`,
    frontier,
    costed ? section('cost', 'Targets against cost per day', `<div class="charts">${costCharts(r, metrics).join('\n')}</div>` +
      `<p class="muted">A dot per candidate: its worst figure (${worstOf}) against what its nodes cost a day, the worst of its runs` +
      `${r.maxima.length ? ` (node groups: the node-hours they ran)` : ''}; the dashed line is ${r.answer ? `the answer, ${formatCost(r.answer.costPerDay ?? NaN)} a day` : 'absent: nothing passed'}.</p>`) : '',
    section('figures', `Targets against cluster size${r.maxima.length ? ' (node groups at their max)' : ''}`, `<div class="charts">${charts.join('\n')}</div>`),
    section('candidates', 'Candidates run', table(head, rows) + `<p class="muted">Each candidate ran seeds ${r.seeds.join(', ')}${r.members.length ? `, each losing ${escapeHtml(r.members.join(', '))} in turn` : ''}; figures are the worst over them.</p>`),
    '</main></body>', '</html>', ''].join('\n');
}

/**
 * Per target, its worst figure against cost per day: a dot per candidate (each its own point, not
 * a line: cost need not grow with size), passed and missed apart, the bound across and the answer marked.
 */
function costCharts(r: PlanResult, metrics: Metric[]): string[] {
  const costed = r.candidates.filter((c) => c.costPerDay !== undefined).sort((x, y) => x.costPerDay! - y.costPerDay!);
  // Each dot a lone point: a gap (NaN) before it, at the same cost, breaks the line to the next.
  const tMs = costed.flatMap((c) => [c.costPerDay!, c.costPerDay!]);
  const dots = (values: (c: Candidate) => number) => costed.flatMap((c) => [NaN, values(c)]);
  return metrics.map((m) => {
    const title = `${m.title} against cost per day`;
    // The bound first, so that the dots on it are drawn over it.
    const series: LineSeries[] = [
      { label: 'target', values: tMs.map(() => m.bound!), color: '#e15759' },
      { label: 'passed', values: dots((c) => (c.pass ? m.worst(c.runs) : NaN)), color: PALETTE[0] },
      { label: 'missed', values: dots((c) => (c.pass ? NaN : m.worst(c.runs))), color: PALETTE[1] },
    ];
    const answer = r.answer?.costPerDay;
    const markers = answer === undefined ? [] : [{ atMs: answer, label: 'the answer', detail: `the answer: ${formatCost(answer)} a day` }];
    return figure(title, lineChart({ title, tMs, series, markers, xFormat: formatCost, yFormat: m.format }));
  });
}
