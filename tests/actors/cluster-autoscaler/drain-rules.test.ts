// Which pods keep their node from being removed, as the real autoscaler's drainability rules say.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Pod } from '../../../actors/api/model/core.ts';
import type { PodDisruptionBudget } from '../../../actors/api/model/policy.ts';
import { drainability } from '../../../actors/cluster-autoscaler/drain-rules.ts';

const RULES = { skipNodesWithLocalStorage: true, skipNodesWithSystemPods: true };
const owned = (kind: string) => [{ apiVersion: 'apps/v1', kind, name: 'o', uid: 'u', controller: true }];
const pod = (over: { namespace?: string; annotations?: Record<string, string>; owner?: string | null; volumes?: unknown[]; phase?: string } = {}): Pod => ({
  metadata: { name: 'p', namespace: over.namespace ?? 'default', labels: { app: 'web' }, ...(over.annotations ? { annotations: over.annotations } : {}),
    ...(over.owner === null ? {} : { ownerReferences: owned(over.owner ?? 'ReplicaSet') }) },
  spec: { containers: [{ name: 'c', image: 'x' }], ...(over.volumes ? { volumes: over.volumes } : {}) },
  ...(over.phase ? { status: { phase: over.phase } } : {}),
}) as Pod;
const budget = (namespace = 'default'): PodDisruptionBudget => ({ metadata: { name: 'b', namespace }, spec: { selector: { matchLabels: { app: 'web' } } } }) as PodDisruptionBudget;
const kind = (p: Pod, budgets: PodDisruptionBudget[] = [], rules = RULES) => {
  const d = drainability(p, budgets, rules);
  return d.kind === 'block' ? `block ${d.reason}` : d.kind;
};

test('a replicated pod moves, with the budgets that cover it', () => {
  assert.is(kind(pod()), 'move');
  const d = drainability(pod(), [budget(), budget('other')], RULES);
  assert.is(d.kind === 'move' && d.budgets.length, 1, 'only the budget of its namespace');
});

test('DaemonSet, mirror and finished pods stay and block nothing', () => {
  assert.is(kind(pod({ owner: 'DaemonSet' })), 'skip');
  assert.is(kind(pod({ owner: null, annotations: { 'kubernetes.io/config.mirror': 'x' } })), 'skip');
  assert.is(kind(pod({ owner: null, phase: 'Succeeded' })), 'skip');
});

test('a pod without a controller, with local storage, or kube-system without a budget blocks its node', () => {
  assert.is(kind(pod({ owner: null })), 'block NotReplicated');
  assert.is(kind(pod({ volumes: [{ name: 'v', emptyDir: {} }] })), 'block LocalStorageRequested');
  assert.is(kind(pod({ volumes: [{ name: 'v', emptyDir: {} }] }), [], { ...RULES, skipNodesWithLocalStorage: false }), 'move');
  assert.is(kind(pod({ namespace: 'kube-system' })), 'block UnmovableKubeSystemPod');
  assert.is(kind(pod({ namespace: 'kube-system' }), [budget('kube-system')]), 'move');
});

test('safe-to-evict says it outright either way', () => {
  assert.is(kind(pod({ annotations: { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'false' } })), 'block NotSafeToEvictAnnotation');
  assert.is(kind(pod({ owner: null, volumes: [{ name: 'v', hostPath: { path: '/x' } }], annotations: { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'true' } })), 'move');
});

test.run();
