// The controller manager's metrics against a real API server on virtual time: its work queues
// report under the real controllers' queue names (adds, depth, durations), its clients' requests
// are counted (the ReplicaSet controller's pod creations and their events among them), and
// leader_election_master_status flips from the crashed leader to its successor.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import type { ControllerManagerOptions } from '../../../actors/controller-manager/options.ts';
import { workQueueName } from '../../../actors/controller-manager/queued-controller.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';
import { sample } from '../client/metric-values.ts';

const RS = lookupResource('apps', 'v1', 'replicasets')!;
const LOCK = { name: 'orch-controller-manager' };

async function world() {
  const { clock, bus, random, client, run, stop } = await virtualWorld();
  const manager = (identity: string, options: Partial<ControllerManagerOptions>) => new ControllerManager({
    bus, clock, random: random.fork(identity), identity, onError: (c, e) => { throw new Error(`${c}: ${e}`); },
    options: { controllers: ['replicaset-controller'], leaderElectLeaseDurationMs: 15_000, leaderElectRenewDeadlineMs: 10_000, leaderElectRetryPeriodMs: 2_000, ...options },
  });
  const rs = (name: string, replicas: number) => client.create(RS, { metadata: { name, namespace: 'default' }, spec: {
    replicas, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  } } as KObject);
  return { rs, manager, run, stop };
}

test('work queues report under the real queue names', () => {
  assert.equal(['replicaset-controller', 'deployment-controller', 'daemonset-controller', 'statefulset-controller', 'namespace-controller', 'generic-garbage-collector'].map(workQueueName),
    ['replicaset', 'deployment', 'daemonset', 'statefulset', 'namespace', 'garbage_collector_attempt_to_delete']);
});

test("a ReplicaSet's syncs show in the replicaset queue's metrics and its pod creations among the requests", async () => {
  const w = await world();
  const cm = w.manager('cm-0', { leaderElect: false });
  await cm.start();
  await w.rs('web', 3);
  await w.run(2_000);
  const m = cm.metrics;
  const q = { name: 'replicaset' };
  const adds = (await sample(m, 'workqueue_adds_total', q))!;
  assert.ok(adds >= 1, `adds: ${adds}`);
  assert.is(await sample(m, 'workqueue_work_duration_seconds_count', q), adds, 'every key added was synced');
  assert.is(await sample(m, 'workqueue_queue_duration_seconds_count', q), adds);
  assert.is(await sample(m, 'workqueue_depth', q), 0);
  assert.is(await sample(m, 'workqueue_retries_total', q), 0, 'no sync failed');
  assert.is(await sample(m, 'rest_client_requests_total', { code: '201', method: 'POST' }), 6, 'three pods created, and the event of each');
  assert.ok((await sample(m, 'rest_client_requests_total', { code: '200', method: 'GET' }))! >= 1, 'the informers listed');
  await cm.stop();
  w.stop();
});

test('leader status flips on failover: the crashed leader shows 0, its successor 1', async () => {
  const w = await world();
  const a = w.manager('cm-0', {});
  const b = w.manager('cm-1', {});
  await a.start();
  await w.run(3_000);
  await b.start();
  await w.run(3_000);
  assert.ok(a.leading && !b.leading);
  assert.is(await sample(a.metrics, 'leader_election_master_status', LOCK), 1);
  assert.is(await sample(b.metrics, 'leader_election_master_status', LOCK), 0);
  a.crash();
  assert.is(await sample(a.metrics, 'leader_election_master_status', LOCK), 0);
  await w.run(40_000);
  assert.ok(b.leading);
  assert.is(await sample(b.metrics, 'leader_election_master_status', LOCK), 1);
  await w.rs('web', 2);
  await w.run(2_000);
  assert.ok((await sample(b.metrics, 'workqueue_adds_total', { name: 'replicaset' }))! >= 1, "the successor's loops report to its registry");
  await b.stop();
  w.stop();
});

test.run();
