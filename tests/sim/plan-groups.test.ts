// Plans over node groups, their answers computed from the rules (tests/helpers/group-plan.ts): 12
// one-CPU pods arrive at 1m where one 4-CPU node runs, so the peak needs 3 nodes. The pods are
// found unschedulable just after 1m, the first scan after is at 1m10s (every 10s from the start),
// and the nodes asked for then join 45s later, at 1m55s, running the 3m05s left of the 5m run.
// A group costs what it ran: node-hours × costPerHour, stated per day (× 24h / 5m).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { figuresOf, planCapacity, type Candidate } from '../../sim/plan.ts';
import { runScenario } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';
import { oneGroup, onDemandAndSpot } from '../helpers/group-plan.ts';

const RUN_S = 300;
const JOINED_S = 115;
/** Per day, what `nodes` nodes at `perHour` cost running the whole run, and `added` more from JOINED_S. */
const perDay = (perHour: number, nodes: number, added: number) => (perHour * 24 * (nodes * RUN_S + added * (RUN_S - JOINED_S))) / RUN_S;

const plan = (text: string) => planCapacity(parseScenario(text, { name: 'group-plan', dir: '.' }), async (s, seed) => {
  const { report, checks, errors } = await runScenario(s, { seed });
  return figuresOf(seed, report, checks, errors);
});

const close = (actual: number | undefined, expected: number, what: string) =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-6, `${what}: ${actual}, expected ${expected}`);

test('a node group\'s max is varied: the cheapest max is the 3 nodes the peak needs; at 2 pods stay pending', async () => {
  const result = await plan(oneGroup());
  assert.equal(result.maxima, ['g']);
  assert.equal(result.answer?.counts, { g: 3 });
  close(result.answer!.costPerDay, perDay(0.5, 1, 2), 'max 3: one node all day, two from 1m55s');
  assert.equal(result.answer!.runs[0]!.nodeHours, { g: (RUN_S + 2 * (RUN_S - JOINED_S)) / 3600 }, 'the node-hours the group ran');
  const at = (g: number) => result.candidates.find((c) => c.counts.g === g);
  assert.ok(at(2) && !at(2)!.pass, 'max 2 was run for the margin and missed');
  assert.equal(at(2)!.missed, ['pendingAtEnd']);
  assert.is(at(2)!.runs[0]!.pendingAtEnd, 4, 'the 4 pods a third node would hold');
  close(at(2)!.costPerDay, perDay(0.5, 1, 1), 'max 2: one node added');
  // A larger max adds no node the load does not need: it costs what max 3 does, not what 6 nodes would.
  close(at(6)?.costPerDay, perDay(0.5, 1, 2), 'max 6, tried first');
  assert.ok(result.candidates.every((c) => c.pass === c.counts.g! >= 3), 'pass/fail monotone in the max');
});

test('an on-demand and a spot group chosen on their own: the frontier of maxima, and the mix that spent least a day', async () => {
  const result = await plan(onDemandAndSpot());
  const mixes = (cs: Candidate[]) => cs.map((c) => `${c.counts.ondemand}+${c.counts.spot}`);
  assert.equal(result.maxima, ['ondemand', 'spot']);
  assert.equal(mixes(result.frontier), ['1+2', '2+1', '3+0'], 'any 3 nodes in all pass');
  for (const c of result.candidates) assert.is(c.pass, c.counts.ondemand! + c.counts.spot! >= 3, mixes([c])[0]);
  // The price expander takes spot while it has room: on-demand 1 (its min, all day) and two spot nodes.
  assert.equal(mixes([result.answer!]), ['1+2']);
  close(result.answer!.costPerDay, perDay(0.4, 1, 0) + perDay(0.1, 0, 2), 'on-demand all day, two spot nodes from 1m55s');
  close(result.candidates.find((c) => c.counts.ondemand === 3 && c.counts.spot === 0)?.costPerDay, perDay(0.4, 1, 2), 'on-demand only: dearer');
  // Spot max 3 spent what spot max 2 did (a tie the fewer maxima win): cost is what ran, not the max.
  const wider = result.candidates.find((c) => c.counts.ondemand === 1 && c.counts.spot === 3);
  close(wider?.costPerDay, result.answer!.costPerDay!, 'spot max 3');
  assert.ok(result.candidates.length <= 7, `the walk ran ${result.candidates.length} candidates, not the grid's 12`);
});

test.run();
