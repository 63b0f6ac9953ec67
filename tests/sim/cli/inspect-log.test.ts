// `orchsim run --inspect-log` as a user runs it on the quickstart: two runs with the same seed
// write byte-identical logs and reports, and the log holds an actor for every node and its health
// machine, every pod, each zone, each leader lock's replica, each component and controller.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { InspectionRecord } from '../../../actors/system/index.ts';
import { controllerEnabled, controllerManagerOptions, KNOWN_CONTROLLERS } from '../../../actors/controller-manager/options.ts';
import { loadScenario, nodeNames } from '../../../sim/scenario/load.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../../sim/cli/orchsim.js');
const QUICKSTART = join(import.meta.dirname, '../../../sim/scenarios/quickstart.yaml');

async function quickstart(dir: string, name: string): Promise<{ log: string; report: string; stdout: string }> {
  const { stdout } = await run('node', [CLI, 'run', QUICKSTART, '--progress=false', '--out', join(dir, name), '--inspect-log', join(dir, `${name}.jsonl`)],
    { maxBuffer: 1 << 24 });
  return { log: await readFile(join(dir, `${name}.jsonl`), 'utf8'), report: await readFile(join(dir, name, 'report.json'), 'utf8'), stdout };
}

test('the quickstart\'s inspection log: the same seed gives the same bytes, and every actor is in it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-inspect-'));
  const [a, b] = await Promise.all([quickstart(dir, 'a'), quickstart(dir, 'b')]);
  await rm(dir, { recursive: true });
  assert.ok(a.log === b.log, 'byte-identical inspection logs');
  assert.ok(a.report === b.report, 'byte-identical reports');
  assert.match(a.stdout, /inspection log: .*a\.jsonl/);

  const records = a.log.trim().split('\n').map((l) => JSON.parse(l) as InspectionRecord);
  assert.equal(records.map((r) => r.seq), records.map((_, i) => i), 'every record, in order');
  const started = new Map<string, string>();
  for (const r of records) if (r.kind === 'actor') started.set(r.id, r.machine);
  const ids = (machine: string) => [...started].filter(([, m]) => m === machine).map(([id]) => id).sort();

  const scenario = await loadScenario(QUICKSTART);
  const nodes = scenario.nodePools.flatMap((p) => nodeNames(p));
  assert.is(nodes.length, 28);
  assert.equal(ids('node'), nodes.map((n) => `node/${n}`).sort());
  assert.equal(ids('node-health'), nodes.map((n) => `node-health/${n}`).sort());
  const report = JSON.parse(a.report) as { summary: { pods: { created: number } }; zones: string[] };
  assert.is(report.summary.pods.created, 2_600);
  assert.is(ids('pod').length, 2_600, 'every pod, scheduled or still pending');
  const zones = [...new Set(scenario.nodePools.flatMap((p) => p.zones.map((z) => `zone/${p.region}:${z}`)))].sort();
  assert.equal(ids('zone'), zones);
  assert.equal(ids('leader'), ['leader/orch-system/orch-controller-manager/controller-manager-0', 'leader/orch-system/orch-scheduler/scheduler-0']);
  assert.equal(ids('apiserver'), ['apiserver']);
  assert.equal(ids('component'), ['controller-manager/controller-manager-0']);
  assert.equal(ids('scheduler'), ['scheduler/default-scheduler']);
  const o = controllerManagerOptions(scenario.options.controllerManager);
  // The root CA publisher runs only given a CA bundle, which a simulated run has none of.
  const running = KNOWN_CONTROLLERS.filter((c) => controllerEnabled(o.controllers, c) && c !== 'root-ca-certificate-publisher-controller');
  assert.equal(ids('controller'), running.map((c) => `controller/${c}`).sort());
  assert.ok(records.every((r) => !r.id.includes('#')), 'no id was asked for twice at once');
});

test.run();
