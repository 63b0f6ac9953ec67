// The pod and node builders and the node-local default plugins (unschedulable, name, taints, node
// affinity, ports, resources, balanced allocation, image locality) on hand-built nodes and pods,
// with the real scheduler's reason strings and scoring arithmetic; then the cycle's loops over them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addPod, makeSnapshot, newNodeInfo, removePod } from '../../../actors/scheduler/pod-info.ts';
import { balancedAllocation } from '../../../actors/scheduler/plugins/balanced-allocation.ts';
import { imageLocality } from '../../../actors/scheduler/plugins/image-locality.ts';
import { runCycle } from '../../../actors/scheduler/cycle.ts';
import { preFilter, runFilters } from '../../../actors/scheduler/filters.ts';
import {
  defaultFilterPlugins, defaultScorePlugins, nodeAffinity, nodeName, nodePorts, nodeResourcesFit,
  nodeUnschedulable, taintToleration,
} from '../../../actors/scheduler/plugins/index.ts';
import { seededRandom } from '../../../sim/random.ts';
import { feasible, filterAll, newState, node, nodeObject, pod, scoreAll, snapshotOf, withPods } from './plugins-fixtures.ts';

const Gi = 1024 ** 3;
const Mi = 1024 ** 2;
const MB = 1024 * 1024;

// --- pod and node info ---

test('pod requests sum the containers, take the max with each init container, then add the overhead', () => {
  const p = pod('p', {
    containers: [
      { name: 'c1', image: 'a', resources: { requests: { cpu: '2', memory: '1G' } } },
      { name: 'c2', image: 'b', resources: { requests: { cpu: '1', memory: '1G' } } },
    ],
    spec: {
      initContainers: [
        { name: 'i1', image: 'c', resources: { requests: { cpu: '2', memory: '1G' } } },
        { name: 'i2', image: 'd', resources: { requests: { cpu: '2', memory: '3G' } } },
      ],
      overhead: { cpu: '100m', memory: '10Mi' },
    },
  });
  assert.equal(p.requests, { milliCPU: 3100, memory: 3e9 + 10 * Mi, ephemeralStorage: 0, pods: 1, scalar: {} });
});

test('a restartable init container adds to the containers and to every init container after it', () => {
  const p = pod('p', {
    containers: [{ name: 'c', image: 'a', resources: { requests: { cpu: '1' } } }],
    spec: {
      initContainers: [
        { name: 'sidecar', image: 's', restartPolicy: 'Always', resources: { requests: { cpu: '500m' } } },
        { name: 'setup', image: 'i', resources: { requests: { cpu: '1200m' } } },
      ],
    },
  });
  // containers 1000 + sidecar 500 = 1500; setup runs beside the sidecar: 1200 + 500 = 1700.
  assert.is(p.requests.milliCPU, 1700);
});

test('non-zero requests count 100m and 200Mi for a container that leaves cpu or memory unset, but keep an explicit 0', () => {
  const p = pod('p', {
    containers: [
      { name: 'none', image: 'a' },
      { name: 'cpu-only', image: 'b', resources: { requests: { cpu: '500m' } } },
      { name: 'zeros', image: 'c', resources: { requests: { cpu: '0', memory: '0' } } },
    ],
  });
  assert.equal(p.nonZero, { milliCPU: 100 + 500 + 0, memory: 200 * Mi + 200 * Mi + 0 });
  assert.is(p.requests.milliCPU, 500);
  assert.is(p.requests.memory, 0);
});

