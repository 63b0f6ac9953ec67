// policy/v1 kinds (k8s.io/api policy/v1 generated.proto): Eviction, the body of pods/eviction, and
// PodDisruptionBudget, which kubectl create pdb sends as Protobuf.
import { Condition, DeleteOptions, LabelSelector, ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

export const Eviction = message('Eviction', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'deleteOptions', DeleteOptions],
]);

// minAvailable and maxUnavailable are pointers: 0 is a budget, absence none.
export const PodDisruptionBudget = message('PodDisruptionBudget', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('PodDisruptionBudgetSpec', [
    [1, 'minAvailable', 'intOrString'],
    [2, 'selector', LabelSelector],
    [3, 'maxUnavailable', 'intOrString'],
    [4, 'unhealthyPodEvictionPolicy', 'string', 'keep'],
  ])],
  [3, 'status', message('PodDisruptionBudgetStatus', [
    [1, 'observedGeneration', 'int64'],
    [2, 'disruptedPods', 'time', 'map'],
    [3, 'disruptionsAllowed', 'int32', 'keep'],
    [4, 'currentHealthy', 'int32', 'keep'],
    [5, 'desiredHealthy', 'int32', 'keep'],
    [6, 'expectedPods', 'int32', 'keep'],
    [7, 'conditions', Condition, 'list'],
  ])],
]);
