// The batch/v1 vocabulary the API server, the Job, CronJob and TTL-after-finished controllers and
// the node agent share: the labels, annotations and finalizer of k8s.io/api batch/v1, the shapes
// of Job and CronJob as they read them, and what "finished" means for a Job.
import type { PodSpec } from './model/core.ts';
import type { KObject } from './types.ts';

const PREFIX = 'batch.kubernetes.io/';
export const JOB_NAME_LABEL = `${PREFIX}job-name`;
export const CONTROLLER_UID_LABEL = `${PREFIX}controller-uid`;
/** The unprefixed labels the Job strategy still writes beside the prefixed ones. */
export const LEGACY_JOB_NAME_LABEL = 'job-name';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
/** An Indexed Job's pod's index: an annotation, and (PodIndexLabel, on in 1.32) a label. */
export const COMPLETION_INDEX = `${PREFIX}job-completion-index`;
/** Keeps a Job's pod until the Job controller has counted it. */
export const JOB_TRACKING_FINALIZER = `${PREFIX}job-tracking`;
export const CRONJOB_SCHEDULED_TIMESTAMP = `${PREFIX}cronjob-scheduled-timestamp`;
/** The value of spec.managedBy that leaves a Job to the built-in controller. */
export const JOB_CONTROLLER_NAME = 'kubernetes.io/job-controller';

export type JobConditionType = 'Complete' | 'Failed' | 'Suspended' | 'FailureTarget' | 'SuccessCriteriaMet';

export interface JobCondition {
  type: JobConditionType;
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };
  manualSelector?: boolean;
  template?: { metadata?: KObject['metadata']; spec?: PodSpec };
  ttlSecondsAfterFinished?: number;
  completionMode?: string;
  suspend?: boolean;
  podReplacementPolicy?: string;
  podFailurePolicy?: unknown;
  successPolicy?: unknown;
  managedBy?: string;
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  ready?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
}

export interface CronJobSpec {
  schedule?: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: string;
  suspend?: boolean;
  jobTemplate?: { metadata?: KObject['metadata']; spec?: JobSpec };
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

export interface CronJobStatus {
  active?: { apiVersion?: string; kind?: string; name?: string; namespace?: string; uid?: string; resourceVersion?: string }[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export const jobSpec = (job: KObject): JobSpec => (job.spec ?? {}) as JobSpec;
export const jobStatus = (job: KObject): JobStatus => (job.status ?? {}) as JobStatus;
export const cronJobSpec = (cj: KObject): CronJobSpec => (cj.spec ?? {}) as CronJobSpec;
export const cronJobStatus = (cj: KObject): CronJobStatus => (cj.status ?? {}) as CronJobStatus;

/** The condition of `type` whose status is True, if any. */
export function trueCondition(job: KObject, type: JobConditionType): JobCondition | undefined {
  return jobStatus(job).conditions?.find((c) => c.type === type && c.status === 'True');
}

/** Complete or Failed, and since when (the condition's lastTransitionTime); undefined while it runs (IsJobFinished). */
export function jobFinished(job: KObject): JobCondition | undefined {
  return jobStatus(job).conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}
