// authorization.k8s.io/v1 access and rules reviews (k8s.io/api authorization/v1 generated.proto):
// kubectl auth can-i sends SelfSubjectAccessReview as Protobuf, and auth can-i --list
// SelfSubjectRulesReview.
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

const SubjectAccessReviewSpec = message('SubjectAccessReviewSpec', [
  [1, 'resourceAttributes', ResourceAttributes],
  [2, 'nonResourceAttributes', NonResourceAttributes],
  [3, 'user', 'string'],
  [4, 'groups', 'string', 'list'],
  [5, 'extra', 'stringList', 'map'],
  [6, 'uid', 'string'],
]);

export const SubjectAccessReview = message('SubjectAccessReview', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', SubjectAccessReviewSpec],
  [3, 'status', SubjectAccessReviewStatus],
]);

/** A SubjectAccessReview in one namespace: the same spec and status. */
export const LocalSubjectAccessReview = message('LocalSubjectAccessReview', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', SubjectAccessReviewSpec],
  [3, 'status', SubjectAccessReviewStatus],
]);

// resourceRules, nonResourceRules, incomplete and the rules' verbs carry no omitempty in Go.
const SubjectRulesReviewStatus = message('SubjectRulesReviewStatus', [
  [1, 'resourceRules', message('ResourceRule', [
    [1, 'verbs', 'string', 'list', 'keep'],
    [2, 'apiGroups', 'string', 'list'],
    [3, 'resources', 'string', 'list'],
    [4, 'resourceNames', 'string', 'list'],
  ]), 'list', 'keep'],
  [2, 'nonResourceRules', message('NonResourceRule', [
    [1, 'verbs', 'string', 'list', 'keep'],
    [2, 'nonResourceURLs', 'string', 'list'],
  ]), 'list', 'keep'],
  [3, 'incomplete', 'bool', 'keep'],
  [4, 'evaluationError', 'string'],
]);

export const SelfSubjectRulesReview = message('SelfSubjectRulesReview', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('SelfSubjectRulesReviewSpec', [[1, 'namespace', 'string']]), 'keep'],
  [3, 'status', SubjectRulesReviewStatus],
]);
