// `kubectl top` in multi-process mode, as a user sets it up: `orchsim credentials`, nats-server
// with its configuration, `orchsim apiserver` with token authentication and RBAC, and two
// `orchsim nodeagent` processes with their own NATS users. The API server's metrics server scrapes
// each agent's summary over NATS (the node's user may answer its own scrapes and no other's), so
// `kubectl top pods` and `kubectl top nodes` print what the pods' usage annotations say, and a
// changed annotation shows at the next scrape.
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CPU_USAGE, MEMORY_USAGE } from '../../actors/nodeagent/pod-usage.ts';
import { writeKubeconfig } from '../../sim/cli/kubeconfig.ts';
import { CLI, fastAgentConfig, freePort, start, until, type Proc } from '../helpers/component-processes.ts';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.ts';
import { kubectl } from '../helpers/real-time.ts';

const ADMIN_TOKEN = 'e2e-admin-token-not-a-secret';

let dir: string;
let nats: NatsServer;
const procs: Proc[] = [];

const pod = (name: string, node: string, cpu: string, memory: string) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', annotations: { [CPU_USAGE]: cpu, [MEMORY_USAGE]: memory } },
  spec: { nodeName: node, containers: [{ name: 'main', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
});

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orchsim-components-top-'));
  const port = await freePort();
  await promisify(execFile)('node', [CLI, 'credentials', '--out', dir, '--bus', `nats://127.0.0.1:${port}`, '--nodes', 'n1,n2']);
  await appendFile(join(dir, 'tokens.csv'), `${ADMIN_TOKEN},e2e-admin,e2e-admin,"system:masters"\n`);
  nats = await startNatsServer({ port, config: join(dir, 'nats-server.conf') });
});

test.after(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await nats?.stop();
});

test('kubectl top shows the usage of pods run by node agent processes, scraped over NATS by the API server process', async () => {
  const apiPort = await freePort();
  procs.push(start('apiserver', ['apiserver', `--bus-kubeconfig=${join(dir, 'apiserver.kubeconfig')}`, `--token-auth-file=${join(dir, 'tokens.csv')}`,
    '--authorization-mode=RBAC,Node', `--secure-port=${apiPort}`, '--bind-address=127.0.0.1', `--cert-dir=${join(dir, 'certs')}`, '--seed=1']));
  await until('the API server', async () => (procs[0]!.lines.some((l) => l.includes('ready at')) ? true : undefined), procs);
  for (const n of ['n1', 'n2'])
    procs.push(start(`node-${n}`, ['nodeagent', `--orchconfig=${join(dir, `node-${n}.kubeconfig`)}`, `--hostname-override=${n}`,
      `--config=${await fastAgentConfig(dir, n)}`, '--simulated-capacity=cpu=4,memory=8Gi']));
  const kubeconfig = join(dir, 'admin.kubeconfig');
  writeKubeconfig(kubeconfig, `https://127.0.0.1:${apiPort}`, await readFile(join(dir, 'certs', 'apiserver.crt'), 'utf8'), { token: ADMIN_TOKEN });
  const k = async (...args: string[]) => {
    const r = await kubectl(kubeconfig, ['--cache-dir', join(dir, 'cache'), ...args]);
    return r.code === 0 ? r.stdout : undefined;
  };
  const must = async (...args: string[]) => {
    const r = await kubectl(kubeconfig, ['--cache-dir', join(dir, 'cache'), ...args]);
    assert.is(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  };
  const rows = (out: string) => out.trim().split('\n').map((l) => l.trim().split(/\s+/));

  await until('both nodes registered', async () => ((await k('get', 'nodes', '--no-headers'))?.trim().split('\n').length === 2 ? true : undefined), procs);
  const file = join(dir, 'pods.json');
  // No controller manager here to make it: the ServiceAccount admission wants the namespace's default account.
  await must('create', 'serviceaccount', 'default');
  for (const p of [pod('a', 'n1', '250m', '100Mi'), pod('b', 'n2', '1500m', '1Gi')]) {
    await writeFile(file, JSON.stringify(p));
    await must('apply', '-f', file);
  }

  const top = await until('kubectl top pods with both pods', async () => {
    const out = await k('top', 'pods', '--no-headers');
    return out && rows(out).length === 2 ? rows(out) : undefined;
  }, procs);
  assert.equal(top, [['a', '250m', '100Mi'], ['b', '1500m', '1024Mi']]);
  const nodes = await until('kubectl top nodes with both nodes', async () => {
    const out = await k('top', 'nodes', '--no-headers');
    return out && rows(out).length === 2 ? rows(out) : undefined;
  }, procs);
  // CPU% and MEMORY% are of each node's allocatable (4 cores; 8Gi less the 100Mi hard eviction threshold).
  const percent = (used: number, of: number) => `${Math.floor((used / of) * 100)}%`;
  assert.equal(nodes, [['n1', '250m', percent(250, 4000), '100Mi', percent(100, 8192 - 100)], ['n2', '1500m', percent(1500, 4000), '1024Mi', percent(1024, 8192 - 100)]]);

  // A changed annotation shows at the next scrape: the agent in its own process recompiles the pod's use.
  await must('annotate', 'pod', 'a', `${CPU_USAGE}=750m`, '--overwrite');
  await until('kubectl top pods with a at 750m', async () => {
    const out = await k('top', 'pod', 'a', '--no-headers');
    return out && rows(out)[0]?.[1] === '750m' ? true : undefined;
  }, procs);
  for (const p of procs) assert.not.ok(p.lines.some((l) => l.includes('does not let user')), `${p.name} was refused:\n${p.lines.join('\n')}`);
});

test.run();
