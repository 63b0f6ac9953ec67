// core/v1 PersistentVolumeClaim (k8s.io/api core/v1 generated.proto), as a StatefulSet's
// volumeClaimTemplates carry it. storageClassName, volumeMode and the data sources are pointers.
import { condition } from './protobuf-messages-core.ts';
import { LabelSelector, ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

const TypedLocalObjectReference = message('TypedLocalObjectReference', [
  [1, 'apiGroup', 'string', 'keep'],
  [2, 'kind', 'string', 'keep'],
  [3, 'name', 'string', 'keep'],
]);

const PersistentVolumeClaimSpec = message('PersistentVolumeClaimSpec', [
  [1, 'accessModes', 'string', 'list'],
  [2, 'resources', message('VolumeResourceRequirements', [[1, 'limits', 'quantity', 'map'], [2, 'requests', 'quantity', 'map']])],
  [3, 'volumeName', 'string'],
  [4, 'selector', LabelSelector],
  [5, 'storageClassName', 'string', 'keep'],
  [6, 'volumeMode', 'string', 'keep'],
  [7, 'dataSource', TypedLocalObjectReference],
  [8, 'dataSourceRef', message('TypedObjectReference', [
    [1, 'apiGroup', 'string', 'keep'],
    [2, 'kind', 'string', 'keep'],
    [3, 'name', 'string', 'keep'],
    [4, 'namespace', 'string', 'keep'],
  ])],
  [9, 'volumeAttributesClassName', 'string', 'keep'],
]);

const PersistentVolumeClaimStatus = message('PersistentVolumeClaimStatus', [
  [1, 'phase', 'string'],
  [2, 'accessModes', 'string', 'list'],
  [3, 'capacity', 'quantity', 'map'],
  [4, 'conditions', condition('PersistentVolumeClaimCondition', [[3, 'lastProbeTime'], [4, 'lastTransitionTime']], 5), 'list'],
  [5, 'allocatedResources', 'quantity', 'map'],
  [7, 'allocatedResourceStatuses', 'string', 'map'],
  [8, 'currentVolumeAttributesClassName', 'string', 'keep'],
  [9, 'modifyVolumeStatus', message('ModifyVolumeStatus', [[1, 'targetVolumeAttributesClassName', 'string'], [2, 'status', 'string', 'keep']])],
]);

export const PersistentVolumeClaim = message('PersistentVolumeClaim', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', PersistentVolumeClaimSpec],
  [3, 'status', PersistentVolumeClaimStatus],
]);
