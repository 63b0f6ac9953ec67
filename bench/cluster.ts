// `npm run bench -- cluster [SCENARIO ...]`: whole scenarios run as `orchsim run` runs them, each
// in a child process (bench/cluster-child.ts) so that its peak memory is its own: wall time,
// virtual seconds per wall second, peak resident memory, API requests per wall second.
// sim/scenarios/5k-nodes.yaml by default (13 to 18 minutes here); not among the default suites.
import { join } from 'node:path';
import type { ClusterFigures } from './cluster-child.ts';
import { runJsonChild } from './json-child.ts';
import type { SuiteOutput } from './report.ts';

export const DEFAULT_CLUSTER_SCENARIOS = [join(import.meta.dirname, '../sim/scenarios/5k-nodes.yaml')];
const CHILD = join(import.meta.dirname, 'cluster-child.ts');
/** Heap for the child: room to spare over the 5,000-node hour's 3 GiB peak. */
const HEAP_MB = 6_000;
/** The aims for the 5,000-node hour: a virtual hour in a wall minute, in 4 GiB. */
const AIMS = { speed: 60, peakBytes: 4 * 2 ** 30 };

const runChild = (scenario: string) => runJsonChild<ClusterFigures>(CHILD, [scenario], [`--max-old-space-size=${HEAP_MB}`]);

const pad = (cells: string[], widths: number[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');

function table(runs: ClusterFigures[]): string {
  const head = ['scenario', 'virtual', 'wall s', 'virtual s/wall s', 'peak RSS MiB', 'API requests/wall s', 'checks'];
  const rows = runs.map((r) => [
    r.scenario, `${(r.virtualMs / 60_000).toFixed(0)} min`, (r.wallMs / 1000).toFixed(1), (r.virtualMs / r.wallMs).toFixed(2),
    (r.peakRssBytes / 2 ** 20).toFixed(0), ((r.apiRequests * 1000) / r.wallMs).toFixed(0), r.failedChecks.length ? `FAIL ${r.failedChecks.join(', ')}` : 'ok',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [pad(head, widths), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => pad(r, widths))].join('\n');
}

export async function clusterSuite(scenarios: string[]): Promise<SuiteOutput> {
  const runs: ClusterFigures[] = [];
  for (const s of scenarios.length ? scenarios : DEFAULT_CLUSTER_SCENARIOS) runs.push(await runChild(s));
  return {
    json: {
      suite: 'cluster',
      notes: [
        'each scenario runs in a child process as `orchsim run` runs it (embedded bus, virtual time), with its seed; wall time is the run itself, start-up excluded',
        'virtual s/wall s: the scenario\'s virtual duration over the wall time; peak RSS: the child\'s maximum resident set',
        `aims for 5k-nodes.yaml: ${AIMS.speed} virtual s per wall s (an hour in a minute), at most ${AIMS.peakBytes / 2 ** 30} GiB`,
      ],
      runs,
    } as { suite: string },
    table: table(runs),
  };
}
