// A patch that changes nothing once decoded starts no rollout: in a simulated cluster (controllers
// and node agents running), a JSON patch writing null to a Deployment's optional template field
// leaves its generation, its ReplicaSets and its pods as they were.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../../actors/api/resources.ts';
import type { KObject } from '../../../../actors/api/types.ts';
import { ApiClient } from '../../../../actors/client/client.ts';
import { SimCluster } from '../../../../sim/cluster.ts';
import { parseScenario } from '../../../../sim/scenario/load.ts';

const DEPLOYMENTS = lookupResource('apps', 'v1', 'deployments')!;
const RS = lookupResource('apps', 'v1', 'replicasets')!;

const deployment = {
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1', resources: { requests: { cpu: '100m' } } }] } } },
} as KObject;

test('a JSON patch adding a null nodeSelector to a Deployment starts no rollout: same generation, no new ReplicaSet', async () => {
  const c = new SimCluster(parseScenario('duration: 1h\nnodePools: [{ name: n, count: 2, capacity: { cpu: "8", memory: 32Gi } }]\n', { name: 'p', dir: '.' }), 1);
  await c.start();
  const client = new ApiClient(c.bus, 'test');
  const run = (ms: number) => c.kernel.run({ until: c.clock.now() + ms });
  try {
    await run(5_000);
    await client.create(DEPLOYMENTS, deployment);
    await run(30_000);
    const before = await client.get(DEPLOYMENTS, 'default', 'web');
    const setsBefore = (await client.list(RS, 'default')).items.map((rs) => rs.metadata.name);
    assert.is(setsBefore.length, 1);
    const patched = await client.patch(DEPLOYMENTS, 'default', 'web', [{ op: 'add', path: '/spec/template/spec/nodeSelector', value: null }], 'json');
    assert.equal([patched.metadata.generation, patched.metadata.resourceVersion], [before.metadata.generation, before.metadata.resourceVersion]);
    await run(60_000);
    assert.equal((await client.list(RS, 'default')).items.map((rs) => rs.metadata.name), setsBefore);
    assert.is((await client.get(DEPLOYMENTS, 'default', 'web')).metadata.generation, before.metadata.generation);
  } finally {
    c.stop();
  }
});

test.run();
