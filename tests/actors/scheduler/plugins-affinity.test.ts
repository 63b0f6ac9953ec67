// InterPodAffinity on hand-built zones: required affinity (with the first-pod-of-a-group case),
// required anti-affinity, existing pods' anti-affinity, namespaces and namespace selectors, and the
// score from preferred terms on both sides with its min-max normalisation.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { NodeInfo, PodInfo } from '../../../actors/scheduler/framework.ts';
import { addPod } from '../../../actors/scheduler/pod-info.ts';
import { interPodAffinity } from '../../../actors/scheduler/plugins/inter-pod-affinity.ts';
import { feasible, filterAll, node, pod, rawScores, scoreAll, snapshotOf, withPods, type PodOptions } from './plugins-fixtures.ts';

const affinity = interPodAffinity();
const AFFINITY = "node(s) didn't match pod affinity rules";
const ANTI = "node(s) didn't match pod anti-affinity rules";
const EXISTING_ANTI = "node(s) didn't satisfy existing pods anti-affinity rules";

const app = (name: string, label: string, o: PodOptions = {}) => pod(name, { ...o, labels: { app: label, ...o.labels } });
const inZone = (name: string, zone: string | undefined, ...pods: PodInfo[]): NodeInfo =>
  withPods(node(name, { labels: zone ? { zone } : {} }), ...pods);

function term(selector: Record<string, string>, topologyKey = 'zone', extra: Record<string, unknown> = {}) {
  return { labelSelector: { matchLabels: selector }, topologyKey, ...extra };
}

function withTerms(label: string, kind: 'podAffinity' | 'podAntiAffinity', required: unknown[], preferred: unknown[] = [], o: PodOptions = {}): PodInfo {
  return app('incoming', label, { ...o, spec: { affinity: { [kind]: {
    requiredDuringSchedulingIgnoredDuringExecution: required,
    preferredDuringSchedulingIgnoredDuringExecution: preferred,
  } } } });
}

// --- required affinity ---

test('required affinity admits only nodes in a domain holding a matching pod', () => {
  const snapshot = snapshotOf(inZone('a1', 'a', app('db', 'db')), inZone('a2', 'a'), inZone('b1', 'b'), inZone('bare', undefined));
  assert.equal(filterAll(affinity, withTerms('web', 'podAffinity', [term({ app: 'db' })]), snapshot), [
    'a1: ok', 'a2: ok', `b1: ${AFFINITY}`, `bare: ${AFFINITY}`,
  ]);
});

test('the first pod of a group that matches its own affinity terms may go to any node having the topology key', () => {
  const empty = snapshotOf(inZone('a1', 'a', app('other', 'cache')), inZone('b1', 'b'), inZone('bare', undefined));
  assert.equal(feasible(affinity, withTerms('db', 'podAffinity', [term({ app: 'db' })]), empty), ['a1', 'b1']);
  assert.equal(feasible(affinity, withTerms('web', 'podAffinity', [term({ app: 'db' })]), empty), [], 'it does not match its own term');
  const started = snapshotOf(inZone('a1', 'a'), inZone('b1', 'b', app('db-0', 'db')));
  assert.equal(feasible(affinity, withTerms('db', 'podAffinity', [term({ app: 'db' })]), started), ['b1'], 'once one exists, follow it');
});

test('a matching pod must match all the required affinity terms at once', () => {
  const snapshot = snapshotOf(
    inZone('a1', 'a', app('db', 'db'), app('cache', 'cache')),
    inZone('b1', 'b', app('both', 'db', { labels: { tier: 'hot' } })),
  );
  const p = withTerms('web', 'podAffinity', [term({ app: 'db' }), term({ tier: 'hot' })]);
  assert.equal(feasible(affinity, p, snapshot), ['b1']);
});

