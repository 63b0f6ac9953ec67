// The report's unschedulable reasons: each pod counted once, under the binding constraint of its
// last failed attempt: among the nodes its own placement bounds (selector, affinity, taints) allow,
// the reason its FitError message gives the largest count of nodes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Decision } from '../../../actors/scheduler/scheduler.ts';
import { fitErrorMessage, type CycleResult } from '../../../actors/scheduler/cycle.ts';
import { RunMetrics } from '../../../sim/metrics.ts';
import { manualClock } from '../../helpers/manual-clock.ts';

const AFFINITY = "node(s) didn't match Pod's node affinity/selector";

function failed(pod: string, filtered: Decision['filtered'], nodes = 9): Decision {
  return { pod, attempt: 1, atMs: 0, result: 'unschedulable', nodes, evaluated: nodes, feasible: 0, filtered, scores: [] };
}

/** Each pod's reason after these decisions, in the order they were made. */
function reasons(...decisions: Decision[]): Record<string, string> {
  const clock = manualClock(0);
  const m = new RunMetrics(clock, '/registry', [], 0, 10_000);
  for (const d of decisions) m.decision(d);
  return Object.fromEntries(m.lastFailure);
}

const message = (filtered: Decision['filtered'], nodes = 9) => fitErrorMessage({ filtered } as CycleResult, nodes);

test('a pod held back by memory on its own pool is counted under memory, though its message lists the other pools first', () => {
  const filtered = { NodeAffinity: { [AFFINITY]: 3 }, NodeResourcesFit: { 'Insufficient memory': 6 } };
  assert.is(message(filtered), `0/9 nodes are available: 3 ${AFFINITY}, 6 Insufficient memory.`);
  assert.equal(reasons(failed('default/web-0', filtered)), { 'default/web-0': 'Insufficient memory' });
});

test('a reason given by two plugins counts the nodes of both, as the message does', () => {
  const filtered = { NodeResourcesFit: { 'Insufficient cpu': 4, 'Insufficient memory': 3 }, Other: { 'Insufficient memory': 2 } };
  assert.is(message(filtered), '0/9 nodes are available: 4 Insufficient cpu, 5 Insufficient memory.');
  assert.equal(reasons(failed('default/web-0', filtered)), { 'default/web-0': 'Insufficient memory' });
});

test('of equal counts, the reason the message lists first', () => {
  const filtered = { NodePorts: { "node(s) didn't have free ports for the requested pod ports": 3 }, NodeResourcesFit: { 'Insufficient cpu': 3 } };
  assert.is(message(filtered, 6), "0/6 nodes are available: 3 Insufficient cpu, 3 node(s) didn't have free ports for the requested pod ports.");
  assert.equal(reasons(failed('default/web-0', filtered, 6)), { 'default/web-0': 'Insufficient cpu' });
});

test('a pod whose selector wants the few high-memory nodes waits for their memory, though the others, ruled out by its selector, are more', () => {
  // The quickstart's analytics pods: 24 general nodes outside their selector, the 4 high-memory ones full.
  const filtered = { NodeAffinity: { [AFFINITY]: 24 }, NodeResourcesFit: { 'Insufficient memory': 4 } };
  assert.is(message(filtered, 28), `0/28 nodes are available: 24 ${AFFINITY}, 4 Insufficient memory.`);
  assert.equal(reasons(failed('default/analytics-0', filtered, 28)), { 'default/analytics-0': 'Insufficient memory' });
  // Only its own bounds in the way: the bound that ruled out the most.
  const bounded = { TaintToleration: { 'node(s) had untolerated taint {a: b}': 4 }, NodeAffinity: { [AFFINITY]: 5 } };
  assert.equal(reasons(failed('default/x', bounded)), { 'default/x': AFFINITY });
});

test('a pod counts once, under its last failed attempt; an empty cluster says so', () => {
  const got = reasons(
    failed('default/a', { NodeResourcesFit: { 'Insufficient cpu': 9 } }),
    failed('default/a', { NodeAffinity: { [AFFINITY]: 9 } }),
    failed('default/b', {}, 0),
  );
  assert.equal(got, { 'default/a': AFFINITY, 'default/b': 'no nodes in the cluster' });
});

test.run();
