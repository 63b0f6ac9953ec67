import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario, nodeNames, parseScenario, ScenarioError } from '../../../sim/scenario/load.ts';
import type { NodePool, Scenario } from '../../../sim/scenario/types.ts';

const DIR = mkdtempSync(join(tmpdir(), 'orchsim-scenario-'));
test.after(() => rmSync(DIR, { recursive: true, force: true }));

const parse = (text: string): Scenario => parseScenario(text, { name: 'scenario', dir: DIR });

/** The ScenarioError parsing `text` throws; fails the test when it parses or throws something else. */
function errorOf(text: string, parseIt: (text: string) => unknown = parse): ScenarioError {
  try {
    parseIt(text);
  } catch (e) {
    if (e instanceof ScenarioError) return e;
    throw e;
  }
  assert.unreachable(`parsed without error:\n${text}`);
  throw new Error('unreachable');
}

const BASE = 'duration: 30m\nnodePools: [{ name: general, count: 20, zones: [zone-a, zone-b] }]\n';
/** `text` fails at `path` with `message`. */
const rejectsWhole = (text: string, path: string, message: string) => {
  const e = errorOf(text);
  assert.is(e.message, `scenario.yaml: ${path}: ${message}`);
  assert.is(e.path, path);
  assert.is(e.file, 'scenario.yaml');
};
/** BASE with `extra` fails at `path` with `message`. */
const rejects = (extra: string, path: string, message: string) => rejectsWhole(BASE + extra, path, message);
/** A 30-minute run with `pools` fails at `path` with `message`. */
const rejectsPools = (pools: string, path: string, message: string) => rejectsWhole(`duration: 30m\nnodePools: ${pools}\n`, path, message);

const FULL = `
name: full
description: every field
seed: 42
duration: 1h
sampleInterval: 30s
nodePools:
  - name: general
    count: 12
    region: region-1
    zones: [zone-a, zone-b]
    capacity: { cpu: "8", memory: 32Gi, ephemeralStorage: 200Gi, pods: 60 }
    labels: { pool: general }
    taints: [{ key: dedicated, value: batch, effect: PreferNoSchedule }]
  - name: gpu
    count: 2
    capacity: { cpu: 16 }
    labels: { tier: fast }
    node:
      apiVersion: v1
      kind: Node
      metadata:
        name: template-node
        labels: { accelerator: a100, kubernetes.io/hostname: template-node, topology.kubernetes.io/zone: zone-c }
      spec:
        taints: [{ key: nvidia.com/gpu, effect: NoSchedule }]
      status:
        capacity: { cpu: "4", memory: 64Gi, pods: "32", nvidia.com/gpu: "8" }
workloads:
  - name: web
    namespace: shop
    count: 100
    start: 1m
    arrival: { kind: poisson, ratePerSecond: 2.5 }
    requests: { cpu: 100m, memory: 128Mi }
    limits: { memory: 256Mi }
    priority: 1000
    labels: { app: web }
    image: nginx:1.27
    tolerations: [{ key: dedicated, operator: Equal, value: batch, effect: PreferNoSchedule }]
    nodeSelector: { pool: general }
  - name: train
    count: 4
    arrival: { kind: uniform, interval: 200ms }
    pod:
      apiVersion: v1
      kind: Pod
      metadata: { name: ignored, namespace: ml, uid: abc, labels: { app: train } }
      spec:
        containers: [{ name: trainer, image: "trainer:2", resources: { requests: { nvidia.com/gpu: 1 } } }]
        tolerations: [{ key: nvidia.com/gpu, operator: Exists }]
      status: { phase: Running }
    runDuration: 10m
    failureProbability: 0.25
  - name: batch
    count: 3
    template:
      apiVersion: v1
      kind: PodTemplate
      metadata: { name: batch-template, namespace: jobs }
      template:
        metadata: { labels: { app: batch } }
        spec: { containers: [{ name: job, image: "busybox:1.36" }], restartPolicy: Never }
    runDuration: 30s
  - name: plain
    count: 1
    template:
      spec: { containers: [{ name: c, image: pause }] }
faults:
  - kind: nodeCrash
    at: 10m
    recoverAfter: 5m
    nodes: [general-03, gpu-1]
  - kind: nodeCrash
    at: 20m
    count: 3
    pool: general
    zone: zone-b
options:
  scheduler: { percentageOfNodesToScore: 50 }
  apiserver: { etcd-compaction-interval: 5m0s }
events: true
`;