test('affinity terms look in the pod\'s own namespace unless namespaces or a namespaceSelector say otherwise', () => {
  const snapshot = () => snapshotOf(inZone('a1', 'a', app('db', 'db', { namespace: 'data' })), inZone('b1', 'b'));
  const p = (extra: Record<string, unknown>) => withTerms('web', 'podAffinity', [term({ app: 'db' }, 'zone', extra)]);
  assert.equal(feasible(affinity, p({}), snapshot()), []);
  assert.equal(feasible(affinity, p({ namespaces: ['data'] }), snapshot()), ['a1']);
  assert.equal(feasible(affinity, p({ namespaces: ['default', 'other'] }), snapshot()), []);
  assert.equal(feasible(affinity, p({ namespaceSelector: {} }), snapshot()), ['a1'], '{} selects every namespace');
  assert.equal(feasible(affinity, p({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'data' } } }), snapshot()), ['a1']);
  assert.equal(feasible(affinity, p({ namespaceSelector: { matchLabels: { team: 'x' } } }), snapshot()), []);
  const labelled = interPodAffinity({ namespaceLabels: (ns): Record<string, string> => (ns === 'data' ? { team: 'x' } : {}) });
  assert.equal(feasible(labelled, p({ namespaceSelector: { matchLabels: { team: 'x' } } }), snapshot()), ['a1']);
});

// --- required anti-affinity ---

test('required anti-affinity keeps the pod out of every domain holding a matching pod', () => {
  const snapshot = snapshotOf(inZone('a1', 'a', app('web-0', 'web')), inZone('a2', 'a'), inZone('b1', 'b'), inZone('bare', undefined));
  assert.equal(filterAll(affinity, withTerms('web', 'podAntiAffinity', [term({ app: 'web' })]), snapshot), [
    `a1: ${ANTI}`, `a2: ${ANTI}`, 'b1: ok', 'bare: ok',
  ]);
  assert.equal(feasible(affinity, withTerms('web', 'podAntiAffinity', [term({ app: 'web' }, 'kubernetes.io/hostname')]), snapshot), ['a2', 'b1', 'bare']);
});

test('existing pods\' required anti-affinity keeps matching pods out of their domains', () => {
  const loner = app('loner', 'loner', { spec: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' })] } } } });
  const snapshot = snapshotOf(inZone('a1', 'a', loner), inZone('a2', 'a'), inZone('b1', 'b'));
  assert.equal(filterAll(affinity, app('web-1', 'web'), snapshot), [`a1: ${EXISTING_ANTI}`, `a2: ${EXISTING_ANTI}`, 'b1: ok']);
  assert.equal(feasible(affinity, app('db-1', 'db'), snapshot), ['a1', 'a2', 'b1']);
  assert.equal(feasible(affinity, app('web-2', 'web', { namespace: 'elsewhere' }), snapshot), ['a1', 'a2', 'b1'], 'the term looks in its own pod\'s namespace');
});

test('the pod\'s own affinity is checked before anti-affinity', () => {
  const snapshot = snapshotOf(inZone('a1', 'a', app('web-0', 'web')), inZone('b1', 'b', app('db', 'db'), app('web-1', 'web')));
  const p = app('incoming', 'web', { spec: { affinity: {
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' })] },
    podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' })] },
  } } });
  assert.equal(filterAll(affinity, p, snapshot), [`a1: ${AFFINITY}`, `b1: ${ANTI}`]);
});

test('anti-affinity follows pods placed after an earlier cycle', () => {
  const a1 = inZone('a1', 'a'), b1 = inZone('b1', 'b');
  const snapshot = snapshotOf(a1, b1);
  const p = () => withTerms('web', 'podAntiAffinity', [term({ app: 'web' })]);
  assert.equal(feasible(affinity, p(), snapshot), ['a1', 'b1']);
  addPod(a1, app('web-0', 'web'));
  assert.equal(feasible(affinity, p(), snapshot), ['b1']);
  addPod(b1, app('web-1', 'web'));
  assert.equal(feasible(affinity, p(), snapshot), []);
});

// --- scoring ---

const preferred = (weight: number, selector: Record<string, string>, topologyKey = 'zone') => ({ weight, podAffinityTerm: term(selector, topologyKey) });

test('preferred affinity adds its weight to nodes in domains holding matching pods', () => {
  const snapshot = snapshotOf(inZone('a1', 'a', app('db', 'db')), inZone('a2', 'a'), inZone('b1', 'b'));
  const p = withTerms('web', 'podAffinity', [], [preferred(10, { app: 'db' })]);
  assert.equal(rawScores(affinity, p, snapshot), ['a1=10', 'a2=10', 'b1=0']);
  assert.equal(scoreAll(affinity, p, snapshot), ['a1=100', 'a2=100', 'b1=0']);
});

test('preferred anti-affinity subtracts, and scores are rescaled from the lowest to the highest', () => {
  const snapshot = snapshotOf(inZone('a1', 'a', app('db', 'db')), inZone('b1', 'b', app('web-0', 'web')), inZone('c1', 'c'));
  const p = app('incoming', 'web', { spec: { affinity: {
    podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(10, { app: 'db' })] },
    podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(4, { app: 'web' })] },
  } } });
  assert.equal(rawScores(affinity, p, snapshot), ['a1=10', 'b1=-4', 'c1=0']);
  // min -4, max 10: c1 = 100 * 4 / 14 = 28.6 -> 28.
  assert.equal(scoreAll(affinity, p, snapshot), ['a1=100', 'b1=0', 'c1=28']);
});

