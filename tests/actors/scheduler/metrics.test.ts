// The scheduler's metrics against a real API server on virtual time: after it schedules N pods,
// scheduler_schedule_attempts_total{result="scheduled"} says N (counted once each binding
// succeeded) and the bindings show among its client's requests; a pod that fits nowhere counts as
// unschedulable, waits among the pending pods and makes a preemption attempt; a preemption that
// frees a node records its victims; a replica's registry keeps counting across leader terms.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { SharedInformers } from '../../../actors/client/shared-informers.ts';
import { NodeConditionTaints } from '../../../actors/controller-manager/controllers/node-condition-taints.ts';
import { schedulerOptions } from '../../../actors/scheduler/options.ts';
import { schedulerReplica } from '../../../actors/scheduler/replica.ts';
import { Scheduler } from '../../../actors/scheduler/scheduler.ts';
import { priorityClasses } from '../../helpers/priority-classes.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';
import { sample } from '../client/metric-values.ts';

const NODES = lookupResource('', 'v1', 'nodes')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const PROFILE = 'default-scheduler';

async function world() {
  const { clock, bus, random: root, server, client, run } = await virtualWorld({ seed: 3 });
  const node = (name: string, cpu: string) =>
    client.create(NODES, { metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: {},
      status: { allocatable: { cpu, memory: '16Gi', pods: '110' }, capacity: { cpu, memory: '16Gi', pods: '110' }, conditions: [{ type: 'Ready', status: 'True' }] } } as KObject);
  const classFor = priorityClasses(client);
  const pod = async (name: string, cpu: string, priority = 0) =>
    client.create(PODS, { metadata: { name, namespace: 'default' },
      spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu, memory: '64Mi' } } }], terminationGracePeriodSeconds: 0,
        priorityClassName: await classFor(priority) } } as KObject);
  const informers = new SharedInformers(bus, clock, 'test');
  const taints = new NodeConditionTaints({ bus, informers, onError: (e) => { throw e; } });
  await taints.start();
  return { clock, bus, root, server, node, pod, run,
    stop: () => { taints.stop(); informers.stop(); server.stop(); } };
}

test('after the scheduler binds N pods, the scheduled attempts, their durations and the bindings say N', async () => {
  const w = await world();
  const scheduler = new Scheduler({ bus: w.bus, clock: w.clock, random: w.root.fork('scheduler'), onError: (e) => { throw e; } });
  await w.node('n1', '4');
  await w.node('n2', '4');
  await scheduler.start();
  for (let i = 0; i < 6; i++) await w.pod(`p${i}`, '500m');
  await w.run(5_000);
  const m = scheduler.metrics;
  assert.is(await sample(m, 'scheduler_schedule_attempts_total', { result: 'scheduled', profile: PROFILE }), 6);
  assert.is(await sample(m, 'scheduler_schedule_attempts_total', { result: 'unschedulable', profile: PROFILE }), 0);
  assert.is(await sample(m, 'scheduler_schedule_attempts_total', { result: 'error', profile: PROFILE }), 0);
  assert.is(await sample(m, 'scheduler_scheduling_attempt_duration_seconds_count', { result: 'scheduled', profile: PROFILE }), 6);
  assert.is(await sample(m, 'scheduler_pod_scheduling_attempts_count'), 6);
  assert.is(await sample(m, 'scheduler_pod_scheduling_attempts_bucket', { le: 1 }), 6, 'each at its first attempt');
  assert.is(await sample(m, 'scheduler_pod_scheduling_sli_duration_seconds_count', { attempts: '1' }), 6);
  assert.is(await sample(m, 'rest_client_requests_total', { code: '201', method: 'POST' }), 12, 'one binding and one Scheduled event each');
  for (const queue of ['active', 'backoff', 'unschedulable', 'gated']) assert.is(await sample(m, 'scheduler_pending_pods', { queue }), 0, queue);
  scheduler.stop();
  w.stop();
});