const EXPECTED_FULL: Scenario = {
  name: 'full',
  description: 'every field',
  seed: 42,
  durationMs: 3_600_000,
  sampleIntervalMs: 30_000,
  nodePools: [
    {
      name: 'general', count: 12, region: 'region-1', zones: ['zone-a', 'zone-b'],
      capacity: { cpu: '8', memory: '32Gi', ephemeralStorage: '200Gi', pods: 60 },
      labels: { pool: 'general' },
      taints: [{ key: 'dedicated', value: 'batch', effect: 'PreferNoSchedule' }],
    },
    {
      // capacity: the pool's cpu over the manifest's; memory and pods from the manifest; the rest defaults
      name: 'gpu', count: 2, region: '', zones: ['zone-c'],
      capacity: { cpu: '16', memory: '64Gi', ephemeralStorage: '100Gi', pods: 32 },
      labels: { accelerator: 'a100', tier: 'fast' },
      taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
      manifest: {
        apiVersion: 'v1', kind: 'Node',
        metadata: { name: 'template-node', labels: { accelerator: 'a100', 'kubernetes.io/hostname': 'template-node', 'topology.kubernetes.io/zone': 'zone-c' } },
        spec: { taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }] },
        status: { capacity: { cpu: '4', memory: '64Gi', pods: '32', 'nvidia.com/gpu': '8' } },
      },
    },
  ],
  workloads: [
    {
      name: 'web', namespace: 'shop', count: 100, startMs: 60_000, arrival: { kind: 'poisson', ratePerSecond: 2.5 }, failureProbability: 0,
      pod: {
        apiVersion: 'v1', kind: 'Pod',
        metadata: { labels: { 'orchsim.io/workload': 'web', app: 'web' } },
        spec: {
          containers: [{ name: 'main', image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } } }],
          priorityClassName: 'orchsim-priority-1000',
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'PreferNoSchedule' }],
          nodeSelector: { pool: 'general' },
        },
      },
    },
    {
      name: 'train', namespace: 'ml', count: 4, startMs: 0, arrival: { kind: 'uniform', intervalMs: 200 }, runDurationMs: 600_000, failureProbability: 0.25,
      pod: {
        apiVersion: 'v1', kind: 'Pod',
        metadata: { name: 'ignored', labels: { app: 'train', 'orchsim.io/workload': 'train' } },
        spec: {
          containers: [{ name: 'trainer', image: 'trainer:2', resources: { requests: { 'nvidia.com/gpu': 1 } } }],
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
        },
      },
    },
    {
      name: 'batch', namespace: 'jobs', count: 3, startMs: 0, arrival: { kind: 'burst' }, runDurationMs: 30_000, failureProbability: 0,
      pod: {
        apiVersion: 'v1', kind: 'Pod',
        metadata: { labels: { app: 'batch', 'orchsim.io/workload': 'batch' } },
        spec: { containers: [{ name: 'job', image: 'busybox:1.36' }], restartPolicy: 'Never' },
      },
    },
    {
      name: 'plain', namespace: 'default', count: 1, startMs: 0, arrival: { kind: 'burst' }, failureProbability: 0,
      pod: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { 'orchsim.io/workload': 'plain' } }, spec: { containers: [{ name: 'c', image: 'pause' }] } },
    },
  ],
  faults: [
    { kind: 'nodeCrash', atMs: 600_000, recoverAfterMs: 300_000, nodes: ['general-03', 'gpu-1'], count: 2 },
    { kind: 'nodeCrash', atMs: 1_200_000, count: 3, pool: 'general', zone: 'zone-b' },
  ],
  options: { apiserver: { 'etcd-compaction-interval': '5m0s' }, scheduler: { percentageOfNodesToScore: 50 }, nodeagent: {}, controllerManager: {} },
  replicas: { controllerManager: 1, scheduler: 1 },
  events: true,
};

test('a scenario using every field parses to exactly the expected object', () => {
  assert.equal(parse(FULL), EXPECTED_FULL);
});

test('omitted fields take their defaults', () => {
  const s = parse('duration: 5m\nnodePools: [{ name: a, count: 1 }]\nworkloads: [{ name: w, count: 2, requests: {} }]\nfaults: [{ kind: nodeCrash, at: 1m }]\n');
  assert.equal(s, {
    name: 'scenario', description: '', seed: 1, durationMs: 300_000, sampleIntervalMs: 10_000,
    nodePools: [{ name: 'a', count: 1, region: '', zones: [''], capacity: { cpu: '4', memory: '16Gi', ephemeralStorage: '100Gi', pods: 110 }, labels: {}, taints: [] }],
    workloads: [{
      name: 'w', namespace: 'default', count: 2, startMs: 0, arrival: { kind: 'burst' }, failureProbability: 0,
      pod: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { 'orchsim.io/workload': 'w' } }, spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.9', resources: { requests: {} } }] } },
    }],
    faults: [{ kind: 'nodeCrash', atMs: 60_000, count: 1 }],
    options: { apiserver: {}, scheduler: {}, nodeagent: {}, controllerManager: {} },
    replicas: { controllerManager: 1, scheduler: 1 },
    events: false,
  });
});

test('the default sample interval shrinks to a run shorter than 10s', () => {
  assert.is(parse('duration: 4s\nnodePools: [{ name: a, count: 1 }]\n').sampleIntervalMs, 4000);
});