test('pod info reads host ports with TCP and 0.0.0.0 defaults, images with :latest, priority, and scalar requests', () => {
  const p = pod('p', {
    containers: [
      { name: 'web', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }, { containerPort: 81 }],
        resources: { requests: { 'example.com/gpu': '2', 'hugepages-2Mi': '4Mi', pods: '3', unknown: '1' } } },
      { name: 'dns', image: 'registry:5000/dns', ports: [{ containerPort: 53, hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' }] },
    ],
    spec: { initContainers: [{ name: 'init', image: 'busybox:1.36' }], priority: 1000 },
  });
  assert.equal(p.hostPorts, ['TCP/0.0.0.0/8080', 'UDP/10.0.0.1/53']);
  assert.equal(p.images, ['busybox:1.36', 'nginx:latest', 'registry:5000/dns:latest']);
  assert.is(p.priority, 1000);
  assert.equal(p.requests.scalar, { 'example.com/gpu': 2, 'hugepages-2Mi': 4 * Mi });
  assert.is(p.key, 'default/p');
});

test('node info takes allocatable (else capacity), taints, unschedulable and image sizes by every reported name', () => {
  const n = node('n1', {
    cpu: '3500m', memory: '16Gi', pods: 30, ephemeralStorage: '100Gi', extra: { 'example.com/gpu': '4' },
    taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }], unschedulable: true,
    images: [{ names: ['docker.io/library/nginx:1.25', 'nginx:1.25'], sizeBytes: 70 * MB }],
  });
  assert.equal([n.allocatableMilliCPU, n.allocatableMemory, n.allocatableEphemeralStorage, n.allocatablePods], [3500, 16 * Gi, 100 * Gi, 30]);
  assert.equal(n.allocatableScalar, { 'example.com/gpu': 4 });
  assert.equal(n.taints, [{ key: 'k', value: 'v', effect: 'NoSchedule' }]);
  assert.ok(n.unschedulable);
  assert.is(n.imageSizes.get('nginx:1.25'), 70 * MB);
  assert.is(n.imageSizes.get('docker.io/library/nginx:1.25'), 70 * MB);
  const capacityOnly = nodeObject('n2', { cpu: '2' });
  delete (capacityOnly.status as Record<string, unknown>).allocatable;
  assert.is(newNodeInfo(capacityOnly).allocatableMilliCPU, 2000);
});

test('addPod and removePod keep requested, non-zero requested, ports and pods incremental', () => {
  const n = node('n');
  const a = pod('a', { requests: { cpu: '1', memory: '1Gi' }, containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1', memory: '1Gi' } }, ports: [{ hostPort: 80 }] }] });
  const b = pod('b');
  addPod(n, a);
  addPod(n, b);
  assert.is(n.requestedMilliCPU, 1000);
  assert.is(n.requestedMemory, Gi);
  assert.is(n.requestedPods, 2);
  assert.equal([n.nonZeroMilliCPU, n.nonZeroMemory], [1100, Gi + 200 * Mi]);
  assert.equal([...n.usedPorts], ['TCP/0.0.0.0/80']);
  assert.ok(removePod(n, a));
  assert.is(removePod(n, a), false);
  assert.equal(n.pods.map((p) => p.name), ['b']);
  assert.equal([n.requestedMilliCPU, n.requestedMemory, n.requestedPods], [0, 0, 1]);
  assert.equal([n.nonZeroMilliCPU, n.nonZeroMemory], [100, 200 * Mi]);
  assert.is(n.usedPorts.size, 0);
  const gpu = pod('gpu', { requests: { 'example.com/gpu': '2' } });
  addPod(n, gpu);
  assert.equal(n.requestedScalar, { 'example.com/gpu': 2 });
  removePod(n, gpu);
  assert.equal(n.requestedScalar, { 'example.com/gpu': 0 });
});

test('a snapshot lists the nodes with affinity pods, following addPod and removePod', () => {
  const n1 = node('n1'), n2 = node('n2');
  const snapshot = makeSnapshot([n1, n2]);
  assert.equal(snapshot.nodesWithAffinityPods(), []);
  const anti = pod('anti', { spec: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [] } } } });
  addPod(n2, pod('plain'));
  addPod(n2, anti);
  assert.equal(snapshot.nodesWithAffinityPods().map((n) => n.name), ['n2']);
  removePod(n2, anti);
  assert.equal(snapshot.nodesWithAffinityPods(), []);
  assert.is(snapshot.get('n1'), n1);
  assert.is(snapshot.get('nope'), undefined);
});

