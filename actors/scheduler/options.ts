// The scheduler's options (seed 001, "Scheduler", its Authentication and Limits rows), as two
// tables: the command line, and the configuration file `--config` names (kind
// SchedulerConfiguration), which holds what the real scheduler keeps only there (profiles,
// sampling, backoff). With `--config`, the deprecated flags are ignored; other flags given
// explicitly override the file. `--write-config-to` writes the result as such a file.
import { commonOptions } from '../api/options/common.ts';
import { delegatedAuthSpecs } from '../api/options/delegated-auth.ts';
import { bool, duration, float, int, int32, oneOf, string, type Kind } from '../api/options/kinds.ts';
import { OptionError, OptionTable, type OptionSpec, type Resolved } from '../api/options/table.ts';
import { LEADER_ELECT_RULE, leaderElectRule, leaderElectSpecs } from '../client/leader-elect-flags.ts';
import type { LeaderElectOptions } from '../client/leader-election.ts';
import { formatDuration } from '../api/duration.ts';
import { inspectOptions } from '../system/options.ts';

/** With the `--leader-elect` options it shares with the controller manager (only the replica holding the lock works). */
export interface SchedulerOptions extends LeaderElectOptions {
  /** The `spec.schedulerName` this scheduler serves: its one profile's. */
  schedulerName: string;
  /** 0: adaptive (all nodes under 100, else max(5, 50 - nodes/125) percent, at least 100 nodes); 1..100: that percent. */
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  /** `--pod-max-in-unschedulable-pods-duration`. */
  podMaxInUnschedulablePodsDurationMs: number;
  /** Client QPS and burst towards the API server (`clientConnection`, or the deprecated `--orch-api-qps`, `--orch-api-burst`); 0 QPS: no limit. */
  orchApiQps: number;
  orchApiBurst: number;
  /** Most decisions kept for `explain` (the newest). */
  explanationsKept: number;
}

export const CONFIG_API_VERSION = 'scheduler.config.orch.io/v1';
export const CONFIG_KIND = 'SchedulerConfiguration';

const GROUP = 'Scheduler options';
const port = (v: number) => (v >= 0 && v <= 65535 ? undefined : 'must be a port from 0 to 65535 (0 serves no HTTPS)');
const notNegative = (v: number) => (v >= 0 ? undefined : 'must not be negative');
const positive = (v: number) => (v > 0 ? undefined : 'must be greater than 0');

export const SCHEDULER_FLAGS = new OptionTable<SchedulerOptions>('scheduler', [
  ...commonOptions<SchedulerOptions>('scheduler'),
  { name: 'config', kind: string, group: GROUP, help: `the configuration file (kind ${CONFIG_KIND}, ${CONFIG_API_VERSION}); when set, the deprecated flags are ignored` },
  { name: 'write-config-to', kind: string, group: GROUP, help: 'write the configuration in effect to this file and exit' },
  { name: 'secure-port', kind: int, default: 10259, group: GROUP, rule: port, help: 'the HTTPS port of /healthz and /metrics; 0 serves no HTTPS' },
  { name: 'orchconfig', kind: string, group: GROUP, help: 'credentials and the API server\'s location', deprecated: 'use clientConnection.kubeconfig in the --config file' },
  { name: 'master', kind: string, group: GROUP, help: 'the API server\'s address; overrides the one in --orchconfig' },
  ...inspectOptions<SchedulerOptions>(GROUP),
  ...leaderElectSpecs<SchedulerOptions>(GROUP, 'orch-scheduler'),
  { name: 'lock-object-name', kind: string, default: 'orch-scheduler', group: GROUP, help: 'the name of the lock object', deprecated: 'use --leader-elect-resource-name' },
  { name: 'lock-object-namespace', kind: string, default: 'orch-system', group: GROUP, help: 'the namespace of the lock object', deprecated: 'use --leader-elect-resource-namespace' },
  { name: 'pod-max-in-unschedulable-pods-duration', kind: duration, key: 'podMaxInUnschedulablePodsDurationMs', default: 300_000, group: GROUP, rule: (v: number) => positive(v),
    help: 'the longest a pod stays among the unschedulable ones before it is tried again', deprecated: 'it will be removed in 1.26' },
  ...delegatedAuthSpecs<SchedulerOptions>('scheduler'),
  { name: 'orch-api-qps', kind: float, key: 'orchApiQps', default: 50, group: 'Limits', rule: notNegative, help: 'requests per second towards the API server; 0: no limit',
    deprecated: 'set clientConnection.qps in the --config file' },
  { name: 'orch-api-burst', kind: int32, key: 'orchApiBurst', default: 100, group: 'Limits', rule: notNegative, help: 'requests allowed in a burst towards the API server',
    deprecated: 'set clientConnection.burst in the --config file' },
  { name: 'explanations-kept', kind: int, key: 'explanationsKept', default: 10_000, group: 'Simulator options', rule: notNegative,
    help: 'the newest scheduling decisions kept to explain where (or why not) a pod went' },
] as OptionSpec<SchedulerOptions>[], [LEADER_ELECT_RULE]);

