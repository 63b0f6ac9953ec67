// PodTopologySpread on hand-built zones: the skew rule of DoNotSchedule constraints (self match,
// minDomains, node inclusion policies, matchLabelKeys, namespaces and terminating pods), and the
// ScheduleAnyway score with its log weights, ignored nodes and the system default constraints.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Matcher } from '../../../actors/api/selectors.ts';
import type { NodeInfo, PodInfo } from '../../../actors/scheduler/framework.ts';
import { addPod, removePod } from '../../../actors/scheduler/pod-info.ts';
import { podTopologySpread } from '../../../actors/scheduler/plugins/pod-topology-spread.ts';
import { feasible, filterAll, node, pod, rawScores, scoreAll, snapshotOf, withPods, type PodOptions } from './plugins-fixtures.ts';

const spread = podTopologySpread();
const web = (name: string, o: PodOptions = {}) => pod(name, { ...o, labels: { app: 'web', ...o.labels } });
const inZone = (name: string, zone: string | undefined, pods: PodInfo[] = [], extra: Parameters<typeof node>[1] = {}): NodeInfo =>
  withPods(node(name, { ...extra, labels: { ...(zone ? { zone } : {}), ...extra.labels } }), ...pods);

function constrained(constraint: Record<string, unknown>, o: PodOptions = {}): PodInfo {
  return pod('incoming', {
    labels: { app: 'web' },
    ...o,
    spec: {
      ...o.spec,
      topologySpreadConstraints: [{
        maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } }, ...constraint,
      }],
    },
  });
}

/** Zone a holds two matching pods (on two nodes), zone b one, zone c none. */
const threeZones = () => snapshotOf(
  inZone('a1', 'a', [web('w1')]),
  inZone('a2', 'a', [web('w2')]),
  inZone('b1', 'b', [web('w3')]),
  inZone('c1', 'c'),
);

test('a node passes when its domain count plus the pod itself stays within maxSkew of the emptiest domain', () => {
  assert.equal(filterAll(spread, constrained({}), threeZones()), [
    "a1: node(s) didn't match pod topology spread constraints",
    "a2: node(s) didn't match pod topology spread constraints",
    "b1: node(s) didn't match pod topology spread constraints",
    'c1: ok',
  ]);
  assert.equal(feasible(spread, constrained({ maxSkew: 2 }), threeZones()), ['b1', 'c1']);
  assert.equal(feasible(spread, constrained({ maxSkew: 3 }), threeZones()), ['a1', 'a2', 'b1', 'c1']);
});

test('a pod outside its own selector does not count itself in the skew', () => {
  assert.equal(feasible(spread, constrained({}, { labels: { app: 'batch' } }), threeZones()), ['b1', 'c1']);
});

test('a node without the topology key is rejected with the missing-label reason and is not a domain', () => {
  const snapshot = snapshotOf(inZone('a1', 'a', [web('w1')]), inZone('bare', undefined));
  assert.equal(filterAll(spread, constrained({}), snapshot), [
    'a1: ok',
    "bare: node(s) didn't match pod topology spread constraints (missing required label)",
  ]);
});

test('with fewer eligible domains than minDomains the global minimum counts as 0', () => {
  const twoZones = () => snapshotOf(inZone('a1', 'a', [web('w1')]), inZone('b1', 'b', [web('w2')]));
  assert.equal(feasible(spread, constrained({}), twoZones()), ['a1', 'b1']);
  assert.equal(feasible(spread, constrained({ minDomains: 2 }), twoZones()), ['a1', 'b1']);
  assert.equal(feasible(spread, constrained({ minDomains: 3 }), twoZones()), []);
  assert.equal(feasible(spread, constrained({ minDomains: 3, maxSkew: 2 }), twoZones()), ['a1', 'b1']);
});

test('only pods of the same namespace that are not terminating are counted', () => {
  const snapshot = snapshotOf(
    inZone('a1', 'a', [web('w1', { namespace: 'other' }), web('w2', { deleting: true })]),
    inZone('b1', 'b', [web('w3')]),
    inZone('c1', 'c', [web('w4')]),
  );
  // Zone a counts 0 for the default namespace: only it stays within maxSkew 1 of the minimum 0.
  assert.equal(feasible(spread, constrained({}), snapshot), ['a1']);
  assert.equal(feasible(spread, constrained({}, { namespace: 'other' }), snapshot), ['b1', 'c1']);
});

