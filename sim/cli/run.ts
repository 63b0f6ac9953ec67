// `orchsim run SCENARIO [--seed N] [--out DIR]`: runs a scenario in virtual time, shows progress on
// the terminal, prints a summary, and writes report.json and report.html. Exits non-zero when an
// invariant checker found a violation, so scripts and CI can rely on the run.
import { resolve } from 'node:path';
import { loadScenario, ScenarioError } from '../scenario/load.ts';
import type { Scenario } from '../scenario/types.ts';
import { members } from '../scenario/fault-sets.ts';
import { runScenario, type LiveRun, type RunOptions as ScenarioRunOptions, type RunOutcome } from '../run.ts';
import { startStatelyBridge } from '../inspector/stately.ts';
import { checkedInspector, inspectorOptions } from './inspector-options.ts';
import { startUiRun } from './run-ui.ts';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from '../heap-growth.ts';
import { renderSummary } from '../report/summary.ts';
import { writeReport } from '../report/write.ts';
import { formatDecision } from '../report/explain.ts';
import { formatInteger } from '../report/format.ts';
import { helpText } from '../../actors/api/options/help.ts';
import { bool, int, string, strings } from '../../actors/api/options/kinds.ts';
import { OptionError, OptionTable, type OptionSpec } from '../../actors/api/options/table.ts';
import { formatDuration } from '../../actors/api/duration.ts';
import { inspectOptions } from '../../actors/system/options.ts';
import { inspectRequest, type InspectRequest } from '../inspect-log.ts';

interface RunOptions {
  seed?: number;
  out: string;
  explain: string[];
  progress?: boolean;
  heapGrowth: number;
  ui: boolean;
  uiPort?: number;
  inspect?: string;
  inspectActors: string[];
}

const GROUP = 'Options';
const RUN_TABLE = new OptionTable<RunOptions>('orchsim run', [
  { name: 'seed', kind: int, key: 'seed', defaultText: "the scenario's seed:, else 1", group: GROUP, help: "the run's seed; the same scenario and seed give the same report" },
  { name: 'out', kind: string, key: 'out', default: 'orchsim-report', group: GROUP, help: 'directory for report.json and report.html' },
  { name: 'explain', kind: strings, key: 'explain', default: [], group: GROUP, rule: explainRule,
    help: "NAMESPACE/POD[,...]: print these pods' last scheduling decisions (where and why, plugin by plugin)" },
  { name: 'progress', kind: bool, key: 'progress', defaultText: 'true on a terminal', group: GROUP, help: 'show progress while running' },
  { name: 'heap-growth', kind: int, key: 'heapGrowth', default: HEAP_GROWING_PERCENT, group: GROUP, rule: heapGrowthRule,
    help: "PERCENT: how far the heap may grow past what the last full collection kept; more takes more memory and usually runs faster, 0 leaves it to V8 (node's own --heap-growing-percent wins)" },
  ...inspectOptions<RunOptions>(GROUP),
  ...inspectorOptions<RunOptions>(GROUP, ': the run waits paused, then runs, steps, pauses and goes back in virtual time as the page or POST /inspect/api/time asks; Ctrl-C ends it'),
  { name: 'help', short: 'h', kind: bool, default: false, group: GROUP, help: 'this help' },
] as OptionSpec<RunOptions>[]);

function heapGrowthRule(percent: number): string | undefined {
  return percent >= 0 && percent <= 1000 ? undefined : `must be a percentage from 0 (V8's own choice) to 1000, got ${percent}`;
}

function explainRule(pods: string[]): string | undefined {
  const bad = pods.find((pod) => !/^[^/\s]+\/[^/\s]+$/.test(pod));
  return bad === undefined ? undefined : `name pods as NAMESPACE/NAME, e.g. default/web-3; ${JSON.stringify(bad)} is not`;
}

export function runHelp(): string {
  return helpText('orchsim run SCENARIO', 'Runs the scenario file (YAML; see sim/scenarios/README.md) in virtual time: its nodes, workloads and faults, with the API server, '
    + 'scheduler and node agents in this process. Prints a summary and writes report.json (the metrics, deterministic for a scenario and seed) and report.html (charts).', RUN_TABLE);
}

/** Virtual seconds per wall second: `0.6×`, `8.1×`, `82×`. */
const speed = (x: number) => `${x < 10 ? x.toFixed(1) : x.toFixed(0)}×`;

/** One line of progress: virtual time reached, its share of the run, speed, pods. */
function progressLine(live: LiveRun, durationMs: number, wallStart: number, lastEvents: { n: number; t: number }): string {
  const now = performance.now();
  const v = live.virtualMs();
  const events = live.metrics.counts.events;
  const rate = ((events - lastEvents.n) * 1000) / Math.max(1, now - lastEvents.t);
  lastEvents.n = events;
  lastEvents.t = now;
  const wall = (now - wallStart) / 1000;
  const p = live.metrics.phaseCounts;
  return `  ${formatDuration(Math.round(v / 1000) * 1000).padStart(8)} of ${formatDuration(durationMs)} (${Math.floor((v * 100) / durationMs)}%)` +
    `  ${speed(v / 1000 / Math.max(wall, 0.001))} real time  ${Math.round(rate)} events/s` +
    `  pods: ${p.Pending} pending, ${p.Running} running, ${p.Succeeded + p.Failed} done`;
}

