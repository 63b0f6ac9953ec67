// Lifecycle timings as data, in the manner of fake-node stage tables: for each timed state, the ways
// out of it, each with a delay, a jitter and a weight. A chaos or batch variant is another table,
// not more code. Everything here is a pure function of a table and a `Random`; the hosting actor
// draws a plan once when it creates an object, and the machine only reads that plan, so a machine
// never touches a random source and two runs with the same seed take the same path.
import type { Random } from '../actors/api/env.ts';

/** One way out of a state: after `delayMs` plus up to `jitterMs`, go to `to`. */
export interface Stage<S extends string> {
  /** The next state, or null: this object stays and waits for an event instead. */
  readonly to: S | null;
  readonly delayMs: number;
  /** The delay is drawn uniformly from [delayMs, delayMs + jitterMs). */
  readonly jitterMs: number;
  /** Relative chance of this way out among the state's stages; 1 when absent. */
  readonly weight?: number;
}

/** The stages out of each timed state. A state's probability of taking a stage is weight / total. */
export type StageTable<S extends string, T extends string = S> = { readonly [K in S]: readonly Stage<T>[] };

/** What an object will do in one timed state: leave after `afterMs` for `to`, or (null) wait. */
export interface Step<S extends string> {
  readonly afterMs: number;
  readonly to: S | null;
}

/** A delay drawn from a stage's delay and jitter, in whole milliseconds. */
export function pickDelayMs(stage: Pick<Stage<string>, 'delayMs' | 'jitterMs'>, random: Random): number {
  return stage.delayMs + Math.floor(random.next() * stage.jitterMs);
}

/** One stage chosen by weight. Draws exactly once, so a table change never shifts later draws. */
export function pickStage<S extends string>(stages: readonly Stage<S>[], random: Random): Stage<S> {
  const r = random.next();
  let total = 0;
  for (const s of stages) total += s.weight ?? 1;
  let acc = 0;
  for (const s of stages) {
    acc += (s.weight ?? 1) / total;
    if (r < acc) return s;
  }
  return stages[stages.length - 1]!;
}

/** The step an object takes in a state: which way out (one draw) and when (one draw). */
export function drawStep<S extends string>(stages: readonly Stage<S>[], random: Random): Step<S> {
  const stage = pickStage(stages, random);
  const afterMs = pickDelayMs(stage, random);
  return { afterMs, to: stage.to };
}

/** Overrides replace a state's whole list of stages; states not named keep the defaults. */
export function withStages<S extends string, T extends string>(
  defaults: StageTable<S, T>,
  overrides: Partial<StageTable<S, T>> = {},
): StageTable<S, T> {
  return { ...defaults, ...overrides } as StageTable<S, T>;
}

/**
 * Checks a table against the transitions a machine allows (`legal[state]` lists the targets its
 * `after` transitions can take, null meaning "may wait"). Throws on the first problem, naming it.
 */
export function validateStages<S extends string, T extends string>(
  table: StageTable<S, T>,
  legal: { readonly [K in S]: readonly (T | null)[] },
  what: string,
): StageTable<S, T> {
  for (const state of Object.keys(legal) as S[]) {
    const stages = table[state];
    if (!stages || stages.length === 0) throw new RangeError(`${what} stages: state ${state} has no stage; give it at least one`);
    for (const s of stages) {
      if (!legal[state].includes(s.to))
        throw new RangeError(`${what} stages: ${state} cannot go to ${s.to ?? 'null (wait)'}; allowed: ${legal[state].map((t) => t ?? 'null').join(', ')}`);
      if (!(s.delayMs >= 0) || !(s.jitterMs >= 0) || !Number.isFinite(s.delayMs + s.jitterMs))
        throw new RangeError(`${what} stages: ${state} → ${s.to}: delayMs and jitterMs must be finite and at least 0`);
      if (s.weight !== undefined && !(s.weight > 0 && Number.isFinite(s.weight)))
        throw new RangeError(`${what} stages: ${state} → ${s.to}: weight must be a positive number`);
    }
  }
  return table;
}

// ---- Pods ---------------------------------------------------------------------------------------

/** The pod states the node agent times; Pending waits for the scheduler, Terminating for its grace period. */
export type TimedPodState = 'Scheduled' | 'ContainerCreating' | 'Running';
export type PodTarget = TimedPodState | 'Succeeded' | 'Failed';

/** Where each timed pod state may go; the pod machine declares exactly these `after` transitions. */
export const podExits: { readonly [K in TimedPodState]: readonly (PodTarget | null)[] } = {
  Scheduled: ['ContainerCreating', 'Failed'],
  ContainerCreating: ['Running', 'Failed'],
  Running: ['Succeeded', 'Failed', null],
};

export type PodStageTable = StageTable<TimedPodState, PodTarget>;

/** A long-running service pod: starts in about 1.5 s and runs until deleted. */
export const defaultPodStages: PodStageTable = {
  Scheduled: [{ to: 'ContainerCreating', delayMs: 100, jitterMs: 400 }],
  ContainerCreating: [{ to: 'Running', delayMs: 1_000, jitterMs: 1_000 }],
  Running: [{ to: null, delayMs: 0, jitterMs: 0 }],
};

/** A batch pod: runs for `runMs` (± jitter) then succeeds, or fails with `failureProbability`. */
export function batchPodStages(runMs: number, runJitterMs: number, failureProbability = 0): Partial<PodStageTable> {
  const running: Stage<PodTarget>[] = [];
  if (failureProbability < 1) running.push({ to: 'Succeeded', delayMs: runMs, jitterMs: runJitterMs, weight: 1 - failureProbability });
  if (failureProbability > 0) running.push({ to: 'Failed', delayMs: runMs, jitterMs: runJitterMs, weight: failureProbability });
  return { Running: running };
}

/** The steps one pod will take, drawn at creation: 6 draws, always in the same order. */
export interface PodPlan {
  readonly scheduledMs: number;
  readonly scheduledTo: PodTarget;
  readonly creatingMs: number;
  readonly creatingTo: PodTarget;
  readonly runningMs: number;
  /** null: the pod runs until it is deleted. */
  readonly runningTo: PodTarget | null;
}

/** Merges a scenario's overrides into the defaults and checks the result against the pod machine. */
export function podStages(overrides: Partial<PodStageTable> = {}): PodStageTable {
  return validateStages(withStages(defaultPodStages, overrides), podExits, 'pod');
}

export function drawPodPlan(table: PodStageTable, random: Random): PodPlan {
  const s = drawStep(table.Scheduled, random);
  const c = drawStep(table.ContainerCreating, random);
  const r = drawStep(table.Running, random);
  return {
    scheduledMs: s.afterMs,
    scheduledTo: s.to ?? 'ContainerCreating',
    creatingMs: c.afterMs,
    creatingTo: c.to ?? 'Running',
    runningMs: r.afterMs,
    runningTo: r.to,
  };
}
