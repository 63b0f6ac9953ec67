// What the scheduler derives from API objects once, so plugins never reparse them: a pod's requests
// (as the real scheduler sums them), its host ports and images; a node's allocatable amounts,
// taints and images plus the running totals of the pods bound or assumed on it; and the snapshot of
// all nodes one scheduling cycle reads. addPod/removePod keep a NodeInfo's totals incremental.
import { milliCPU, wholeUnits } from '../api/quantity.ts';
import type { KObject } from '../api/types.ts';
import type { NodeInfo, PodInfo, Resources, Snapshot, Taint } from './framework.ts';

/** The scoring defaults for a container that requests no CPU or no memory (schedutil's non-zero defaults). */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

type ResourceList = Record<string, string | number>;

interface ContainerView {
  image?: string;
  resources?: { requests?: ResourceList };
  ports?: { hostPort?: number; hostIP?: string; protocol?: string }[];
  restartPolicy?: string;
}

interface PodSpecView {
  containers?: ContainerView[];
  initContainers?: ContainerView[];
  overhead?: ResourceList;
  priority?: number;
  affinity?: { podAffinity?: unknown; podAntiAffinity?: unknown };
}

interface NodeView {
  spec?: { taints?: Taint[]; unschedulable?: boolean };
  status?: { allocatable?: ResourceList; capacity?: ResourceList; images?: { names?: string[]; sizeBytes?: number }[] };
}

export function emptyResources(): Resources {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, pods: 0, scalar: {} };
}

/** Extended resources (`example.com/gpu`), prefixed native ones and huge pages: what the scheduler counts besides cpu, memory, storage. */
export function isScalarResourceName(name: string): boolean {
  return name.includes('/') || name.startsWith('hugepages-');
}

/** Adds a resource list; `nonZero` counts a missing cpu or memory as the scoring default. */
function addList(acc: Resources, list: ResourceList | undefined, nonZero: boolean): void {
  if (nonZero) {
    if (list?.cpu === undefined) acc.milliCPU += DEFAULT_MILLI_CPU_REQUEST;
    if (list?.memory === undefined) acc.memory += DEFAULT_MEMORY_REQUEST;
  }
  if (!list) return;
  for (const [name, quantity] of Object.entries(list)) {
    if (name === 'cpu') acc.milliCPU += milliCPU(quantity);
    else if (name === 'memory') acc.memory += wholeUnits(quantity);
    else if (name === 'ephemeral-storage') acc.ephemeralStorage += wholeUnits(quantity);
    else if (isScalarResourceName(name)) acc.scalar[name] = (acc.scalar[name] ?? 0) + wholeUnits(quantity);
  }
}

function addResources(acc: Resources, r: Resources, sign: 1 | -1): void {
  acc.milliCPU += sign * r.milliCPU;
  acc.memory += sign * r.memory;
  acc.ephemeralStorage += sign * r.ephemeralStorage;
  acc.pods += sign * r.pods;
  for (const name in r.scalar) acc.scalar[name] = (acc.scalar[name] ?? 0) + sign * r.scalar[name]!;
}

function maxResources(acc: Resources, r: Resources): void {
  acc.milliCPU = Math.max(acc.milliCPU, r.milliCPU);
  acc.memory = Math.max(acc.memory, r.memory);
  acc.ephemeralStorage = Math.max(acc.ephemeralStorage, r.ephemeralStorage);
  for (const name in r.scalar) acc.scalar[name] = Math.max(acc.scalar[name] ?? 0, r.scalar[name]!);
}

/**
 * The pod's effective requests, as component-helpers' PodRequests computes them: containers run
 * together (sum), init containers one at a time (max), except restartable (sidecar) init
 * containers, which keep running and so add to everything after them; then the overhead. (The real
 * helper also maxes the running sidecar sum into the init maximum; the total already holds it.)
 */