test('a NodeInfo copied with object spread keeps its own affinity count as pods come and go', () => {
  const original = node('n');
  const anti = pod('anti', { spec: { affinity: { podAntiAffinity: {} } } });
  addPod(original, anti);
  const copy = { ...original, pods: [...original.pods], requestedScalar: {}, usedPorts: new Set<string>() };
  removePod(copy, anti);
  assert.equal(makeSnapshot([original, copy]).nodesWithAffinityPods(), [original]);
  addPod(copy, anti);
  addPod(copy, pod('plain'));
  assert.equal(makeSnapshot([copy]).nodesWithAffinityPods(), [copy]);
  removePod(original, anti);
  assert.equal(makeSnapshot([original, copy]).nodesWithAffinityPods(), [copy]);
});

// --- NodeResourcesFit filter ---

test('a node at its pod limit answers "Too many pods"', () => {
  const full = withPods(node('full', { pods: 2 }), pod('a'), pod('b'));
  const room = withPods(node('room', { pods: 3 }), pod('c'), pod('d'));
  assert.equal(filterAll(nodeResourcesFit, pod('p'), snapshotOf(full, room)), ['full: Too many pods', 'room: ok']);
});

test('insufficient cpu and memory are each reported, together when both are short', () => {
  const busy = withPods(node('busy', { cpu: '2', memory: '4Gi' }), pod('a', { requests: { cpu: '1500m', memory: '3Gi' } }));
  const p = pod('p', { requests: { cpu: '600m', memory: '512Mi' } });
  assert.equal(filterAll(nodeResourcesFit, p, snapshotOf(busy)), ['busy: Insufficient cpu']);
  const big = pod('big', { requests: { cpu: '600m', memory: '2Gi' } });
  assert.equal(filterAll(nodeResourcesFit, big, snapshotOf(busy)), ['busy: Insufficient cpu; Insufficient memory']);
  const fits = pod('fits', { requests: { cpu: '500m', memory: '1Gi' } });
  assert.equal(filterAll(nodeResourcesFit, fits, snapshotOf(busy)), ['busy: ok'], 'exactly full is still a fit');
});

test('ephemeral storage and extended resources, including ones the node lacks, have their own reasons', () => {
  const n = node('n', { ephemeralStorage: '10Gi', extra: { 'example.com/gpu': '1' } });
  const p = pod('p', { requests: { 'ephemeral-storage': '20Gi', 'example.com/gpu': '2', 'example.com/fpga': '1' } });
  assert.equal(filterAll(nodeResourcesFit, p, snapshotOf(n)), [
    'n: Insufficient ephemeral-storage; Insufficient example.com/fpga; Insufficient example.com/gpu',
  ]);
});

test('a pod that requests nothing fits an overcommitted node while a pod slot is free', () => {
  const over = withPods(node('over', { cpu: '1' }), pod('hog', { requests: { cpu: '2' } }));
  assert.equal(filterAll(nodeResourcesFit, pod('p'), snapshotOf(over)), ['over: ok']);
  assert.equal(filterAll(nodeResourcesFit, pod('q', { requests: { cpu: '1m' } }), snapshotOf(over)), ['over: Insufficient cpu']);
});

test('an init container bigger than the containers decides the fit', () => {
  const n = node('n', { cpu: '2' });
  const p = pod('p', {
    requests: { cpu: '500m' },
    spec: { initContainers: [{ name: 'i', image: 'x', resources: { requests: { cpu: '3' } } }] },
  });
  assert.equal(filterAll(nodeResourcesFit, p, snapshotOf(n)), ['n: Insufficient cpu']);
});

// --- NodePorts ---

