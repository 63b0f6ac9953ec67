import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor } from 'xstate';
import { podInput, podMachine, podPhase, type PodExit, type PodPhase } from '../../machines/pod.ts';
import { batchPodStages, drawPodPlan, podStages, type PodStageTable } from '../../machines/stages.ts';
import { seededRandom } from '../../sim/random.ts';
import { machineClock } from '../helpers/machine-clock.ts';

/** Starts a pod on a fresh clock and records each phase it enters, with the time it entered, and what it asked the host to do. */
function runPod(table: PodStageTable, seed: number, terminationGracePeriodSeconds = 30, containersStopMs = 60_000, exit?: PodExit) {
  const clock = machineClock();
  const plan = drawPodPlan(table, seededRandom(seed));
  const asked: string[] = [];
  const machine = podMachine.provide({ actions: {
    report: (_, { state }) => void asked.push(`report ${state}`), remove: () => void asked.push('remove'), stopContainers: () => void asked.push('stopContainers'),
  } });
  const actor = createActor(machine, { clock, input: podInput(plan, terminationGracePeriodSeconds, containersStopMs, exit) });
  const phases: string[] = [];
  actor.subscribe((s) => {
    const p = podPhase(s.value);
    if (phases.at(-1)?.split('@')[0] !== p) phases.push(`${p}@${clock.now()}`);
  });
  actor.start();
  const phase = (): PodPhase => podPhase(actor.getSnapshot().value);
  return { clock, plan, actor, phases, phase, asked };
}

test('the default table runs a pod Pending → Scheduled → ContainerCreating → Running at the drawn times', () => {
  const table = podStages();
  const { clock, plan, actor, phases, phase } = runPod(table, 42);
  assert.is(phase(), 'Pending');
  clock.advance(60_000);
  assert.is(phase(), 'Pending', 'nothing happens until the scheduler binds');
  actor.send({ type: 'BIND' });
  const t0 = clock.now();
  // The plan's delays lie within each stage's [delayMs, delayMs + jitterMs).
  assert.ok(plan.scheduledMs >= 100 && plan.scheduledMs < 500);
  assert.ok(plan.creatingMs >= 1_000 && plan.creatingMs < 2_000);
  clock.advance(plan.scheduledMs - 1);
  assert.is(phase(), 'Scheduled');
  clock.advance(1);
  assert.is(phase(), 'ContainerCreating');
  clock.advance(plan.creatingMs);
  assert.is(phase(), 'Running');
  clock.advance(24 * 3_600_000);
  assert.is(phase(), 'Running', 'a service pod runs until deleted');
  assert.is(clock.pending(), 0, 'and holds no timer while it runs');
  assert.equal(phases, [
    'Pending@0', `Scheduled@${t0}`, `ContainerCreating@${t0 + plan.scheduledMs}`, `Running@${t0 + plan.scheduledMs + plan.creatingMs}`,
  ]);
});

test('a batch pod succeeds after its run duration', () => {
  const table = podStages(batchPodStages(60_000, 10_000));
  const { clock, plan, actor, phase } = runPod(table, 7);
  actor.send({ type: 'BIND' });
  clock.advance(plan.scheduledMs + plan.creatingMs);
  assert.is(phase(), 'Running');
  assert.ok(plan.runningMs >= 60_000 && plan.runningMs < 70_000);
  clock.advance(plan.runningMs - 1);
  assert.is(phase(), 'Running');
  clock.advance(1);
  assert.is(phase(), 'Succeeded');
});

test('a failure probability of 1 ends every pod Failed', () => {
  const table = podStages(batchPodStages(5_000, 0, 1));
  for (let seed = 1; seed <= 20; seed++) {
    const { clock, actor, phase } = runPod(table, seed);
    actor.send({ type: 'BIND' });
    clock.advance(60_000);
    assert.is(phase(), 'Failed');
  }
});

test('a failure probability of 0.3 fails about 30% of pods', () => {
  const table = podStages(batchPodStages(5_000, 0, 0.3));
  let failed = 0;
  for (let seed = 1; seed <= 500; seed++) if (drawPodPlan(table, seededRandom(seed)).runningTo === 'Failed') failed++;
  assert.ok(failed > 110 && failed < 190, `${failed} of 500 failed`);
});