test('node names are the pool name and an index zero-padded to the width of count - 1', () => {
  const pool = (count: number): NodePool => ({ ...parse(BASE).nodePools[0]!, count });
  assert.equal(nodeNames(pool(1)), ['general-0']);
  assert.equal(nodeNames(pool(10)), ['general-0', 'general-1', 'general-2', 'general-3', 'general-4', 'general-5', 'general-6', 'general-7', 'general-8', 'general-9']);
  const twenty = nodeNames(pool(20));
  assert.is(twenty.length, 20);
  assert.equal([twenty[0], twenty[9], twenty[19]], ['general-00', 'general-09', 'general-19']);
  const many = nodeNames(pool(101));
  assert.equal([many[0], many[100]], ['general-000', 'general-100']);
});

test('a YAML syntax error names the line', () => {
  const e = errorOf('duration: 30m\nnodePools: []\nduration: 5m\n');
  assert.is(e.message, 'scenario.yaml: line 3: YAML syntax error: Map keys must be unique (column 1)');
  assert.is(e.line, 3);
  const flow = errorOf('duration: 30m\nnodePools: [{ name: a, count: 1 }\nworkloads: []\n');
  assert.match(flow.message, /^scenario\.yaml: line 3: YAML syntax error: /);
});

test('an unknown field is named, with the closest allowed field and the list of allowed ones', () => {
  rejects('workloads: [{ name: w, cuont: 1, requests: {} }]', 'workloads[0].cuont',
    'unknown field (did you mean count?); allowed fields: name, namespace, count, start, arrival, requests, limits, priority, labels, image, tolerations, nodeSelector, pod, template, runDuration, failureProbability, controller, usage, autoscale, disruptionBudget, completions, parallelism, backoffLimit, activeDeadline, ttlAfterFinished, schedule, concurrencyPolicy, successfulJobsHistoryLimit, failedJobsHistoryLimit, startingDeadline');
  const top = errorOf('durration: 30m\n');
  assert.is(top.message, 'scenario.yaml: durration: unknown field (did you mean duration?); allowed fields: name, description, seed, duration, sampleInterval, nodePools, workloads, faults, options, replicas, events, requestTime, plan, manifests, clusterAutoscaler');
  rejects('options: { schedular: {} }', 'options.schedular', 'unknown field (did you mean scheduler?); allowed fields: apiserver, scheduler, nodeagent, controllerManager');
  rejects('workloads: [{ name: w, count: 1, requests: {}, arrival: { kind: poisson, interval: 1s } }]', 'workloads[0].arrival.interval',
    'unknown field; allowed fields: kind, ratePerSecond');
});

test('a misspelt field inside a manifest is named with the fields its kind has there', () => {
  rejects('workloads: [{ name: w, count: 1, pod: { spec: { containers: [{ name: c, imagee: x }] } } }]', 'workloads[0].pod.spec.containers[0].imagee',
    'unknown field of a Pod (did you mean image?); allowed fields: args, command, env, envFrom, image, imagePullPolicy, lifecycle, livenessProbe, name, ports, readinessProbe, resizePolicy, resources, restartPolicy, restartPolicyRules, securityContext, startupProbe, stdin, stdinOnce, terminationMessagePath, terminationMessagePolicy, tty, volumeDevices, volumeMounts, workingDir');
  rejects('workloads: [{ name: w, count: 1, pod: { spec: { containers: [{ name: c, image: x }], priority: high } } }]', 'workloads[0].pod.spec.priority',
    'cannot unmarshal string into Go struct field PodSpec.spec.priority of type int32');
});

test('values of the wrong type are rejected with the value quoted', () => {
  const e = errorOf('duration: 30m\nnodePools:\n  - { name: a, count: 1 }\n  - { name: b, count: ten }\n', (t) => parseScenario(t, { name: 'quickstart', dir: DIR }));
  assert.is(e.message, 'quickstart.yaml: nodePools[1].count: must be a positive integer, got "ten"');
  rejects('workloads: { web: 1 }', 'workloads', 'must be a list of workloads, got {"web":1}');
  rejects('seed: 1.5', 'seed', 'must be a non-negative integer, got 1.5');
  rejects('description: [a]', 'description', 'must be a string, got ["a"]');
  rejects('options: { scheduler: [1] }', 'options.scheduler', "must be a mapping of the scheduler's options, got [1]");
  rejects('workloads: [{ name: w, count: 1, requests: {}, labels: { tier: 1 } }]', 'workloads[0].labels.tier',
    "must be a label value: empty, or at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit (quote numbers and booleans), got 1");
  rejects('workloads: [{ name: Web, count: 1, requests: {} }]', 'workloads[0].name',
    "must be a DNS-1123 label: at most 63 lower-case letters, digits or '-', starting and ending with a letter or digit, got \"Web\"");
});

