// The node-health machine on a manual clock: the grace periods are its delays, and a verdict
// waits for the controller's next pass.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor } from 'xstate';
import { nodeHealthMachine } from '../../machines/node-health.ts';
import { stateName } from '../../actors/system/records.ts';
import { machineClock } from '../helpers/machine-clock.ts';

function health(sinceProbeMs = 0) {
  const clock = machineClock();
  const asked: string[] = [];
  const machine = nodeHealthMachine.provide({
    actions: {
      markUnknown: () => void asked.push(`markUnknown@${clock.now()}`),
      markPodsNotReady: () => void asked.push(`markPodsNotReady@${clock.now()}`),
      silent: () => void asked.push(`silent@${clock.now()}`),
    },
  });
  const actor = createActor(machine, { clock, input: { monitorGraceMs: 40_000, startupGraceMs: 60_000, sinceProbeMs } }).start();
  return { clock, actor, asked, state: () => stateName(actor.getSnapshot().value) };
}

test('a node heard Ready stays Ready while probes come within the grace period', () => {
  const h = health();
  h.actor.send({ type: 'PROBED', ready: 'True' });
  for (let i = 0; i < 10; i++) {
    h.clock.advance(10_000);
    h.actor.send({ type: 'PROBED', ready: 'True' });
  }
  assert.is(h.state(), 'Ready.Heard');
  assert.equal(h.asked, []);
});

test('silent for the grace period: Silent at its end, Unknown (and its pods not Ready) at the next pass', () => {
  const h = health();
  h.actor.send({ type: 'PROBED', ready: 'True' });
  h.clock.advance(39_999);
  assert.is(h.state(), 'Ready.Heard');
  h.clock.advance(1);
  assert.is(h.state(), 'Ready.Silent');
  h.clock.advance(3_000);
  h.actor.send({ type: 'PASS', ready: 'True' });
  assert.is(h.state(), 'Unknown.Silent');
  assert.equal(h.asked, ['silent@40000', 'markUnknown@43000', 'markPodsNotReady@43000', 'silent@43000']);
});

test('a NotReady node going silent is marked Unknown without touching its pods; an Unknown one needs nothing', () => {
  const h = health();
  h.actor.send({ type: 'PROBED', ready: 'False' });
  h.clock.advance(40_000);
  h.actor.send({ type: 'PASS', ready: 'False' });
  assert.is(h.state(), 'Unknown.Silent');
  h.actor.send({ type: 'PASS', ready: 'Unknown' });
  assert.equal(h.asked.filter((a) => a.startsWith('mark')), ['markUnknown@40000']);
});

test('a probe brings a silent node back, its grace period starting over', () => {
  const h = health();
  h.actor.send({ type: 'PROBED', ready: 'True' });
  h.clock.advance(45_000);
  h.actor.send({ type: 'PASS', ready: 'True' });
  h.actor.send({ type: 'PROBED', ready: 'True' });
  assert.is(h.state(), 'Ready.Heard');
  h.clock.advance(39_000);
  assert.is(h.state(), 'Ready.Heard');
});

test('a node that never posted a Ready condition has the startup grace period, counted from its creation', () => {
  const h = health(20_000);
  assert.is(h.state(), 'Unknown.Heard');
  h.clock.advance(39_999);
  assert.is(h.state(), 'Unknown.Heard');
  h.clock.advance(1);
  h.actor.send({ type: 'PASS', ready: undefined });
  assert.equal(h.asked, ['silent@40000', 'markUnknown@40000']);
});

test('RESET gives a fresh grace period in the state the node is in', () => {
  const h = health();
  h.actor.send({ type: 'PROBED', ready: 'True' });
  h.clock.advance(30_000);
  h.actor.send({ type: 'RESET' });
  h.clock.advance(30_000);
  assert.is(h.state(), 'Ready.Heard');
});

test.run();
