import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, type InspectionEvent } from 'xstate';
import { podInput, podMachine } from '../../machines/pod.ts';
import { batchPodStages, drawPodPlan, podStages, type PodPlan } from '../../machines/stages.ts';
import { seededRandom } from '../../sim/random.ts';
import { machineClock, type MachineClock } from '../helpers/machine-clock.ts';

/** Inspection events as compact lines: time, then the event received or the state reached. */
function tracer(clock: MachineClock) {
  const lines: string[] = [];
  const inspect = (e: InspectionEvent) => {
    if (e.type === '@xstate.event') lines.push(`${clock.now()} event ${e.event.type}`);
    else if (e.type === '@xstate.snapshot') lines.push(`${clock.now()} state ${JSON.stringify((e.snapshot as { value?: unknown }).value)}`);
  };
  return { lines, inspect };
}

function tracePod(plan: PodPlan, deleteAtMs?: number): string[] {
  const clock = machineClock();
  const { lines, inspect } = tracer(clock);
  const actor = createActor(podMachine, { clock, input: podInput(plan, 10, 60_000), inspect }).start();
  actor.send({ type: 'BIND' });
  if (deleteAtMs !== undefined) {
    clock.advance(deleteAtMs);
    actor.send({ type: 'DELETE' });
  }
  clock.advance(3_600_000);
  return lines;
}

test('a batch pod leaves this trace', () => {
  const plan: PodPlan = { scheduledMs: 200, scheduledTo: 'ContainerCreating', creatingMs: 1_500, creatingTo: 'Running', runningMs: 60_000, runningTo: 'Succeeded' };
  assert.equal(tracePod(plan), [
    '0 event xstate.init',
    '0 state "Pending"',
    '0 event BIND',
    '0 state "Scheduled"',
    '200 event xstate.after.scheduledMs.pod.Scheduled',
    '200 state "ContainerCreating"',
    '1700 event xstate.after.creatingMs.pod.ContainerCreating',
    '1700 state {"Running":"UntilDone"}',
    '61700 event xstate.after.runningMs.pod.Running.UntilDone',
    '61700 state "Succeeded"',
  ]);
});

test('a service pod deleted while Running leaves this trace', () => {
  const plan: PodPlan = { scheduledMs: 200, scheduledTo: 'ContainerCreating', creatingMs: 1_500, creatingTo: 'Running', runningMs: 0, runningTo: null };
  assert.equal(tracePod(plan, 5_000), [
    '0 event xstate.init',
    '0 state "Pending"',
    '0 event BIND',
    '0 state "Scheduled"',
    '200 event xstate.after.scheduledMs.pod.Scheduled',
    '200 state "ContainerCreating"',
    '1700 event xstate.after.creatingMs.pod.ContainerCreating',
    '1700 state {"Running":"UntilDeleted"}',
    '5000 event DELETE',
    '5000 state "Terminating"',
    '15000 event xstate.after.gracePeriodMs.pod.Terminating',
    '15000 state "Removed"',
  ]);
});

function seededRun(seed: number): string[] {
  const random = seededRandom(seed);
  const table = podStages(batchPodStages(30_000, 20_000, 0.2));
  const clock = machineClock();
  const { lines, inspect } = tracer(clock);
  const actors = Array.from({ length: 50 }, (_, i) =>
    createActor(podMachine, { clock, id: `pod-${i}`, systemId: `pod-${i}`, input: podInput(drawPodPlan(table, random.fork(`pod-${i}`)), 5, 60_000), inspect }).start(),
  );
  actors.forEach((a, i) => {
    if (i % 3 !== 0) a.send({ type: 'BIND' });
  });
  clock.advance(20_000);
  actors.forEach((a, i) => {
    if (i % 7 === 0) a.send({ type: 'DELETE' });
  });
  clock.advance(600_000);
  return lines;
}

test('the same seed gives the same trace; another seed a different one', () => {
  const a = seededRun(2026);
  assert.ok(a.length > 200);
  assert.equal(seededRun(2026), a);
  assert.not.equal(seededRun(2027), a);
  // The trace holds no session ids and no wall time.
  assert.not.ok(a.some((l) => /x:\d|session/.test(l)));
});

test('every pod state named in the issue exists in the machine, with an explicit id on every delayed transition', () => {
  const json = podMachine.toJSON() as { states: Record<string, { id: string; on?: Record<string, unknown>; states?: Record<string, unknown> }> };
  for (const s of ['Pending', 'Scheduled', 'ContainerCreating', 'Running', 'Succeeded', 'Failed', 'Terminating', 'Removed'])
    assert.ok(json.states[s], `state ${s}`);
  const afterEvents: string[] = [];
  const walk = (node: { on?: Record<string, unknown>; states?: Record<string, unknown> }) => {
    for (const e of Object.keys(node.on ?? {})) if (e.startsWith('xstate.after.')) afterEvents.push(e);
    for (const child of Object.values(node.states ?? {})) walk(child as typeof node);
  };
  walk(json as never);
  assert.equal(afterEvents.sort(), [
    'xstate.after.containersStopMs.pod.Terminating',
    'xstate.after.creatingMs.pod.ContainerCreating',
    'xstate.after.gracePeriodMs.pod.Terminating',
    'xstate.after.restartBackOffMs.pod.Running.BackOff',
    'xstate.after.runningMs.pod.Running.UntilDone',
    'xstate.after.scheduledMs.pod.Scheduled',
  ]);
});

test.run();