function podRequests(spec: PodSpecView, nonZero: boolean): Resources {
  const total = emptyResources();
  for (const c of spec.containers ?? []) addList(total, c.resources?.requests, nonZero);
  const sidecars = emptyResources();
  const initMax = emptyResources();
  for (const c of spec.initContainers ?? []) {
    const own = emptyResources();
    addList(own, c.resources?.requests, nonZero);
    if (c.restartPolicy === 'Always') {
      addResources(total, own, 1);
      addResources(sidecars, own, 1);
    } else {
      addResources(own, sidecars, 1);
      maxResources(initMax, own);
    }
  }
  maxResources(total, initMax);
  if (spec.overhead) addList(total, spec.overhead, false);
  return total;
}

/** `name:latest` when the reference has no tag (the last `:` is not after the last `/`). */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

export function podInfo(pod: KObject): PodInfo {
  const spec = (pod.spec ?? {}) as PodSpecView;
  const namespace = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name ?? '';
  const requests = podRequests(spec, false);
  requests.pods = 1;
  const nonZero = podRequests(spec, true);
  const hostPorts: string[] = [];
  for (const c of spec.containers ?? []) {
    for (const p of c.ports ?? []) {
      if ((p.hostPort ?? 0) > 0) hostPorts.push(`${p.protocol || 'TCP'}/${p.hostIP || '0.0.0.0'}/${p.hostPort}`);
    }
  }
  const images = [...(spec.initContainers ?? []), ...(spec.containers ?? [])].map((c) => normalizedImageName(c.image ?? ''));
  return {
    pod,
    key: `${namespace}/${name}`,
    namespace,
    name,
    uid: pod.metadata.uid ?? '',
    labels: pod.metadata.labels ?? {},
    priority: spec.priority ?? 0,
    requests,
    scalarNames: Object.keys(requests.scalar).sort(),
    nonZero: { milliCPU: nonZero.milliCPU, memory: nonZero.memory },
    hostPorts,
    images,
  };
}

/** Whether the pod has pod affinity or anti-affinity terms (what InterPodAffinity must look at). */
export function hasPodAffinity(pod: PodInfo): boolean {
  const affinity = pod.pod.spec?.affinity;
  return affinity !== undefined && (affinity.podAffinity != null || affinity.podAntiAffinity != null);
}

function resourcesOf(list: ResourceList): Resources {
  const r = emptyResources();
  addList(r, list, false);
  if (list.pods !== undefined) r.pods = wholeUnits(list.pods);
  return r;
}

/** The taints of every untainted node: one array, so a filter's look at it stays in the cache. */
const NO_TAINTS: readonly Taint[] = Object.freeze([]);

export function newNodeInfo(node: KObject): NodeInfo {
  const { spec, status } = node as NodeView;
  const imageSizes = new Map<string, number>();
  for (const image of status?.images ?? []) {
    for (const name of image.names ?? []) imageSizes.set(name, image.sizeBytes ?? 0);
  }
  const allocatable = resourcesOf(status?.allocatable ?? status?.capacity ?? {});
  return {
    node,
    name: node.metadata.name ?? '',
    labels: node.metadata.labels ?? {},
    taints: spec?.taints?.length ? spec.taints : NO_TAINTS,
    unschedulable: spec?.unschedulable === true,
    allocatableMilliCPU: allocatable.milliCPU,
    allocatableMemory: allocatable.memory,
    allocatableEphemeralStorage: allocatable.ephemeralStorage,
    allocatablePods: allocatable.pods,
    allocatableScalar: allocatable.scalar,
    requestedMilliCPU: 0,
    requestedMemory: 0,
    requestedEphemeralStorage: 0,
    requestedPods: 0,
    requestedScalar: {},
    nonZeroMilliCPU: 0,
    nonZeroMemory: 0,
    pods: [],
    usedPorts: new Set(),
    imageSizes,
  };
}

/** Adds (sign 1) or takes away (-1) one pod's requests from its node's sums. */
function countRequests(info: NodeInfo, pod: PodInfo, sign: 1 | -1): void {
  const r = pod.requests;
  info.requestedMilliCPU += sign * r.milliCPU;
  info.requestedMemory += sign * r.memory;
  info.requestedEphemeralStorage += sign * r.ephemeralStorage;
  info.requestedPods += sign * r.pods;
  for (const name in r.scalar) info.requestedScalar[name] = (info.requestedScalar[name] ?? 0) + sign * r.scalar[name]!;
  info.nonZeroMilliCPU += sign * pod.nonZero.milliCPU;
  info.nonZeroMemory += sign * pod.nonZero.memory;
}