test('a delete during Running terminates and removes the pod after its grace period', () => {
  const { clock, plan, actor, phase } = runPod(podStages(), 3, 45);
  actor.send({ type: 'BIND' });
  clock.advance(plan.scheduledMs + plan.creatingMs);
  actor.send({ type: 'DELETE' });
  assert.is(phase(), 'Terminating');
  clock.advance(44_999);
  assert.is(phase(), 'Terminating');
  clock.advance(1);
  assert.is(phase(), 'Removed');
  assert.is(actor.getSnapshot().status, 'done');
});

test('a DELETE with gracePeriodSeconds overrides the pod spec; containers that stop sooner end it sooner', () => {
  const a = runPod(podStages(), 3, 30);
  a.actor.send({ type: 'BIND' });
  a.actor.send({ type: 'DELETE', gracePeriodSeconds: 5 });
  a.clock.advance(4_999);
  assert.is(a.phase(), 'Terminating');
  a.clock.advance(1);
  assert.is(a.phase(), 'Removed');
  const b = runPod(podStages(), 3, 30, 1_500);
  b.actor.send({ type: 'BIND' });
  b.actor.send({ type: 'DELETE' });
  b.clock.advance(1_500);
  assert.is(b.phase(), 'Removed');
  assert.equal(b.asked, ['remove'], 'deleted before it ran: nothing to report, then removed');
});

test('the machine asks the host to report each phase the API sees, and to remove the pod', () => {
  const { clock, actor, asked } = runPod(podStages(batchPodStages(10_000, 0)), 4);
  actor.send({ type: 'BIND' });
  clock.advance(60_000);
  actor.send({ type: 'DELETE' });
  assert.equal(asked, ['report ContainerCreating', 'report Running', 'report Succeeded', 'remove']);
});

test('a running pod deleted has its containers stopped; one deleted before its containers ran, or after they ended, has none to stop', () => {
  const running = runPod(podStages(), 6);
  running.actor.send({ type: 'BIND' });
  running.clock.advance(10_000);
  running.actor.send({ type: 'DELETE' });
  assert.equal(running.asked, ['report ContainerCreating', 'report Running', 'stopContainers']);
  const creating = runPod(podStages(), 6);
  creating.actor.send({ type: 'BIND' });
  creating.clock.advance(creating.plan.scheduledMs);
  assert.is(creating.phase(), 'ContainerCreating');
  creating.actor.send({ type: 'DELETE' });
  creating.actor.send({ type: 'EVICTED', message: 'low memory' });
  assert.not.ok(creating.asked.includes('stopContainers'));
  const finished = runPod(podStages(batchPodStages(1_000, 0)), 6);
  finished.actor.send({ type: 'BIND' });
  finished.clock.advance(10_000);
  finished.actor.send({ type: 'DELETE' });
  assert.not.ok(finished.asked.includes('stopContainers'));
});

test('a delete cancels the pending stage timer: a terminating batch pod never succeeds', () => {
  const { clock, plan, actor, phases } = runPod(podStages(batchPodStages(10_000, 0)), 9, 60);
  actor.send({ type: 'BIND' });
  clock.advance(plan.scheduledMs + plan.creatingMs + 1_000);
  actor.send({ type: 'DELETE' });
  clock.advance(120_000);
  assert.equal(phases.map((p) => p.split('@')[0]), ['Pending', 'Scheduled', 'ContainerCreating', 'Running', 'Terminating', 'Removed']);
});

test('unscheduled and finished pods are removed at once; illegal events are ignored', () => {
  const a = runPod(podStages(), 1);
  assert.not.ok(a.actor.getSnapshot().can({ type: 'EVICTED', message: 'low memory' }));
  a.actor.send({ type: 'EVICTED', message: 'low memory' });
  assert.is(a.phase(), 'Pending');
  a.actor.send({ type: 'DELETE' });
  assert.is(a.phase(), 'Removed');

  const b = runPod(podStages(batchPodStages(1_000, 0)), 1);
  b.actor.send({ type: 'BIND' });
  b.clock.advance(10_000);
  assert.is(b.phase(), 'Succeeded');
  b.actor.send({ type: 'BIND' });
  b.actor.send({ type: 'EVICTED', message: 'low memory' });
  assert.is(b.phase(), 'Succeeded', 'a finished pod cannot be rebound or evicted');
  b.actor.send({ type: 'DELETE' });
  assert.is(b.phase(), 'Removed');
});