/** `profiles`: orchsim's scheduler runs one profile, which names the scheduler. */
const profiles: Kind<string> = {
  name: 'profiles',
  parse: () => {
    throw new RangeError('is set in the configuration file only');
  },
  read: (v) => {
    if (!Array.isArray(v) || v.length !== 1) throw new RangeError('must list exactly one profile: orchsim runs one profile per scheduler (start one scheduler per name)');
    const p = v[0] as Record<string, unknown> | null;
    if (p === null || typeof p !== 'object') throw new RangeError('must list profiles as mappings with a schedulerName');
    const unknown = Object.keys(p).filter((k) => k !== 'schedulerName');
    if (unknown.length) throw new RangeError(`profile field ${unknown[0]} is not supported: orchsim runs the default plugins with their default weights`);
    if (typeof p.schedulerName !== 'string' || p.schedulerName === '') throw new RangeError('profiles[0].schedulerName must be a non-empty string');
    return p.schedulerName;
  },
  is: (v) => typeof v === 'string' && v !== '',
  format: (v) => `[{schedulerName: ${v}}]`,
};

const CONFIG = 'Configuration file fields';
export const SCHEDULER_CONFIG = new OptionTable<SchedulerOptions>('scheduler configuration', [
  { name: 'leaderElection.leaderElect', kind: bool, key: 'leaderElect', default: true, group: CONFIG, help: 'as --leader-elect' },
  { name: 'leaderElection.leaseDuration', kind: duration, key: 'leaderElectLeaseDurationMs', default: 15_000, group: CONFIG, rule: positive, help: 'as --leader-elect-lease-duration' },
  { name: 'leaderElection.renewDeadline', kind: duration, key: 'leaderElectRenewDeadlineMs', default: 10_000, group: CONFIG, rule: positive, help: 'as --leader-elect-renew-deadline' },
  { name: 'leaderElection.retryPeriod', kind: duration, key: 'leaderElectRetryPeriodMs', default: 2_000, group: CONFIG, rule: positive, help: 'as --leader-elect-retry-period' },
  { name: 'leaderElection.resourceLock', kind: oneOf('leases', 'endpointsleases', 'configmapsleases'), default: 'leases', group: CONFIG, help: 'as --leader-elect-resource-lock' },
  { name: 'leaderElection.resourceName', kind: string, key: 'leaderElectResourceName', default: 'orch-scheduler', group: CONFIG, rule: (v: string) => (v ? undefined : 'must not be empty'), help: 'as --leader-elect-resource-name' },
  { name: 'leaderElection.resourceNamespace', kind: string, key: 'leaderElectResourceNamespace', default: 'orch-system', group: CONFIG, rule: (v: string) => (v ? undefined : 'must not be empty'), help: 'as --leader-elect-resource-namespace' },
  { name: 'clientConnection.kubeconfig', kind: string, group: CONFIG, help: 'credentials and the API server\'s location' },
  { name: 'clientConnection.qps', kind: float, key: 'orchApiQps', default: 50, group: CONFIG, rule: notNegative, help: 'requests per second towards the API server; 0: no limit' },
  { name: 'clientConnection.burst', kind: int32, key: 'orchApiBurst', default: 100, group: CONFIG, rule: notNegative, help: 'requests allowed in a burst' },
  { name: 'clientConnection.contentType', kind: string, default: 'application/vnd.orchestrator.protobuf', group: CONFIG, help: 'the content type of requests', inert: 'bus messages have one codec' },
  { name: 'clientConnection.acceptContentTypes', kind: string, group: CONFIG, help: 'the Accept header of requests', inert: 'bus messages have one codec' },
  { name: 'parallelism', kind: int32, default: 16, group: CONFIG, rule: positive, help: 'how many nodes are filtered and scored at once', inert: 'the simulated scheduler is one thread' },
  { name: 'percentageOfNodesToScore', kind: int32, key: 'percentageOfNodesToScore', default: 0, group: CONFIG,
    rule: (v: number) => (v >= 0 && v <= 100 ? undefined : 'must be from 0 (adaptive) to 100'), help: 'the share of nodes to find feasible before scoring; 0 adapts to the cluster\'s size' },
  { name: 'podInitialBackoffSeconds', kind: int, key: 'podInitialBackoffSeconds', default: 1, group: CONFIG, rule: positive, help: 'the first backoff of a pod that failed to schedule' },
  { name: 'podMaxBackoffSeconds', kind: int, key: 'podMaxBackoffSeconds', default: 10, group: CONFIG, rule: positive, help: 'the longest backoff' },
  { name: 'profiles', kind: profiles, key: 'schedulerName', default: 'default-scheduler', defaultText: '[{schedulerName: default-scheduler}]', group: CONFIG, help: 'the scheduler\'s profile: its schedulerName' },
] as OptionSpec<SchedulerOptions>[], [
  leaderElectRule(['leaderElection.leaseDuration', 'leaderElection.renewDeadline', 'leaderElection.retryPeriod']),
  { names: ['podInitialBackoffSeconds', 'podMaxBackoffSeconds'], check: (v) => ((v('podMaxBackoffSeconds') as number) >= (v('podInitialBackoffSeconds') as number) ? undefined
    : `podMaxBackoffSeconds (${v('podMaxBackoffSeconds')}) must be at least podInitialBackoffSeconds (${v('podInitialBackoffSeconds')})`) },
]);

