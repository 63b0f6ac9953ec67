// apimachinery meta/v1 messages (pkg/apis/meta/v1/generated.proto): object and list metadata,
// label selectors, conditions, delete options and Status. Time, FieldsV1 and RawExtension are special types
// of the codec (see protobuf-schema.ts), not messages here.
import { message } from './protobuf-schema.ts';

export const OwnerReference = message('OwnerReference', [
  [1, 'kind', 'string', 'keep'],
  [3, 'name', 'string', 'keep'],
  [4, 'uid', 'string', 'keep'],
  [5, 'apiVersion', 'string', 'keep'],
  [6, 'controller', 'bool', 'keep'],
  [7, 'blockOwnerDeletion', 'bool', 'keep'],
]);

export const ManagedFieldsEntry = message('ManagedFieldsEntry', [
  [1, 'manager', 'string'],
  [2, 'operation', 'string'],
  [3, 'apiVersion', 'string'],
  [4, 'time', 'time'],
  [6, 'fieldsType', 'string'],
  [7, 'fieldsV1', 'rawJson'],
  [8, 'subresource', 'string'],
]);

export const ObjectMeta = message('ObjectMeta', [
  [1, 'name', 'string'],
  [2, 'generateName', 'string'],
  [3, 'namespace', 'string'],
  [4, 'selfLink', 'string'],
  [5, 'uid', 'string'],
  [6, 'resourceVersion', 'string'],
  [7, 'generation', 'int64'],
  [8, 'creationTimestamp', 'time'],
  [9, 'deletionTimestamp', 'time'],
  [10, 'deletionGracePeriodSeconds', 'int64', 'keep'],
  [11, 'labels', 'string', 'map'],
  [12, 'annotations', 'string', 'map'],
  [13, 'ownerReferences', OwnerReference, 'list'],
  [14, 'finalizers', 'string', 'list'],
  [17, 'managedFields', ManagedFieldsEntry, 'list'],
]);

export const ListMeta = message('ListMeta', [
  [1, 'selfLink', 'string'],
  [2, 'resourceVersion', 'string'],
  [3, 'continue', 'string'],
  [4, 'remainingItemCount', 'int64', 'keep'],
]);

export const LabelSelectorRequirement = message('LabelSelectorRequirement', [
  [1, 'key', 'string', 'keep'],
  [2, 'operator', 'string', 'keep'],
  [3, 'values', 'string', 'list'],
]);

export const LabelSelector = message('LabelSelector', [
  [1, 'matchLabels', 'string', 'map'],
  [2, 'matchExpressions', LabelSelectorRequirement, 'list'],
]);

export const FieldSelectorRequirement = message('FieldSelectorRequirement', [
  [1, 'key', 'string', 'keep'],
  [2, 'operator', 'string', 'keep'],
  [3, 'values', 'string', 'list'],
]);

/** meta/v1 Condition, the condition type of newer kinds (Service, PodDisruptionBudget status). */
export const Condition = message('Condition', [
  [1, 'type', 'string', 'keep'],
  [2, 'status', 'string', 'keep'],
  [3, 'observedGeneration', 'int64'],
  [4, 'lastTransitionTime', 'time'],
  [5, 'reason', 'string', 'keep'],
  [6, 'message', 'string', 'keep'],
]);

export const Preconditions = message('Preconditions', [
  [1, 'uid', 'string', 'keep'],
  [2, 'resourceVersion', 'string', 'keep'],
]);

export const DeleteOptions = message('DeleteOptions', [
  [1, 'gracePeriodSeconds', 'int64', 'keep'],
  [2, 'preconditions', Preconditions],
  [3, 'orphanDependents', 'bool', 'keep'],
  [4, 'propagationPolicy', 'string', 'keep'],
  [5, 'dryRun', 'string', 'list'],
]);

export const StatusCause = message('StatusCause', [
  [1, 'reason', 'string'],
  [2, 'message', 'string'],
  [3, 'field', 'string'],
]);

export const StatusDetails = message('StatusDetails', [
  [1, 'name', 'string'],
  [2, 'group', 'string'],
  [3, 'kind', 'string'],
  [4, 'causes', StatusCause, 'list'],
  [5, 'retryAfterSeconds', 'int32'],
  [6, 'uid', 'string'],
]);

export const Status = message('Status', [
  [1, 'metadata', ListMeta, 'keep'],
  [2, 'status', 'string'],
  [3, 'message', 'string'],
  [4, 'reason', 'string'],
  [5, 'details', StatusDetails],
  [6, 'code', 'int32'],
]);