test('counts must be positive integers within their bounds', () => {
  const pools = (count: string) => `duration: 30m\nnodePools: [{ name: a, count: ${count} }]\n`;
  assert.is(errorOf(pools('-3')).message, 'scenario.yaml: nodePools[0].count: must be a positive integer, got -3');
  assert.is(errorOf(pools('0')).message, 'scenario.yaml: nodePools[0].count: must be a positive integer, got 0');
  assert.is(errorOf(pools('100001')).message, 'scenario.yaml: nodePools[0].count: must be at most 100,000, got 100001');
  rejects('workloads: [{ name: w, count: 10000001, requests: {} }]', 'workloads[0].count', 'must be at most 10,000,000, got 10000001');
  rejects('workloads: [{ name: w, requests: {} }]', 'workloads[0].count', 'required (must be a positive integer)');
});

test('durations must be Go durations within the run', () => {
  const rule = 'must be a Go duration such as 300ms, 30s, 5m or 1h30m';
  assert.is(errorOf('duration: 30 minutes\nnodePools: [{ name: a, count: 1 }]\n').message, `scenario.yaml: duration: ${rule}, got "30 minutes"`);
  assert.is(errorOf('nodePools: [{ name: a, count: 1 }]\n').message, `scenario.yaml: duration: required (${rule})`);
  assert.is(errorOf('duration: 0s\nnodePools: [{ name: a, count: 1 }]\n').message, 'scenario.yaml: duration: must be greater than 0, got "0s"');
  assert.is(errorOf('duration: 169h\nnodePools: [{ name: a, count: 1 }]\n').message, 'scenario.yaml: duration: must be at most 7 days (168h0m0s), got "169h"');
  rejects('sampleInterval: 1h', 'sampleInterval', 'must be at most the duration (30m0s), got "1h"');
  rejects('workloads: [{ name: w, count: 1, requests: {}, start: 30m }]', 'workloads[0].start', 'must be before the end of the run (duration 30m0s), got "30m"');
  rejects('workloads: [{ name: w, count: 1, requests: {}, start: -1s }]', 'workloads[0].start', 'must not be negative, got "-1s"');
  rejects('faults: [{ kind: nodeCrash, at: 45m }]', 'faults[0].at', 'must be before the end of the run (duration 30m0s), got "45m"');
  rejects('faults: [{ kind: nodeCrash, at: 5m, recoverAfter: 0s }]', 'faults[0].recoverAfter', 'must be greater than 0, got "0s"');
  rejects('workloads: [{ name: w, count: 1, requests: {}, arrival: { kind: uniform, interval: 0s } }]', 'workloads[0].arrival.interval', 'must be greater than 0, got "0s"');
});

test('quantities must parse, and capacities be greater than zero', () => {
  const quantityRule = 'must be a quantity such as 500m, 2, 128Mi or 10Gi';
  rejectsPools('[{ name: b, count: 1, capacity: { memory: 32GB } }]', 'nodePools[0].capacity.memory', `${quantityRule}, got "32GB"`);
  rejectsPools('[{ name: b, count: 1, capacity: { cpu: "0" } }]', 'nodePools[0].capacity.cpu', 'must be greater than 0, got "0"');
  rejectsPools('[{ name: b, count: 1, capacity: { pods: 1001 } }]', 'nodePools[0].capacity.pods', 'must be at most 1,000, got 1001');
  rejectsPools('[{ name: b, count: 1, capacity: { gpus: 1 } }]', 'nodePools[0].capacity.gpus', 'unknown field; allowed fields: cpu, memory, ephemeralStorage, pods');
  rejects('workloads: [{ name: w, count: 1, requests: { cpu: lots } }]', 'workloads[0].requests.cpu', `${quantityRule}, got "lots"`);
  rejects('workloads: [{ name: w, count: 1, requests: { cpus: 1 } }]', 'workloads[0].requests.cpus',
    'unknown resource (did you mean cpu?); resources are: cpu, memory, ephemeral-storage, hugepages-<size>, extended resources with a domain (example.com/gpu)');
  rejects('workloads: [{ name: w, count: 1, requests: { memory: 1Gi }, limits: { memory: 512Mi } }]', 'workloads[0].requests.memory', 'must not exceed the limit 512Mi, got "1Gi"');
});

test('pool and workload names must be unique', () => {
  rejectsPools('[{ name: a, count: 1 }, { name: b, count: 1 }, { name: a, count: 2 }]', 'nodePools[2].name', 'must be unique among node pools (nodePools[0].name has the same name), got "a"');
  rejects('workloads: [{ name: w, count: 1, requests: {} }, { name: w, count: 1, requests: {} }]', 'workloads[1].name', 'must be unique among workloads (workloads[0].name has the same name), got "w"');
});

test('a scenario needs at least one node pool', () => {
  rejectsWhole('duration: 30m\nnodePools: []\n', 'nodePools', 'must list at least one node pool (or name Nodes in manifests:), got []');
  assert.is(errorOf('duration: 30m\n').message, 'scenario.yaml: nodePools: required (must list at least one node pool (or name Nodes in manifests:))');
});

