// The node-health machine on a manual clock: the grace periods are its delays, counted from the
// last probe the host reports when the machine looks, and a verdict waits for the next pass.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assign, createActor } from 'xstate';
import { nodeHealthMachine, type ReadyStatus } from '../../machines/node-health.ts';
import { stateName } from '../../actors/system/records.ts';
import { machineClock } from '../helpers/machine-clock.ts';

/** A node created at 0, probes at `probes`, the controller passing every 5 s with the node's Ready status `ready()`. */
function health(o: { createdMs?: number; ready?: ReadyStatus } = {}) {
  const clock = machineClock();
  const asked: string[] = [];
  let probeMs = o.createdMs ?? 0;
  const machine = nodeHealthMachine.provide({
    actions: {
      look: assign(() => ({ probeMs, nowMs: clock.now() })),
      markUnknown: () => void asked.push(`markUnknown@${clock.now()}`),
      markPodsNotReady: () => void asked.push(`markPodsNotReady@${clock.now()}`),
      silent: () => void asked.push(`silent@${clock.now()}`),
    },
  });
  const actor = createActor(machine, { clock, input: { monitorGraceMs: 40_000, startupGraceMs: 60_000, probeMs, nowMs: clock.now() } }).start();
  const probe = () => void (probeMs = clock.now());
  const observe = (ready: ReadyStatus | undefined) => actor.send({ type: 'OBSERVED', ready, probeMs, nowMs: clock.now() });
  const pass = (ready: ReadyStatus | undefined) => actor.send({ type: 'PASS', ready, probeMs, nowMs: clock.now() });
  if (o.ready) {
    probe();
    observe(o.ready);
  }
  return { clock, actor, asked, probe, observe, pass, state: () => stateName(actor.getSnapshot().value) };
}

test('a node heard Ready stays Ready while probes come within the grace period, and the machine takes no event for them', () => {
  const h = health({ ready: 'True' });
  for (let i = 0; i < 10; i++) {
    h.clock.advance(10_000);
    h.probe();
  }
  assert.is(h.state(), 'Ready.Heard');
  assert.equal(h.asked, []);
});

test('silent for the grace period: Silent when it ends, Unknown (and its pods not Ready) at the next pass', () => {
  const h = health({ ready: 'True' });
  h.clock.advance(10_000);
  h.probe();
  h.clock.advance(39_999);
  assert.is(h.state(), 'Ready.Heard');
  h.clock.advance(1);
  assert.is(h.state(), 'Ready.Silent', 'exactly a grace period after the last probe');
  h.clock.advance(3_000);
  h.pass('True');
  assert.is(h.state(), 'Unknown.Silent');
  assert.equal(h.asked, ['silent@50000', 'markUnknown@53000', 'markPodsNotReady@53000', 'silent@53000']);
});

test('a NotReady node going silent is marked Unknown without touching its pods; an Unknown one needs nothing', () => {
  const h = health({ ready: 'False' });
  h.clock.advance(40_000);
  h.pass('False');
  assert.is(h.state(), 'Unknown.Silent');
  h.pass('Unknown');
  assert.equal(h.asked.filter((a) => a.startsWith('mark')), ['markUnknown@40000']);
});

test('a probe after the grace period brings a silent node back at the pass, its grace period starting from the probe', () => {
  const h = health({ ready: 'True' });
  h.clock.advance(42_000);
  h.probe();
  h.clock.advance(3_000);
  h.pass('True');
  assert.is(h.state(), 'Ready.Heard');
  h.clock.advance(36_999);
  assert.is(h.state(), 'Ready.Heard');
  h.clock.advance(1);
  assert.is(h.state(), 'Ready.Silent');
});

test('a node that never posted a Ready condition has the startup grace period, counted from its creation', () => {
  const h = health({ createdMs: -20_000 });
  assert.is(h.state(), 'Unknown.Heard');
  h.clock.advance(39_999);
  assert.is(h.state(), 'Unknown.Heard');
  h.clock.advance(1);
  h.pass(undefined);
  assert.equal(h.asked, ['silent@40000', 'markUnknown@40000']);
});

test('the Ready condition changing is a move to the state it reads; RESET gives a fresh grace period', () => {
  const h = health({ ready: 'True' });
  h.clock.advance(5_000);
  h.probe();
  h.observe('False');
  assert.is(h.state(), 'NotReady.Heard');
  h.clock.advance(30_000);
  h.actor.send({ type: 'RESET', nowMs: h.clock.now() });
  h.clock.advance(39_000);
  assert.is(h.state(), 'NotReady.Heard');
});

test.run();
