// `kubectl drain` as an operator's or a termination handler's client runs it, and a planned
// maintenance made of drains. A drain cordons the node (spec.unschedulable), then evicts every pod
// on it but DaemonSet and mirror pods through the eviction subresource, all at once, each eviction
// a budget refuses (429) sent again every EVICTION_RETRY_MS as kubectl does; then it waits for the
// evicted pods to be gone (checked every POD_GONE_CHECK_MS, kubectl's poll interval) or for its
// timeout (kubectl drain --timeout, counted from the cordon). What kubectl drain would need
// --force, --ignore-daemonsets and --delete-emptydir-data for is done as if they were given.
//
// A maintenance takes the target nodes in waves of `waveSize`, the nodes of a wave side by side:
// each node is drained, kept cordoned for `downFor` (the maintenance itself) and uncordoned. A
// drain that times out fails as kubectl drain does (it exits with an error and leaves the node
// cordoned): that node is not maintained nor uncordoned, and is reported with the pods it still
// had; the other nodes go on, as kubectl goes on to the next node ("continuing command..."). The
// next wave starts when every node of the one before is uncordoned or has failed.
import type { Clock } from '../actors/api/env.ts';
import { isNotFound, isTooManyRequests } from '../actors/api/status.ts';
import { NODES, PODS, type Pod } from '../actors/api/model/core.ts';
import type { ApiClient } from '../actors/client/client.ts';
import { controllerOf } from '../actors/api/types.ts';
import type { DrainTimeout } from './report/types.ts';

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

/** What a drain came to: the node was not there, every evicted pod is gone, or `podsLeft` were still on it at the timeout. */
export type DrainOutcome = { gone: true } | { gone: false; podsLeft: number };

/** kubectl drain through a client (its own identity, through the API server) on the run's clock. */
export class Drainer {
  constructor(readonly client: ApiClient, readonly clock: Clock) {}

  /** Cordons the node, evicts its pods and waits until they are gone, or until `timeoutMs` from now. */
  async drain(name: string, timeoutMs: number | undefined): Promise<DrainOutcome> {
    const deadline = timeoutMs === undefined ? Infinity : this.clock.now() + timeoutMs;
    // A node already gone (a cloud took it back) has nothing to drain.
    if (!(await this.cordon(name, true))) return { gone: true };
    const pods = (await this.#podsOn(name)).filter(evicted);
    await Promise.all(pods.map((p) => this.#evict(p, deadline)));
    const uids = new Set(pods.map((p) => p.metadata.uid));
    for (;;) {
      const left = (await this.#podsOn(name)).filter((p) => uids.has(p.metadata.uid)).length;
      if (left === 0) return { gone: false, podsLeft: 0 };
      if (this.clock.now() >= deadline) return { gone: false, podsLeft: left };
      await this.sleep(Math.min(POD_GONE_CHECK_MS, deadline - this.clock.now()));
    }
  }

  /** Whether the node was there to (un)cordon. */
  async cordon(name: string, unschedulable: boolean): Promise<boolean> {
    try {
      await this.client.patch(NODES, undefined, name, { spec: { unschedulable: unschedulable || null } }, 'merge');
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      throw e;
    }
  }

  async #podsOn(name: string): Promise<Pod[]> {
    return (await this.client.listAll(PODS, undefined, { fieldSelector: `spec.nodeName=${name}` })).items;
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
      await this.sleep(EVICTION_RETRY_MS);
    }
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }
}

/** A planned maintenance: resolves when the last wave is done, with each drain that timed out (none: every node is back). */
export async function maintain(drainer: Drainer, plan: DrainPlan, t0: number): Promise<DrainTimeout[]> {
  const timeouts: DrainTimeout[] = [];
  const one = async (name: string) => {
    const outcome = await drainer.drain(name, plan.timeoutMs);
    if (outcome.gone) return;
    if (outcome.podsLeft > 0) return void timeouts.push({ node: name, atMs: drainer.clock.now() - t0, podsLeft: outcome.podsLeft });
    await drainer.sleep(plan.downForMs);
    await drainer.cordon(name, false);
  };
  for (let i = 0; i < plan.nodes.length; i += plan.waveSize) await Promise.all(plan.nodes.slice(i, i + plan.waveSize).map(one));
  return timeouts;
}

/** The pods a drain evicts: all but a DaemonSet's (its controller would put them back at once) and mirror pods. */
function evicted(pod: Pod): boolean {
  if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return false;
  return controllerOf(pod)?.kind !== 'DaemonSet';
}
