// One scheduling cycle: filtering stops once enough nodes are feasible and resumes where it
// stopped; scores are weighted and summed; a plugin that skips in PreScore is left out of the
// sum and of the explanation; the FitError text counts every reason.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fitErrorMessage, runCycle } from '../../../actors/scheduler/cycle.ts';
import type { FilterPlugin, NodeInfo, ScorePlugin } from '../../../actors/scheduler/framework.ts';
import { defaultScorePlugins } from '../../../actors/scheduler/plugins/index.ts';
import { seededRandom } from '../../../sim/random.ts';
import { node, pod, snapshotOf } from './plugins-fixtures.ts';

/** A score plugin's `score` from a score per node. */
const perNode = (of: (n: NodeInfo) => number): ScorePlugin['score'] => (_s, _p, nodes, _snapshot, out) => {
  nodes.forEach((n, k) => (out[k] = of(n)));
};

const prefer = (name: string, favourite: string, weight: number, skip = false): ScorePlugin => ({
  name, weight,
  preScore: () => (skip ? 'skip' : undefined),
  score: perNode((n) => (n.name === favourite ? 100 : 0)),
});

const reject = (name: string, bad: Set<string>, reason: string): FilterPlugin => ({
  name, filter: (_s, _p, n) => (bad.has(n.name) ? reason : undefined),
});

const nodes = () => snapshotOf(node('a'), node('b'), node('c'), node('d'));
const input = (o: Partial<Parameters<typeof runCycle>[0]> = {}) => ({
  pod: pod('p'), snapshot: nodes(), filters: [], scores: [], start: 0, numToFind: 4, random: seededRandom(1), ...o,
});

test('a skipping plugin neither weighs in nor shows in the explanation', () => {
  const r = runCycle(input({ scores: [prefer('Small', 'b', 1), prefer('Loud', 'c', 10, true)] }));
  assert.is(r.node!.name, 'b');
  assert.equal(Object.keys(r.top[0]!.byPlugin), ['Small']);
  const counted = runCycle(input({ scores: [prefer('Small', 'b', 1), prefer('Loud', 'c', 10)] }));
  assert.is(counted.node!.name, 'c');
  assert.equal(counted.top[0]!.byPlugin, { Small: 0, Loud: 1_000 });
});

test('filtering stops at numToFind feasible nodes and the next cycle starts after the last node looked at', () => {
  const r = runCycle(input({ filters: [reject('F', new Set(['a']), 'bad')], numToFind: 2 }));
  assert.is(r.evaluated, 3);
  assert.is(r.feasible, 2);
  assert.is(r.nextStart, 3);
  assert.equal(r.filtered, { F: { bad: 1 } });
  const next = runCycle(input({ filters: [reject('F', new Set(['a']), 'bad')], numToFind: 2, start: r.nextStart }));
  assert.is(next.evaluated, 3, 'd, a (rejected), b');
  assert.is(next.nextStart, 2);
});

test('the FitError text counts each reason over all nodes, reasons sorted as the real scheduler sorts them', () => {
  const r = runCycle(input({ filters: [reject('Fit', new Set(['a', 'b']), 'Insufficient cpu; Insufficient memory'), reject('Taint', new Set(['c', 'd']), 'node(s) had untolerated taint {x: y}')] }));
  assert.is(r.node, undefined);
  assert.is(fitErrorMessage(r, 4), '0/4 nodes are available: 2 Insufficient cpu, 2 Insufficient memory, 2 node(s) had untolerated taint {x: y}.');
});

test('equal totals are broken at random: the same seed picks the same node, and over seeds each tied node about as often', () => {
  const tied = () => input({ scores: [prefer('Flat', 'none', 1)] });
  const pick = (seed: number) => runCycle({ ...tied(), random: seededRandom(seed) }).node!.name;
  assert.is(pick(7), pick(7));
  const counts: Record<string, number> = {};
  for (let seed = 0; seed < 4_000; seed++) counts[pick(seed)] = (counts[pick(seed)] ?? 0) + 1;
  assert.equal(Object.keys(counts).sort(), ['a', 'b', 'c', 'd']);
  for (const n of Object.values(counts)) assert.ok(n > 850 && n < 1_150, `each of 4 tied nodes near 1,000 of 4,000: ${JSON.stringify(counts)}`);
});

test('the explanation holds the chosen node, then the two best others, highest first', () => {
  const ranked: ScorePlugin = { name: 'Rank', weight: 1, score: perNode((n) => ({ a: 10, b: 40, c: 30, d: 20 } as Record<string, number>)[n.name] ?? 0) };
  const r = runCycle(input({ scores: [ranked] }));
  assert.is(r.node!.name, 'b');
  assert.equal(r.top.map((t) => [t.node, t.total]), [['b', 40], ['c', 30], ['d', 20]]);
});

test('a best-effort pod is not scored for balance: the plugin skips, as the real one does', () => {
  const r = runCycle(input({ scores: defaultScorePlugins() }));
  assert.not.ok('NodeResourcesBalancedAllocation' in r.top[0]!.byPlugin);
  const requesting = runCycle(input({ pod: pod('q', { requests: { cpu: '1' } }), scores: defaultScorePlugins() }));
  assert.ok('NodeResourcesBalancedAllocation' in requesting.top[0]!.byPlugin);
});

test.run();
