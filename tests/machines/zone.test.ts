// The zone machine: the real ComputeZoneState's three outcomes, from Initial and between each other.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor } from 'xstate';
import { zoneMachine, zoneStateOf } from '../../machines/zone.ts';

test('Full when no node is Ready; Partial past the threshold with more than 2 not Ready; else Normal', () => {
  assert.is(zoneStateOf(0, 1, 0.55), 'FullDisruption');
  assert.is(zoneStateOf(0, 0, 0.55), 'Normal', 'an empty zone is not disrupted');
  assert.is(zoneStateOf(1, 2, 0.55), 'Normal', 'two not Ready are never a partial disruption');
  assert.is(zoneStateOf(2, 3, 0.55), 'PartialDisruption', '3 of 5 = 0.6');
  assert.is(zoneStateOf(45, 55, 0.55), 'PartialDisruption', 'exactly at the threshold');
  assert.is(zoneStateOf(46, 54, 0.55), 'Normal');
});

test('the machine starts Initial and follows each observation', () => {
  const zone = createActor(zoneMachine, { input: { unhealthyZoneThreshold: 0.55 } }).start();
  assert.is(zone.getSnapshot().value, 'Initial');
  const seen = [[10, 0], [4, 6], [0, 10], [10, 0]].map(([ready, notReady]) => {
    zone.send({ type: 'OBSERVE', ready: ready!, notReady: notReady! });
    return zone.getSnapshot().value;
  });
  assert.equal(seen, ['Normal', 'PartialDisruption', 'FullDisruption', 'Normal']);
  assert.equal([zone.getSnapshot().context.ready, zone.getSnapshot().context.notReady], [10, 0]);
});

test.run();