test('host ports conflict on the same protocol and port, with 0.0.0.0 overlapping every address', () => {
  const onPorts = (name: string, ports: Record<string, unknown>[]) =>
    withPods(node(name), pod(`${name}-pod`, { containers: [{ name: 'c', image: 'x', ports }] }));
  const snapshot = snapshotOf(
    onPorts('any-8080', [{ hostPort: 8080 }]),
    onPorts('ip1-8080', [{ hostPort: 8080, hostIP: '10.0.0.1' }]),
    onPorts('udp-8080', [{ hostPort: 8080, protocol: 'UDP' }]),
    onPorts('any-9090', [{ hostPort: 9090 }]),
  );
  const want = (ports: Record<string, unknown>[]) => pod('p', { containers: [{ name: 'c', image: 'y', ports }] });
  assert.equal(feasible(nodePorts, want([{ hostPort: 8080 }]), snapshot), ['udp-8080', 'any-9090']);
  assert.equal(feasible(nodePorts, want([{ hostPort: 8080, hostIP: '10.0.0.2' }]), snapshot), ['ip1-8080', 'udp-8080', 'any-9090']);
  assert.equal(feasible(nodePorts, want([{ hostPort: 8080, hostIP: '10.0.0.1' }]), snapshot), ['udp-8080', 'any-9090']);
  assert.equal(feasible(nodePorts, want([{ hostPort: 8080, protocol: 'UDP' }]), snapshot), ['any-8080', 'ip1-8080', 'any-9090']);
  assert.equal(filterAll(nodePorts, want([{ hostPort: 9090 }]), snapshot).at(-1), "any-9090: node(s) didn't have free ports for the requested pod ports");
  assert.equal(feasible(nodePorts, want([{ containerPort: 8080 }]), snapshot).length, 4, 'a port without hostPort takes nothing on the node');
});

// --- TaintToleration, NodeUnschedulable, NodeName ---

const dedicated = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const };

test('an untolerated NoSchedule or NoExecute taint rejects the node, naming the taint', () => {
  const snapshot = snapshotOf(
    node('gpu', { taints: [dedicated] }),
    node('evicting', { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] }),
    node('soft', { taints: [{ key: 'spot', value: 'true', effect: 'PreferNoSchedule' }] }),
  );
  assert.equal(filterAll(taintToleration, pod('p'), snapshot), [
    'gpu: node(s) had untolerated taint {dedicated: gpu}',
    'evicting: node(s) had untolerated taint {node.kubernetes.io/not-ready: }',
    'soft: ok',
  ]);
});

test('tolerations match by key, operator, value and effect', () => {
  const snapshot = snapshotOf(node('gpu', { taints: [dedicated] }), node('evicting', { taints: [{ key: 'k', effect: 'NoExecute' }] }));
  const tolerating = (tolerations: unknown[]) => feasible(taintToleration, pod('p', { spec: { tolerations } }), snapshot);
  assert.equal(tolerating([{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }]), ['gpu']);
  assert.equal(tolerating([{ key: 'dedicated', value: 'gpu' }]), ['gpu'], 'Equal is the default operator, any effect');
  assert.equal(tolerating([{ key: 'dedicated', value: 'cpu' }]), [], 'a different value');
  assert.equal(tolerating([{ key: 'dedicated', operator: 'Exists' }]), ['gpu'], 'Exists ignores the value');
  assert.equal(tolerating([{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }]), [], 'another effect');
  assert.equal(tolerating([{ operator: 'Exists' }]), ['gpu', 'evicting'], 'an empty key with Exists tolerates everything');
  assert.equal(tolerating([{ operator: 'Exists', effect: 'NoExecute' }]), ['evicting']);
});

