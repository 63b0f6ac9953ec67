// batch/v1: Job and CronJob, with their resources (their rules' vocabulary is `api/batch.ts`).
import type * as batch from 'kubernetes-types/batch/v1.js';
import { typedResource, type Stored } from './stored.ts';

export type Job = Stored<batch.Job>;
export type CronJob = Stored<batch.CronJob>;

export const JOBS = typedResource<Job>('batch', 'v1', 'jobs');
export const CRONJOBS = typedResource<CronJob>('batch', 'v1', 'cronjobs');
