// The node's resource usage as the real agent's Summary API (`/stats/summary`, kubelet
// stats/v1alpha1) reports it: the node's CPU in nanocores and its memory working set, and the
// same per pod and per container. orchsim's agent answers it over the bus on
// `orch.node.<node>.summary` (the metrics server scrapes it there, actors/metrics-server/),
// evaluated at the instant asked. Only the fields the metrics pipeline reads are given: no
// cumulative usageCoreNanoSeconds (the real metrics server derives its rate from it; here the
// rate is the curve's value), no file systems, networks or page faults.
import { timestamp } from '../api/env.ts';
import { token } from '../apiserver/watch/subjects.ts';
import type { PodUse } from './pod-usage.ts';

export interface CpuStats {
  time: string;
  usageNanoCores: number;
}

export interface MemoryStats {
  time: string;
  workingSetBytes: number;
  usageBytes: number;
  availableBytes?: number;
}

export interface ContainerStats {
  name: string;
  startTime: string;
  cpu: CpuStats;
  memory: MemoryStats;
}

export interface PodStats {
  podRef: { name: string; namespace: string; uid: string };
  startTime: string;
  containers: ContainerStats[];
  cpu: CpuStats;
  memory: MemoryStats;
}

export interface Summary {
  node: { nodeName: string; startTime: string; cpu: CpuStats; memory: MemoryStats };
  pods: PodStats[];
}

/** The subject a node agent answers its summary on; its name escaped as one subject token. */
export const summarySubject = (nodeName: string): string => `orch.node.${token(nodeName)}.summary`;

export interface NodeFacts {
  nodeName: string;
  startMs: number;
  memoryBytes: number;
  /** Memory used beside the pods (a memory-pressure fault). */
  extraMemoryBytes: number;
}

export interface RunningPod {
  ref: { namespace: string; name: string; uid: string };
  startMs: number;
  use: PodUse;
}

const nanoCores = (cores: number) => Math.round(cores * 1e9);

/** The summary at `atMs`: each running pod's containers, the pods' sums, and the node's (the pods' plus any extra memory). */
export function nodeSummary(node: NodeFacts, pods: readonly RunningPod[], atMs: number): Summary {
  const time = timestamp(atMs);
  let nodeCpu = 0;
  let nodeMemory = node.extraMemoryBytes;
  const podStats = pods.map(({ ref, startMs, use }): PodStats => {
    const startTime = timestamp(startMs);
    let podCpu = 0, podMemory = 0;
    const containers = use.containers.map((name, i): ContainerStats => {
      const cpu = nanoCores(use.cpuAt(atMs, i));
      const memory = Math.round(use.memoryAt(atMs, i));
      podCpu += cpu;
      podMemory += memory;
      return { name, startTime, cpu: { time, usageNanoCores: cpu }, memory: { time, workingSetBytes: memory, usageBytes: memory } };
    });
    nodeCpu += podCpu;
    nodeMemory += podMemory;
    return { podRef: ref, startTime, containers, cpu: { time, usageNanoCores: podCpu }, memory: { time, workingSetBytes: podMemory, usageBytes: podMemory } };
  });
  return {
    node: { nodeName: node.nodeName, startTime: timestamp(node.startMs), cpu: { time, usageNanoCores: nodeCpu },
      memory: { time, workingSetBytes: nodeMemory, usageBytes: nodeMemory, availableBytes: Math.max(0, node.memoryBytes - nodeMemory) } },
    pods: podStats,
  };
}
