// admissionregistration.k8s.io/v1 webhook configurations (k8s.io/api admissionregistration/v1
// generated.proto), which typed clients send as Protobuf. Pointer fields (the policies, sideEffects,
// timeoutSeconds, a service's path and port) and fields without omitempty are kept when zero.
import { LabelSelector, ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

const Rule = message('Rule', [
  [1, 'apiGroups', 'string', 'list'],
  [2, 'apiVersions', 'string', 'list'],
  [3, 'resources', 'string', 'list'],
  [4, 'scope', 'string', 'keep'],
]);

// The Rule is embedded: its fields sit in the rule's own JSON object.
const RuleWithOperations = message('RuleWithOperations', [
  [1, 'operations', 'string', 'list'],
  [2, 'rule', Rule, 'inline'],
]);

const ServiceReference = message('ServiceReference', [
  [1, 'namespace', 'string', 'keep'],
  [2, 'name', 'string', 'keep'],
  [3, 'path', 'string', 'keep'],
  [4, 'port', 'int32', 'keep'],
]);

const WebhookClientConfig = message('WebhookClientConfig', [
  [1, 'service', ServiceReference],
  [2, 'caBundle', 'bytes'],
  [3, 'url', 'string', 'keep'],
]);

const MatchCondition = message('MatchCondition', [
  [1, 'name', 'string', 'keep'],
  [2, 'expression', 'string', 'keep'],
]);

/** The fields both kinds of webhook share, by number; the mutating one adds reinvocationPolicy. */
function webhook(name: string, objectSelectorNo: number, matchConditionsNo: number, mutating: boolean) {
  return message(name, [
    [1, 'name', 'string', 'keep'],
    [2, 'clientConfig', WebhookClientConfig, 'keep'],
    [3, 'rules', RuleWithOperations, 'list'],
    [4, 'failurePolicy', 'string', 'keep'],
    [5, 'namespaceSelector', LabelSelector],
    [6, 'sideEffects', 'string', 'keep'],
    [7, 'timeoutSeconds', 'int32', 'keep'],
    [8, 'admissionReviewVersions', 'string', 'list', 'keep'],
    [9, 'matchPolicy', 'string', 'keep'],
    ...(mutating ? [[10, 'reinvocationPolicy', 'string', 'keep'] as const] : []),
    [objectSelectorNo, 'objectSelector', LabelSelector],
    [matchConditionsNo, 'matchConditions', MatchCondition, 'list'],
  ]);
}

export const MutatingWebhookConfiguration = message('MutatingWebhookConfiguration', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'webhooks', webhook('MutatingWebhook', 11, 12, true), 'list'],
]);

export const ValidatingWebhookConfiguration = message('ValidatingWebhookConfiguration', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'webhooks', webhook('ValidatingWebhook', 10, 11, false), 'list'],
]);
