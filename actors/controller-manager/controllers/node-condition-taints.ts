// Taint nodes by condition, the part of the node lifecycle controller that keeps a node's
// NoSchedule taints equal to what its conditions say (a node is created with the not-ready taint
// by the TaintNodesByCondition admission step; this removes it once the node reports Ready).
// Level-triggered: each node event recomputes the node's managed taints from its current state
// and writes only a difference; a conflict is settled by the next event.
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { ApiClient } from '../../client/client.ts';
import type { Informer } from '../../client/informer.ts';
import type { SharedInformers } from '../../client/shared-informers.ts';
import type { Bus } from '../../../transport/bus.ts';
import { NODES, type Node, type Taint } from '../../api/model/core.ts';

/** Condition type and status → the NoSchedule taint key it means (the real controller's table). */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
  Ready: { False: 'node.kubernetes.io/not-ready', Unknown: 'node.kubernetes.io/unreachable' },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';
const MANAGED = new Set([...Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)), UNSCHEDULABLE]);

/** The NoSchedule taint keys a node's conditions and spec call for. */
export function conditionTaintKeys(node: Node): string[] {
  const keys: string[] = [];
  for (const c of node.status?.conditions ?? []) {
    const key = CONDITION_TAINTS[c.type]?.[c.status];
    if (key) keys.push(key);
  }
  if (node.spec?.unschedulable) keys.push(UNSCHEDULABLE);
  return keys.sort();
}

/** The node's taints with the managed NoSchedule ones replaced by `keys`; undefined when nothing changes. */
export function reconcileTaints(node: Node, keys: string[]): Taint[] | undefined {
  const taints = node.spec?.taints ?? [];
  const managed = taints.filter((t) => t.effect === 'NoSchedule' && MANAGED.has(t.key)).map((t) => t.key).sort();
  if (managed.length === keys.length && managed.every((k, i) => k === keys[i])) return undefined;
  return [...taints.filter((t) => !(t.effect === 'NoSchedule' && MANAGED.has(t.key))), ...keys.map((key) => ({ key, effect: 'NoSchedule' }))];
}

export class NodeConditionTaints {
  readonly #client: ApiClient;
  readonly #informer: Informer<Node>;
  readonly #onError: (e: unknown) => void;

  readonly #informers: SharedInformers;

  constructor(init: { bus: Bus; informers: SharedInformers; onError?: (e: unknown) => void }) {
    this.#client = new ApiClient(init.bus, 'node-lifecycle-controller', undefined, undefined, { clock: init.informers.clock });
    this.#informers = init.informers;
    this.#informer = init.informers.get(NODES);
    this.#onError = init.onError ?? ((e) => console.error('node-lifecycle-controller:', e));
    this.#informer.on({ add: (n) => this.#sync(n), update: (_old, n) => this.#sync(n) });
  }

  start(): Promise<void> {
    return this.#informers.start();
  }

  get informer(): Informer {
    return this.#informer;
  }

  stop(): void {}

  #sync(node: KObject): void {
    const taints = reconcileTaints(node, conditionTaintKeys(node));
    if (!taints) return;
    // The resourceVersion makes the write conditional: a node changed meanwhile is settled by its next event.
    const patch = { metadata: { resourceVersion: node.metadata.resourceVersion }, spec: { taints } };
    this.#client.patch(NODES, undefined, node.metadata.name!, patch, 'merge').catch((e) => {
      if (!(isConflict(e) || isNotFound(e))) this.#onError(e);
    });
  }
}