test('labels and taints follow the API server rules', () => {
  rejectsPools('[{ name: a, count: 1, labels: { "bad key!": x } }]', 'nodePools[0].labels["bad key!"]',
    "invalid key \"bad key!\": must be a label key: an optional DNS subdomain and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit");
  rejectsPools('[{ name: a, count: 1, taints: [{ key: k, effect: NoScheduling }] }]', 'nodePools[0].taints[0].effect', 'must be one of NoSchedule, PreferNoSchedule, NoExecute, got "NoScheduling"');
  rejectsPools('[{ name: a, count: 1, zones: [] }]', 'nodePools[0].zones', 'must list at least one of zones, got []');
  rejectsPools('[{ name: a, count: 1, zones: [a, ""] }]', 'nodePools[0].zones[1]', 'must be a non-empty zone name, got ""');
  rejects('workloads: [{ name: w, count: 1, requests: {}, tolerations: [{ key: k, operator: Exists, value: v }] }]', 'workloads[0].tolerations[0].value', 'must be empty when operator is Exists');
  rejects('workloads: [{ name: w, count: 1, requests: {}, tolerations: [{ key: k, tolerationSeconds: 30 }] }]', 'workloads[0].tolerations[0].effect', 'must be NoExecute when tolerationSeconds is set');
  rejects('workloads: [{ name: w, count: 1, requests: {}, priority: 2000000000 }]', 'workloads[0].priority', 'must be at most 1,000,000,000, got 2000000000');
});

test('a workload gives exactly one pod form, and the short form\'s fields only with requests', () => {
  const pod = 'pod: { spec: { containers: [{ name: c, image: x }] } }';
  rejects(`workloads: [{ name: w, count: 1, requests: {}, ${pod} }]`, 'workloads[0].pod', 'cannot be given with requests: give exactly one of requests, pod or template');
  rejects('workloads: [{ name: w, count: 1 }]', 'workloads[0]', 'workload w has no pod: give one of requests (the short form), pod (a Pod manifest) or template (a pod template)');
  rejects(`workloads: [{ name: w, count: 1, priority: 5, ${pod} }]`, 'workloads[0].priority', 'belongs to the short form (with requests); with pod, write it in the manifest');
});

test('a workload\'s pod needs a container with a name and an image, and the error names the workload', () => {
  rejects('workloads: [{ name: web, count: 1, pod: { spec: { containers: [] } } }]', 'workloads[0].pod.spec.containers', 'workload web: the pod needs at least one container with a name and an image');
  rejects('workloads: [{ name: web, count: 1, pod: { metadata: {} } }]', 'workloads[0].pod.spec.containers', 'workload web: the pod needs at least one container with a name and an image');
  rejects('workloads: [{ name: web, count: 1, template: { spec: { containers: [{ name: c }] } } }]', 'workloads[0].template.spec.containers[0].image', 'required (workload web: every container needs an image)');
  rejects('workloads: [{ name: web, count: 1, pod: { kind: Deployment } }]', 'workloads[0].pod.kind', 'must be Pod here, got "Deployment"');
  rejects('workloads: [{ name: web, count: 1, template: { apiVersion: v1, kind: PodTemplate, metadata: { name: t } } }]', 'workloads[0].template.template', 'required (must be the pod template: { metadata, spec })');
});

test('a manifest\'s namespace and workload label must agree with the workload', () => {
  const pod = (meta: string) => `pod: { metadata: ${meta}, spec: { containers: [{ name: c, image: x }] } }`;
  rejects(`workloads: [{ name: w, namespace: a, count: 1, ${pod('{ namespace: b }')} }]`, 'workloads[0].namespace', 'must match the namespace of the workload\'s manifest (b), or be left out, got "a"');
  rejects(`workloads: [{ name: w, count: 1, ${pod('{ labels: { orchsim.io/workload: other } }')} }]`, 'workloads[0].pod.metadata.labels["orchsim.io/workload"]',
    'is set by the simulator to the workload\'s name (w); leave it out, got "other"');
});

test('failureProbability is a probability and needs runDuration', () => {
  rejects('workloads: [{ name: w, count: 1, requests: {}, failureProbability: 0.5 }]', 'workloads[0].failureProbability', 'applies to batch pods only: give runDuration too');
  rejects('workloads: [{ name: w, count: 1, requests: {}, runDuration: 1m, failureProbability: 1.5 }]', 'workloads[0].failureProbability', 'must be a probability from 0 to 1, got 1.5');
});

