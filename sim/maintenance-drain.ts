// A planned maintenance, as an operator runs it with `kubectl drain`: the target nodes in waves of
// `waveSize`, the nodes of a wave side by side. Each node is cordoned (spec.unschedulable), then
// every pod on it but DaemonSet and mirror pods is evicted through the eviction subresource, all
// at once, each eviction a budget refuses (429) sent again every EVICTION_RETRY_MS as kubectl does;
// the operator then waits for the evicted pods to be gone (checked every POD_GONE_CHECK_MS, kubectl's
// poll interval) or for `timeout` (kubectl drain --timeout, counted from the cordon), keeps the node
// cordoned for `downFor` (the maintenance itself) and uncordons it. The next wave starts when every
// node of the one before is uncordoned. What kubectl drain would need --force, --ignore-daemonsets
// and --delete-emptydir-data for is done as if they were given: this operator drains everything it may.
import type { Clock } from '../actors/api/env.ts';
import { isNotFound, isTooManyRequests } from '../actors/api/status.ts';
import { NODES, PODS, type Pod } from '../actors/api/model/core.ts';
import type { ApiClient } from '../actors/client/client.ts';

const EVICTION_RETRY_MS = 5_000;
const POD_GONE_CHECK_MS = 1_000;
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

export interface DrainPlan {
  /** The nodes in the order they are drained. */
  nodes: readonly string[];
  waveSize: number;
  downForMs: number;
  timeoutMs?: number;
}

/** The operator's client (its own identity, through the API server) on the run's clock. */
export class MaintenanceOperator {
  constructor(readonly client: ApiClient, readonly clock: Clock) {}

  /** Drains the plan's nodes wave by wave; resolves when the last node is uncordoned. */
  async run(plan: DrainPlan): Promise<void> {
    for (let i = 0; i < plan.nodes.length; i += plan.waveSize)
      await Promise.all(plan.nodes.slice(i, i + plan.waveSize).map((name) => this.#maintain(name, plan)));
  }

  async #maintain(name: string, plan: DrainPlan): Promise<void> {
    const deadline = plan.timeoutMs === undefined ? Infinity : this.clock.now() + plan.timeoutMs;
    // A node already gone (a cloud took it back) has nothing to maintain.
    if (!(await this.#cordon(name, true))) return;
    await this.#drain(name, deadline);
    await this.#sleep(plan.downForMs);
    await this.#cordon(name, false);
  }

  /** Whether the node was there to (un)cordon. */
  async #cordon(name: string, unschedulable: boolean): Promise<boolean> {
    try {
      await this.client.patch(NODES, undefined, name, { spec: { unschedulable: unschedulable || null } }, 'merge');
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  }

  /** Evicts the node's pods and waits until they are gone, or until `deadline`. */
  async #drain(name: string, deadline: number): Promise<void> {
    const pods = (await this.client.listAll(PODS, undefined, { fieldSelector: `spec.nodeName=${name}` })).items.filter(evicted);
    await Promise.all(pods.map((p) => this.#evict(p, deadline)));
    const uids = new Set(pods.map((p) => p.metadata.uid));
    while (this.clock.now() < deadline) {
      const left = (await this.client.listAll(PODS, undefined, { fieldSelector: `spec.nodeName=${name}` })).items.filter((p) => uids.has(p.metadata.uid));
      if (left.length === 0) return;
      await this.#sleep(Math.min(POD_GONE_CHECK_MS, deadline - this.clock.now()));
    }
  }

  /** One pod's eviction, sent again while a budget refuses it, until `deadline`. */
  async #evict(pod: Pod, deadline: number): Promise<void> {
    const { name, namespace } = pod.metadata;
    const url = `/api/v1/namespaces/${namespace}/pods/${name}/eviction`;
    const body = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } };
    for (;;) {
      try {
        return void (await this.client.request('POST', url, body));
      } catch (e) {
        if (isNotFound(e)) return;
        if (!isTooManyRequests(e)) throw e;
      }
      if (this.clock.now() + EVICTION_RETRY_MS > deadline) return;
      await this.#sleep(EVICTION_RETRY_MS);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }
}

/** The pods a drain evicts: all but a DaemonSet's (its controller would put them back at once) and mirror pods. */
function evicted(pod: Pod): boolean {
  if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return false;
  return !(pod.metadata.ownerReferences ?? []).some((o) => o.controller && o.kind === 'DaemonSet');
}
