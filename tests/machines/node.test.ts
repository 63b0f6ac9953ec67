import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor } from 'xstate';
import { nodeMachine } from '../../machines/node.ts';
import { defaultNodeTimings, drawNodePlan } from '../../machines/stages.ts';
import { seededRandom } from '../../sim/random.ts';
import { machineClock } from '../helpers/machine-clock.ts';

function startNode(seed = 1) {
  const clock = machineClock();
  const plan = drawNodePlan(defaultNodeTimings, seededRandom(seed));
  const actor = createActor(nodeMachine, { clock, input: plan });
  const renewals: number[] = [];
  actor.on('leaseRenewed', () => renewals.push(clock.now()));
  actor.start();
  const status = () => (actor.getSnapshot().value as { status: string }).status;
  return { clock, plan, actor, renewals, status };
}

test('a node registers, goes Ready, and renews its lease every leaseRenewMs', () => {
  const { clock, plan, actor, renewals, status } = startNode();
  assert.is(status(), 'Registering');
  assert.is(actor.getSnapshot().context.conditions.Ready, 'False');
  clock.advance(plan.registerMs);
  assert.is(status(), 'Ready');
  assert.is(actor.getSnapshot().context.conditions.Ready, 'True');
  clock.advance(plan.leaseRenewMs * 3);
  assert.equal(renewals, [0, 1, 2, 3].map((i) => plan.registerMs + i * plan.leaseRenewMs));
  assert.ok(plan.leaseRenewMs >= 10_000 && plan.leaseRenewMs < 10_400);
});

test('a node goes NotReady when renewals stop and Ready again when they resume', () => {
  const { clock, plan, actor, status } = startNode(2);
  clock.advance(plan.registerMs + 5 * plan.leaseRenewMs);
  actor.send({ type: 'STOP' });
  const stoppedAt = clock.now();
  const lastRenewal = plan.registerMs + 5 * plan.leaseRenewMs;
  clock.advance(lastRenewal + plan.nodeMonitorGracePeriodMs - 1 - stoppedAt);
  assert.is(status(), 'Ready', 'still within the grace period');
  clock.advance(1);
  assert.is(status(), 'NotReady');
  assert.equal(actor.getSnapshot().context.conditions, { Ready: 'Unknown', MemoryPressure: 'Unknown', DiskPressure: 'Unknown', PIDPressure: 'Unknown' });
  clock.advance(600_000);
  assert.is(status(), 'NotReady');
  actor.send({ type: 'START' });
  clock.advance(plan.registerMs);
  assert.is(status(), 'Ready');
  assert.is(actor.getSnapshot().context.conditions.Ready, 'True');
});

test('pressure the agent reports shows in the conditions, and survives a NotReady spell', () => {
  const { clock, plan, actor } = startNode(3);
  clock.advance(plan.registerMs);
  actor.send({ type: 'REPORT_CONDITIONS', pressure: { memory: true } });
  assert.equal(actor.getSnapshot().context.conditions, { Ready: 'True', MemoryPressure: 'True', DiskPressure: 'False', PIDPressure: 'False' });
  actor.send({ type: 'STOP' });
  clock.advance(plan.nodeMonitorGracePeriodMs);
  assert.is(actor.getSnapshot().context.conditions.MemoryPressure, 'Unknown');
  actor.send({ type: 'START' });
  clock.advance(plan.registerMs);
  assert.is(actor.getSnapshot().context.conditions.MemoryPressure, 'True');
});

test('a host that renews leases itself drives the status region with LEASE_RENEWED', () => {
  const { clock, plan, actor, status } = startNode(4);
  actor.send({ type: 'STOP' });
  actor.send({ type: 'LEASE_RENEWED' });
  assert.is(status(), 'Ready');
  clock.advance(plan.nodeMonitorGracePeriodMs - 1);
  actor.send({ type: 'LEASE_RENEWED' });
  clock.advance(plan.nodeMonitorGracePeriodMs - 1);
  assert.is(status(), 'Ready', 'each renewal restarts the grace period');
  clock.advance(1);
  assert.is(status(), 'NotReady');
});

test.run();
