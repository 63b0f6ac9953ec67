// The DaemonSet controller in a simulated cluster: one pod per eligible node (node selector,
// taints), bound there by the scheduler; each template a ControllerRevision; a new template rolls
// out one node at a time; going back to an old template renumbers its revision newest (a rollback).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { SimCluster } from '../../../sim/cluster.ts';
import { parseScenario } from '../../../sim/scenario/load.ts';

const DAEMONSETS = lookupResource('apps', 'v1', 'daemonsets')!;
const REVISIONS = lookupResource('apps', 'v1', 'controllerrevisions')!;
const PODS = lookupResource('', 'v1', 'pods')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SCENARIO = `
duration: 1h
nodePools:
  - { name: web, count: 3, labels: { role: web }, capacity: { cpu: "8", memory: 32Gi } }
  - { name: db, count: 1, labels: { role: db }, capacity: { cpu: "8", memory: 32Gi } }
  - { name: gpu, count: 1, labels: { role: web }, taints: [{ key: dedicated, value: gpu, effect: NoSchedule }], capacity: { cpu: "8", memory: 32Gi } }
`;

const image = (tag: string) => ({ spec: { template: { spec: { containers: [{ name: 'agent', image: `agent:${tag}` }] } } } });

test('one pod per eligible node, rolled out one node at a time, with its history as ControllerRevisions', async () => {
  const c = new SimCluster(parseScenario(SCENARIO, { name: 'ds', dir: '.' }), 1);
  await c.start();
  const client = new ApiClient(c.bus, 'test');
  const run = (ms: number) => c.kernel.run({ until: c.clock.now() + ms });
  await run(5_000);
  await client.create(DAEMONSETS, { metadata: { name: 'agent', namespace: 'default' }, spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { role: 'web' }, containers: [{ name: 'agent', image: 'agent:1' }] } },
  } } as KObject);
  await run(30_000);
  const pods = async () => ((await client.list(PODS, 'default')).items as Rec[]).filter((p) => !p.metadata.deletionTimestamp);
  const placed = async () => (await pods()).map((p) => `${p.spec.nodeName}:${p.spec.containers[0].image}`).sort();
  assert.equal(await placed(), ['web-0:agent:1', 'web-1:agent:1', 'web-2:agent:1'], 'not on db (selector) nor gpu (untolerated taint)');
  const revisions = async () => ((await client.list(REVISIONS, 'default')).items as Rec[]).map((r) => [r.data.spec.template.spec.containers[0].image, r.revision]).sort();
  assert.equal(await revisions(), [['agent:1', 1]]);
  const status = async () => ((await client.get(DAEMONSETS, 'default', 'agent')) as Rec).status;
  assert.equal([(await status()).desiredNumberScheduled, (await status()).numberReady], [3, 3]);

  // A new template: never more than one node without a ready agent.
  let worst = 3;
  const unsubscribe = c.server.store.onChange(() => void pods().then((ps) => (worst = Math.min(worst, ps.filter((p) => (p.status?.conditions ?? []).some((x: Rec) => x.type === 'Ready' && x.status === 'True')).length))));
  await client.patch(DAEMONSETS, 'default', 'agent', image('2'), 'strategic');
  await run(60_000);
  unsubscribe();
  assert.equal(await placed(), ['web-0:agent:2', 'web-1:agent:2', 'web-2:agent:2']);
  assert.ok(worst >= 2, `at most one node without a ready agent, saw ${3 - worst}`);
  assert.equal(await revisions(), [['agent:1', 1], ['agent:2', 2]]);

  // Back to the first template: its revision becomes the newest.
  await client.patch(DAEMONSETS, 'default', 'agent', image('1'), 'strategic');
  await run(60_000);
  assert.equal(await placed(), ['web-0:agent:1', 'web-1:agent:1', 'web-2:agent:1']);
  assert.equal(await revisions(), [['agent:1', 3], ['agent:2', 2]]);
  c.stop();
});

test.run();
