// The component commands as a user types them, before any API server is involved: --version,
// a bad flag (exit 2, the message naming the flag, the value and the rule), the scheduler's
// --write-config-to writing a file its --config reads back, the node agent refusing standalone mode.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { VERSION_INFO } from '../../actors/api/version.ts';

const CLI = join(import.meta.dirname, '../../sim/cli/orchsim.js');
const exec = promisify(execFile);

async function orchsim(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec('node', [CLI, ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

test('every component prints its version and refuses a bad value by name', async () => {
  const cases: [string[], string][] = [
    [['controller-manager', '--node-eviction-rate=fast'], 'orchsim: invalid value "fast" for --node-eviction-rate: must be a number'],
    [['scheduler', '--leader-elect-renew-deadline=20s'], 'orchsim: --leader-elect-lease-duration (15s) must be greater than --leader-elect-renew-deadline (20s)'],
    [['nodeagent', '--max-pods=-1'], 'orchsim: invalid value "-1" for --max-pods: must not be negative'],
    [['apiserver', '--secure-port=0'], 'orchsim: invalid value "0" for --secure-port'],
  ];
  for (const [argv, says] of cases) {
    const r = await orchsim(...argv);
    assert.is(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.ok(r.stderr.startsWith(says), `${argv.join(' ')}: ${r.stderr}`);
  }
  for (const c of ['controller-manager', 'scheduler', 'nodeagent', 'apiserver']) {
    const r = await orchsim(c, '--version');
    assert.equal([r.code, r.stdout.trim()], [0, VERSION_INFO.gitVersion], c);
  }
});

test('scheduler --write-config-to writes the configuration in effect; --config reads it back', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-cli-'));
  const file = join(dir, 'scheduler.yaml');
  const written = await orchsim('scheduler', '--leader-elect-lease-duration=30s', '--leader-elect-renew-deadline=20s', `--write-config-to=${file}`);
  assert.is(written.code, 0, written.stderr);
  const doc = parse(await readFile(file, 'utf8'));
  assert.equal([doc.kind, doc.leaderElection.leaseDuration, doc.leaderElection.renewDeadline, doc.profiles], ['SchedulerConfiguration', '30s', '20s', [{ schedulerName: 'default-scheduler' }]]);
  const again = join(dir, 'again.yaml');
  const reread = await orchsim('scheduler', `--config=${file}`, `--write-config-to=${again}`);
  assert.is(reread.code, 0, reread.stderr);
  assert.equal(parse(await readFile(again, 'utf8')), doc);
});

test('the node agent without --orchconfig says that standalone mode is not simulated', async () => {
  const r = await orchsim('nodeagent', '--hostname-override=n1');
  assert.is(r.code, 2);
  assert.match(r.stderr, /--orchconfig is required: standalone mode \(static pods only\) is not simulated/);
});

test.run();
