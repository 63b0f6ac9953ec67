// Loads a scenario file into a checked Scenario (types.ts). Every mistake is a ScenarioError
// naming the file, the field's path, the value and the rule; unknown fields are errors that
// list the allowed ones. sim/scenarios/README.md is the user's reference; the format in brief:
//
//   name: quickstart            # optional; default: the file's base name without extension
//   description: ...            # optional
//   seed: 1                     # optional, default 1 (0 .. 2^32-1); --seed overrides at run time
//   duration: 30m               # required; Go duration, > 0, at most 7 days (168h)
//   sampleInterval: 10s         # optional, default 10s (or duration when shorter); > 0, ≤ duration
//   nodePools:                  # at least one pool in all (here or from manifests)
//     - name: general           # required, DNS-1123 label, unique; nodes general-00 .. general-19
//       count: 20               # positive integer ≤ 100000
//       region: region-1        # optional, default '' (label value)
//       zones: [zone-a, zone-b] # optional, default ['']; node i in zones[i % zones.length]
//       capacity: { cpu: "8", memory: 32Gi, ephemeralStorage: 100Gi, pods: 110 }
//                               # defaults 4, 16Gi, 100Gi, 110; quantities > 0; pods integer 1..1000
//       labels: { pool: general }
//       taints: [{ key: dedicated, value: gpu, effect: NoSchedule }]
//       costPerHour: 0.4        # optional, per node-hour
//       autoscaling: { min: 1, max: 10 }   # optional: a node group of the cluster autoscaler
//                               # (0 <= min <= count <= max; count may then be 0)
//       provisioningFailure: 0.1   # optional, autoscaled pools: the chance a node asked for never comes
//       node: { apiVersion: v1, kind: Node, ... }
//                               # optional Node manifest: labels, taints, capacity (status.allocatable,
//                               # else status.capacity), region and zone (topology labels) come from it;
//                               # the pool's own fields override (labels merge key by key)
//   workloads:
//     - name: web               # required, DNS-1123 label, unique
//       namespace: default      # optional, default the manifest's namespace, else default
//       count: 2000             # positive integer ≤ 10,000,000
//       start: 0s               # optional, default 0s; before the end of the run
//       arrival: { kind: poisson, ratePerSecond: 5 }   # or { kind: uniform, interval: 200ms }; default { kind: burst }
//       # the pod, exactly one of:
//       requests: { cpu: 100m, memory: 128Mi }   # short form; beside it optionally limits, priority,
//                                                # labels, image (registry.k8s.io/pause:3.9), tolerations, nodeSelector
//       pod: { apiVersion: v1, kind: Pod, metadata: ..., spec: ... }
//       template: { metadata: ..., spec: ... }   # or a PodTemplate manifest (kind: PodTemplate, with template)
//       runDuration: 10m        # optional: batch pods succeed this long after they start running
//       failureProbability: 0.1 # optional, 0..1, only with runDuration (or a Job / CronJob)
//       controller: Job         # optional: ReplicaSet | Deployment (count replicas at start;
//                               # disruptionBudget: { minAvailable: 3 }) | Job (count Jobs by arrival;
//                               # completions, parallelism, backoffLimit, activeDeadline, ttlAfterFinished)
//                               # | CronJob (one, at start; schedule, concurrencyPolicy, history limits)
//   faults:
//     - kind: nodeCrash
//       at: 10m                 # before the end of the run
//       recoverAfter: 5m        # optional, > 0
//       nodes: [general-03]     # or count (default 1) drawn from the nodes of pool / zone (optional filters)
//     - kind: zonePartition     # the zone's node agents' messages are lost until it ends
//       at: 10m
//       zone: zone-b            # required
//       recoverAfter: 5m        # optional
//     - kind: nodeFlap           # down for downFor, up for upFor, ... until recoverAfter
//       at: 10m
//       downFor: 1m
//       upFor: 2m
//     - kind: messageLoss        # probability: 0.1; or kind: latency with latency: 200ms;
//       at: 10m                  # component: nodes (default, chosen as for nodeCrash) | controllerManager | scheduler
//       probability: 0.1
//     - kind: apiServerRestart   # down for recoverAfter (required), then a new one on the same store;
//                                # natsOutage: every component cut off the bus, both ways, for recoverAfter
//       at: 10m
//       recoverAfter: 30s
//     - kind: controllerManagerCrash   # or schedulerCrash: restarted after recoverAfter (optional);
//       at: 10m                        # controllerManagerFreeze / schedulerFreeze: its requests hang
//       replica: leader                # for recoverAfter (required); replica: leader (default) or an index
//   options: { apiserver: {}, scheduler: {}, nodeagent: {}, controllerManager: {} }   # each component's options:
//                               # flags by name (leader-elect-lease-duration: 20s); the scheduler also takes
//                               # its configuration file's fields (percentageOfNodesToScore: 50)
//   replicas: { controllerManager: 2, scheduler: 2 }   # optional, 1..10 each, default 1: they elect leaders
//   events: true                # optional, default false: whether the components record Events
//   plan: { vary: [...], seeds: 3, targets: {...} }    # for `orchsim plan` (plan.ts)
//   clusterAutoscaler:          # optional: a cluster autoscaler over the pools with autoscaling:
//     scan-interval: 10s        # the real flags by name (actors/cluster-autoscaler/options.ts)
//     provisioningDelay: 1m     # how long a new node takes to join (default 1m)
//     priorities: { 10: [spot.*], 1: [ondemand] }   # the priority expander's ConfigMap
//   manifests: cluster.yaml     # or a list: files of Node, Pod and PodTemplate objects (or Lists of
//                               # them), relative to this file. A Node is a pool of one named after it;
//                               # a Pod (or PodTemplate) a workload of one pod at 0s named after it,
//                               # in its namespace.
//
// Manifests are checked against the API server's schema of their kind. Pods carry the label
// `orchsim.io/workload: <workload>`, no namespace (the workload's) and none of the fields only the
// server sets (uid, resourceVersion, ownerReferences, status, ...).
import { readFile } from 'node:fs/promises';
import { apiServerFromScenario } from '../../actors/apiserver/options.ts';
import { nodeAgentFromScenario } from '../../actors/nodeagent/config.ts';
import { controllerManagerFromScenario } from '../../actors/controller-manager/options.ts';
import { schedulerFromScenario } from '../../actors/scheduler/options.ts';
import { basename, dirname, extname, resolve } from 'node:path';
import { formatDuration } from '../../actors/api/duration.ts';
import type { ComponentOptions, Scenario } from './types.ts';
import { Field, isMapping, ScenarioError } from './field.ts';
import { fault } from './faults.ts';
import { readManifests, type Sourced } from './manifests.ts';
import { plan } from './plan.ts';
import { nodePool } from './pools.ts';
import { boolean, durationMs, integer, nonEmptyString, optional, string } from './schema.ts';
import { workload } from './workloads.ts';
import { yamlDocuments } from './yaml-documents.ts';
import { requestTime } from './request-time.ts';
import { clusterAutoscaler } from './cluster-autoscaler.ts';

