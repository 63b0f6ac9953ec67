// core/v1 ResourceQuota and LimitRange (k8s.io/api core/v1 generated.proto), which `kubectl create
// quota` and typed clients send.
import { ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

const ScopedResourceSelectorRequirement = message('ScopedResourceSelectorRequirement', [
  [1, 'scopeName', 'string', 'keep'],
  [2, 'operator', 'string', 'keep'],
  [3, 'values', 'string', 'list'],
]);

export const ResourceQuota = message('ResourceQuota', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('ResourceQuotaSpec', [
    [1, 'hard', 'quantity', 'map'],
    [2, 'scopes', 'string', 'list'],
    [3, 'scopeSelector', message('ScopeSelector', [[1, 'matchExpressions', ScopedResourceSelectorRequirement, 'list']])],
  ])],
  [3, 'status', message('ResourceQuotaStatus', [
    [1, 'hard', 'quantity', 'map'],
    [2, 'used', 'quantity', 'map'],
  ])],
]);

export const LimitRange = message('LimitRange', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('LimitRangeSpec', [
    [1, 'limits', message('LimitRangeItem', [
      [1, 'type', 'string', 'keep'],
      [2, 'max', 'quantity', 'map'],
      [3, 'min', 'quantity', 'map'],
      [4, 'default', 'quantity', 'map'],
      [5, 'defaultRequest', 'quantity', 'map'],
      [6, 'maxLimitRequestRatio', 'quantity', 'map'],
    ]), 'list', 'keep'],
  ])],
]);
