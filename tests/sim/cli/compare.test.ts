// `orchsim compare A B`: two reports side by side, the rows that differ marked with their deltas,
// zone outcomes and the first entry where timelines part; compare.html highlights the same rows;
// exit 0 when they agree, 1 when they differ; bad input named. And two real runs, seeds apart.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OptionError } from '../../../actors/api/options/table.ts';
import { compareCommand } from '../../../sim/cli/compare.ts';
import { compareReports, renderComparison } from '../../../sim/report/compare.ts';
import { sampleReport } from '../report/sample-report.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../../sim/cli/orchsim.js');

function changedReport() {
  const b = sampleReport();
  b.seed = 4243;
  b.summary.pods.pending = 12;
  b.summary.schedulingLatencyMs.p99 = 3_000;
  b.series.zoneStates['r:zone-a'] = ['Normal', 'Normal', 'Normal', 'FullDisruption', 'FullDisruption'];
  b.timelines.nodes['pool-0']![2] = [21_000, 'Unknown'];
  return b;
}

test('the rows that differ are marked, with B against A; the others show once', () => {
  const c = compareReports(sampleReport(), changedReport(), { a: 'a.json', b: 'b.json' });
  const row = (label: string) => c.groups.flatMap((g) => g.rows).find((r) => r.label === label)!;
  assert.equal(row('pods pending'), { label: 'pods pending', a: '10', b: '12', delta: '+2 (+20%)', changed: true });
  assert.equal(row('scheduling latency p99'), { label: 'scheduling latency p99', a: '2.5s', b: '3s', delta: '+500ms (+20%)', changed: true });
  assert.equal(row('zone-a: states'), { label: 'zone-a: states', a: 'Normal 0:10, PartialDisruption 0:30, FullDisruption 0:40, Normal 0:50',
    b: 'Normal 0:10, FullDisruption 0:40', changed: true });
  assert.equal(row('pool-0'), { label: 'pool-0', a: '0:20.0 Unknown', b: '0:21.0 Unknown', changed: true });
  assert.is(row('pods created').changed, false);
  assert.is(c.changes, 5, 'seed, pending, p99, zone-a states, pool-0');
  const text = renderComparison(c);
  assert.match(text, /^≠ pods pending +10 +12  \+2 \(\+20%\)$/m);
  assert.match(text, /^  pods created +120$/m);
  assert.match(text, /Pod timelines\n {2}every one of 1 +same/);
});

test('the command writes compare.html and exits 1 when the reports differ, 0 when they agree', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-compare-'));
  await writeFile(join(dir, 'a.json'), JSON.stringify(sampleReport()));
  await writeFile(join(dir, 'b.json'), JSON.stringify(changedReport()));
  const lines: string[] = [];
  assert.is(await compareCommand([join(dir, 'a.json'), join(dir, 'b.json'), '--out', dir], (l) => lines.push(l)), 1);
  assert.match(lines.join('\n'), /5 rows differ \(marked ≠\)/);
  const html = await readFile(join(dir, 'compare.html'), 'utf8');
  assert.is(html.match(/<tr class="changed">/g)?.length, 5);
  assert.ok(html.includes('<td class="num">+2 (+20%)</td>'));
  assert.is(await compareCommand([join(dir, 'a.json'), join(dir, 'a.json'), '--out', dir], () => {}), 0);
});

test('bad input is named: a missing path, a directory without a report, not JSON, not a report, not two', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-compare-bad-'));
  await writeFile(join(dir, 'a.json'), JSON.stringify(sampleReport()));
  await writeFile(join(dir, 'broken.json'), '{"version": 1,');
  await writeFile(join(dir, 'other.json'), '{"kind": "Pod"}');
  const refusal = async (argv: string[]) => {
    try {
      await compareCommand(argv, () => {});
    } catch (e) {
      assert.instance(e, OptionError);
      return (e as Error).message;
    }
    throw new Error('accepted');
  };
  const a = join(dir, 'a.json');
  assert.is(await refusal([a, join(dir, 'nope.json')]), `${join(dir, 'nope.json')}: no such file or directory`);
  assert.is(await refusal([a, tmpdir()]), `${tmpdir()}: no report.json in this directory (orchsim run --out DIR writes one)`);
  assert.match(await refusal([a, join(dir, 'broken.json')]), /broken\.json: not JSON \(/);
  assert.match(await refusal([a, join(dir, 'other.json')]), /other\.json: not an orchsim report/);
  assert.match(await refusal([a]), /compare takes two reports .*, got 1/);
});

test('two real runs a seed apart, through the command line: their directories compared', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-compare-runs-'));
  const scenario = join(dir, 'tiny.yaml');
  await writeFile(scenario, `name: tiny
duration: 2m
sampleInterval: 10s
nodePools: [{ name: pool, count: 3, zones: [zone-a, zone-b] }]
workloads: [{ name: web, count: 12, controller: ReplicaSet, requests: { cpu: 500m, memory: 64Mi } }]
faults: [{ kind: nodeCrash, at: 30s }]
`);
  for (const seed of ['1', '2']) await run('node', [CLI, 'run', scenario, '--seed', seed, '--progress=false', '--out', join(dir, `seed-${seed}`)]);
  const same = await run('node', [CLI, 'compare', join(dir, 'seed-1'), join(dir, 'seed-1'), '--out', dir]);
  assert.match(same.stdout, /no differences/);
  const differ = await run('node', [CLI, 'compare', join(dir, 'seed-1'), join(dir, 'seed-2'), '--out', dir]).then(() => undefined, (e) => e as { code: number; stdout: string });
  assert.is(differ?.code, 1);
  assert.match(differ!.stdout, /^≠ seed +1 +2 {2}\+1/m);
  assert.match(differ!.stdout, /Node timelines\n≠ pool-/, 'the crashed node differs: each seed drew its own');
});

test.run();
