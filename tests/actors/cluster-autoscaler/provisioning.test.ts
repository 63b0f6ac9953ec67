// Nodes that never come, timed from the real autoscaler's rules: the priority expander grows the
// spot group, whose machines the cloud cannot give; at the first scan strictly after
// max-node-provision-time (15m) the scale-up times out and the group is backed off for 5m; at the
// first scan 15m after a scan first saw the machine unregistered it is deleted (which ends that
// loop); at the next scan the pod still pending grows the on-demand group instead, whose node joins
// after the provisioning delay. The status ConfigMap and the Events say so as the real ones do.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEPLOYMENTS } from '../../../actors/api/model/apps.ts';
import { CONFIG_MAPS, PODS } from '../../../actors/api/model/core.ts';
import { EVENTS } from '../../../actors/client/events/index.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { scheduleFaults } from '../../../sim/faults.ts';
import { simCluster } from '../../helpers/sim-cluster.ts';

const SCAN_MS = 10_000;
const DELAY_MS = 45_000;
const PROVISION_MS = 15 * 60_000;
const BACKOFF_MS = 5 * 60_000;

const scenario = (spot: string, extra = '') => `duration: 3h
events: true
nodePools:
  - { name: ondemand, count: 1, costPerHour: 0.5, autoscaling: { min: 1, max: 3 }, capacity: { cpu: "4", memory: 16Gi } }
  - { name: spot, count: 0, costPerHour: 0.2, ${spot} autoscaling: { min: 0, max: 3 }, capacity: { cpu: "4", memory: 16Gi } }
clusterAutoscaler:
  scan-interval: 10s
  expander: priority,least-waste
  provisioningDelay: 45s
  priorities: { 10: [spot], 1: [ondemand] }
${extra}`;

const deployment = (replicas: number) => ({
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '3' } } }] } } },
}) as KObject;

const nextScan = (startMs: number, ms: number) => startMs + Math.ceil((ms - startMs) / SCAN_MS) * SCAN_MS;

async function world(spot: string, extra = '') {
  const w = await simCluster(scenario(spot, extra));
  const startMs = w.c.clock.now() - 5_000;
  const joined = new Map<string, number>();
  w.c.server.store.onChange((change) => {
    const m = /\/nodes\/(.+)$/.exec(change.key);
    if (m && change.type === 'ADDED' && !joined.has(m[1]!)) joined.set(m[1]!, w.c.clock.now());
  });
  const events = async (reason: string) => (await w.client.list(EVENTS, 'default')).items.concat((await w.client.list(EVENTS, 'kube-system')).items)
    .filter((e) => (e as Record<string, unknown>).reason === reason) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  const status = async () => (await w.client.get(CONFIG_MAPS, 'kube-system', 'cluster-autoscaler-status')).data!.status!;
  /** Creates the Deployment and moves on until its second pod is Unschedulable; answers that time. */
  const pending = async () => {
    await w.client.create(DEPLOYMENTS, deployment(2));
    for (let i = 0; i < 100; i++) {
      await w.run(100);
      const pods = (await w.client.list(PODS, 'default')).items;
      if (pods.some((p) => p.status?.conditions?.some((x) => x.type === 'PodScheduled' && x.reason === 'Unschedulable'))) return w.c.clock.now();
    }
    throw new Error('no pod became Unschedulable');
  };
  const runTo = (ms: number) => w.run(ms - w.c.clock.now());
  return { ...w, startMs, joined, events, status, pending, runTo };
}

const spotScaleUp = (s: string) => /- name: spot\n(?:.*\n)*? {2}scaleUp:\n {4}status: (\w+)/.exec(s)?.[1];