export { ScenarioError } from './field.ts';
export { nodeNames } from './pools.ts';

const SCENARIO_FIELDS = ['name', 'description', 'seed', 'duration', 'sampleInterval', 'nodePools', 'workloads', 'faults', 'options', 'replicas', 'events', 'requestTime', 'plan', 'manifests', 'clusterAutoscaler'];
const REPLICAS_MAX = 10;
const COMPONENTS = ['apiserver', 'scheduler', 'nodeagent', 'controllerManager'] as const;
const RUN_MAX_MS = 7 * 24 * 3_600_000; // 7 days
const DEFAULT_SAMPLE_INTERVAL_MS = 10_000;
const DEFAULT_SEED = 1;
const SEED_MAX = 2 ** 32 - 1; // the run's generator takes 32 bits
const POOLS_MAX = 100_000;
const WORKLOADS_MAX = 100_000;
const FAULTS_MAX = 100_000;

/** Reads and checks the scenario at `path`; its name defaults to the file's base name without extension. */
export async function loadScenario(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ScenarioError(path, '', `cannot read the scenario file (${(e as Error).message})`, { cause: e });
  }
  return parseScenario(text, { name: basename(path, extname(path)), dir: dirname(resolve(path)), file: basename(path) });
}

/**
 * Checks a scenario's text. `name` is the default scenario name, `dir` the directory relative
 * `manifests:` paths resolve against (read synchronously), `file` the name errors give (default
 * `<name>.yaml`).
 */
