// kubectl drain against `orchsim serve` with three simulated nodes, a Deployment of 3 spread over
// them and a PodDisruptionBudget of minAvailable 2 made by `kubectl create pdb`: the disruption
// controller keeps the budget's status, so a drain's evictions are granted while the budget
// allows, the evicted pods come back Ready on the other nodes, and a drain of a node holding two
// of the pods evicts the second only once the first one's replacement is Ready (kubectl is told
// 429 meanwhile and retries). Both drains finish, and at no change of any pod were fewer than 2 Ready.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isReady } from '../../actors/api/fields.ts';
import type { Pod } from '../../actors/api/model/core.ts';
import type { KObject } from '../../actors/api/types.ts';
import { startServer } from '../../sim/cli/serve.ts';
import { eventually, freePort, kubectl as run } from '../helpers/real-time.ts';

const DEPLOYMENT = {
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 3, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: {
      containers: [{ name: 'web', image: 'nginx:1.27' }],
      // One per node while three nodes take pods; a cordoned node no longer counts as a domain.
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule',
        nodeTaintsPolicy: 'Honor', labelSelector: { matchLabels: { app: 'web' } } }],
    } },
  },
};

test('kubectl drain evicts within the budget: two drains finish, the pods come back Ready elsewhere, never fewer than 2 Ready', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-drain-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const running = await startServer(['--secure-port', String(await freePort()), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '11', '--nodes', '3', '--zones', 'a,b,c'], 'serve', () => {});
  const kubectl = (args: string[], timeoutMs?: number) => run(kubeconfig, ['--cache-dir', join(dir, 'cache'), ...args], timeoutMs);
  const ok = async (args: string[]) => {
    const r = await kubectl(args);
    assert.is(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  /** The Deployment's Ready pods not being deleted, once there are three of them, as they are then. */
  const threeReady = (what: string) => eventually(what, async () => {
    const pods = (JSON.parse(await ok(['get', 'pods', '-l', 'app=web', '-o', 'json'])).items as Pod[])
      .filter((p) => !p.metadata.deletionTimestamp && isReady(p));
    return pods.length === 3 ? pods : undefined;
  }, 60_000);
  const allowed = (n: number) => eventually(`the budget allowing ${n}`, async () => {
    const pdb = JSON.parse(await ok(['get', 'pdb', 'web', '-o', 'json']));
    return pdb.status?.disruptionsAllowed === n && pdb.status.observedGeneration === pdb.metadata.generation ? pdb : undefined;
  });
  try {
    await eventually('three nodes Ready', async () => {
      const nodes = JSON.parse(await ok(['get', 'nodes', '-o', 'json'])).items as KObject[];
      return nodes.filter((n) => isReady(n)).length === 3 ? nodes : undefined;
    });
    writeFileSync(join(dir, 'web.json'), JSON.stringify(DEPLOYMENT));
    await ok(['apply', '-f', join(dir, 'web.json')]);
    assert.is(await ok(['create', 'pdb', 'web', '--selector=app=web', '--min-available=2']), 'poddisruptionbudget.policy/web created\n');
    const spread = await threeReady('the Deployment Ready');
    assert.is(new Set(spread.map((p) => p.spec!.nodeName)).size, 3, 'one pod per node');
    const pdb = await allowed(1);
    assert.equal([pdb.status.expectedPods, pdb.status.currentHealthy, pdb.status.desiredHealthy], [3, 3, 2]);
    assert.match(await ok(['get', 'pdb', 'web']), /^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\nweb\s+2\s+N\/A\s+1\s+/);

    // From here on, the Ready pods of the Deployment not being deleted, at every change of a pod.
    let fewestReady = Infinity;
    running.server.store.onChange((change) => {
      if (!change.key.includes('/pods/default/')) return;
      void running.server.store.list('/registry/core/pods/default/').then(({ items }) => {
        fewestReady = Math.min(fewestReady, items.filter((p) => p.metadata.labels?.app === 'web' && !p.metadata.deletionTimestamp && isReady(p)).length);
      });
    });

    const first = spread[0]!.spec!.nodeName!;
    const drained = await kubectl(['drain', first, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=120s'], 150_000);
    assert.is(drained.code, 0, drained.stderr);
    assert.match(drained.stdout, `pod/${spread[0]!.metadata.name} evicted`);
    assert.match(drained.stdout, `node/${first} drained`);
    const moved = await threeReady('the evicted pod replaced');
    assert.not.ok(moved.some((p) => p.spec!.nodeName === first), 'nothing runs on the drained node');
    await allowed(1);

    // The node that took the replacement holds two pods: the budget lets them go one at a time.
    const perNode = new Map<string, string[]>();
    for (const p of moved) perNode.set(p.spec!.nodeName!, [...(perNode.get(p.spec!.nodeName!) ?? []), p.metadata.name!]);
    const [second, pair] = [...perNode].find(([, names]) => names.length === 2)!;
    const again = await kubectl(['drain', second, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=120s'], 150_000);
    assert.is(again.code, 0, again.stderr);
    assert.match(again.stderr, "Cannot evict pod as it would violate the pod's disruption budget.");
    for (const name of pair) assert.match(again.stdout, `pod/${name} evicted`);
    assert.match(again.stdout, `node/${second} drained`);
    const last = await threeReady('both evicted pods replaced');
    assert.equal([...new Set(last.map((p) => p.spec!.nodeName))], [...perNode.keys()].filter((n) => n !== second), 'all on the one node left');
    await allowed(1);
    assert.is(fewestReady, 2, 'the budget held at every change');
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
