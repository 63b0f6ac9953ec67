// The scheduler's options that shape its behaviour (seed 001, "Scheduler", and the configuration
// file's fields), with the real defaults, merged once and checked here.
import { checkLeaderElectOptions, type LeaderElectOptions } from '../client/leader-election.ts';

/** With the `--leader-elect` options it shares with the other components (only the replica holding the lock works). */
export interface SchedulerOptions extends LeaderElectOptions {
  /** The `spec.schedulerName` this scheduler serves. */
  schedulerName: string;
  /** 0: adaptive (all nodes under 100, else max(5, 50 - nodes/125) percent, at least 100 nodes); 1..100: that percent. */
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  /** `--pod-max-in-unschedulable-pods-duration`. */
  podMaxInUnschedulablePodsDurationMs: number;
  /** Client QPS and burst towards the API server (`--orch-api-qps`, `--orch-api-burst`); 0 QPS: no limit. */
  orchApiQps: number;
  orchApiBurst: number;
  /** Most decisions kept for `explain` (the newest). */
  explanationsKept: number;
}

export const defaultSchedulerOptions: Readonly<SchedulerOptions> = {
  schedulerName: 'default-scheduler',
  percentageOfNodesToScore: 0,
  podInitialBackoffSeconds: 1,
  podMaxBackoffSeconds: 10,
  podMaxInUnschedulablePodsDurationMs: 5 * 60_000,
  orchApiQps: 50,
  orchApiBurst: 100,
  explanationsKept: 10_000,
  leaderElect: true,
  leaderElectLeaseDurationMs: 15_000,
  leaderElectRenewDeadlineMs: 10_000,
  leaderElectRetryPeriodMs: 2_000,
  leaderElectResourceName: 'orch-scheduler',
  leaderElectResourceNamespace: 'orch-system',
};

/** Merges `options` over the defaults and validates the result; throws a RangeError naming the bad field. */
export function schedulerOptions(options: Partial<SchedulerOptions> = {}): SchedulerOptions {
  const unknown = Object.keys(options).filter((k) => !(k in defaultSchedulerOptions));
  if (unknown.length) throw new RangeError(`unknown scheduler option ${unknown.join(', ')}; known: ${Object.keys(defaultSchedulerOptions).join(', ')}`);
  const o: SchedulerOptions = { ...defaultSchedulerOptions, ...options };
  const bad = (name: keyof SchedulerOptions, rule: string) => new RangeError(`scheduler option ${name} ${rule}, got ${JSON.stringify(o[name])}`);
  if (typeof o.schedulerName !== 'string' || !o.schedulerName) throw bad('schedulerName', 'must be a non-empty string');
  if (!(Number.isInteger(o.percentageOfNodesToScore) && o.percentageOfNodesToScore >= 0 && o.percentageOfNodesToScore <= 100))
    throw bad('percentageOfNodesToScore', 'must be an integer from 0 to 100');
  if (!(o.podInitialBackoffSeconds > 0)) throw bad('podInitialBackoffSeconds', 'must be greater than 0');
  if (!(o.podMaxBackoffSeconds >= o.podInitialBackoffSeconds)) throw bad('podMaxBackoffSeconds', 'must be at least podInitialBackoffSeconds');
  if (!(o.podMaxInUnschedulablePodsDurationMs > 0)) throw bad('podMaxInUnschedulablePodsDurationMs', 'must be greater than 0');
  if (!(Number.isFinite(o.orchApiQps) && o.orchApiQps >= 0)) throw bad('orchApiQps', 'must be a number of at least 0');
  if (!(Number.isInteger(o.orchApiBurst) && o.orchApiBurst >= 0)) throw bad('orchApiBurst', 'must be an integer of at least 0');
  if (!(Number.isInteger(o.explanationsKept) && o.explanationsKept >= 0)) throw bad('explanationsKept', 'must be an integer of at least 0');
  checkLeaderElectOptions('scheduler', o);
  return o;
}

/** How many feasible nodes a cycle looks for before it stops filtering (the real scheduler's sampling). */
export function numFeasibleNodesToFind(percentageOfNodesToScore: number, nodes: number): number {
  const minFeasible = 100;
  if (nodes < minFeasible) return nodes;
  let percent = percentageOfNodesToScore;
  if (percent === 0) percent = Math.max(5, 50 - Math.trunc(nodes / 125));
  if (percent >= 100) return nodes;
  return Math.max(minFeasible, Math.trunc((nodes * percent) / 100));
}
