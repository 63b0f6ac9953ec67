// The cluster autoscaler in a simulated cluster, its timeline computed from the real rules and
// compared: a pod the scheduler finds no room for gets a node at the first scan after it (scans
// every scan-interval from the autoscaler's start) plus the provisioning delay; a node unneeded
// since a scan goes at the first scan scale-down-unneeded-time later (and no sooner than
// scale-down-delay-after-add after a scale-up), never below the group's minimum and never
// through a PodDisruptionBudget.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEPLOYMENTS } from '../../../actors/api/model/apps.ts';
import { CONFIG_MAPS, NODES, PODS } from '../../../actors/api/model/core.ts';
import { PDBS } from '../../../actors/api/model/policy.ts';
import { EVENTS } from '../../../actors/client/events/index.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { simCluster } from '../../helpers/sim-cluster.ts';

const SCAN_MS = 10_000;
const DELAY_MS = 45_000;
const UNNEEDED_MS = 600_000;

/** A group `g` of 4-CPU nodes (min..max, `count` at the start) under an autoscaler scanning every 10s. */
const scenario = (count: number, min: number, max: number) => `duration: 3h
events: true
nodePools:
  - { name: g, count: ${count}, costPerHour: 0.5, autoscaling: { min: ${min}, max: ${max} }, capacity: { cpu: "4", memory: 16Gi } }
clusterAutoscaler:
  scan-interval: 10s
  expander: least-waste
  provisioningDelay: 45s
`;

const deployment = (replicas: number, cpu: string) => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }] } } },
}) as KObject;

/** The first scan at or after `ms`: scans run every SCAN_MS from `startMs`. */
const nextScan = (startMs: number, ms: number) => startMs + Math.ceil((ms - startMs) / SCAN_MS) * SCAN_MS;

async function world(count: number, min: number, max: number) {
  const w = await simCluster(scenario(count, min, max));
  // The autoscaler's loop began when it started with the cluster, before the helper's first 5s.
  const startMs = w.c.clock.now() - 5_000;
  const nodeNames = async () => (await w.client.list(NODES, undefined)).items.map((n) => n.metadata.name!).sort();
  const events = async (reason: string) => (await w.client.list(EVENTS, 'default')).items.concat((await w.client.list(EVENTS, 'kube-system')).items)
    .filter((e) => (e as Record<string, unknown>).reason === reason) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  return { ...w, startMs, nodeNames, events };
}

test('a pod no node has room for gets a node at the first scan after it is found unschedulable plus the provisioning delay', async () => {
  const { c, client, run, startMs, nodeNames, events } = await world(1, 1, 3);
  await run(2_000);
  await client.create(DEPLOYMENTS, deployment(2, '3'));
  let unschedulableAt: number | undefined;
  let joinedAt: number | undefined;
  c.server.store.onChange((change) => {
    if (joinedAt === undefined && change.type === 'ADDED' && change.key.includes('/nodes/g-1')) joinedAt = c.clock.now();
  });
  for (let i = 0; i < 100 && unschedulableAt === undefined; i++) {
    await run(100);
    const pods = (await client.list(PODS, 'default')).items;
    if (pods.some((p) => p.status?.conditions?.some((x) => x.type === 'PodScheduled' && x.reason === 'Unschedulable'))) unschedulableAt = c.clock.now();
  }
  assert.ok(unschedulableAt !== undefined, 'the second pod is found unschedulable');
  await run(SCAN_MS + DELAY_MS + 5_000);
  assert.is(joinedAt, nextScan(startMs, unschedulableAt!) + DELAY_MS, 'joined at the first scan after, plus the provisioning delay');
  assert.ok(joinedAt! - unschedulableAt! <= SCAN_MS + DELAY_MS);
  assert.equal(await nodeNames(), ['g-0', 'g-1']);
  await run(10_000);
  const pods = (await client.list(PODS, 'default')).items;
  assert.equal(pods.map((p) => p.spec?.nodeName).sort(), ['g-0', 'g-1'], 'both pods run, one on the new node');
  const triggered = await events('TriggeredScaleUp');
  assert.is(triggered.length, 1);
  assert.is(triggered[0]!.message, 'pod triggered scale-up: [{g 1->2 (max: 3)}]');
  assert.is(triggered[0]!.source.component, 'cluster-autoscaler');
  const status = await client.get(CONFIG_MAPS, 'kube-system', 'cluster-autoscaler-status');
  assert.match(status.data!.status!, /autoscalerStatus: Running/);
  assert.match(status.data!.status!, /- name: g\n {2}health:\n {4}status: Healthy\n {4}nodeCounts:\n {6}registered:\n {8}total: 2\n {8}ready: 2/);
  assert.match(status.data!.status!, /cloudProviderTarget: 2\n {4}minSize: 1\n {4}maxSize: 3/);
  c.stop();
});

