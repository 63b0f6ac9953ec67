// Removing unneeded nodes, as the real autoscaler's actuator does (core/scaledown/actuation): a
// node is first tainted ToBeDeletedByClusterAutoscaler (NoSchedule, the time as its value) so no
// pod lands there; an empty one is then deleted at once, a busy one drained: each pod to move is
// evicted through the eviction subresource (so budgets are honoured; a refused eviction is tried
// again every EVICTION_RETRY_MS until MAX_POD_EVICTION_MS), then the node waits for its pods to go
// (at most max-graceful-termination-sec, checked every POD_GONE_CHECK_MS) and is deleted through
// the cloud provider. Events are the real ones', on the node, its pods and the status ConfigMap.
import type { Clock } from '../api/env.ts';
import { isNotFound, isTooManyRequests } from '../api/status.ts';
import { NODES, PODS, type Node, type Taint } from '../api/model/core.ts';
import type { ApiClient } from '../client/client.ts';
import { referenceTo, type EventRecorder, type ObjectReference } from '../client/events/index.ts';
import type { PodInfo } from '../scheduler/framework.ts';
import type { CloudProvider } from './cloud-provider.ts';
import type { UnneededNode, Utilization } from './scale-down.ts';

export const TO_BE_DELETED_TAINT = 'ToBeDeletedByClusterAutoscaler';
const EVICTION_RETRY_MS = 10_000;
const MAX_POD_EVICTION_MS = 2 * 60_000;
const POD_GONE_CHECK_MS = 5_000;

export interface ActuatorInit {
  client: ApiClient;
  clock: Clock;
  events: EventRecorder;
  provider: CloudProvider;
  /** The node as the informer holds it now. */
  node(name: string): Node | undefined;
  /** How many pods that a drain moves are still on the node. */
  podsLeft(name: string): number;
  /** The status ConfigMap's reference, once written (the real LogRecorder's object). */
  statusMap(): ObjectReference | undefined;
  onError(e: unknown): void;
}

/** Go's %v of the real utilization.Info: {CpuUtil MemUtil GpuUtil DynamicResourceUtil ResourceName Utilization}. */
const utilizationText = (u: Utilization) => `{${u.cpu} ${u.memory} 0 0 ${u.resource} ${u.value}}`;
const podNames = (pods: readonly PodInfo[]) => pods.map((p) => p.name).join(',');

export class Actuator {
  /** Nodes whose removal is under way, by group. */
  readonly deleting = new Map<string, string>();
  readonly #o: ActuatorInit;

  constructor(init: ActuatorInit) {
    this.#o = init;
  }

  /** How many nodes of each group are being removed. */
  deletingPerGroup(): Map<string, number> {
    const out = new Map<string, number>();
    for (const group of this.deleting.values()) out.set(group, (out.get(group) ?? 0) + 1);
    return out;
  }

  #log(reason: string, message: string): void {
    const map = this.#o.statusMap();
    if (map) this.#o.events.event(map, 'Normal', reason, message);
  }

  /** Begins removing the node; resolves once it is tainted (the drain and deletion go on behind). */
  async remove(node: UnneededNode): Promise<boolean> {
    const empty = node.podsToMove.length === 0;
    if (empty) this.#log('ScaleDownEmpty', `Scale-down: removing empty node "${node.name}"`);
    else this.#log('ScaleDown', `Scale-down: removing node ${node.name}, utilization: ${utilizationText(node.utilization)}, pods to reschedule: ${podNames(node.podsToMove)}`);
    const current = this.#o.node(node.name);
    if (!current) return false;
    this.deleting.set(node.name, node.group.id);
    try {
      await this.#taint(current);
    } catch (e) {
      this.deleting.delete(node.name);
      this.#o.events.event(referenceTo(NODES, current), 'Warning', 'ScaleDownFailed', `failed to mark the node as toBeDeleted/unschedulable: ${(e as Error).message}`);
      return false;
    }
    this.#o.events.event(referenceTo(NODES, current), 'Normal', 'ScaleDown', 'marked the node as toBeDeleted/unschedulable');
    void this.#finish(node, current, empty).catch((e) => this.#failed(node, current, e)).finally(() => this.deleting.delete(node.name));
    return true;
  }

  /** A drain or deletion that failed: the node is told, and loses its taint so pods may land there again. */
  async #failed(node: UnneededNode, current: Node, e: unknown): Promise<void> {
    const what = node.podsToMove.length ? 'failed to drain and delete node' : 'failed to delete empty node';
    this.#o.events.event(referenceTo(NODES, current), 'Warning', 'ScaleDownFailed', `${what}: ${(e as Error).message}`);
    const now = this.#o.node(node.name);
    if (!now) return;
    const taints = (now.spec?.taints ?? []).filter((t) => t.key !== TO_BE_DELETED_TAINT);
    await this.#o.client.patch(NODES, undefined, node.name, { spec: { taints } }, 'merge').catch((err) => this.#o.onError(err));
  }

  async #taint(node: Node): Promise<void> {
    const taints: Taint[] = (node.spec?.taints ?? []).filter((t) => t.key !== TO_BE_DELETED_TAINT);
    taints.push({ key: TO_BE_DELETED_TAINT, value: String(Math.floor(this.#o.clock.now() / 1000)), effect: 'NoSchedule' });
    await this.#o.client.patch(NODES, undefined, node.metadata.name!, { spec: { taints } }, 'merge');
  }

  async #finish(node: UnneededNode, current: Node, empty: boolean): Promise<void> {
    if (!empty) {
      await Promise.all(node.podsToMove.map((p) => this.#evict(p)));
      await this.#podsGone(node.name);
    }
    await this.#o.provider.deleteNodes(node.group.id, [node.name]);
    this.#o.events.event(referenceTo(NODES, current), 'Normal', 'ScaleDown', 'nodes removed by cluster autoscaler');
    this.#log(empty ? 'ScaleDownEmpty' : 'ScaleDown', empty ? `Scale-down: empty node ${node.name} removed` : `Scale-down: node ${node.name} removed with drain`);
  }

  async #evict(pod: PodInfo): Promise<void> {
    const ref = referenceTo(PODS, pod.pod);
    this.#o.events.event(ref, 'Normal', 'ScaleDown', 'deleting pod for node scale down');
    const url = `/api/v1/namespaces/${pod.namespace}/pods/${pod.name}/eviction`;
    const body = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod.name, namespace: pod.namespace } };
    const deadline = this.#o.clock.now() + MAX_POD_EVICTION_MS;
    for (;;) {
      try {
        return void (await this.#o.client.request('POST', url, body));
      } catch (e) {
        if (isNotFound(e)) return;
        if (!isTooManyRequests(e) || this.#o.clock.now() + EVICTION_RETRY_MS > deadline) {
          this.#o.events.event(ref, 'Warning', 'ScaleDownFailed', 'failed to delete pod for ScaleDown');
          throw e;
        }
      }
      await this.#sleep(EVICTION_RETRY_MS);
    }
  }

  async #podsGone(name: string): Promise<void> {
    // The real wait: max-graceful-termination-sec plus a margin for the kubelet to report.
    const deadline = this.#o.clock.now() + 600_000;
    while (this.#o.podsLeft(name) > 0 && this.#o.clock.now() < deadline) await this.#sleep(POD_GONE_CHECK_MS);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.#o.clock.setTimeout(resolve, ms));
  }
}
