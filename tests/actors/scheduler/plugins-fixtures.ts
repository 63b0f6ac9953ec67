// Hand-built nodes and pods for the scheduler plugin tests, made through the real builders
// (podInfo, newNodeInfo, addPod) so every test also exercises them.
import type { KObject } from '../../../actors/api/types.ts';
import type { CycleState, FilterPlugin, NodeInfo, PodInfo, ScorePlugin, Snapshot, Taint } from '../../../actors/scheduler/framework.ts';
import { addPod, makeSnapshot, newNodeInfo, podInfo } from '../../../actors/scheduler/pod-info.ts';

type Rec = Record<string, unknown>;

export interface NodeOptions {
  cpu?: string;
  memory?: string;
  pods?: number;
  ephemeralStorage?: string;
  extra?: Record<string, string>;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
}

export function nodeObject(name: string, o: NodeOptions = {}): KObject {
  const allocatable: Record<string, string> = { cpu: o.cpu ?? '4', memory: o.memory ?? '8Gi', pods: String(o.pods ?? 110), ...o.extra };
  if (o.ephemeralStorage) allocatable['ephemeral-storage'] = o.ephemeralStorage;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: { taints: o.taints, unschedulable: o.unschedulable },
    status: { allocatable, capacity: allocatable, images: o.images ?? [] },
  };
}

export function node(name: string, o: NodeOptions = {}): NodeInfo {
  return newNodeInfo(nodeObject(name, o));
}

export interface PodOptions {
  namespace?: string;
  labels?: Record<string, string>;
  /** Requests of the single container (none when omitted). */
  requests?: Record<string, string>;
  /** Replaces the single default container. */
  containers?: Rec[];
  /** Merged into spec. */
  spec?: Rec;
  deleting?: boolean;
}

let uid = 0;

export function podObject(name: string, o: PodOptions = {}): KObject {
  const containers = o.containers ?? [{ name: 'main', image: 'app:1', resources: o.requests ? { requests: o.requests } : {} }];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: `uid-${++uid}`,
      labels: o.labels ?? {},
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { containers, ...o.spec },
  };
}

export function pod(name: string, o: PodOptions = {}): PodInfo {
  return podInfo(podObject(name, o));
}

/** Places pods on a node (as bound) and returns the node. */
export function withPods(info: NodeInfo, ...pods: PodInfo[]): NodeInfo {
  for (const p of pods) addPod(info, p);
  return info;
}

export function snapshotOf(...nodes: NodeInfo[]): Snapshot {
  return makeSnapshot(nodes);
}

export function newState(): CycleState {
  return new Map();
}

/** preFilter then filter on every node: `name: reason` or `name: ok`, one per node. */
export function filterAll(plugin: FilterPlugin, p: PodInfo, snapshot: Snapshot): string[] {
  const state = newState();
  const rejected = plugin.preFilter?.(state, p, snapshot);
  if (rejected?.reject) return snapshot.nodes.map((n) => `${n.name}: rejected: ${rejected.reject}`);
  return snapshot.nodes.map((n) => `${n.name}: ${plugin.filter(state, p, n, snapshot) ?? 'ok'}`);
}

/** The nodes (names) that pass the plugin. */
export function feasible(plugin: FilterPlugin, p: PodInfo, snapshot: Snapshot): string[] {
  return filterAll(plugin, p, snapshot).filter((l) => l.endsWith(': ok')).map((l) => l.split(':')[0]!);
}

/** preScore, score and normalize over `nodes` (all of the snapshot by default): `name=score`, unweighted. */
export function scoreAll(plugin: ScorePlugin, p: PodInfo, snapshot: Snapshot, nodes: readonly NodeInfo[] = snapshot.nodes): string[] {
  const state = newState();
  plugin.preScore?.(state, p, nodes, snapshot);
  const scores: number[] = [];
  plugin.score(state, p, nodes, snapshot, scores);
  plugin.normalize?.(state, p, scores);
  return nodes.map((n, i) => `${n.name}=${scores[i]}`);
}

/** Raw scores, before normalisation. */
export function rawScores(plugin: ScorePlugin, p: PodInfo, snapshot: Snapshot, nodes: readonly NodeInfo[] = snapshot.nodes): string[] {
  const state = newState();
  plugin.preScore?.(state, p, nodes, snapshot);
  const scores: number[] = [];
  plugin.score(state, p, nodes, snapshot, scores);
  return nodes.map((n, i) => `${n.name}=${scores[i]}`);
}