/** Bumped whenever a pod with affinity comes or goes anywhere: snapshots recompute their list then. */
let affinityEpoch = 0;

/**
 * A number that changes whenever the node's pods change (through addPod/removePod), unique across
 * all nodes: what lets plugins memoise per-node counts of matching pods.
 */
const generations = new WeakMap<NodeInfo, number>();
let lastGeneration = 0;

export function nodeGeneration(info: NodeInfo): number {
  let generation = generations.get(info);
  if (generation === undefined) generations.set(info, (generation = ++lastGeneration));
  return generation;
}

const affinityLists = new WeakMap<NodeInfo, { generation: number; pods: PodInfo[] }>();

/** The node's pods having pod affinity or anti-affinity terms (rebuilt after its pods change). */
export function podsWithAffinity(info: NodeInfo): readonly PodInfo[] {
  const generation = nodeGeneration(info);
  let list = affinityLists.get(info);
  if (!list || list.generation !== generation) affinityLists.set(info, (list = { generation, pods: info.pods.filter(hasPodAffinity) }));
  return list.pods;
}

/** Binds (or assumes) `pod` on the node: its requests, ports and affinity count from now on. */
export function addPod(info: NodeInfo, pod: PodInfo): void {
  info.pods.push(pod);
  countRequests(info, pod, 1);
  for (const port of pod.hostPorts) info.usedPorts.add(port);
  if (hasPodAffinity(pod)) affinityEpoch++;
  generations.set(info, ++lastGeneration);
}

/** Removes the pod (matched by uid, else by namespace/name); false when it is not on the node. */
export function removePod(info: NodeInfo, pod: PodInfo): boolean {
  const same = (p: PodInfo) => p === pod || (pod.uid !== '' ? p.uid === pod.uid : p.key === pod.key);
  const index = info.pods.findIndex(same);
  if (index < 0) return false;
  const gone = info.pods[index]!;
  info.pods.splice(index, 1);
  countRequests(info, gone, -1);
  for (const port of gone.hostPorts) info.usedPorts.delete(port);
  if (hasPodAffinity(gone)) affinityEpoch++;
  generations.set(info, ++lastGeneration);
  return true;
}

/**
 * A snapshot over a fixed set of nodes (the array is copied; replace a node by making a new
 * snapshot). Pods added to or removed from its nodes with addPod/removePod are seen at once.
 */
export function makeSnapshot(nodes: readonly NodeInfo[]): Snapshot {
  return growableSnapshot(nodes);
}

/** A snapshot whose set of nodes changes in place: what-if copies that add and take away nodes one at a time. */
export interface GrowableSnapshot extends Snapshot {
  add(node: NodeInfo): void;
  remove(name: string): void;
}

export function growableSnapshot(nodes: readonly NodeInfo[]): GrowableSnapshot {
  const list = nodes.slice();
  const byName = new Map(list.map((n) => [n.name, n]));
  let withAffinity: NodeInfo[] = [];
  let seenEpoch = -1;
  return {
    nodes: list,
    get: (name) => byName.get(name),
    nodesWithAffinityPods() {
      if (seenEpoch !== affinityEpoch) {
        withAffinity = list.filter((n) => podsWithAffinity(n).length > 0);
        seenEpoch = affinityEpoch;
      }
      return withAffinity;
    },
    add(node) {
      list.push(node);
      byName.set(node.name, node);
      seenEpoch = -1;
    },
    remove(name) {
      const node = byName.get(name);
      if (!node) return;
      byName.delete(name);
      // Most removals take the newest node away again.
      const i = list.lastIndexOf(node);
      if (i === list.length - 1) list.pop();
      else list.splice(i, 1);
      seenEpoch = -1;
    },
  };
}
