// authorization.k8s.io/v1 access reviews (k8s.io/api authorization/v1 generated.proto), which
// kubectl auth can-i sends as Protobuf.
import { FieldSelectorRequirement, LabelSelectorRequirement, ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

const ResourceAttributes = message('ResourceAttributes', [
  [1, 'namespace', 'string'],
  [2, 'verb', 'string'],
  [3, 'group', 'string'],
  [4, 'version', 'string'],
  [5, 'resource', 'string'],
  [6, 'subresource', 'string'],
  [7, 'name', 'string'],
  [8, 'fieldSelector', message('FieldSelectorAttributes', [
    [1, 'rawSelector', 'string'],
    [2, 'requirements', FieldSelectorRequirement, 'list'],
  ])],
  [9, 'labelSelector', message('LabelSelectorAttributes', [
    [1, 'rawSelector', 'string'],
    [2, 'requirements', LabelSelectorRequirement, 'list'],
  ])],
]);

const NonResourceAttributes = message('NonResourceAttributes', [
  [1, 'path', 'string'],
  [2, 'verb', 'string'],
]);

const SubjectAccessReviewStatus = message('SubjectAccessReviewStatus', [
  [1, 'allowed', 'bool', 'keep'],
  [2, 'reason', 'string'],
  [3, 'evaluationError', 'string'],
  [4, 'denied', 'bool'],
]);

export const SelfSubjectAccessReview = message('SelfSubjectAccessReview', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('SelfSubjectAccessReviewSpec', [
    [1, 'resourceAttributes', ResourceAttributes],
    [2, 'nonResourceAttributes', NonResourceAttributes],
  ])],
  [3, 'status', SubjectAccessReviewStatus],
]);

export const SubjectAccessReview = message('SubjectAccessReview', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('SubjectAccessReviewSpec', [
    [1, 'resourceAttributes', ResourceAttributes],
    [2, 'nonResourceAttributes', NonResourceAttributes],
    [3, 'user', 'string'],
    [4, 'groups', 'string', 'list'],
    [5, 'extra', 'stringList', 'map'],
    [6, 'uid', 'string'],
  ])],
  [3, 'status', SubjectAccessReviewStatus],
]);
