// flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration (k8s.io/api
// flowcontrol/v1 generated.proto). The rules' lists carry no omitempty in Go, so JSON always has
// them; nominalConcurrencyShares of a limited level is a pointer without omitempty, so it is kept.
import { ObjectMeta } from './protobuf-messages-meta.ts';
import { message, type FieldRow } from './protobuf-schema.ts';

/** FlowSchemaCondition and PriorityLevelConfigurationCondition: every field omitempty. */
const conditionRows: readonly FieldRow[] = [
  [1, 'type', 'string'],
  [2, 'status', 'string'],
  [3, 'lastTransitionTime', 'time'],
  [4, 'reason', 'string'],
  [5, 'message', 'string'],
];

const named = (name: string) => message(name, [[1, 'name', 'string', 'keep']]);

const Subject = message('Subject', [
  [1, 'kind', 'string', 'keep'],
  [2, 'user', named('UserSubject')],
  [3, 'group', named('GroupSubject')],
  [4, 'serviceAccount', message('ServiceAccountSubject', [[1, 'namespace', 'string', 'keep'], [2, 'name', 'string', 'keep']])],
]);

const PolicyRulesWithSubjects = message('PolicyRulesWithSubjects', [
  [1, 'subjects', Subject, 'list', 'keep'],
  [2, 'resourceRules', message('ResourcePolicyRule', [
    [1, 'verbs', 'string', 'list', 'keep'],
    [2, 'apiGroups', 'string', 'list', 'keep'],
    [3, 'resources', 'string', 'list', 'keep'],
    [4, 'clusterScope', 'bool'],
    [5, 'namespaces', 'string', 'list', 'keep'],
  ]), 'list'],
  [3, 'nonResourceRules', message('NonResourcePolicyRule', [
    [1, 'verbs', 'string', 'list', 'keep'],
    [6, 'nonResourceURLs', 'string', 'list', 'keep'],
  ]), 'list'],
]);

export const FlowSchema = message('FlowSchema', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('FlowSchemaSpec', [
    [1, 'priorityLevelConfiguration', named('PriorityLevelConfigurationReference'), 'keep'],
    [2, 'matchingPrecedence', 'int32', 'keep'],
    [3, 'distinguisherMethod', message('FlowDistinguisherMethod', [[1, 'type', 'string', 'keep']])],
    [4, 'rules', PolicyRulesWithSubjects, 'list'],
  ])],
  [3, 'status', message('FlowSchemaStatus', [[1, 'conditions', message('FlowSchemaCondition', conditionRows), 'list']])],
]);

const LimitResponse = message('LimitResponse', [
  [1, 'type', 'string', 'keep'],
  [2, 'queuing', message('QueuingConfiguration', [
    [1, 'queues', 'int32', 'keep'],
    [2, 'handSize', 'int32', 'keep'],
    [3, 'queueLengthLimit', 'int32', 'keep'],
  ])],
]);

export const PriorityLevelConfiguration = message('PriorityLevelConfiguration', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('PriorityLevelConfigurationSpec', [
    [1, 'type', 'string', 'keep'],
    [2, 'limited', message('LimitedPriorityLevelConfiguration', [
      [1, 'nominalConcurrencyShares', 'int32', 'keep'],
      [2, 'limitResponse', LimitResponse],
      [3, 'lendablePercent', 'int32', 'keep'],
      [4, 'borrowingLimitPercent', 'int32', 'keep'],
    ])],
    [3, 'exempt', message('ExemptPriorityLevelConfiguration', [
      [1, 'nominalConcurrencyShares', 'int32', 'keep'],
      [2, 'lendablePercent', 'int32', 'keep'],
    ])],
  ])],
  [3, 'status', message('PriorityLevelConfigurationStatus', [
    [1, 'conditions', message('PriorityLevelConfigurationCondition', conditionRows), 'list'],
  ])],
]);