test('a fault naming a node no pool has is rejected', () => {
  const rule = 'must name a node of a pool: <pool>-<index> with the index zero-padded to the width of count - 1 (e.g. general-00)';
  rejects('faults: [{ kind: nodeCrash, at: 1m, nodes: [general-07, general-20] }]', 'faults[0].nodes[1]', `${rule}, got "general-20"`);
  rejects('faults: [{ kind: nodeCrash, at: 1m, nodes: [general-7] }]', 'faults[0].nodes[0]', `${rule}, got "general-7"`);
  rejects('faults: [{ kind: nodeCrash, at: 1m, nodes: [web-00] }]', 'faults[0].nodes[0]', `${rule}, got "web-00"`);
  rejects('faults: [{ kind: nodeCrash, at: 1m, nodes: [general-01, general-01] }]', 'faults[0].nodes[1]', 'is listed twice, got "general-01"');
  rejects('faults: [{ kind: nodeCrash, at: 1m, nodes: [general-01], count: 1 }]', 'faults[0].count', 'cannot be given with nodes: name the nodes, or give count with optional pool and zone filters');
  rejects('faults: [{ kind: nodeCrash, at: 1m, pool: gpu }]', 'faults[0].pool', 'must name a node pool (general), got "gpu"');
  rejects('faults: [{ kind: nodeCrash, at: 1m, zone: zone-c }]', 'faults[0].zone', 'must be a zone of some pool ("zone-a", "zone-b"), or any, got "zone-c"');
  rejects('faults: [{ kind: nodeSlow, at: 1m }]', 'faults[0].kind', 'must be one of nodeCrash, memoryPressure, zonePartition, nodeFlap, messageLoss, latency, apiServerRestart, natsOutage, maintenanceDrain, spotInterruption, nodeDelete, capacityShortage, controllerManagerCrash, controllerManagerFreeze, schedulerCrash, schedulerFreeze, got "nodeSlow"');
});

test('a memoryPressure fault carries its extra memory in bytes; memory belongs to it alone', () => {
  const f = parse(`${BASE}faults: [{ kind: memoryPressure, at: 2m, memory: 3Gi, count: 2, recoverAfter: 1m }]`).faults[0]!;
  assert.equal(f, { kind: 'memoryPressure', atMs: 120_000, count: 2, memoryBytes: 3 * 2 ** 30, recoverAfterMs: 60_000 });
  rejects('faults: [{ kind: memoryPressure, at: 1m }]', 'faults[0].memory', 'is required for a memoryPressure fault: the extra memory each node uses, e.g. 30Gi');
  rejects('faults: [{ kind: nodeCrash, at: 1m, memory: 1Gi }]', 'faults[0].memory', 'belongs to memoryPressure faults only');
});

test('a fault cannot crash more nodes than its filters leave', () => {
  // 20 nodes over two zones: 10 in each.
  rejects('faults: [{ kind: nodeCrash, at: 1m, count: 11, zone: zone-a }]', 'faults[0].count', 'must be at most the number of nodes it draws from (10 in zone zone-a), got 11');
  rejects('faults: [{ kind: nodeCrash, at: 1m, count: 21, pool: general }]', 'faults[0].count', 'must be at most the number of nodes it draws from (20 in pool general), got 21');
  assert.is(parse(`${BASE}faults: [{ kind: nodeCrash, at: 1m, count: 10, zone: zone-b }]`).faults[0]!.count, 10);
  // Three zones over 20 nodes: zone-a gets nodes 0, 3, ..., 18 (7), zone-c nodes 2, 5, ..., 17 (6).
  const three = 'duration: 30m\nnodePools: [{ name: p, count: 20, zones: [zone-a, zone-b, zone-c] }]\n';
  assert.is(parse(`${three}faults: [{ kind: nodeCrash, at: 1m, count: 7, zone: zone-a }]`).faults[0]!.count, 7);
  assert.is(errorOf(`${three}faults: [{ kind: nodeCrash, at: 1m, count: 7, zone: zone-c }]`).message,
    'scenario.yaml: faults[0].count: must be at most the number of nodes it draws from (6 in zone zone-c), got 7');
});

test('a scenario file is one YAML document (a trailing --- aside) and not empty', () => {
  const e = errorOf(`${BASE}---\n${BASE}`);
  assert.is(e.message, 'scenario.yaml: has 2 YAML documents; a scenario is one document (Node and Pod manifests go in a file named by manifests:)');
  assert.is(parse(`${BASE}---\n`).durationMs, 1_800_000);
  assert.is(errorOf('# nothing yet\n').message, 'scenario.yaml: is empty: a scenario needs at least duration and nodePools');
  assert.is(errorOf('- duration: 30m\n').message, 'scenario.yaml: must be a mapping of scenario fields (duration, nodePools, workloads, ...), got [{"duration":"30m"}]');
});