test('a cordoned node takes only pods tolerating the unschedulable taint', () => {
  const snapshot = snapshotOf(node('cordoned', { unschedulable: true }), node('open'));
  assert.equal(filterAll(nodeUnschedulable, pod('p'), snapshot), ['cordoned: node(s) were unschedulable', 'open: ok']);
  const tolerant = pod('t', { spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] } });
  assert.equal(feasible(nodeUnschedulable, tolerant, snapshot), ['cordoned', 'open']);
  const wrongEffect = pod('w', { spec: { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoExecute' }] } });
  assert.equal(feasible(nodeUnschedulable, wrongEffect, snapshot), ['open']);
});

test('a pod naming a node fits only that node', () => {
  const snapshot = snapshotOf(node('a'), node('b'));
  assert.equal(filterAll(nodeName, pod('p', { spec: { nodeName: 'b' } }), snapshot), ["a: node(s) didn't match the requested node name", 'b: ok']);
  assert.equal(feasible(nodeName, pod('q'), snapshot), ['a', 'b']);
});

// --- NodeAffinity filter ---

const zoned = () => snapshotOf(
  node('a1', { labels: { zone: 'a', disk: 'ssd', cores: '8' } }),
  node('a2', { labels: { zone: 'a', cores: '2' } }),
  node('b1', { labels: { zone: 'b', disk: 'hdd', cores: '16' } }),
  node('c1', { labels: { zone: 'c', cores: 'many' } }),
);

const requiring = (terms: unknown[], nodeSelector?: Record<string, string>) =>
  pod('p', { spec: { nodeSelector, affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } } });

test('nodeSelector must match every label, with the real reason', () => {
  const p = pod('p', { spec: { nodeSelector: { zone: 'a', disk: 'ssd' } } });
  assert.equal(filterAll(nodeAffinity, p, zoned()), [
    'a1: ok', "a2: node(s) didn't match Pod's node affinity/selector",
    "b1: node(s) didn't match Pod's node affinity/selector", "c1: node(s) didn't match Pod's node affinity/selector",
  ]);
});

test('required node affinity operators In, NotIn, Exists, DoesNotExist, Gt and Lt', () => {
  const expr = (key: string, operator: string, values?: string[]) => requiring([{ matchExpressions: [{ key, operator, values }] }]);
  assert.equal(feasible(nodeAffinity, expr('zone', 'In', ['a', 'c']), zoned()), ['a1', 'a2', 'c1']);
  assert.equal(feasible(nodeAffinity, expr('disk', 'NotIn', ['ssd']), zoned()), ['a2', 'b1', 'c1'], 'NotIn matches a missing label');
  assert.equal(feasible(nodeAffinity, expr('disk', 'Exists'), zoned()), ['a1', 'b1']);
  assert.equal(feasible(nodeAffinity, expr('disk', 'DoesNotExist'), zoned()), ['a2', 'c1']);
  assert.equal(feasible(nodeAffinity, expr('cores', 'Gt', ['4']), zoned()), ['a1', 'b1'], 'a non-integer label never matches');
  assert.equal(feasible(nodeAffinity, expr('cores', 'Lt', ['8']), zoned()), ['a2']);
});

test('terms are ORed, expressions within a term ANDed, and nodeSelector applies as well', () => {
  const p = requiring([
    { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }, { key: 'disk', operator: 'Exists' }] },
    { matchExpressions: [{ key: 'zone', operator: 'In', values: ['c'] }] },
  ]);
  assert.equal(feasible(nodeAffinity, p, zoned()), ['a1', 'c1']);
  const both = requiring([{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }], { disk: 'hdd' });
  assert.equal(feasible(nodeAffinity, both, zoned()), ['b1']);
});

test('matchFields selects by metadata.name; empty and malformed terms match nothing without spoiling the others', () => {
  assert.equal(feasible(nodeAffinity, requiring([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b1'] }] }]), zoned()), ['b1']);
  assert.equal(feasible(nodeAffinity, requiring([{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['b1'] }] }]), zoned()), ['a1', 'a2', 'c1']);
  assert.equal(feasible(nodeAffinity, requiring([{}]), zoned()), [], 'an empty term selects nothing');
  assert.equal(feasible(nodeAffinity, requiring([]), zoned()), [], 'no terms select nothing');
  const mixed = requiring([
    { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['1', '2'] }] },
    { matchFields: [{ key: 'metadata.labels', operator: 'In', values: ['x'] }] },
    { matchExpressions: [{ key: 'zone', operator: 'Near', values: ['a'] }] },
    { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] },
  ]);
  assert.equal(feasible(nodeAffinity, mixed, zoned()), ['b1']);
});

