// plan.html: the answer of `orchsim plan`, the candidates it ran (a row each, with the worst figure
// over its seeds) and, per target, a chart of that figure against cluster size with the bound.
import type { Candidate, PlanResult, RunFigures } from '../plan.ts';
import { lineChart, type LineSeries } from './charts.ts';
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

// A no-break space holds a pool to its count, and a bound to its ≤, when a cell wraps.
const countsText = (c: Candidate) => Object.entries(c.counts).map(([pool, n]) => `${pool}\u00a0${n}`).join(', ');

export function renderPlanHtml(r: PlanResult): string {
  const metrics = planMetrics(r).filter((m) => m.bound !== undefined);
  const sizes = r.candidates.map((c) => c.totalNodes);
  const costed = r.candidates.some((c) => c.costPerHour !== undefined);
  const cost = (c: Candidate) => (c.costPerHour === undefined ? '' : `, ${formatCost(c.costPerHour)}\u00a0an\u00a0hour`);
  const answer = r.answer
    ? `<p class="desc">The ${r.minimise === 'cost' ? 'cheapest' : 'smallest'} cluster that met every target on every seed${r.members.length ? ', whichever zone it lost' : ''}: ` +
      `<b>${formatInteger(r.answer.totalNodes)} nodes</b> (${escapeHtml(countsText(r.answer) + cost(r.answer))}).</p>`
    : '<p class="desc">No candidate met every target, not even the largest: raise the plan\'s max.</p>';
  const rows = r.candidates.map((c) => [
    { text: formatInteger(c.totalNodes), numeric: true }, countsText(c), ...(costed ? [{ text: c.costPerHour === undefined ? '–' : formatCost(c.costPerHour), numeric: true }] : []),
    c.pass ? 'pass' : `missed ${c.missed.join(', ')}${c.missedOn.length ? ` losing ${c.missedOn.join(', ')}` : ''}`,
    ...metrics.map((m) => ({ text: m.format(m.worst(c.runs)), numeric: true })),
  ]);
  const head = [{ text: 'Nodes', numeric: true }, 'Pools', ...(costed ? [{ text: 'Cost an hour', numeric: true }] : []), 'Result',
    ...metrics.map((m) => ({ text: `${m.title} (≤\u00a0${m.format(m.bound!)})`, numeric: true }))];
  // Pools chosen independently: the passing mixes no other undercuts in every pool, the answer among them.
  const frontier = r.frontier.length > 1 ? section('frontier', 'Frontier of mixes',
    table([{ text: 'Nodes', numeric: true }, 'Pools', ...(costed ? [{ text: 'Cost an hour', numeric: true }] : []), ''],
      r.frontier.map((c) => [{ text: formatInteger(c.totalNodes), numeric: true }, countsText(c),
        ...(costed ? [{ text: c.costPerHour === undefined ? '–' : formatCost(c.costPerHour), numeric: true }] : []), c === r.answer ? 'the answer' : ''])) +
    `<p class="muted">Every mix that passed and that no other passing mix undercuts in every pool; the answer is the ${r.minimise === 'cost' ? 'cheapest' : 'smallest'}.</p>`) : '';
  const charts = metrics.map((m) => {
    const series: LineSeries[] = [
      { label: `worst of ${r.seeds.length} seed${r.seeds.length === 1 ? '' : 's'}${r.members.length ? ` × ${r.members.length} faults` : ''}`, values: r.candidates.map((c) => m.worst(c.runs)) },
      { label: 'target', values: r.candidates.map(() => m.bound!), color: '#e15759' },
    ];
    return figure(m.title, lineChart({ title: m.title, tMs: sizes, series, xFormat: (n) => `${formatInteger(n)} nodes`, xIntegers: true, yFormat: m.format }));
  });
  return ['<!doctype html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">', `<title>orchsim plan: ${escapeHtml(r.scenario)}</title>`, `<style>${CSS}</style>`,
    '</head>', '<body><main>', `<header><h1>orchsim plan: ${escapeHtml(r.scenario)}</h1>${answer}</header>`,
    frontier,
    section('figures', 'Targets against cluster size', `<div class="charts">${charts.join('\n')}</div>`),
    section('candidates', 'Candidates run', table(head, rows) + `<p class="muted">Each candidate ran seeds ${r.seeds.join(', ')}${r.members.length ? `, each losing ${escapeHtml(r.members.join(', '))} in turn` : ''}; figures are the worst over them.</p>`),
    '</main></body>', '</html>', ''].join('\n');
}
