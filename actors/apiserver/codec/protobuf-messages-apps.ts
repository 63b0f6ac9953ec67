// apps/v1 kinds served as Protobuf (k8s.io/api apps/v1 generated.proto): Deployment, ReplicaSet,
// DaemonSet, StatefulSet and ControllerRevision, whose data is a RawExtension holding JSON.
// Their conditions share one shape: type, status, lastTransitionTime=3, reason, message.
import { PersistentVolumeClaim } from './protobuf-messages-claim.ts';
import { condition } from './protobuf-messages-core.ts';
import { LabelSelector, ObjectMeta } from './protobuf-messages-meta.ts';
import { PodTemplateSpec } from './protobuf-messages-pod.ts';
import { message } from './protobuf-schema.ts';

const workloadCondition = (name: string) => condition(name, [[3, 'lastTransitionTime']], 4);

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

export const ReplicaSet = message('ReplicaSet', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('ReplicaSetSpec', [
    [1, 'replicas', 'int32', 'keep'],
    [2, 'selector', LabelSelector],
    [3, 'template', PodTemplateSpec],
    [4, 'minReadySeconds', 'int32'],
  ])],
  [3, 'status', message('ReplicaSetStatus', [
    [1, 'replicas', 'int32', 'keep'],
    [2, 'fullyLabeledReplicas', 'int32'],
    [3, 'observedGeneration', 'int64'],
    [4, 'readyReplicas', 'int32'],
    [5, 'availableReplicas', 'int32'],
    [6, 'conditions', workloadCondition('ReplicaSetCondition'), 'list'],
  ])],
]);

const DaemonSetSpec = message('DaemonSetSpec', [
  [1, 'selector', LabelSelector],
  [2, 'template', PodTemplateSpec, 'keep'],
  [3, 'updateStrategy', message('DaemonSetUpdateStrategy', [
    [1, 'type', 'string'],
    [2, 'rollingUpdate', message('RollingUpdateDaemonSet', [
      [1, 'maxUnavailable', 'intOrString'],
      [2, 'maxSurge', 'intOrString'],
    ])],
  ])],
  [4, 'minReadySeconds', 'int32'],
  [6, 'revisionHistoryLimit', 'int32', 'keep'],
]);

const DaemonSetStatus = message('DaemonSetStatus', [
  [1, 'currentNumberScheduled', 'int32', 'keep'],
  [2, 'numberMisscheduled', 'int32', 'keep'],
  [3, 'desiredNumberScheduled', 'int32', 'keep'],
  [4, 'numberReady', 'int32', 'keep'],
  [5, 'observedGeneration', 'int64'],
  [6, 'updatedNumberScheduled', 'int32'],
  [7, 'numberAvailable', 'int32'],
  [8, 'numberUnavailable', 'int32'],
  [9, 'collisionCount', 'int32', 'keep'],
  [10, 'conditions', workloadCondition('DaemonSetCondition'), 'list'],
]);

export const DaemonSet = message('DaemonSet', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', DaemonSetSpec],
  [3, 'status', DaemonSetStatus],
]);

const StatefulSetSpec = message('StatefulSetSpec', [
  [1, 'replicas', 'int32', 'keep'],
  [2, 'selector', LabelSelector],
  [3, 'template', PodTemplateSpec, 'keep'],
  [4, 'volumeClaimTemplates', PersistentVolumeClaim, 'list'],
  [5, 'serviceName', 'string', 'keep'],
  [6, 'podManagementPolicy', 'string'],
  [7, 'updateStrategy', message('StatefulSetUpdateStrategy', [
    [1, 'type', 'string'],
    [2, 'rollingUpdate', message('RollingUpdateStatefulSetStrategy', [
      [1, 'partition', 'int32', 'keep'],
      [2, 'maxUnavailable', 'intOrString'],
    ])],
  ])],
  [8, 'revisionHistoryLimit', 'int32', 'keep'],
  [9, 'minReadySeconds', 'int32'],
  [10, 'persistentVolumeClaimRetentionPolicy', message('StatefulSetPersistentVolumeClaimRetentionPolicy', [
    [1, 'whenDeleted', 'string'],
    [2, 'whenScaled', 'string'],
  ])],
  [11, 'ordinals', message('StatefulSetOrdinals', [[1, 'start', 'int32', 'keep']])],
]);

const StatefulSetStatus = message('StatefulSetStatus', [
  [1, 'observedGeneration', 'int64'],
  [2, 'replicas', 'int32', 'keep'],
  [3, 'readyReplicas', 'int32'],
  [4, 'currentReplicas', 'int32'],
  [5, 'updatedReplicas', 'int32'],
  [6, 'currentRevision', 'string'],
  [7, 'updateRevision', 'string'],
  [9, 'collisionCount', 'int32', 'keep'],
  [10, 'conditions', workloadCondition('StatefulSetCondition'), 'list'],
  [11, 'availableReplicas', 'int32', 'keep'],
]);

export const StatefulSet = message('StatefulSet', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', StatefulSetSpec],
  [3, 'status', StatefulSetStatus],
]);