/** The scenario a command names; a bad one is a usage error naming the file, the field and the rule. */
export async function loadScenarioArg(file: string): Promise<Scenario> {
  try {
    return await loadScenario(file);
  } catch (e) {
    if (e instanceof ScenarioError) throw new OptionError(e.message);
    throw e;
  }
}

/** Runs `orchsim run`; returns the exit code. */
export async function runCommand(argv: string[], log: (line: string) => void = console.log): Promise<number> {
  const { options, extra: flags, positional: [file, ...extra] } = RUN_TABLE.parse(argv);
  const inspectLog = inspectRequest(flags);
  const draft = { ...options, progress: options.progress ?? process.stderr.isTTY === true };
  if (file === undefined) throw new OptionError(`which scenario? give a scenario file, e.g. sim/scenarios/quickstart.yaml\n\n${runHelp()}`);
  if (extra.length > 0) throw new OptionError(`unexpected argument ${JSON.stringify(extra[0])}: one scenario per run`);
  const chosen = checkedInspector(draft);
  const scenario = await loadScenarioArg(file);
  const seed = draft.seed ?? scenario.seed;
  log(`running ${scenario.name}: ${formatInteger(scenario.nodePools.reduce((n, p) => n + p.count, 0))} nodes, ` +
    `${formatInteger(scenario.workloads.reduce((n, w) => n + w.count, 0))} pods, ${formatDuration(scenario.durationMs)} of virtual time, seed ${seed}`);
  const sets = members(scenario);
  if (sets.length > 1) log(`faults: zone any: this run loses ${sets[0]!.label}, the first of ${sets.length} (${sets.map((m) => m.label).join(', ')}); orchsim plan runs each`);
  boundHeapGrowth(draft.heapGrowth);
  const stately = chosen ? await startStatelyBridge() : undefined;
  if (stately) log(`Stately inspector for ${draft.inspectActors.join(',')} at ${stately.url}`);
  const inspect = stately && chosen ? { inspect: (id: string) => (chosen(id) ? stately.inspect : undefined) } : {};
  try {
    if (draft.ui) {
      const ui = await startUiRun(scenario, { seed, explain: draft.explain, ...inspect, ...(inspectLog ? { inspectLog } : {}), ...(draft.uiPort !== undefined ? { port: draft.uiPort } : {}) },
        async (outcome) => void printOutcome(outcome, await writeReport(resolve(draft.out), outcome.report), inspectLog?.file, log), log);
      await untilInterrupted();
      await ui.close();
      return ui.exitCode();
    }
    return await plainRun(scenario, seed, draft, inspectLog, inspect, log);
  } finally {
    await stately?.close();
  }
}

async function plainRun(scenario: Scenario, seed: number, draft: RunOptions & { progress: boolean }, inspectLog: InspectRequest | undefined,
  inspect: Pick<ScenarioRunOptions, 'inspect'>, log: (line: string) => void): Promise<number> {
  const wallStart = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const outcome = await runScenario(scenario, {
    seed,
    explain: draft.explain,
    ...inspect,
    ...(inspectLog ? { inspectLog } : {}),
    onStarted: (live) => {
      const last = { n: 0, t: wallStart };
      const show = () => process.stderr.write(draft.progress ? `\r\x1b[K${progressLine(live, scenario.durationMs, wallStart, last)}` : `${progressLine(live, scenario.durationMs, wallStart, last)}\n`);
      timer = setInterval(show, draft.progress ? 250 : 5_000);
    },
  }).finally(() => {
    clearInterval(timer);
    if (draft.progress) process.stderr.write('\r\x1b[K');
  });
  const paths = await writeReport(resolve(draft.out), outcome.report);
  return printOutcome(outcome, paths, inspectLog?.file, log);
}

/** Prints a run's summary, checks, errors, explanations and where its files are; returns the exit code (1 if a checker found a violation). */
function printOutcome(outcome: RunOutcome, paths: { html: string; json: string }, inspectLog: string | undefined, log: (line: string) => void): number {
  log(renderSummary(outcome.report, { wallMs: outcome.wallMs, peakRssBytes: process.resourceUsage().maxRSS * 1024 }));
  const failed = outcome.checks.filter((c) => c.violations > 0);
  for (const c of outcome.checks) log(`check ${c.violations === 0 ? 'ok  ' : 'FAIL'} ${c.name}${c.violations ? `: ${c.violations} violations, e.g. ${c.examples[0]}` : ''}`);
  for (const e of outcome.errors) log(`error: ${e}`);
  for (const { pod, decision } of outcome.explanations) log(formatDecision(pod, decision));
  log(`report: ${paths.html}\n        ${paths.json}`);
  if (inspectLog) log(`inspection log: ${resolve(inspectLog)}`);
  return failed.length > 0 ? 1 : 0;
}

/** Resolves at Ctrl-C (SIGINT) or SIGTERM. */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