export function parseScenario(text: string, source: { name: string; dir: string; file?: string }): Scenario {
  const file = source.file ?? `${source.name}.yaml`;
  // A stray `---` at the end makes an empty document, which is no second scenario.
  const docs = yamlDocuments(text, file).filter((doc) => doc !== null);
  if (docs.length > 1)
    throw new ScenarioError(file, '', `has ${docs.length} YAML documents; a scenario is one document (Node and Pod manifests go in a file named by manifests:)`);
  const root = new Field(file, '', docs[0]);
  if (!root.present) root.error('is empty: a scenario needs at least duration and nodePools');
  root.mapping(SCENARIO_FIELDS, 'a mapping of scenario fields (duration, nodePools, workloads, ...)');
  const name = optional(root.child('name'), nonEmptyString, source.name);
  const description = optional(root.child('description'), string, '');
  const seed = optional(root.child('seed'), (f) => integer(f, 0, SEED_MAX, 'a non-negative integer'), DEFAULT_SEED);
  const runMs = runDurationMs(root.child('duration'));
  const sampleIntervalMs = optional(root.child('sampleInterval'), durationMs, Math.min(DEFAULT_SAMPLE_INTERVAL_MS, runMs));
  if (!(sampleIntervalMs > 0)) root.child('sampleInterval').fail('must be greater than 0');
  if (sampleIntervalMs > runMs) root.child('sampleInterval').fail(`must be at most the duration (${formatDuration(runMs)})`);
  const manifests = readManifests(root.child('manifests'), source.dir);

  const pools = root.child('nodePools');
  const nodePools = unique('node pools', [
    ...listed(pools, 'node pools', POOLS_MAX).map((f) => ({ value: nodePool(f), nameAt: f.child('name') })),
    ...manifests.nodePools,
  ]);
  if (nodePools.length === 0) pools.fail('must list at least one node pool (or name Nodes in manifests:)');
  const poolsByName = new Map(nodePools.map((p) => [p.name, p]));
  const replicaCounts = replicas(root.child('replicas'));
  return {
    name,
    description,
    seed,
    durationMs: runMs,
    sampleIntervalMs,
    nodePools,
    workloads: unique('workloads', [
      ...listed(root.child('workloads'), 'workloads', WORKLOADS_MAX).map((f) => ({ value: workload(f, runMs, source.dir), nameAt: f.child('name') })),
      ...manifests.workloads,
    ]),
    faults: listed(root.child('faults'), 'faults', FAULTS_MAX).map((f) => fault(f, runMs, poolsByName, replicaCounts)),
    options: componentOptions(root.child('options')),
    replicas: replicaCounts,
    events: optional(root.child('events'), boolean, false),
    ...(root.child('requestTime').present ? { requestTime: requestTime(root.child('requestTime')) } : {}),
    ...(root.child('plan').present ? { plan: plan(root.child('plan'), poolsByName, root.child('clusterAutoscaler').present) } : {}),
    ...(root.child('clusterAutoscaler').present ? { clusterAutoscaler: clusterAutoscaler(root.child('clusterAutoscaler'), nodePools) } : {}),
  };
}

function replicas(f: Field): Scenario['replicas'] {
  const out = { controllerManager: 1, scheduler: 1 };
  if (!f.present) return out;
  f.mapping(['controllerManager', 'scheduler']);
  for (const component of ['controllerManager', 'scheduler'] as const)
    out[component] = optional(f.child(component), (c) => integer(c, 1, REPLICAS_MAX, `an integer from 1 to ${REPLICAS_MAX}`), 1);
  return out;
}

function runDurationMs(f: Field): number {
  const ms = durationMs(f);
  if (!(ms > 0)) f.fail('must be greater than 0');
  if (ms > RUN_MAX_MS) f.fail(`must be at most 7 days (${formatDuration(RUN_MAX_MS)})`);
  return ms;
}

/** The entries of an optional list. */
function listed(f: Field, what: string, max: number): Field[] {
  return f.present ? f.list(what, { max }) : [];
}

/** The values, once each name is known to be used once. */
function unique<T extends { name: string }>(what: string, items: Sourced<T>[]): T[] {
  const first = new Map<string, Field>();
  for (const { value, nameAt } of items) {
    const earlier = first.get(value.name);
    const place = earlier && (earlier.file === nameAt.file ? earlier.path : `${earlier.file} ${earlier.path}`);
    if (earlier) nameAt.fail(`must be unique among ${what} (${place} has the same name)`);
    first.set(value.name, nameAt);
  }
  return items.map((i) => i.value);
}

function componentOptions(f: Field): ComponentOptions {
  const out: ComponentOptions = { apiserver: {}, scheduler: {}, nodeagent: {}, controllerManager: {} };
  if (!f.present) return out;
  f.mapping(COMPONENTS);
  for (const component of COMPONENTS) {
    const at: Field = f.child(component);
    if (!at.present) continue;
    if (!isMapping(at.value)) at.fail(`must be a mapping of the ${component}'s options`);
    out[component] = structuredClone(at.value);
  }
  // Checked here, so a bad option is an error of the file, with its place.
  const checks: [keyof ComponentOptions, (record: Record<string, unknown>) => unknown][] = [
    ['apiserver', apiServerFromScenario], ['scheduler', schedulerFromScenario], ['controllerManager', controllerManagerFromScenario], ['nodeagent', nodeAgentFromScenario],
  ];
  for (const [component, check] of checks) {
    try {
      check(out[component]);
    } catch (e) {
      f.child(component).fail((e as Error).message);
    }
  }
  return out;
}