export const defaultSchedulerOptions: Readonly<SchedulerOptions> = { ...SCHEDULER_CONFIG.defaults(), ...SCHEDULER_FLAGS.defaults() } as SchedulerOptions;

/** Fields given in code, each checked by the rules of the table that holds it (the file's, where both do). */
export function schedulerOptions(options: Partial<SchedulerOptions> = {}): SchedulerOptions {
  const inFile: Record<string, unknown> = {};
  const inFlags: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) (SCHEDULER_CONFIG.hasKey(k) ? inFile : inFlags)[k] = v;
  return { ...SCHEDULER_FLAGS.options(inFlags), ...SCHEDULER_CONFIG.options(inFile) };
}

/** A configuration document's fields, flattened to the table's dotted names (`leaderElection.leaseDuration`). */
function flatten(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    if ((k === 'leaderElection' || k === 'clientConnection') && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k2, v2] of Object.entries(v)) out[`${k}.${k2}`] = v2;
    } else out[k] = v;
  }
  return out;
}

/** The fields of a configuration file, once its apiVersion and kind are checked. */
function documentFields(doc: Record<string, unknown>, where: string): Record<string, unknown> {
  const { apiVersion, kind, ...fields } = doc;
  if (apiVersion !== CONFIG_API_VERSION) throw new OptionError(`${where}apiVersion must be ${CONFIG_API_VERSION}, got ${JSON.stringify(apiVersion)}`);
  if (kind !== CONFIG_KIND) throw new OptionError(`${where}kind must be ${CONFIG_KIND}, got ${JSON.stringify(kind)}`);
  return fields;
}

