// One scenario run for the cluster suite, in a process of its own so its peak memory is its own:
// prints progress to stderr as the run goes, then one JSON line of figures on stdout.
import { loadScenario } from '../sim/scenario/load.ts';
import { boundHeapGrowth } from '../sim/heap-growth.ts';
import { runScenario } from '../sim/run.ts';

const PROGRESS_EVERY_MS = 30_000;

export interface ClusterFigures {
  scenario: string;
  seed: number;
  virtualMs: number;
  wallMs: number;
  peakRssBytes: number;
  apiRequests: number;
  events: number;
  /** Checkers with violations (none in a healthy run). */
  failedChecks: string[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: cluster-child.ts SCENARIO');
const scenario = await loadScenario(file);
// As `orchsim run` bounds it.
boundHeapGrowth();
let timer: NodeJS.Timeout | undefined;
const outcome = await runScenario(scenario, {
  onStarted: (live) => {
    const started = performance.now();
    timer = setInterval(() => {
      const wall = (performance.now() - started) / 1000;
      process.stderr.write(`  ${scenario.name}: ${(live.virtualMs() / 60_000).toFixed(1)} of ${(scenario.durationMs / 60_000).toFixed(0)} virtual minutes after ${wall.toFixed(0)} s\n`);
    }, PROGRESS_EVERY_MS);
  },
}).finally(() => clearInterval(timer));
const figures: ClusterFigures = {
  scenario: scenario.name,
  seed: outcome.report.seed,
  virtualMs: scenario.durationMs,
  wallMs: outcome.wallMs,
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
  apiRequests: outcome.report.summary.apiRequests,
  events: outcome.report.summary.events,
  failedChecks: outcome.checks.filter((c) => c.violations > 0).map((c) => c.name),
};
// Exit once the line is out: a pipe is written asynchronously, and the run's timers are done with.
process.stdout.write(`${JSON.stringify(figures)}\n`, () => process.exit(0));