test('existing pods\' preferred terms and required affinity score the incoming pod', () => {
  const fan = app('fan', 'fan', { spec: { affinity: {
    podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(7, { app: 'web' })] },
  } } });
  const hater = app('hater', 'hater', { spec: { affinity: {
    podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [preferred(3, { app: 'web' })] },
  } } });
  const needy = app('needy', 'needy', { spec: { affinity: {
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' })] },
  } } });
  const snapshot = snapshotOf(inZone('a1', 'a', fan), inZone('a2', 'a'), inZone('b1', 'b', hater), inZone('c1', 'c', needy));
  assert.equal(rawScores(affinity, app('web-1', 'web'), snapshot), ['a1=7', 'a2=7', 'b1=-3', 'c1=1']);
  // min -3, max 7: c1 = 100 * 4 / 10 = 40.
  assert.equal(scoreAll(affinity, app('web-1', 'web'), snapshot), ['a1=100', 'a2=100', 'b1=0', 'c1=40']);
  const noHard = interPodAffinity({ hardPodAffinityWeight: 0 });
  assert.equal(rawScores(noHard, app('web-1', 'web'), snapshot), ['a1=7', 'a2=7', 'b1=-3', 'c1=0']);
  assert.equal(scoreAll(affinity, app('db-1', 'db'), snapshot), ['a1=0', 'a2=0', 'b1=0', 'c1=0'], 'nothing matched: no score');
});

test('existing pods\' required anti-affinity does not score', () => {
  const loner = app('loner', 'loner', { spec: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' })] } } } });
  const snapshot = snapshotOf(inZone('a1', 'a', loner), inZone('b1', 'b'));
  assert.equal(scoreAll(affinity, app('web-1', 'web'), snapshot), ['a1=0', 'b1=0']);
});

test('preferred terms count every matching pod, and a node without the topology key gets nothing', () => {
  const snapshot = snapshotOf(inZone('a1', 'a', app('db-0', 'db'), app('db-1', 'db')), inZone('b1', 'b', app('db-2', 'db')), inZone('bare', undefined, app('db-3', 'db')));
  const p = withTerms('web', 'podAffinity', [], [preferred(5, { app: 'db' })]);
  assert.equal(rawScores(affinity, p, snapshot), ['a1=10', 'b1=5', 'bare=0']);
  assert.equal(scoreAll(affinity, p, snapshot), ['a1=100', 'b1=50', 'bare=0']);
  const [a1, b1] = snapshot.nodes;
  assert.equal(scoreAll(affinity, p, snapshot, [a1!, b1!]), ['a1=100', 'b1=0'], 'the lowest score becomes 0, not the lowest below 0');
});

test.run();