export interface SchedulerCommand extends Resolved<SchedulerOptions> {
  positional: string[];
  /** The connection file: the --config file's clientConnection.kubeconfig, or without a file the deprecated --orchconfig. */
  kubeconfig: string | undefined;
}

/** The file's fields (if any), then the flags given explicitly over them; deprecated flags only without a file. */
function merge(flags: Resolved<SchedulerOptions> & { positional: string[] }, fields: Record<string, unknown> | undefined, where: string): SchedulerCommand {
  const resolved = SCHEDULER_CONFIG.resolve(fields === undefined ? new Map() : SCHEDULER_CONFIG.readValues(flatten(fields), where));
  const file = resolved.options;
  const warnings = [...flags.warnings];
  const over: Record<string, unknown> = {};
  for (const name of flags.given) {
    const spec = SCHEDULER_FLAGS.spec(name)!;
    if (spec.deprecated && fields !== undefined) {
      warnings.push(`--${name} is ignored: --config is set`);
      continue;
    }
    if (spec.key) over[spec.key] = (flags.options as unknown as Record<string, unknown>)[spec.key];
  }
  if (fields === undefined) {
    if (flags.given.has('lock-object-name') && !flags.given.has('leader-elect-resource-name')) over.leaderElectResourceName = flags.extra['lock-object-name'];
    if (flags.given.has('lock-object-namespace') && !flags.given.has('leader-elect-resource-namespace')) over.leaderElectResourceNamespace = flags.extra['lock-object-namespace'];
  }
  const options = schedulerOptions({ ...file, explanationsKept: flags.options.explanationsKept, ...over });
  return { ...flags, options, warnings, kubeconfig: fields === undefined ? flags.extra.orchconfig as string | undefined : resolved.extra['clientConnection.kubeconfig'] as string | undefined };
}

/** The options of a command line, with the file `--config` names (read by `readFile`). */
export function schedulerFromArgs(argv: readonly string[], readFile: (path: string) => Record<string, unknown>): SchedulerCommand {
  const flags = SCHEDULER_FLAGS.parse(argv);
  const path = flags.extra.config as string | undefined;
  return merge(flags, path === undefined ? undefined : documentFields(readFile(path), `${path}: `), `${path}: `);
}

/**
 * A scenario's `options.scheduler`: flags by name (`leader-elect-lease-duration: 20s`) and
 * configuration-file fields (`percentageOfNodesToScore: 50`, `clientConnection: { qps: 500 }`),
 * the fields taking the place of a `--config` file.
 */
export function schedulerFromScenario(record: Record<string, unknown>, where = ''): SchedulerOptions {
  const flagPart: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) (SCHEDULER_FLAGS.spec(k) ? flagPart : fields)[k] = v;
  const values = SCHEDULER_FLAGS.readValues(flagPart, where);
  return merge({ ...SCHEDULER_FLAGS.resolve(values), positional: [] }, Object.keys(fields).length ? fields : undefined, where).options;
}

/** The configuration in effect as a file `--config` reads back. */
export function configDocument(o: SchedulerOptions): Record<string, unknown> {
  return {
    apiVersion: CONFIG_API_VERSION,
    kind: CONFIG_KIND,
    leaderElection: {
      leaderElect: o.leaderElect, leaseDuration: formatDuration(o.leaderElectLeaseDurationMs), renewDeadline: formatDuration(o.leaderElectRenewDeadlineMs),
      retryPeriod: formatDuration(o.leaderElectRetryPeriodMs), resourceLock: 'leases', resourceName: o.leaderElectResourceName, resourceNamespace: o.leaderElectResourceNamespace,
    },
    clientConnection: { qps: o.orchApiQps, burst: o.orchApiBurst },
    percentageOfNodesToScore: o.percentageOfNodesToScore,
    podInitialBackoffSeconds: o.podInitialBackoffSeconds,
    podMaxBackoffSeconds: o.podMaxBackoffSeconds,
    profiles: [{ schedulerName: o.schedulerName }],
  };
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
