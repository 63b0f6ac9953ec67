// `orchsim plan SCENARIO [--out DIR] [--workers N]`: the smallest cluster that meets the scenario's
// plan: targets on every seed, searched over the pools it varies, the runs spread over worker
// processes; a line per candidate as it finishes, then the answer, plan.json and plan.html.
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { planCapacity, variedMaxima, type Candidate } from '../plan.ts';
import { members } from '../scenario/fault-sets.ts';
import { workerPool } from '../plan-workers.ts';
import { planMetrics, renderPlanHtml } from '../report/plan-html.ts';
import { stableJson } from '../report/write.ts';
import { formatCost, formatInteger } from '../report/format.ts';
import { helpText } from '../../actors/api/options/help.ts';
import { bool, int, string } from '../../actors/api/options/kinds.ts';
import { OptionError, OptionTable, type OptionSpec } from '../../actors/api/options/table.ts';
import { loadScenarioArg } from './run.ts';

interface PlanOptions {
  out: string;
  workers?: number;
}

const GROUP = 'Options';
const PLAN_TABLE = new OptionTable<PlanOptions>('orchsim plan', [
  { name: 'out', kind: string, key: 'out', default: 'orchsim-plan', group: GROUP, help: 'directory for plan.json and plan.html' },
  { name: 'workers', kind: int, key: 'workers', defaultText: "the machine's cores", group: GROUP, rule: (v: number) => (v >= 1 && v <= 64 ? undefined : 'must be from 1 to 64'),
    help: 'runs at once, each in its own process' },
  { name: 'help', short: 'h', kind: bool, default: false, group: GROUP, help: 'this help' },
] as OptionSpec<PlanOptions>[]);

export function planHelp(): string {
  return helpText('orchsim plan SCENARIO', "Finds the smallest cluster that meets the scenario's targets on every seed, through its faults: the scenario's plan: section says "
    + 'which node pools vary (min to max nodes; a node group its max), how many seeds each candidate runs, and the targets (see sim/scenarios/README.md). Candidates are searched by '
    + 'bisection, assuming a larger cluster never does worse; with minimise: cost the answer is the passing candidate that spent least a day.', PLAN_TABLE);
}

export async function planCommand(argv: string[], log: (line: string) => void = console.log): Promise<number> {
  const { options, positional: [file, ...extra] } = PLAN_TABLE.parse(argv);
  const draft = { ...options, workers: options.workers ?? Math.min(64, availableParallelism()) };
  if (file === undefined) throw new OptionError(`which scenario? give a scenario file with a plan: section, e.g. sim/scenarios/capacity.yaml\n\n${planHelp()}`);
  if (extra.length > 0) throw new OptionError(`unexpected argument ${JSON.stringify(extra[0])}: one scenario per plan`);
  const scenario = await loadScenarioArg(file);
  if (!scenario.plan) throw new OptionError(`${file} has no plan: section: say which pools vary and the targets (see sim/scenarios/README.md)`);
  const p = scenario.plan;
  const sets = members(scenario).map((m) => m.label).filter((l) => l !== '');
  const maxima = new Set(variedMaxima(scenario));
  const { size, mix, candidateLine } = lines(maxima);
  log(`planning ${scenario.name}: ${p.vary.map((v) => `${v.pool} ${maxima.has(v.pool) ? 'max ' : ''}${v.min}..${v.max}${v.step > 1 ? ` by ${v.step}` : ''}`).join(', ')} nodes` +
    `${p.vary.length > 1 ? (p.independent ? ' (each on its own)' : ' (together)') : ''}, the ${p.minimise === 'cost' ? 'cheapest' : 'smallest'}, ${p.seeds} seed${p.seeds === 1 ? '' : 's'} per candidate` +
    `${sets.length ? ` on each of ${sets.length} fault members (${sets.join(', ')})` : ''}, ${draft.workers} workers`);
  if (maxima.size > 0) log(`node groups vary their max (autoscaling: min stays): ${[...maxima].join(', ')}; cost per day is the node-hours they ran`);
  const pool = workerPool(draft.workers);
  const start = performance.now();
  let result;
  try {
    result = await planCapacity(scenario, pool.run, (c) => log(candidateLine(c, (performance.now() - start) / 1000)));
  } finally {
    pool.close();
  }
  // The margin: the largest candidate that missed with no pool above the answer's.
  const a0 = result.answer;
  const below = a0 && result.candidates.filter((c) => !c.pass && Object.keys(c.counts).every((k) => c.counts[k]! <= a0.counts[k]!)).at(-1);
  if (result.frontier.length > 1) {
    log('frontier (passing mixes no other undercuts in every pool):');
    for (const c of result.frontier) log(`  ${mix(c)}`);
  }
  if (result.answer) {
    const a = result.answer;
    log(`answer: ${mix(a)}` +
      (below ? `; ${size(below)} missed ${below.missed.join(', ')}${on(below)}` : `; the ${result.minimise === 'cost' ? 'cheapest' : 'smallest'} candidate`));
    for (const m of planMetrics(result).filter((m) => m.bound !== undefined))
      log(`  ${m.title}: ${m.format(m.worst(a.runs))} (target ≤ ${m.format(m.bound!)})${below ? `; ${m.format(m.worst(below.runs))} at ${size(below)}` : ''}`);
  } else log('answer: none; even the largest candidate missed a target: raise the plan\'s max');
  const dir = resolve(draft.out);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'plan.json'), stableJson(result));
  await writeFile(join(dir, 'plan.html'), renderPlanHtml(result));
  log(`plan: ${join(dir, 'plan.html')}\n      ${join(dir, 'plan.json')}`);
  return result.answer ? 0 : 1;
}

/** How candidates are printed; a node group's figure is its max (`spot max 20`). */
function lines(maxima: ReadonlySet<string>) {
  const countsText = (c: Candidate) => Object.entries(c.counts).map(([k, v]) => `${k} ${maxima.has(k) ? 'max ' : ''}${v}`).join(', ');
  const pools = (c: Candidate) => (Object.keys(c.counts).length > 1 || maxima.size > 0 ? ` (${countsText(c)})` : '');
  const cost = (c: Candidate) => (c.costPerDay === undefined ? '' : `${formatCost(c.costPerDay)}/day`);
  return {
    /** `20 nodes`, or `4 nodes (small 3, big 1)` when several pools vary or a group's max does. */
    size: (c: Candidate) => `${formatInteger(c.totalNodes)} nodes${pools(c)}`,
    /** `21 nodes (general 21), 201.60/day`: a mix and its cost. */
    mix: (c: Candidate) => `${formatInteger(c.totalNodes)} nodes (${countsText(c)})${c.costPerDay === undefined ? '' : `, ${cost(c)}`}`,
    candidateLine: (c: Candidate, seconds: number) => `  ${formatInteger(c.totalNodes).padStart(6)} nodes${pools(c)}  ` +
      `${c.pass ? 'pass' : `missed ${c.missed.join(', ')}${on(c)}`}${c.costPerDay === undefined ? '' : `  ${cost(c)}`}  (${seconds.toFixed(1)} s)`,
  };
}

/** Where a candidate of a fault set missed: ` losing zone-a`. */
const on = (c: Candidate) => (c.missedOn.length ? ` losing ${c.missedOn.join(', ')}` : '');
