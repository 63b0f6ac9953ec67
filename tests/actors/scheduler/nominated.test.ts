// Nominated pods, by the real scheduler's rules, on hand-built nodes: a pod leaves room on a node
// for the pods of equal or higher priority nominated there (RunFilterPluginsWithNominatedPods:
// the filters pass with them and without them); a preemption chooses victims that leave that room
// too, and clears the nominations of lower-priority pods on its node; a pod whose nominated node
// still holds a terminating victim of its own preemption waits instead of preempting again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { PodCondition } from '../../../actors/api/model/core.ts';
import { runCycle } from '../../../actors/scheduler/cycle.ts';
import type { PodInfo, Snapshot } from '../../../actors/scheduler/framework.ts';
import { Nominator } from '../../../actors/scheduler/nominator.ts';
import { defaultFilterPlugins } from '../../../actors/scheduler/plugins/index.ts';
import { findPreemption, PREEMPTED } from '../../../actors/scheduler/preemption.ts';
import { seededRandom } from '../../../sim/random.ts';
import { node, pod, snapshotOf, withPods, type PodOptions } from './plugins-fixtures.ts';

const filters = defaultFilterPlugins();
const cpu = (n: number, priority: number, o: PodOptions = {}) => ({ ...o, requests: { cpu: String(n), memory: '64Mi' }, spec: { priority, ...o.spec } });
/** A pod bound to n1. */
const running = (name: string, n: number, priority: number) => pod(name, { ...cpu(n, priority), spec: { priority, nodeName: 'n1' } });
/** Started at `s` seconds: preemption spares the longest-running first among equals. */
const started = (p: PodInfo, s: number) => ((p.pod.status = { startTime: new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString() }), p);

function cycle(p: PodInfo, snapshot: Snapshot, nominator: Nominator) {
  return runCycle({ pod: p, snapshot, filters, scores: [], start: 0, numToFind: snapshot.nodes.length, random: seededRandom(1), nominator });
}

test('a pod of equal or lower priority does not take the room kept for a nominated pod; a higher one does', () => {
  const nominator = new Nominator();
  nominator.nominate(pod('urgent', cpu(2, 100)), 'n1');
  const snapshot = snapshotOf(withPods(node('n1', { cpu: '4' }), running('old', 2, 0)));
  for (const [priority, fits] of [[0, false], [100, false], [101, true]] as const) {
    const r = cycle(pod(`p${priority}`, cpu(1, priority)), snapshot, nominator);
    assert.is(r.node?.name, fits ? 'n1' : undefined, `priority ${priority}`);
    if (!fits) assert.equal(r.filtered, { NodeResourcesFit: { 'Insufficient cpu': 1 } });
  }
  // The nominated pod itself is not in its own way.
  assert.is(cycle(pod('urgent', cpu(2, 100)), snapshot, nominator).node?.name, undefined, 'a different uid: another pod');
  const self = nominator.roomFor('n1', pod('x', cpu(1, 0)))[0]!;
  assert.is(cycle(self, snapshot, nominator).node?.name, 'n1');
});

test('a pod that needs a nominated pod (required affinity) cannot count on it: the filters must pass without it too', () => {
  const db = (name: string) => pod(name, { ...cpu(1, 100), labels: { app: 'db' } });
  const nominator = new Nominator();
  nominator.nominate(db('db-nominated'), 'n1');
  const snapshot = snapshotOf(node('n1', { cpu: '8' }), withPods(node('n2', { cpu: '1' }), db('db-running')));
  const web = pod('web', { ...cpu(1, 0, { spec: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [
    { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' }] } } } }) });
  const r = cycle(web, snapshot, nominator);
  assert.is(r.node, undefined);
  assert.equal(r.rejections.get('n1')?.plugin, 'InterPodAffinity');
  assert.equal(r.rejections.get('n2')?.plugin, 'NodeResourcesFit');
});

test('victims leave room for a nominated pod of higher priority: all four lows go, where two would without it', () => {
  // n1: four 1-cpu pods of priority 0, started in order; 'urgent' (100, 2 cpu) nominated there.
  // 'mid' (50, 2 cpu) must fit beside urgent: 2 + 2 = 4 cpu, so none of the lows can stay.
  const lows = ['a', 'b', 'c', 'd'].map((n, i) => started(running(n, 1, 0), i));
  const snapshot = snapshotOf(withPods(node('n1', { cpu: '4' }), ...lows));
  const mid = pod('mid', cpu(2, 50));
  const failed = cycle(mid, snapshot, new Nominator());
  const without = findPreemption(mid, failed, snapshot, filters, seededRandom(1), new Nominator());
  assert.ok(without.ok);
  assert.equal(without.preemption.victims.map((v) => v.name), ['c', 'd'], 'the latest started go, the earliest are reprieved');
  const nominator = new Nominator();
  nominator.nominate(pod('urgent', cpu(2, 100)), 'n1');
  const low = pod('low', cpu(1, 10));
  nominator.nominate(low, 'n1');
  const p = findPreemption(mid, cycle(mid, snapshot, nominator), snapshot, filters, seededRandom(1), nominator);
  assert.ok(p.ok);
  assert.equal(p.preemption.victims.map((v) => v.name).sort(), ['a', 'b', 'c', 'd']);
  assert.equal(p.preemption.unnominated.map((u) => u.name), ['low'], 'a lower-priority nominee loses its nomination; its room was not kept');
});

test('a pod nominated where its victim still terminates waits; another deletion, or a node ruled out for good, does not hold it', () => {
  const victim = (conditions: PodCondition[]) => {
    const v = running('victim', 2, 0);
    v.pod.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    v.pod.status = { conditions };
    return v;
  };
  const preempted = { ...PREEMPTED, status: 'True' };
  const urgent = pod('urgent', cpu(4, 100));
  urgent.pod.status = { nominatedNodeName: 'n1' };
  const attempt = (snapshot: Snapshot) => findPreemption(urgent, cycle(urgent, snapshot, new Nominator()), snapshot, filters, seededRandom(1));
  const waiting = attempt(snapshotOf(withPods(node('n1', { cpu: '4' }), victim([preempted]), running('other', 2, 0))));
  assert.equal(waiting, { ok: false, message: 'not eligible due to a terminating pod on the nominated node.' });
  const deletedByOthers = attempt(snapshotOf(withPods(node('n1', { cpu: '4' }), victim([]), running('other', 2, 0))));
  assert.ok(deletedByOthers.ok, 'a pod deleted for another reason does not hold it');
  const tainted = node('n1', { cpu: '8', taints: [{ key: 'gone', effect: 'NoSchedule' }] });
  const ruledOut = attempt(snapshotOf(withPods(tainted, victim([preempted])), withPods(node('n2', { cpu: '4' }), running('other', 2, 0))));
  assert.ok(ruledOut.ok && ruledOut.preemption.node === 'n2', 'its node now refuses it for good: it preempts elsewhere');
  const never = pod('never', cpu(4, 100, { spec: { preemptionPolicy: 'Never' } }));
  const s = snapshotOf(withPods(node('n1', { cpu: '4' }), running('other', 2, 0)));
  assert.equal(findPreemption(never, cycle(never, s, new Nominator()), s, filters, seededRandom(1)), { ok: false, message: 'not eligible due to preemptionPolicy=Never.' });
});

test.run();