test('a spot node that never comes times out after max-node-provision-time, backs spot off, and the on-demand group grows instead', async () => {
  const { c, startMs, joined, events, status, pending, runTo } = await world('provisioningFailure: 1,');
  const scaleUpAt = nextScan(startMs, await pending());
  const timedOutAt = scaleUpAt + PROVISION_MS + SCAN_MS; // the first scan strictly after 15m
  const removedAt = timedOutAt + SCAN_MS; // first seen unregistered one scan after the scale-up
  const ondemandAt = removedAt + SCAN_MS;
  await runTo(scaleUpAt + 1_000);
  assert.is(spotScaleUp(await status()), 'InProgress');
  await runTo(timedOutAt - 1_000);
  assert.is(spotScaleUp(await status()), 'InProgress', 'still waiting just before the timeout');
  assert.is((await events('ScaleUpTimedOut')).length, 0);
  await runTo(timedOutAt + 1_000);
  const s = await status();
  assert.is(spotScaleUp(s), 'Backoff');
  assert.match(s, /backoffInfo:\n {6}errorCode: timeout\n {6}errorMessage: Scale-up timed out for node group spot after 15m10s\n/);
  const timedOut = await events('ScaleUpTimedOut');
  assert.equal(timedOut.map((e) => [e.type, e.message, e.involvedObject.name]), [['Warning', 'Nodes added to group spot failed to register within 15m10s', 'cluster-autoscaler-status']]);
  assert.is(joined.has('ondemand-1'), false, 'the upcoming spot node still counts until it is long unregistered');
  await runTo(ondemandAt + DELAY_MS + 5_000);
  assert.equal((await events('DeleteUnregistered')).map((e) => e.message), ['Removed unregistered node spot-0']);
  assert.is(joined.get('ondemand-1'), ondemandAt + DELAY_MS, 'on-demand asked for at the scan after the removal, joined after the delay');
  assert.is(joined.has('spot-0'), false);
  const triggered = (await events('TriggeredScaleUp')).map((e) => e.message);
  assert.equal([...new Set(triggered)].sort(), ['pod triggered scale-up: [{ondemand 1->2 (max: 3)}]', 'pod triggered scale-up: [{spot 0->1 (max: 3)}]']);
  assert.match(await status(), /- name: spot\n {2}health:\n {4}status: Healthy\n {4}nodeCounts:\n {6}registered:\n {8}total: 0\n {8}ready: 0\n {8}notStarted: 0\n {6}longUnregistered: 0\n {6}unregistered: 0\n {4}cloudProviderTarget: 0/);
  await runTo(timedOutAt + BACKOFF_MS + 1_000);
  assert.is(spotScaleUp(await status()), 'NoActivity', 'the backoff ends after 5m');
  const spot = c.cloud!.report(c.clock.now() - startMs).find((g) => g.name === 'spot')!;
  assert.equal(spot.nodes, [[0, 0]]);
  assert.is(spot.nodeHours, 0, 'a machine that never came costs nothing');
  c.stop();
});

test('while a capacity shortage holds the spot pool its nodes never come; once it ends and the backoff is over they do', async () => {
  const { c, client, joined, startMs, pending, runTo, events } = await world('', 'faults:\n  - { kind: capacityShortage, pool: spot, at: 0s, recoverAfter: 10m }\n');
  const records = scheduleFaults(c, c.clock, c.random.fork('faults'), c.scenario.faults, c.clock.now(), (e) => assert.unreachable(String(e)));
  const scaleUpAt = nextScan(startMs, await pending());
  const timedOutAt = scaleUpAt + PROVISION_MS + SCAN_MS;
  await runTo(timedOutAt + 2 * SCAN_MS + DELAY_MS + 1_000);
  assert.is(joined.has('spot-0'), false);
  assert.is(joined.get('ondemand-1'), timedOutAt + 2 * SCAN_MS + DELAY_MS, 'the on-demand group took the pod');
  assert.equal((await events('DeleteUnregistered')).map((e) => e.message), ['Removed unregistered node spot-0']);
  assert.equal(records.map((r) => [r.kind, r.targets, r.atMs, r.recoveredAtMs]), [['capacityShortage', ['spot'], 0, 600_000]]);
  // The shortage is over, and so is the backoff: a third pod brings a spot node again.
  await runTo(timedOutAt + BACKOFF_MS + 1_000);
  await client.patch(DEPLOYMENTS, 'default', 'web', { spec: { replicas: 3 } }, 'merge');
  const asked = c.clock.now();
  await c.kernel.run({ until: asked + 2 * SCAN_MS + DELAY_MS });
  const spotAt = joined.get('spot-0');
  assert.ok(spotAt !== undefined && spotAt > asked + DELAY_MS && spotAt <= asked + 2 * SCAN_MS + DELAY_MS && (spotAt - DELAY_MS - startMs) % SCAN_MS === 0,
    `spot-0 joined a provisioning delay after a scan (${spotAt})`);
  c.stop();
});

test('with the priorities ConfigMap and no failures, the highest priority group grows', async () => {
  const { c, joined, startMs, pending, runTo, client } = await world('');
  const map = await client.get(CONFIG_MAPS, 'kube-system', 'cluster-autoscaler-priority-expander');
  assert.is(map.data!.priorities, '1:\n  - "ondemand"\n10:\n  - "spot"\n');
  const scaleUpAt = nextScan(startMs, await pending());
  await runTo(scaleUpAt + DELAY_MS + 1_000);
  assert.is(joined.get('spot-0'), scaleUpAt + DELAY_MS);
  assert.is(joined.has('ondemand-1'), false);
  c.stop();
});

test.run();