test('replicas and the control-plane faults: the leader or an index, a freeze needs its length, a partition its zone', () => {
  const base = 'duration: 30m\nnodePools: [{ name: a, count: 4, zones: [z1, z2] }]\nreplicas: { controllerManager: 2, scheduler: 3 }\n';
  const s = parse(`${base}faults:\n  - { kind: controllerManagerCrash, at: 1m, recoverAfter: 1m }\n  - { kind: schedulerFreeze, at: 2m, replica: 2, recoverAfter: 30s }\n  - { kind: zonePartition, at: 3m, zone: z2 }\n`);
  assert.equal(s.replicas, { controllerManager: 2, scheduler: 3 });
  assert.equal(s.faults, [
    { kind: 'controllerManagerCrash', atMs: 60_000, count: 1, replica: 'leader', recoverAfterMs: 60_000 },
    { kind: 'schedulerFreeze', atMs: 120_000, count: 1, replica: 2, recoverAfterMs: 30_000 },
    { kind: 'zonePartition', atMs: 180_000, count: 2, zone: 'z2' },
  ]);
  rejectsWhole(`${base}faults: [{ kind: schedulerFreeze, at: 1m }]`, 'faults[0].recoverAfter', 'is required for schedulerFreeze: how long the replica stays frozen');
  rejectsWhole(`${base}faults: [{ kind: controllerManagerCrash, at: 1m, replica: 2 }]`, 'faults[0].replica', 'must be leader or a replica index from 0 to 1 (replicas: 2), got 2');
  rejectsWhole(`${base}faults: [{ kind: zonePartition, at: 1m }]`, 'faults[0].zone', 'is required for zonePartition: the zone cut off, or any (each zone in turn)');
  rejectsWhole(`${base}faults: [{ kind: schedulerCrash, at: 1m, count: 2 }]`, 'faults[0].count', 'does not apply to schedulerCrash: it hits one replica (replica: leader or an index)');
  rejectsWhole('duration: 5m\nnodePools: [{ name: a, count: 1 }]\nreplicas: { scheduler: 0 }', 'replicas.scheduler', 'must be an integer from 1 to 10, got 0');
});

test('events is true or false, nothing else', () => {
  rejectsWhole(`${BASE}events: off`, 'events', 'must be true or false, got "off"');
  rejectsWhole(`${BASE}events: 0`, 'events', 'must be true or false, got 0');
});

test('a ReplicaSet workload: one set of count replicas at its start, no arrival process, no batch run', () => {
  const s = parse(`${BASE}workloads: [{ name: web, count: 5, controller: ReplicaSet, requests: { cpu: 100m } }]\n`);
  assert.is(s.workloads[0]!.controller, 'ReplicaSet');
  rejects('workloads: [{ name: web, count: 5, controller: ReplicaSet, requests: {}, arrival: { kind: poisson, ratePerSecond: 1 } }]', 'workloads[0].arrival',
    'does not apply to a ReplicaSet workload: it creates its count pods at start');
  rejects('workloads: [{ name: web, count: 5, requests: {}, controller: StatefulSet }]', 'workloads[0].controller', 'must be one of ReplicaSet, Deployment, Job, CronJob, got "StatefulSet"');
});

test('flapping nodes and lossy or slow links: their fields, and only on their kinds', () => {
  const s = parse(`${BASE}faults:\n  - { kind: nodeFlap, at: 1m, count: 2, downFor: 30s, upFor: 1m }\n  - { kind: messageLoss, at: 1m, probability: 0.25, zone: zone-a }\n  - { kind: latency, at: 1m, latency: 200ms, component: scheduler, recoverAfter: 5m }\n`);
  assert.equal(s.faults, [
    { kind: 'nodeFlap', atMs: 60_000, count: 2, downForMs: 30_000, upForMs: 60_000 },
    { kind: 'messageLoss', atMs: 60_000, count: 1, probability: 0.25, component: 'nodes', zone: 'zone-a' },
    { kind: 'latency', atMs: 60_000, count: 1, latencyMs: 200, component: 'scheduler', recoverAfterMs: 300_000 },
  ]);
  rejects('faults: [{ kind: nodeFlap, at: 1m, upFor: 1m }]', 'faults[0].downFor', 'is required for nodeFlap: how long the nodes stay down each time');
  rejects('faults: [{ kind: messageLoss, at: 1m, probability: 2 }]', 'faults[0].probability', 'must be a probability from 0 to 1, got 2');
  rejects('faults: [{ kind: nodeCrash, at: 1m, latency: 1s }]', 'faults[0].latency', 'belongs to latency faults only');
  rejects('faults: [{ kind: latency, at: 1m, latency: 1s, component: controllerManager, count: 2 }]', 'faults[0].count', 'does not apply to component controllerManager: it hits every replica');
});

test('YAML anchors are copied, not shared, between workloads', () => {
  const s = parse(`${BASE}workloads:
  - { name: a, count: 1, pod: &p { spec: { containers: [{ name: c, image: x }] } } }
  - { name: b, count: 1, pod: *p }
`);
  assert.is(s.workloads[0]!.pod.metadata.labels!['orchsim.io/workload'], 'a');
  assert.is(s.workloads[1]!.pod.metadata.labels!['orchsim.io/workload'], 'b');
  assert.is.not(s.workloads[0]!.pod.spec, s.workloads[1]!.pod.spec);
});

const CLUSTER = `apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels: { topology.kubernetes.io/zone: us-east-1a, disk: ssd }
status:
  allocatable: { cpu: "2", memory: 8Gi, pods: "20" }
---
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Node
    metadata: { name: worker-2 }
  - apiVersion: v1
    kind: Pod
    metadata: { name: db, namespace: data, resourceVersion: "17", uid: "1234" }
    spec: { containers: [{ name: postgres, image: "postgres:16" }], nodeName: worker-2-0 }
    status: { phase: Running }
---
---
apiVersion: v1
kind: PodTemplate
metadata: { name: cron }
template: { spec: { containers: [{ name: c, image: busybox }] } }
`;

