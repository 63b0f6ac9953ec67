// `orchsim plan` as a user runs it: runs spread over worker processes, a line per candidate, the
// answer, plan.json and plan.html; a scenario without a plan: section is refused by name.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spareZone } from '../helpers/spare-zone.ts';
import { oneGroup } from '../helpers/group-plan.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../sim/cli/orchsim.js');

const SCENARIO = spareZone('{ pendingAtEnd: 0 }');

test('plans with two worker processes and writes the answer', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-plan-'));
  await writeFile(join(dir, 'spare-zone.yaml'), SCENARIO);
  const { stdout } = await run('node', [CLI, 'plan', join(dir, 'spare-zone.yaml'), '--workers', '2', '--out', dir]);
  assert.match(stdout, /1 seed per candidate on each of 3 fault members \(zone-a, zone-b, zone-c\)/);
  assert.match(stdout, /answer: 12 nodes \(pool 12\); 11 nodes missed pendingAtEnd losing zone-a, zone-b\n/);
  const plan = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8'));
  assert.is(plan.answer.totalNodes, 12);
  assert.equal(plan.candidates.map((c: { totalNodes: number }) => c.totalNodes), [11, 12, 13]);
  const html = await readFile(join(dir, 'plan.html'), 'utf8');
  assert.ok(html.includes('whichever zone it lost: <b>12 nodes</b>'));
  assert.ok(html.includes('each losing zone-a, zone-b, zone-c in turn'));
  assert.ok(html.includes('aria-label="Pods pending at the end"'));
});

test('a node group\'s plan prints its max and each candidate\'s cost per day', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-plan-'));
  await writeFile(join(dir, 'one-group.yaml'), oneGroup());
  const { stdout } = await run('node', [CLI, 'plan', join(dir, 'one-group.yaml'), '--workers', '2', '--out', dir]);
  assert.match(stdout, /planning one-group: g max 1\.\.6 nodes, the cheapest, 1 seed per candidate/);
  assert.match(stdout, /node groups vary their max \(autoscaling: min stays\): g; cost per day is the node-hours they ran\n/);
  // 0.5 an hour: one node the whole 5m run and two more from 1m55s (tests/sim/plan-groups.test.ts), × 24h / 5m.
  assert.match(stdout, /\n +2 nodes \(g max 2\) +missed pendingAtEnd +19\.40\/day/);
  assert.match(stdout, /answer: 3 nodes \(g max 3\), 26\.80\/day; 2 nodes \(g max 2\) missed pendingAtEnd\n/);
  const plan = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8'));
  assert.equal(plan.maxima, ['g']);
  assert.is(plan.answer.costPerDay, 26.8);
});

test('a scenario without a plan: section is refused with a message naming it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-plan-'));
  await writeFile(join(dir, 'no-plan.yaml'), 'duration: 1m\nnodePools: [{ name: a, count: 1 }]\n');
  const failed = await run('node', [CLI, 'plan', join(dir, 'no-plan.yaml')]).then(() => undefined, (e: { code: number; stderr: string }) => e);
  assert.is(failed?.code, 2);
  assert.match(failed!.stderr, /no-plan.yaml has no plan: section/);
});

test.run();
