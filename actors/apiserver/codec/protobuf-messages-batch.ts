// batch/v1 kinds served as Protobuf (k8s.io/api batch/v1 generated.proto): Job and CronJob, which
// `kubectl create job` and `kubectl create cronjob` send. Pointer fields whose zero means
// something (parallelism 0, suspend false) are flagged keep.
import { ObjectReference } from './protobuf-messages-core.ts';
import { LabelSelector, ObjectMeta } from './protobuf-messages-meta.ts';
import { PodTemplateSpec } from './protobuf-messages-pod.ts';
import { message } from './protobuf-schema.ts';

const PodFailurePolicyRule = message('PodFailurePolicyRule', [
  [1, 'action', 'string', 'keep'],
  [2, 'onExitCodes', message('PodFailurePolicyOnExitCodesRequirement', [
    [1, 'containerName', 'string', 'keep'],
    [2, 'operator', 'string', 'keep'],
    [3, 'values', 'int32', 'list'],
  ])],
  [3, 'onPodConditions', message('PodFailurePolicyOnPodConditionsPattern', [
    [1, 'type', 'string', 'keep'],
    [2, 'status', 'string', 'keep'],
  ]), 'list'],
]);

const SuccessPolicyRule = message('SuccessPolicyRule', [
  [1, 'succeededIndexes', 'string', 'keep'],
  [2, 'succeededCount', 'int32', 'keep'],
]);

const JobSpec = message('JobSpec', [
  [1, 'parallelism', 'int32', 'keep'],
  [2, 'completions', 'int32', 'keep'],
  [3, 'activeDeadlineSeconds', 'int64', 'keep'],
  [4, 'selector', LabelSelector],
  [5, 'manualSelector', 'bool', 'keep'],
  [6, 'template', PodTemplateSpec],
  [7, 'backoffLimit', 'int32', 'keep'],
  [8, 'ttlSecondsAfterFinished', 'int32', 'keep'],
  [9, 'completionMode', 'string', 'keep'],
  [10, 'suspend', 'bool', 'keep'],
  [11, 'podFailurePolicy', message('PodFailurePolicy', [[1, 'rules', PodFailurePolicyRule, 'list']])],
  [12, 'backoffLimitPerIndex', 'int32', 'keep'],
  [13, 'maxFailedIndexes', 'int32', 'keep'],
  [14, 'podReplacementPolicy', 'string', 'keep'],
  [15, 'managedBy', 'string', 'keep'],
  [16, 'successPolicy', message('SuccessPolicy', [[1, 'rules', SuccessPolicyRule, 'list']])],
]);

const JobCondition = message('JobCondition', [
  [1, 'type', 'string', 'keep'],
  [2, 'status', 'string', 'keep'],
  [3, 'lastProbeTime', 'time'],
  [4, 'lastTransitionTime', 'time'],
  [5, 'reason', 'string'],
  [6, 'message', 'string'],
]);

const JobStatus = message('JobStatus', [
  [1, 'conditions', JobCondition, 'list'],
  [2, 'startTime', 'time'],
  [3, 'completionTime', 'time'],
  [4, 'active', 'int32'],
  [5, 'succeeded', 'int32'],
  [6, 'failed', 'int32'],
  [7, 'completedIndexes', 'string'],
  [8, 'uncountedTerminatedPods', message('UncountedTerminatedPods', [
    [1, 'succeeded', 'string', 'list'],
    [2, 'failed', 'string', 'list'],
  ])],
  [9, 'ready', 'int32', 'keep'],
  [10, 'failedIndexes', 'string', 'keep'],
  [11, 'terminating', 'int32', 'keep'],
]);

export const Job = message('Job', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', JobSpec],
  [3, 'status', JobStatus],
]);

const CronJobSpec = message('CronJobSpec', [
  [1, 'schedule', 'string', 'keep'],
  [2, 'startingDeadlineSeconds', 'int64', 'keep'],
  [3, 'concurrencyPolicy', 'string'],
  [4, 'suspend', 'bool', 'keep'],
  [5, 'jobTemplate', message('JobTemplateSpec', [
    [1, 'metadata', ObjectMeta],
    [2, 'spec', JobSpec],
  ]), 'keep'],
  [6, 'successfulJobsHistoryLimit', 'int32', 'keep'],
  [7, 'failedJobsHistoryLimit', 'int32', 'keep'],
  [8, 'timeZone', 'string', 'keep'],
]);

const CronJobStatus = message('CronJobStatus', [
  [1, 'active', ObjectReference, 'list'],
  [4, 'lastScheduleTime', 'time'],
  [5, 'lastSuccessfulTime', 'time'],
]);

export const CronJob = message('CronJob', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', CronJobSpec],
  [3, 'status', CronJobStatus],
]);