// --- scores ---

test('LeastAllocated prefers the emptier node, with the integer arithmetic of the real scorer', () => {
  const busy = withPods(node('busy', { cpu: '4', memory: '8Gi' }), pod('a', { requests: { cpu: '1', memory: '2Gi' } }));
  const empty = node('empty', { cpu: '4', memory: '8Gi' });
  const p = pod('p', { requests: { cpu: '1', memory: '2Gi' } });
  // busy: cpu (4000-2000)*100/4000 = 50, memory (8-4)/8 = 50; empty: 75 and 75.
  assert.equal(scoreAll(nodeResourcesFit, p, snapshotOf(busy, empty)), ['busy=50', 'empty=75']);
  const odd = node('odd', { cpu: '3', memory: '3Gi' });
  // cpu (3000-1000)*100/3000 = 66.6 -> 66; memory (3-2)/3 -> 33; (66+33)/2 = 49.5 -> 49.
  assert.equal(scoreAll(nodeResourcesFit, p, snapshotOf(odd)), ['odd=49']);
});

test('LeastAllocated counts 100m and 200Mi for pods that request nothing', () => {
  const n = withPods(node('n', { cpu: '1', memory: '1000Mi' }), pod('best-effort'));
  // requested: cpu 100 + 100 of 1000 -> 80; memory 200 + 200 of 1000Mi -> 60; mean 70.
  assert.equal(scoreAll(nodeResourcesFit, pod('p'), snapshotOf(n)), ['n=70']);
  const overbooked = withPods(node('over', { cpu: '1', memory: '1Gi' }), pod('hog', { requests: { cpu: '2', memory: '512Mi' } }));
  // cpu over capacity scores 0; memory (1024-512-200)/1024 -> 30; mean 15.
  assert.equal(scoreAll(nodeResourcesFit, pod('q'), snapshotOf(overbooked)), ['over=15']);
});

test('balanced allocation prefers equal cpu and memory shares and ignores best-effort pods', () => {
  const even = node('even', { cpu: '4', memory: '8Gi' });
  const cpuHeavy = withPods(node('cpu-heavy', { cpu: '4', memory: '8Gi' }), pod('a', { requests: { cpu: '2' } }));
  const bestEffortOnly = withPods(node('be', { cpu: '4', memory: '8Gi' }), pod('b'));
  const p = pod('p', { requests: { cpu: '1', memory: '2Gi' } });
  // cpu-heavy: cpu 3/4, memory 2/8: std = 0.25 -> 75; the best-effort pod adds no plain request.
  assert.equal(scoreAll(balancedAllocation, p, snapshotOf(even, cpuHeavy, bestEffortOnly)), ['even=100', 'cpu-heavy=75', 'be=100']);
  const over = withPods(node('over', { cpu: '1', memory: '8Gi' }), pod('hog', { requests: { cpu: '3' } }));
  // cpu share capped at 1, memory 2/8: std 0.375 -> 62.5 -> 62.
  assert.equal(scoreAll(balancedAllocation, p, snapshotOf(over)), ['over=62']);
  assert.equal(scoreAll(balancedAllocation, pod('nothing'), snapshotOf(even, cpuHeavy)), ['even=0', 'cpu-heavy=0']);
});

