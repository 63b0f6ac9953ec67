// The node agent's metrics, under the real agent's names with the neutral prefix (kubelet_ →
// nodeagent_): its node's name, the pods with a sandbox and their containers by state (read from
// the agent when scraped), pods started, how long each took from the agent first seeing it to its
// containers running (on the agent's clock), and evictions by signal. One has no counterpart in the
// real agent: nodeagent_node_status_updates_total counts the node status writes, which the real
// agent's metrics leave to its request counts.
import { Counter, Gauge, Histogram, type Registry } from '../api/metrics.ts';
import { perRegistry } from '../client/per-registry.ts';
import type { PodPhase } from '../../machines/pod.ts';

/** The real agent's pod startup buckets, in seconds. */
const POD_START_BUCKETS = [0.5, 1, 2, 3, 4, 5, 6, 8, 10, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600];

/** What the gauges read when scraped: each pod the agent holds, its phase and its containers. */
export type PodCensus = () => Iterable<{ phase: PodPhase; containers: number }>;

/** Phases with a pod sandbox: from creating the containers to their having stopped. */
const SANDBOX: ReadonlySet<PodPhase> = new Set(['ContainerCreating', 'Running', 'Terminating']);
const CONTAINER_STATE: Partial<Record<PodPhase, 'created' | 'running' | 'exited'>> = {
  ContainerCreating: 'created', Running: 'running', Terminating: 'running', Succeeded: 'exited', Failed: 'exited',
};

export const nodeAgentMetrics = perRegistry((registry: Registry) => {
  const registers = [registry];
  const families = {
    /** The agent the gauges read (a restarted agent on the same registry takes over). */
    census: undefined as PodCensus | undefined,
    nodeName: new Gauge({ name: 'nodeagent_node_name', help: "The node's name. The count is always 1.", labelNames: ['node'] as const, registers }),
    runningPods: new Gauge({ name: 'nodeagent_running_pods', help: 'Number of pods that have a running pod sandbox', registers,
      collect() {
        let n = 0;
        for (const p of families.census?.() ?? []) if (SANDBOX.has(p.phase)) n++;
        this.set(n);
      } }),
    runningContainers: new Gauge({ name: 'nodeagent_running_containers', help: 'Number of containers currently running', labelNames: ['container_state'] as const, registers,
      collect() {
        const n = { created: 0, running: 0, exited: 0 };
        for (const p of families.census?.() ?? []) {
          const state = CONTAINER_STATE[p.phase];
          if (state) n[state] += p.containers;
        }
        for (const [state, count] of Object.entries(n)) this.set({ container_state: state }, count);
      } }),
    startedPods: new Counter({ name: 'nodeagent_started_pods_total', help: 'Cumulative number of pods started', registers }),
    podStart: new Histogram({ name: 'nodeagent_pod_start_duration_seconds', help: 'Duration in seconds from kubelet seeing a pod for the first time to the pod starting to run',
      buckets: POD_START_BUCKETS, registers }),
    evictions: new Counter({ name: 'nodeagent_evictions', help: 'Cumulative number of pod evictions by eviction signal', labelNames: ['eviction_signal'] as const, registers }),
    statusUpdates: new Counter({ name: 'nodeagent_node_status_updates_total', help: 'Cumulative number of node status writes to the API server (orchsim; the real agent has no such metric)', registers }),
  };
  return families;
});

/** One agent's metrics. */
export class NodeAgentMetrics {
  readonly #f: ReturnType<typeof nodeAgentMetrics>;
  readonly #census: PodCensus;

  constructor(registry: Registry, nodeName: string, census: PodCensus) {
    this.#f = nodeAgentMetrics(registry);
    this.#census = census;
    this.#f.census = census;
    this.#f.nodeName.set({ node: nodeName }, 1);
  }

  /** A pod admitted: its runtime starts. */
  podStarted(): void {
    this.#f.startedPods.inc();
  }

  /** A pod's containers run, `ms` after the agent first saw it. */
  podRunning(ms: number): void {
    this.#f.podStart.observe(ms / 1000);
  }

  evicted(signal: string): void {
    this.#f.evictions.inc({ eviction_signal: signal });
  }

  statusUpdated(): void {
    this.#f.statusUpdates.inc();
  }

  /** The agent stopped: the gauges no longer read it. */
  close(): void {
    if (this.#f.census === this.#census) this.#f.census = undefined;
  }
}
