// Jobs and CronJobs in their JSON shape, with every field the codec knows set at least once (as in
// protobuf-fixtures.ts, no omitempty field holds its zero value; pointer fields hold theirs).
import type { KObject } from '../../../../actors/api/types.ts';

const template = {
  metadata: { labels: { 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'u-9' } },
  spec: { containers: [{ name: 'pi', image: 'perl:5.34', command: ['perl', '-e', 'print 1'] }], restartPolicy: 'Never' },
};

const job: KObject = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'pi', namespace: 'default', uid: 'u-9', generation: 2, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: 'u-8', controller: true, blockOwnerDeletion: true }] },
  spec: {
    parallelism: 0,
    completions: 4,
    activeDeadlineSeconds: 600,
    selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u-9' } },
    manualSelector: false,
    template,
    backoffLimit: 6,
    ttlSecondsAfterFinished: 0,
    completionMode: 'Indexed',
    suspend: true,
    podFailurePolicy: { rules: [
      { action: 'FailJob', onExitCodes: { containerName: 'pi', operator: 'In', values: [42, 43] } },
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    ] },
    backoffLimitPerIndex: 1,
    maxFailedIndexes: 2,
    podReplacementPolicy: 'Failed',
    managedBy: 'kubernetes.io/job-controller',
    successPolicy: { rules: [{ succeededIndexes: '0-2', succeededCount: 1 }] },
  },
  status: {
    conditions: [
      { type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: '2024-01-02T03:04:05Z', lastTransitionTime: '2024-01-02T03:04:05Z', reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
      { type: 'Suspended', status: 'False', lastTransitionTime: '2024-01-02T03:00:00Z', reason: 'JobResumed', message: 'Job resumed' },
    ],
    startTime: '2024-01-02T03:00:00Z',
    completionTime: '2024-01-02T03:04:05Z',
    active: 1,
    succeeded: 3,
    failed: 2,
    completedIndexes: '0-2',
    uncountedTerminatedPods: { succeeded: ['u-10'], failed: ['u-11', 'u-12'] },
    ready: 0,
    failedIndexes: '',
    terminating: 0,
  },
};

const cronJob: KObject = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'nightly', namespace: 'default', uid: 'u-8' },
  spec: {
    schedule: '*/5 * * * *',
    timeZone: 'Europe/Berlin',
    startingDeadlineSeconds: 0,
    concurrencyPolicy: 'Forbid',
    suspend: false,
    jobTemplate: { metadata: { labels: { team: 'data' } }, spec: { backoffLimit: 2, template } },
    successfulJobsHistoryLimit: 3,
    failedJobsHistoryLimit: 0,
  },
  status: {
    active: [{ kind: 'Job', namespace: 'default', name: 'nightly-28000000', uid: 'u-9', apiVersion: 'batch/v1', resourceVersion: '12' }],
    lastScheduleTime: '2024-01-02T03:00:00Z',
    lastSuccessfulTime: '2024-01-02T02:55:31Z',
  },
};

export const batchObjects: Record<string, KObject> = { Job: job, CronJob: cronJob };
