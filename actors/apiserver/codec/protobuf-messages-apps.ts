// apps/v1 kinds served as Protobuf (k8s.io/api apps/v1 generated.proto): Deployment and
// ControllerRevision, whose data is a RawExtension holding JSON.
import { LabelSelector, ObjectMeta } from './protobuf-messages-meta.ts';
import { PodTemplateSpec } from './protobuf-messages-pod.ts';
import { message } from './protobuf-schema.ts';

const DeploymentStrategy = message('DeploymentStrategy', [
  [1, 'type', 'string'],
  [2, 'rollingUpdate', message('RollingUpdateDeployment', [
    [1, 'maxUnavailable', 'intOrString'],
    [2, 'maxSurge', 'intOrString'],
  ])],
]);

const DeploymentSpec = message('DeploymentSpec', [
  [1, 'replicas', 'int32', 'keep'],
  [2, 'selector', LabelSelector],
  [3, 'template', PodTemplateSpec],
  [4, 'strategy', DeploymentStrategy],
  [5, 'minReadySeconds', 'int32'],
  [6, 'revisionHistoryLimit', 'int32', 'keep'],
  [7, 'paused', 'bool'],
  [9, 'progressDeadlineSeconds', 'int32', 'keep'],
]);

const DeploymentCondition = message('DeploymentCondition', [
  [1, 'type', 'string', 'keep'],
  [2, 'status', 'string', 'keep'],
  [4, 'reason', 'string'],
  [5, 'message', 'string'],
  [6, 'lastUpdateTime', 'time'],
  [7, 'lastTransitionTime', 'time'],
]);

const DeploymentStatus = message('DeploymentStatus', [
  [1, 'observedGeneration', 'int64'],
  [2, 'replicas', 'int32'],
  [3, 'updatedReplicas', 'int32'],
  [4, 'availableReplicas', 'int32'],
  [5, 'unavailableReplicas', 'int32'],
  [6, 'conditions', DeploymentCondition, 'list'],
  [7, 'readyReplicas', 'int32'],
  [8, 'collisionCount', 'int32', 'keep'],
  [9, 'terminatingReplicas', 'int32', 'keep'],
]);

export const Deployment = message('Deployment', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', DeploymentSpec],
  [3, 'status', DeploymentStatus],
]);

export const ControllerRevision = message('ControllerRevision', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'data', 'rawJson'],
  [3, 'revision', 'int64', 'keep'],
]);
