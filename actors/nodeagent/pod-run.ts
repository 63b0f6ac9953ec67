// How long a pod's containers run and how they end, read from the pod as fake-node tools select
// stages by annotation (the table is in actors/README.md):
//
//   orchsim.io/run-duration         a Go duration: the containers run this long, then exit
//   orchsim.io/run-duration-max     a Go duration: the run lasts from run-duration up to this
//                                   long, drawn for each pod (uniformly, from the agent's stream)
//   orchsim.io/exit-code            0..255 (default 0): a non-zero code fails the run
//   orchsim.io/failure-probability  0..1: the chance a run exits 1 instead (with exit code 0)
//
// A pod a Job controls runs JOB_POD_RUN_MS unless it names its own run duration, as a Job's pods
// end in a real cluster; a failed run under restartPolicy OnFailure restarts the container (the
// pod machine's BackOff). Any other pod runs until it is deleted, and costs one look at its
// annotations and its controller. A bad value is reported and the pod runs until deleted.
import { parseDuration } from '../api/duration.ts';
import { controllerOf, type KObject } from '../api/types.ts';
import type { PodExit } from '../../machines/pod.ts';
import { batchPodStages, podExits, validateStages, withStages, type PodStageTable } from '../../machines/stages.ts';
import type { Pod } from '../api/model/core.ts';

export const RUN_DURATION = 'orchsim.io/run-duration';
export const RUN_DURATION_MAX = 'orchsim.io/run-duration-max';
export const FAILURE_PROBABILITY = 'orchsim.io/failure-probability';
export const EXIT_CODE = 'orchsim.io/exit-code';
/** How long a Job's pod runs when it names no run duration. */
export const JOB_POD_RUN_MS = 5_000;

/** A pod's stage table and, when its run ends, how it exits. */
export interface PodRun {
  readonly table: PodStageTable;
  readonly exit?: PodExit;
}

/** Whether the pod's controller is a batch/v1 Job. */
function ownedByJob(pod: KObject): boolean {
  const ref = controllerOf(pod);
  return ref?.kind === 'Job' && ref.apiVersion === 'batch/v1';
}

export class PodRuns {
  readonly #base: PodRun;
  readonly #report: (problem: string) => void;
  /** Batch tables by run duration, its spread and failure probability: a few shapes shared by many pods. */
  readonly #tables = new Map<string, PodStageTable>();

  /** `base`: the agent's own table; `report`: told of a bad annotation (the pod then runs until deleted). */
  constructor(base: PodStageTable, report: (problem: string) => void) {
    this.#base = { table: base };
    this.#report = report;
  }

  of(pod: Pod): PodRun {
    const a = pod.metadata.annotations;
    const given = a?.[RUN_DURATION];
    if (given === undefined && !ownedByJob(pod)) return this.#base;
    try {
      const runMs = given === undefined ? JOB_POD_RUN_MS : parseDuration(given);
      const jitterMs = jitterOf(a?.[RUN_DURATION_MAX], runMs);
      const exitCode = exitCodeOf(a?.[EXIT_CODE]);
      const p = exitCode !== 0 ? 1 : probabilityOf(a?.[FAILURE_PROBABILITY]);
      const restartOnFailure = pod.spec?.restartPolicy === 'OnFailure';
      const table = this.#table(runMs, jitterMs, p);
      // Exit 1 without restarts is what a failed run does anyway: such pods (most batch pods) carry nothing more.
      const failCode = exitCode || 1;
      return failCode === 1 && !restartOnFailure ? { table } : { table, exit: { exitCode: failCode, restartOnFailure } };
    } catch (e) {
      this.#report(`pod ${pod.metadata.namespace}/${pod.metadata.name}: ${(e as Error).message}; running it as a long-running pod`);
      return this.#base;
    }
  }

  #table(runMs: number, jitterMs: number, failureProbability: number): PodStageTable {
    const id = `${runMs}|${jitterMs}|${failureProbability}`;
    let table = this.#tables.get(id);
    if (!table) this.#tables.set(id, (table = validateStages(withStages(this.#base.table, batchPodStages(runMs, jitterMs, failureProbability)), podExits, 'pod')));
    return table;
  }
}

/** The spread above `runMs` a run-duration-max gives (0 when none). */
function jitterOf(text: string | undefined, runMs: number): number {
  if (text === undefined) return 0;
  const maxMs = parseDuration(text);
  if (maxMs < runMs) throw new RangeError(`${RUN_DURATION_MAX} must be at least ${RUN_DURATION}, got ${JSON.stringify(text)}`);
  return maxMs - runMs;
}

function exitCodeOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n > 255) throw new RangeError(`${EXIT_CODE} must be an integer from 0 to 255, got ${JSON.stringify(text)}`);
  return n;
}

function probabilityOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const p = Number(text);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${FAILURE_PROBABILITY} must be a number from 0 to 1, got ${JSON.stringify(text)}`);
  return p;
}
