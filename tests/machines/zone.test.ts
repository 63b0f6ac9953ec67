// The zone machine: the real ComputeZoneState's three outcomes, from Initial and between each
// other, and the tainting rate each state sets (the real setLimiterInZone).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor } from 'xstate';
import { zoneMachine } from '../../machines/zone.ts';

const input = { unhealthyZoneThreshold: 0.55, evictionRate: 0.1, secondaryEvictionRate: 0.01, largeClusterSizeThreshold: 50 };

function zone() {
  const rates: number[] = [];
  const actor = createActor(zoneMachine.provide({ actions: { setRate: (_, { qps }) => void rates.push(qps) } }), { input }).start();
  const observe = (ready: number, notReady: number) => {
    actor.send({ type: 'OBSERVE', ready, notReady, size: ready + notReady });
    return actor.getSnapshot().value;
  };
  return { actor, rates, observe };
}

test('Full when no node is Ready; Partial past the threshold with more than 2 not Ready; else Normal', () => {
  const cases: [number, number, string][] = [
    [0, 1, 'FullDisruption'], [0, 0, 'Normal'], [1, 2, 'Normal'], [2, 3, 'PartialDisruption'], [45, 55, 'PartialDisruption'], [46, 54, 'Normal'],
  ];
  for (const [ready, notReady, expected] of cases) assert.is(zone().observe(ready, notReady), expected, `${ready} Ready, ${notReady} not`);
});

test('the machine starts Initial and follows each observation; each state entered sets its rate', () => {
  const z = zone();
  assert.is(z.actor.getSnapshot().value, 'Initial');
  assert.equal([[10, 0], [4, 6], [0, 10], [10, 0]].map(([r, n]) => z.observe(r!, n!)), ['Normal', 'PartialDisruption', 'FullDisruption', 'Normal']);
  // A zone of 10 nodes is under the large-cluster size: no tainting while partially disrupted.
  assert.equal(z.rates, [0.1, 0, 0.1, 0.1]);
  assert.equal([z.actor.getSnapshot().context.ready, z.actor.getSnapshot().context.notReady], [10, 0]);
});

test('a partially disrupted zone larger than the large-cluster size is tainted at the secondary rate', () => {
  const z = zone();
  z.observe(100, 0);
  z.observe(40, 60);
  assert.equal(z.rates, [0.1, 0.01]);
  assert.is(z.actor.getSnapshot().context.qps, 0.01);
});

test('an observation that leaves the state as it is sets no rate again', () => {
  const z = zone();
  z.observe(10, 0);
  z.observe(9, 1);
  z.observe(10, 0);
  assert.equal(z.rates, [0.1]);
  assert.is(z.actor.getSnapshot().context.notReady, 0, 'the counts follow every observation');
});

test.run();