test('PreferNoSchedule taints the pod does not tolerate lower the score, fewer is better', () => {
  const spot = { key: 'spot', value: 'true', effect: 'PreferNoSchedule' as const };
  const old = { key: 'old', effect: 'PreferNoSchedule' as const };
  const snapshot = snapshotOf(node('clean'), node('one', { taints: [spot] }), node('two', { taints: [spot, old, dedicated] }));
  assert.equal(scoreAll(taintToleration, pod('p'), snapshot), ['clean=100', 'one=50', 'two=0']);
  const spotOk = pod('s', { spec: { tolerations: [{ key: 'spot', operator: 'Exists', effect: 'PreferNoSchedule' }] } });
  assert.equal(scoreAll(taintToleration, spotOk, snapshot), ['clean=100', 'one=100', 'two=0']);
  const noScheduleOnly = pod('n', { spec: { tolerations: [{ key: 'spot', operator: 'Exists', effect: 'NoSchedule' }] } });
  assert.equal(scoreAll(taintToleration, noScheduleOnly, snapshot), ['clean=100', 'one=50', 'two=0'], 'a NoSchedule toleration does not apply');
  assert.equal(scoreAll(taintToleration, pod('p'), snapshotOf(node('x'), node('y'))), ['x=100', 'y=100']);
});

test('preferred node affinity adds the weights of the matching terms, scaled to the best node', () => {
  const p = pod('p', { spec: { affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [
    { weight: 2, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
    { weight: 3, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } },
    { weight: 50, preference: {} },
  ] } } } });
  // a1 2+3 = 5, a2 2, b1 3, c1 0; scaled by 100/5.
  assert.equal(scoreAll(nodeAffinity, p, zoned()), ['a1=100', 'a2=40', 'b1=60', 'c1=0']);
  assert.equal(scoreAll(nodeAffinity, pod('q'), zoned()), ['a1=0', 'a2=0', 'b1=0', 'c1=0']);
});

test('image locality scales image sizes by their spread over the nodes, between 23MB and 1000MB per container', () => {
  const big = { names: ['app:1'], sizeBytes: 500 * MB };
  const tiny = { names: ['tiny:latest'], sizeBytes: 10 * MB };
  const snapshot = snapshotOf(node('has', { images: [big, tiny] }), node('lacks'));
  // 500MB * 1/2 nodes = 250MB: 100 * (250 - 23) / (1000 - 23) = 23.2 -> 23.
  assert.equal(scoreAll(imageLocality, pod('p'), snapshot), ['has=23', 'lacks=0']);
  const both = snapshotOf(node('n1', { images: [big] }), node('n2', { images: [big] }));
  // 100 * (500 - 23) / 977 = 48.8 -> 48.
  assert.equal(scoreAll(imageLocality, pod('p'), both), ['n1=48', 'n2=48']);
  const untagged = pod('t', { containers: [{ name: 'c', image: 'tiny' }] });
  assert.equal(scoreAll(imageLocality, untagged, snapshot), ['has=0', 'lacks=0'], 'below 23MB scores nothing');
  const two = pod('two', { containers: [{ name: 'a', image: 'app:1' }, { name: 'b', image: 'other:2' }] });
  // 250MB against a 2000MB ceiling: 100 * 227 / 1977 = 11.48 -> 11.
  assert.equal(scoreAll(imageLocality, two, snapshot), ['has=11', 'lacks=0']);
});

// --- the loops ---

test('the default plugins come in the real order with the real weights', () => {
  assert.equal(defaultFilterPlugins().map((p) => p.name), [
    'NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'PodTopologySpread', 'InterPodAffinity',
  ]);
  assert.equal(defaultScorePlugins().map((p) => `${p.name} ${p.weight}`), [
    'TaintToleration 3', 'NodeAffinity 2', 'NodeResourcesFit 1', 'PodTopologySpread 2', 'InterPodAffinity 2',
    'NodeResourcesBalancedAllocation 1', 'ImageLocality 1',
  ]);
});