test('nodeAffinityPolicy Honor (the default) leaves out the domains of nodes the pod may not use', () => {
  const snapshot = () => snapshotOf(
    inZone('a1', 'a', [web('w1')], { labels: { disk: 'ssd' } }),
    inZone('b1', 'b', [web('w2')], { labels: { disk: 'ssd' } }),
    inZone('c1', 'c', [], { labels: { disk: 'hdd' } }),
  );
  const ssd = { spec: { nodeSelector: { disk: 'ssd' } } };
  assert.equal(feasible(spread, constrained({}, ssd), snapshot()), ['a1', 'b1', 'c1'], 'zone c is no domain: the minimum is 1');
  assert.equal(feasible(spread, constrained({ nodeAffinityPolicy: 'Ignore' }, ssd), snapshot()), ['c1']);
});

test('nodeTaintsPolicy Honor leaves out the domains of nodes with taints the pod does not tolerate', () => {
  const snapshot = () => snapshotOf(
    inZone('a1', 'a', [web('w1')]),
    inZone('b1', 'b', [web('w2')]),
    inZone('c1', 'c', [], { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
  );
  assert.equal(feasible(spread, constrained({}), snapshot()), ['c1'], 'taints are ignored by default');
  assert.equal(feasible(spread, constrained({ nodeTaintsPolicy: 'Honor' }), snapshot()), ['a1', 'b1', 'c1']);
  const tolerant = { spec: { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } };
  assert.equal(feasible(spread, constrained({ nodeTaintsPolicy: 'Honor' }, tolerant), snapshot()), ['c1']);
});

test('matchLabelKeys narrows the selector to pods sharing the pod\'s values for those keys', () => {
  const snapshot = () => snapshotOf(
    inZone('a1', 'a', [web('old1', { labels: { rev: '1' } }), web('old2', { labels: { rev: '1' } })]),
    inZone('b1', 'b', [web('new1', { labels: { rev: '2' } })]),
    inZone('c1', 'c'),
  );
  const incoming = { labels: { app: 'web', rev: '2' } };
  assert.equal(feasible(spread, constrained({}, incoming), snapshot()), ['c1']);
  assert.equal(feasible(spread, constrained({ matchLabelKeys: ['rev'] }, incoming), snapshot()), ['a1', 'c1']);
});

test('an empty label selector counts no pods, so it never blocks', () => {
  assert.equal(feasible(spread, constrained({ labelSelector: {} }), threeZones()), ['a1', 'a2', 'b1', 'c1']);
});

test('a hostname constraint spreads node by node', () => {
  const snapshot = snapshotOf(inZone('h1', 'a', [web('w1'), web('w2')]), inZone('h2', 'a', [web('w3')]), inZone('h3', 'a'));
  assert.equal(feasible(spread, constrained({ topologyKey: 'kubernetes.io/hostname' }), snapshot), ['h3']);
  assert.equal(feasible(spread, constrained({ topologyKey: 'kubernetes.io/hostname', maxSkew: 2 }), snapshot), ['h2', 'h3']);
});

test('every DoNotSchedule constraint must hold', () => {
  const snapshot = snapshotOf(inZone('a1', 'a', [web('w1')]), inZone('a2', 'a'), inZone('b1', 'b', [web('w2'), web('w3')]));
  const p = pod('incoming', { labels: { app: 'web' }, spec: { topologySpreadConstraints: [
    { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } },
    { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } },
  ] } });
  // zone: a has 1, b has 2 -> only zone a; hostname: a2 holds none -> a2.
  assert.equal(feasible(spread, p, snapshot), ['a2']);
});

test('counts follow pods placed and removed after an earlier cycle', () => {
  const a1 = inZone('a1', 'a'), b1 = inZone('b1', 'b');
  const snapshot = snapshotOf(a1, b1);
  assert.equal(feasible(spread, constrained({}), snapshot), ['a1', 'b1']);
  const w = web('w1');
  addPod(a1, w);
  assert.equal(feasible(spread, constrained({}), snapshot), ['b1']);
  addPod(b1, web('w2'));
  addPod(b1, web('w3'));
  assert.equal(feasible(spread, constrained({}), snapshot), ['a1']);
  assert.is(removePod(b1, web('w2')), false, 'another pod of the same name is not this one (uids differ)');
  removePod(b1, b1.pods[0]!);
  removePod(b1, b1.pods[0]!);
  removePod(a1, w);
  assert.equal(feasible(spread, constrained({}), snapshot), ['a1', 'b1']);
});

// --- scoring ---

const soft = (constraint: Record<string, unknown> = {}) =>
  constrained({ whenUnsatisfiable: 'ScheduleAnyway', ...constraint });