test('a pod that fits nowhere counts as unschedulable, stays pending and makes preemption attempts', async () => {
  const w = await world();
  const scheduler = new Scheduler({ bus: w.bus, clock: w.clock, random: w.root.fork('scheduler'), onError: (e) => { throw e; } });
  await w.node('n1', '1');
  await scheduler.start();
  await w.pod('big', '8');
  await w.run(3_000);
  const m = scheduler.metrics;
  const unschedulable = (await sample(m, 'scheduler_schedule_attempts_total', { result: 'unschedulable', profile: PROFILE }))!;
  assert.ok(unschedulable >= 1, `unschedulable attempts: ${unschedulable}`);
  assert.is(await sample(m, 'scheduler_scheduling_attempt_duration_seconds_count', { result: 'unschedulable', profile: PROFILE }), unschedulable);
  assert.is(await sample(m, 'scheduler_preemption_attempts_total'), unschedulable);
  assert.is(await sample(m, 'scheduler_preemption_victims_count'), 0, 'nothing to preempt');
  const pending = (await Promise.all(['active', 'backoff', 'unschedulable'].map((queue) => sample(m, 'scheduler_pending_pods', { queue })))).reduce((a, b) => a! + b!, 0);
  assert.is(pending, 1);
  scheduler.stop();
  assert.is(await sample(m, 'scheduler_pending_pods', { queue: 'unschedulable' }), 0, 'a stopped scheduler has no queue to show');
  w.stop();
});

test('a preemption records its victims', async () => {
  const w = await world();
  const scheduler = new Scheduler({ bus: w.bus, clock: w.clock, random: w.root.fork('scheduler'), onError: (e) => { throw e; } });
  await w.node('n1', '2');
  await scheduler.start();
  await w.pod('low-a', '900m', 1);
  await w.pod('low-b', '900m', 5);
  await w.run(2_000);
  await w.pod('urgent', '1', 100);
  await w.run(30_000);
  const m = scheduler.metrics;
  assert.is(await sample(m, 'scheduler_preemption_victims_count'), 1);
  assert.is(await sample(m, 'scheduler_preemption_victims_sum'), 1, 'one pod made room');
  assert.is(await sample(m, 'scheduler_schedule_attempts_total', { result: 'scheduled', profile: PROFILE }), 3);
  assert.is(await sample(m, 'scheduler_pod_scheduling_attempts_bucket', { le: 1 }), 2, 'urgent needed more than one attempt');
  scheduler.stop();
  w.stop();
});

test("a replica's registry holds its leader status and keeps counting across terms", async () => {
  const w = await world();
  const options = schedulerOptions({ leaderElectLeaseDurationMs: 15_000, leaderElectRenewDeadlineMs: 10_000, leaderElectRetryPeriodMs: 2_000 });
  const replica = schedulerReplica({ bus: w.bus, clock: w.clock, random: w.root.fork('scheduler'), options, identity: 's0', onError: (e) => { throw e; } });
  await w.node('n1', '8');
  await replica.start();
  await w.run(3_000);
  assert.ok(replica.leading);
  assert.is(await sample(replica.metrics, 'leader_election_master_status', { name: 'orch-scheduler' }), 1);
  await w.pod('a', '100m');
  await w.run(2_000);
  assert.is(replica.current!.metrics, replica.metrics, "each term's scheduler reports to the replica's registry");
  assert.is(await sample(replica.metrics, 'scheduler_schedule_attempts_total', { result: 'scheduled', profile: PROFILE }), 1);
  await replica.stop();
  assert.is(await sample(replica.metrics, 'leader_election_master_status', { name: 'orch-scheduler' }), 0);
  assert.ok((await sample(replica.metrics, 'rest_client_requests_total', { code: '200', method: 'PUT' }))! >= 1, 'lease renewals are requests too');
  w.stop();
});

test.run();