test('the filters that run name the first plugin that rejects the node; those with nothing to check skip', () => {
  const tainted = withPods(node('tainted', { cpu: '1', taints: [dedicated] }), pod('a', { requests: { cpu: '1' } }));
  const cordoned = node('cordoned', { unschedulable: true, taints: [dedicated] });
  const full = withPods(node('full', { cpu: '1' }), pod('b', { requests: { cpu: '1' } }));
  const snapshot = snapshotOf(tainted, cordoned, full, node('free'));
  const p = pod('p', { requests: { cpu: '500m' } });
  const state = newState();
  const pre = preFilter(state, p, snapshot, defaultFilterPlugins());
  assert.ok('filters' in pre);
  assert.equal(pre.filters.map((f) => f.name), ['NodeUnschedulable', 'TaintToleration', 'NodeResourcesFit'],
    'no node name, node affinity, host ports, spread constraints or pod affinity to check');
  assert.equal(snapshot.nodes.map((n) => runFilters(state, { pod: p, snapshot, filters: pre.filters }, n)), [
    { plugin: 'TaintToleration', reason: 'node(s) had untolerated taint {dedicated: gpu}' },
    { plugin: 'NodeUnschedulable', reason: 'node(s) were unschedulable' },
    { plugin: 'NodeResourcesFit', reason: 'Insufficient cpu' },
    undefined,
  ]);
  const ported = pod('q', { containers: [{ name: 'c', image: 'a', ports: [{ containerPort: 80, hostPort: 80 }] }], spec: { nodeSelector: { disk: 'ssd' } } });
  const all = preFilter(newState(), ported, snapshot, defaultFilterPlugins());
  assert.ok('filters' in all);
  assert.equal(all.filters.map((f) => f.name), ['NodeUnschedulable', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit']);
});

test('preFilter stops at a malformed constraint and rejects the pod for every node', () => {
  const p = pod('p', { spec: { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule',
    labelSelector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] } }] } });
  const failure = preFilter(newState(), p, snapshotOf(node('n')), defaultFilterPlugins());
  assert.ok('reject' in failure);
  assert.is(failure.reject.plugin, 'PodTopologySpread');
  assert.match(failure.reject.reasons[0]!, /"Near" is not a valid label selector operator/);
});

test('a cycle weighs each normalised score and sums them per node; plugins with nothing to score skip', () => {
  const spot = { key: 'spot', effect: 'PreferNoSchedule' as const };
  const busy = withPods(node('busy', { cpu: '4', memory: '8Gi' }), pod('a', { requests: { cpu: '2', memory: '2Gi' } }));
  const spotNode = node('spot', { cpu: '4', memory: '8Gi', taints: [spot] });
  const empty = node('empty', { cpu: '4', memory: '8Gi' });
  const snapshot = snapshotOf(busy, spotNode, empty);
  const p = pod('p', { requests: { cpu: '1', memory: '2Gi' } });
  const r = runCycle({ pod: p, snapshot, filters: defaultFilterPlugins(), scores: defaultScorePlugins(), start: 0, numToFind: 3, random: seededRandom(1) });
  const by = Object.fromEntries(r.top.map((t) => [t.node, t.byPlugin]));
  assert.equal(by.busy, { TaintToleration: 300, NodeResourcesFit: 37, NodeResourcesBalancedAllocation: 87 },
    'busy: cpu 25, memory 50 -> 37; balance cpu 3/4, memory 4/8 -> std 0.125');
  assert.equal(by.spot, { TaintToleration: 0, NodeResourcesFit: 75, NodeResourcesBalancedAllocation: 100 });
  assert.equal(by.empty, { TaintToleration: 300, NodeResourcesFit: 75, NodeResourcesBalancedAllocation: 100 });
  for (const t of r.top) assert.is(t.total, Object.values(t.byPlugin).reduce((sum, s) => sum + s, 0));
  assert.equal(r.top.map((t) => t.node), ['empty', 'busy', 'spot'], 'highest total first');
  assert.is(r.node!.name, 'empty');
});

test.run();