test('ScheduleAnyway scores fewer matching pods in the domain higher, weighted by log(domains + 2)', () => {
  const snapshot = snapshotOf(inZone('a1', 'a', [web('w1'), web('w2')]), inZone('b1', 'b', [web('w3')]), inZone('c1', 'c'));
  // weight ln 5: raw a round(2 * 1.609) = 3, b round(1.609) = 2, c 0.
  assert.equal(rawScores(spread, soft(), snapshot), ['a1=3', 'b1=2', 'c1=0']);
  // max 3, min 0: 100 * (3 + 0 - s) / 3.
  assert.equal(scoreAll(spread, soft(), snapshot), ['a1=0', 'b1=33', 'c1=100']);
  // maxSkew - 1 waters the differences down: raw 5, 4, 2.
  assert.equal(scoreAll(spread, soft({ maxSkew: 3 }), snapshot), ['a1=40', 'b1=60', 'c1=100']);
});

test('feasible nodes missing a topology key of the pod\'s constraints score 0 and do not count as domains', () => {
  const feasibleNodes = [inZone('a1', 'a', [web('w1'), web('w2')]), inZone('b1', 'b', [web('w3')]), inZone('c1', 'c'), inZone('bare', undefined)];
  assert.equal(scoreAll(spread, soft(), snapshotOf(...feasibleNodes)), ['a1=0', 'b1=33', 'c1=100', 'bare=0']);
});

test('only the feasible nodes\' domains are scored, but pods on every node are counted', () => {
  const a1 = inZone('a1', 'a'), a2 = inZone('a2', 'a', [web('w1'), web('w2')]), b1 = inZone('b1', 'b', [web('w3')]);
  // a2 is infeasible, yet its pods make zone a the fuller: weight ln 4, raw a round(2.77) = 3, b round(1.39) = 1.
  assert.equal(scoreAll(spread, soft(), snapshotOf(a1, a2, b1), [a1, b1]), ['a1=33', 'b1=100']);
});

test('a hostname ScheduleAnyway constraint counts each node\'s own pods', () => {
  const snapshot = snapshotOf(inZone('h1', undefined, [web('w1'), web('w2')]), inZone('h2', undefined), inZone('h3', undefined, [web('w3')]));
  assert.equal(scoreAll(spread, soft({ topologyKey: 'kubernetes.io/hostname' }), snapshot), ['h1=0', 'h2=100', 'h3=33']);
});

test('a pod without constraints is not scored at all unless a default selector applies', () => {
  assert.equal(scoreAll(spread, pod('p', { labels: { app: 'web' } }), threeZones()), ['a1=0', 'a2=0', 'b1=0', 'c1=0']);
  assert.equal(scoreAll(spread, constrained({}), threeZones()), ['a1=0', 'a2=0', 'b1=0', 'c1=0'], 'DoNotSchedule constraints do not score');
});

test('with a default selector, the system defaults spread by hostname (maxSkew 3) and zone (maxSkew 5)', () => {
  const isWeb: Matcher = (o) => o.metadata.labels?.app === 'web';
  const withDefaults = podTopologySpread({ defaultSelector: (p) => (p.metadata.labels?.app === 'web' ? isWeb : undefined) });
  const zone = (z: string) => ({ labels: { 'topology.kubernetes.io/zone': z } });
  const snapshot = snapshotOf(
    inZone('a1', undefined, [web('w1'), web('w2')], zone('a')), inZone('a2', undefined, [], zone('a')), inZone('b1', undefined, [], zone('b')),
    inZone('nz', undefined),
  );
  // hostname weight ln 6 over 4 nodes; zone weight ln 5 over a, b and the zone-less '' domain.
  // a1: 2*1.79+2 + 2*1.61+4 = 12.8 -> 13; a2: 2 + 7.22 -> 9; b1: 2 + 4 = 6; nz: 2 (no zone term).
  assert.equal(rawScores(withDefaults, pod('p', { labels: { app: 'web' } }), snapshot), ['a1=13', 'a2=9', 'b1=6', 'nz=2']);
  assert.equal(scoreAll(withDefaults, pod('p', { labels: { app: 'web' } }), snapshot), ['a1=15', 'a2=46', 'b1=69', 'nz=100']);
  assert.equal(scoreAll(withDefaults, pod('q', { labels: { app: 'db' } }), snapshot), ['a1=0', 'a2=0', 'b1=0', 'nz=0'], 'no selector, no defaults');
  assert.equal(scoreAll(withDefaults, constrained({}), snapshot), ['a1=0', 'a2=0', 'b1=0', 'nz=0'], 'own constraints replace the defaults');
});

test.run();
