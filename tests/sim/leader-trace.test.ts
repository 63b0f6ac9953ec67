// The leader machines decide a failover: in leader-failover.yaml the controller-manager leader
// crashes, and the records of the actor system show its successor's leader machine entering Leader
// no sooner than a lease duration after the crashed leader's last successful renewal, and within a
// lease duration plus 4.4 retry periods of it (a candidate's attempts are at most 2.2 retry periods
// apart: it may see the last renewal that late, and see the lease expired that late); every step
// of the successor's machine there is the machine's own: a delayed event, or the done event of an
// actor it invoked.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyStateNode } from 'xstate';
import { controllerManagerFromScenario } from '../../actors/controller-manager/options.ts';
import type { InspectionRecord, TransitionRecord } from '../../actors/system/index.ts';
import { leaderMachine } from '../../machines/leader.ts';
import { runScenario } from '../../sim/run.ts';
import { loadScenario } from '../../sim/scenario/load.ts';

/** The events the leader machine causes itself: its delayed events and its invoked actors' done events. */
function machineEvents(node: AnyStateNode = leaderMachine.root, into = new Set<string>()): Set<string> {
  for (const t of node.after) into.add(t.eventType);
  for (const i of node.invoke) into.add(`xstate.done.actor.${i.id}`);
  for (const child of Object.values(node.states)) machineEvents(child, into);
  return into;
}

test('after the controller-manager leader crashes, its successor\'s leader machine takes over within the lease duration plus 4.4 retry periods of the last renewal', async () => {
  const scenario = await loadScenario(new URL('../../sim/scenarios/leader-failover.yaml', import.meta.url).pathname);
  const o = controllerManagerFromScenario(scenario.options.controllerManager);
  const leaseMs = o.leaderElectLeaseDurationMs, retryMs = o.leaderElectRetryPeriodMs;
  const crash = scenario.faults.find((f) => f.kind === 'controllerManagerCrash')!;
  const lock = `leader/${o.leaderElectResourceNamespace}/${o.leaderElectResourceName}/`;
  const records: InspectionRecord[] = [];
  const { errors } = await runScenario(scenario, {
    onStarted: (live) => void live.cluster.system.onRecord((r) => void (r.id.startsWith(lock) && records.push(r))),
  });
  assert.equal(errors, []);

  const crashed = records.find((r) => r.kind === 'stop' && r.t === crash.atMs);
  assert.ok(crashed, `a leader machine of the lock stopped at ${crash.atMs} ms`);
  const before = records.slice(0, records.indexOf(crashed));
  const own = before.filter((r): r is TransitionRecord => r.kind === 'transition' && r.id === crashed.id);
  assert.ok(own.at(-1)!.to.startsWith('Leader'), `${crashed.id} led when it crashed`);
  const lastRenewal = own.filter((r) => r.event === 'xstate.done.actor.writeLease' && r.to === 'Leader.Holding').at(-1)!;

  const after = records.slice(records.indexOf(crashed) + 1).filter((r): r is TransitionRecord => r.kind === 'transition' && r.id !== crashed.id);
  const takeover = after.find((r) => r.to.startsWith('Leader'));
  assert.ok(takeover, 'another replica took over');
  const gapMs = takeover.t - lastRenewal.t;
  assert.ok(gapMs >= leaseMs && gapMs <= leaseMs + 4.4 * retryMs, `${takeover.id} took over ${gapMs} ms after the last renewal`);

  const ours = machineEvents();
  assert.is(takeover.event, 'xstate.done.actor.writeLease', 'it took over when its own write of the Lease succeeded');
  const steps = after.filter((r) => r.id === takeover.id && r.t <= takeover.t);
  for (const r of steps) assert.ok(ours.has(r.event), `${r.t} ms: ${r.event} (${r.from} → ${r.to}) is the machine's own`);
  assert.ok(steps.some((r) => r.event.startsWith('xstate.after.jitteredRetryMs.')), 'its attempts were paced by the jittered retry');
});

test.run();