/** A directory with scenario.yaml and manifests/cluster.yaml. */
function writeScenario(scenario: string, cluster = CLUSTER): string {
  const dir = mkdtempSync(join(DIR, 'case-'));
  mkdirSync(join(dir, 'manifests'));
  writeFileSync(join(dir, 'manifests', 'cluster.yaml'), cluster);
  writeFileSync(join(dir, 'scenario.yaml'), scenario);
  return join(dir, 'scenario.yaml');
}

test('a manifests file expands to a pool per Node and a workload per Pod or PodTemplate', async () => {
  const path = writeScenario('duration: 10m\nmanifests: manifests/cluster.yaml\nworkloads: [{ name: web, count: 3, requests: { cpu: 1 } }]\nfaults: [{ kind: nodeCrash, at: 1m, nodes: [worker-1-0] }]\n');
  const s = await loadScenario(path);
  assert.is(s.name, 'scenario');
  assert.equal(s.nodePools.map(({ manifest, ...rest }) => rest), [
    { name: 'worker-1', count: 1, region: '', zones: ['us-east-1a'], capacity: { cpu: '2', memory: '8Gi', ephemeralStorage: '100Gi', pods: 20 }, labels: { disk: 'ssd' }, taints: [] },
    { name: 'worker-2', count: 1, region: '', zones: [''], capacity: { cpu: '4', memory: '16Gi', ephemeralStorage: '100Gi', pods: 110 }, labels: {}, taints: [] },
  ]);
  assert.is(s.nodePools[1]!.manifest!.metadata.name, 'worker-2');
  assert.equal(nodeNames(s.nodePools[0]!), ['worker-1-0']);
  assert.equal(s.workloads.map((w) => [w.name, w.namespace, w.count, w.startMs]), [['web', 'default', 3, 0], ['db', 'data', 1, 0], ['cron', 'default', 1, 0]]);
  assert.equal(s.workloads[1]!.pod, {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'db', labels: { 'orchsim.io/workload': 'db' } },
    spec: { containers: [{ name: 'postgres', image: 'postgres:16' }], nodeName: 'worker-2-0' },
  });
  assert.equal(s.faults[0]!.nodes, ['worker-1-0']);
});

test('manifests can be a list, and pools from them count toward the one required', () => {
  const path = writeScenario('duration: 10m\nmanifests: [manifests/cluster.yaml]\n');
  const s = parseScenario(`duration: 10m\nmanifests: [manifests/cluster.yaml]\n`, { name: 'x', dir: join(path, '..') });
  assert.equal(s.nodePools.map((p) => p.name), ['worker-1', 'worker-2']);
});

test('errors in a manifests file name that file and the document', async () => {
  const bad = CLUSTER.replace('image: busybox', 'imag: busybox');
  const e = await loadScenario(writeScenario('duration: 10m\nmanifests: manifests/cluster.yaml\n', bad)).then(() => undefined, (err: unknown) => err);
  assert.instance(e, ScenarioError);
  assert.match((e as Error).message, /^manifests\/cluster\.yaml: documents\[3\]\.template\.spec\.containers\[0\]\.imag: unknown field of a PodTemplate \(did you mean image\?\)/);
  const kind = await loadScenario(writeScenario('duration: 10m\nmanifests: manifests/cluster.yaml\n', 'kind: Deployment\nmetadata: { name: d }\n')).catch((err: Error) => err);
  assert.is((kind as Error).message, 'manifests/cluster.yaml: documents[0].kind: must be Node, Pod or PodTemplate, or a List of them, got "Deployment"');
  const clash = await loadScenario(writeScenario('duration: 10m\nmanifests: manifests/cluster.yaml\nnodePools: [{ name: worker-2, count: 1 }]\n')).catch((err: Error) => err);
  assert.is((clash as Error).message, 'manifests/cluster.yaml: documents[1].items[0].metadata.name: must be unique among node pools (scenario.yaml nodePools[0].name has the same name), got "worker-2"');
  const missing = await loadScenario(writeScenario('duration: 10m\nmanifests: nope.yaml\n')).catch((err: Error) => err);
  assert.match((missing as Error).message, /^scenario\.yaml: manifests: cannot read the manifests file \(ENOENT/);
  const syntax = await loadScenario(writeScenario('duration: 10m\nmanifests: manifests/cluster.yaml\n', 'kind: Node\nmetadata: { name: [ }\n')).catch((err: Error) => err);
  assert.match((syntax as Error).message, /^manifests\/cluster\.yaml: line 2: YAML syntax error: /);
});

test('loading a file that does not exist is a ScenarioError naming it', async () => {
  const e = await loadScenario(join(DIR, 'absent.yaml')).catch((err: unknown) => err);
  assert.instance(e, ScenarioError);
  assert.match((e as Error).message, /absent\.yaml: cannot read the scenario file \(ENOENT/);
});

test.run();
