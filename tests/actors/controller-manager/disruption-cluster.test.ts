// The disruption controller in a simulated cluster (node agents run the pods, every controller
// runs): a Deployment's budget allows what it should, and evicting every pod of the Deployment,
// retried every five seconds as kubectl drain retries, goes one pod at a time, each replacement
// Ready before the next goes, with never fewer than minAvailable pods Ready.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isReady } from '../../../actors/api/fields.ts';
import { lookupResource } from '../../../actors/api/resources.ts';
import { StatusError } from '../../../actors/api/status.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { simCluster } from '../../helpers/sim-cluster.ts';

const DEPLOYMENTS = lookupResource('apps', 'v1', 'deployments')!;
const PDBS = lookupResource('policy', 'v1', 'poddisruptionbudgets')!;
const PODS = lookupResource('', 'v1', 'pods')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

test('evicting all of a Deployment of 3 under minAvailable 2 goes one pod at a time, never below 2 Ready', async () => {
  const { c, client, run } = await simCluster();
  await client.create(DEPLOYMENTS, { metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 3, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }] } } } } as KObject);
  await client.create(PDBS, { metadata: { name: 'web', namespace: 'default' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } } as KObject);
  await run(30_000);
  const status = ((await client.get(PDBS, 'default', 'web')) as Rec).status;
  assert.equal([status.expectedPods, status.currentHealthy, status.desiredHealthy, status.disruptionsAllowed], [3, 3, 2, 1]);

  // From here on, the Ready pods not being deleted, at every change of a pod.
  let fewestReady = Infinity;
  c.server.store.onChange((change) => {
    if (!change.key.includes('/pods/default/')) return;
    void c.server.store.list('/registry/core/pods/default/').then(({ items }) => {
      fewestReady = Math.min(fewestReady, items.filter((p) => !p.metadata.deletionTimestamp && isReady(p)).length);
    });
  });
  const originals = ((await client.list(PODS, 'default')).items).map((p) => p.metadata.name!);
  const evicted: string[] = [];
  let refusals = 0;
  for (let round = 0; evicted.length < originals.length && round < 60; round++) {
    for (const name of originals.filter((n) => !evicted.includes(n))) {
      try {
        await client.request('POST', `/api/v1/namespaces/default/pods/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } });
        evicted.push(name);
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 429)) throw e;
        refusals++;
      }
    }
    await run(5_000);
  }
  assert.is(evicted.length, 3, 'every pod evicted in the end');
  assert.ok(refusals >= 2, `the budget held the others back while a replacement started (${refusals} refusals)`);
  assert.is(fewestReady, 2);
  await run(30_000);
  const pods = ((await client.list(PODS, 'default')).items).filter((p) => !p.metadata.deletionTimestamp);
  assert.is(pods.length, 3);
  assert.ok(pods.every((p) => isReady(p) && !originals.includes(p.metadata.name!)), 'three Ready replacements');
  const after = ((await client.get(PDBS, 'default', 'web')) as Rec).status;
  assert.equal([after.currentHealthy, after.disruptionsAllowed, after.disruptedPods], [3, 1, undefined]);
  await c.stop();
});

test.run();