test('a pod too large for any node of the group does not trigger a scale-up, and says why', async () => {
  const { c, client, run, nodeNames, events } = await world(1, 1, 3);
  await client.create(DEPLOYMENTS, deployment(1, '6'));
  await run(3 * SCAN_MS);
  assert.equal(await nodeNames(), ['g-0']);
  const notTriggered = await events('NotTriggerScaleUp');
  assert.ok(notTriggered.length >= 1);
  assert.is(notTriggered[0]!.message, "pod didn't trigger scale-up: 1 Insufficient cpu");
  c.stop();
});

test('an empty node goes after the unneeded time, at a scan, no sooner than the delay after the scale-up that added it, and never below the minimum', async () => {
  const { c, client, run, startMs, nodeNames, events } = await world(1, 1, 3);
  await client.create(DEPLOYMENTS, deployment(2, '3'));
  await run(2 * SCAN_MS + DELAY_MS);
  assert.equal(await nodeNames(), ['g-0', 'g-1']);
  const scaleUpAt = nextScan(startMs, c.clock.now() - SCAN_MS - DELAY_MS);
  // One replica goes: one node is empty from the next scan on.
  await run(1_000);
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { replicas: 1 } }, 'merge');
  const unneededFrom = nextScan(startMs, c.clock.now() + 1_000);
  let removedAt: number | undefined;
  c.server.store.onChange((change) => {
    if (removedAt === undefined && change.type === 'DELETED' && change.key.includes('/nodes/')) removedAt = c.clock.now();
  });
  await run(UNNEEDED_MS + 2 * SCAN_MS);
  const expected = nextScan(startMs, Math.max(unneededFrom + UNNEEDED_MS, scaleUpAt + 600_000));
  assert.is(removedAt, expected, 'removed at the first scan after both the unneeded time and the delay after add');
  assert.is((await nodeNames()).length, 1);
  assert.is((await events('ScaleDownEmpty')).length, 2, 'removing, then removed');
  // Down to no replicas: the last node is empty, but the group's minimum is 1.
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { replicas: 0 } }, 'merge');
  await run(2 * UNNEEDED_MS);
  assert.is((await nodeNames()).length, 1, 'never below the minimum');
  const history = c.cloud!.report(c.clock.now() - startMs);
  assert.equal(history[0]!.nodes.map(([, n]) => n), [1, 2, 1]);
  c.stop();
});

async function spreadPair(budget: boolean, disabled = false) {
  const w = await world(2, 1, 3);
  await w.client.create(DEPLOYMENTS, deployment(2, '500m'));
  if (disabled) for (const n of ['g-0', 'g-1']) await w.client.patch(NODES, undefined, n, { metadata: { annotations: { 'cluster-autoscaler.kubernetes.io/scale-down-disabled': 'true' } } }, 'merge');
  if (budget) await w.client.create(PDBS, { metadata: { name: 'web', namespace: 'default' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } } as KObject);
  await w.run(SCAN_MS);
  const pods = (await w.client.list(PODS, 'default')).items;
  assert.equal(pods.map((p) => p.spec?.nodeName).sort(), ['g-0', 'g-1'], 'one pod per node');
  await w.run(UNNEEDED_MS + 6 * SCAN_MS);
  return w;
}

test('an underused node is drained through the eviction subresource and removed once its pod runs elsewhere', async () => {
  const { c, client, nodeNames, events } = await spreadPair(false);
  assert.is((await nodeNames()).length, 1);
  const pods = (await client.list(PODS, 'default')).items.filter((p) => !p.metadata.deletionTimestamp);
  assert.is(pods.length, 2);
  const [left] = await nodeNames();
  assert.ok(pods.every((p) => p.spec?.nodeName === left), 'both pods on the node that stays');
  assert.equal((await events('ScaleDown')).map((e) => e.message).filter((m) => m.startsWith('Scale-down: node')).length, 1);
  assert.is((await events('ScaleDown')).filter((e) => e.message === 'deleting pod for node scale down').length, 1);
  c.stop();
});

test('a node whose pod a budget allows no disruption of is never removed', async () => {
  const { c, nodeNames, events } = await spreadPair(true);
  assert.equal(await nodeNames(), ['g-0', 'g-1']);
  assert.is((await events('ScaleDown')).length, 0);
  c.stop();
});

test('nodes annotated scale-down-disabled are never removed', async () => {
  const { c, nodeNames } = await spreadPair(false, true);
  assert.equal(await nodeNames(), ['g-0', 'g-1']);
  c.stop();
});

test.run();