test('node-pressure eviction fails a running pod and keeps its message for the report', () => {
  const { clock, actor, phase, asked } = runPod(podStages(), 5);
  actor.send({ type: 'BIND' });
  clock.advance(10_000);
  actor.send({ type: 'EVICTED', message: 'The node was low on resource: memory.' });
  assert.is(phase(), 'Failed');
  assert.is(actor.getSnapshot().context.evictionMessage, 'The node was low on resource: memory.');
  assert.equal(asked.slice(-2), ['stopContainers', 'report Failed'], 'its running containers are stopped, then it reports Failed');
  actor.send({ type: 'EVICTED', message: 'again' });
  assert.is(actor.getSnapshot().context.evictionMessage, 'The node was low on resource: memory.', 'evicted once');
});

test('a stage table with a transition the pod machine lacks is refused with a clear message', () => {
  assert.throws(() => podStages({ Scheduled: [{ to: 'Succeeded', delayMs: 1, jitterMs: 0 }] }), /Scheduled cannot go to Succeeded/);
  assert.throws(() => podStages({ ContainerCreating: [{ to: 'Running', delayMs: -1, jitterMs: 0 }] }), /at least 0/);
  assert.throws(() => podStages({ Running: [] }), /has no stage/);
});

test('a scenario overrides only the states it names', () => {
  const t = podStages({ ContainerCreating: [{ to: 'Running', delayMs: 30_000, jitterMs: 0 }] });
  assert.equal(t.Scheduled, podStages().Scheduled);
  assert.is(drawPodPlan(t, seededRandom(1)).creatingMs, 30_000);
});

test('under restartPolicy OnFailure a failed run restarts the container after 10 s, 20 s, 40 s ... of back-off, up to 5 min', () => {
  const { clock, plan, actor, phase, asked } = runPod(podStages(batchPodStages(30_000, 0, 1)), 6, 30, 60_000, { exitCode: 3, restartOnFailure: true });
  actor.send({ type: 'BIND' });
  clock.advance(plan.scheduledMs + plan.creatingMs + 30_000);
  assert.equal(actor.getSnapshot().value, { Running: 'BackOff' });
  assert.is(actor.getSnapshot().context.restarts, 1);
  const restartsAt: number[] = [];
  for (let i = 0; i < 7; i++) {
    const before = clock.now();
    while (actor.getSnapshot().matches({ Running: 'BackOff' })) clock.advance(1_000);
    restartsAt.push(clock.now() - before);
    clock.advance(30_000);
  }
  assert.equal(restartsAt, [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
  assert.is(phase(), 'Running', 'the pod never fails: its container keeps restarting');
  assert.is(actor.getSnapshot().context.restarts, 8);
  assert.equal(asked.slice(0, 5), ['report ContainerCreating', 'report Running', 'report BackOff', 'report Running', 'report BackOff']);
  actor.send({ type: 'DELETE' });
  assert.is(phase(), 'Terminating', 'a restarting pod is deleted as a running one');
});

test('a pod whose container waits in BackOff is deleted with no container to stop', () => {
  const { clock, plan, actor, asked } = runPod(podStages(batchPodStages(30_000, 0, 1)), 6, 30, 60_000, { exitCode: 3, restartOnFailure: true });
  actor.send({ type: 'BIND' });
  clock.advance(plan.scheduledMs + plan.creatingMs + 30_000);
  assert.equal(actor.getSnapshot().value, { Running: 'BackOff' });
  actor.send({ type: 'DELETE' });
  assert.equal(actor.getSnapshot().value, 'Terminating');
  assert.not.ok(asked.includes('stopContainers'));
});

test('under restartPolicy OnFailure a run that succeeds ends the pod; without it a failed run fails the pod', () => {
  const ok = runPod(podStages(batchPodStages(5_000, 0)), 6, 30, 60_000, { exitCode: 1, restartOnFailure: true });
  ok.actor.send({ type: 'BIND' });
  ok.clock.advance(60_000);
  assert.is(ok.phase(), 'Succeeded');
  const never = runPod(podStages(batchPodStages(5_000, 0, 1)), 6, 30, 60_000, { exitCode: 42, restartOnFailure: false });
  never.actor.send({ type: 'BIND' });
  never.clock.advance(60_000);
  assert.is(never.phase(), 'Failed');
  assert.is(never.actor.getSnapshot().context.exitCode, 42);
});

test.run();
