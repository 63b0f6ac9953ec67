// `kubectl delete --cascade=orphan|foreground` against `orchsim serve` (API server, controller
// manager with the garbage collector, a simulated node): orphan removes the ReplicaSet and leaves
// its pods running with no ownerReferences; foreground returns only once the pods are gone too,
// since the set waits for them before it goes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../sim/cli/serve.ts';
import { eventually, freePort, kubectl } from '../helpers/real-time.ts';

interface PodJson { metadata: { name: string; ownerReferences?: { name: string }[]; deletionTimestamp?: string }; status: { phase: string } }

const replicaSet = (name: string) => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name },
  spec: { replicas: 2, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
});

test('kubectl delete rs --cascade=orphan leaves its pods with no owner; --cascade=foreground returns once its pods are gone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-cascade-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '7', '--nodes', '1', '--zones', 'east', '--speed', '5'], 'serve', () => {});
  const k = (args: string[]) => kubectl(kubeconfig, [...args, '--cache-dir', join(dir, 'cache')]);
  const pods = async (app: string) => (JSON.parse((await k(['get', 'pods', '-l', `app=${app}`, '-o', 'json'])).stdout).items as PodJson[]);
  const runningPods = (app: string) => eventually(`two ${app} pods Running`, async () => {
    const items = await pods(app);
    return items.length === 2 && items.every((p) => p.status.phase === 'Running') ? items : undefined;
  });
  try {
    for (const name of ['web', 'api']) {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(replicaSet(name)));
      const created = await k(['create', '-f', file]);
      assert.is(created.code, 0, created.stderr);
    }
    const web = await runningPods('web');
    assert.equal(web.map((p) => p.metadata.ownerReferences?.map((r) => r.name)), [['web'], ['web']]);
    await runningPods('api');

    const orphan = await k(['delete', 'rs', 'web', '--cascade=orphan', '--timeout=30s']);
    assert.is(orphan.code, 0, orphan.stderr);
    assert.is(orphan.stdout, 'replicaset.apps "web" deleted\n');
    assert.match((await k(['get', 'rs', 'web'])).stderr, /NotFound/);
    const left = await pods('web');
    assert.equal(left.map((p) => p.metadata.name).sort(), web.map((p) => p.metadata.name).sort(), 'the same pods, still there');
    assert.equal(left.map((p) => [p.metadata.ownerReferences, p.metadata.deletionTimestamp, p.status.phase]), [[undefined, undefined, 'Running'], [undefined, undefined, 'Running']]);

    const foreground = await k(['delete', 'rs', 'api', '--cascade=foreground', '--timeout=60s']);
    assert.is(foreground.code, 0, foreground.stderr);
    assert.is(foreground.stdout, 'replicaset.apps "api" deleted\n');
    assert.match((await k(['get', 'rs', 'api'])).stderr, /NotFound/);
    assert.equal(await pods('api'), [], 'the set went only after its pods');
    assert.is((await pods('web')).length, 2, 'the orphans are untouched');
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
