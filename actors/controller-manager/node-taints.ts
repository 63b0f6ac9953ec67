// Writing a node's taints as the controllers do (the real SwapNodeControllerTaint and
// RemoveTaintOffNode): from the newest copy, conditional on its resourceVersion, read again from
// the server and retried on a conflict, so two controllers editing taints never lose each other's.
import { isConflict, isNotFound } from '../api/status.ts';
import type { KObject } from '../api/types.ts';
import type { ApiClient } from '../client/client.ts';
import { NODES, type Node, type Taint } from '../api/model/core.ts';

export type { Taint };

export const NOT_READY = 'node.kubernetes.io/not-ready';
export const UNREACHABLE = 'node.kubernetes.io/unreachable';

const ATTEMPTS = 5;

export const taintsOf = (node: Node): Taint[] => node.spec?.taints ?? [];

export const hasTaint = (node: KObject, key: string, effect: string): boolean => taintsOf(node).some((t) => t.key === key && t.effect === effect);

/**
 * Sets the taints `change` computes from the node's current ones; `change` returns undefined when
 * there is nothing to do. Starts from `node` (an informer's copy) and rereads it on a conflict.
 * Resolves false when the node is gone.
 */
export async function updateTaints(client: ApiClient, node: KObject, change: (taints: Taint[]) => Taint[] | undefined): Promise<boolean> {
  let current = node;
  for (let attempt = 1; ; attempt++) {
    const taints = change(taintsOf(current));
    if (!taints) return true;
    const patch = { metadata: { resourceVersion: current.metadata.resourceVersion }, spec: { taints } };
    try {
      await client.patch(NODES, undefined, current.metadata.name!, patch, 'merge');
      return true;
    } catch (e) {
      if (isNotFound(e)) return false;
      if (!isConflict(e) || attempt === ATTEMPTS) throw e;
      try {
        current = await client.get(NODES, undefined, current.metadata.name!);
      } catch (g) {
        if (isNotFound(g)) return false;
        throw g;
      }
    }
  }
}

/** `add` in place of any taint with the same key and effect, and the `remove` ones gone; undefined when already so. */
export function swapTaints(taints: Taint[], add: Taint[], remove: Taint[]): Taint[] | undefined {
  const same = (a: Taint, b: Taint) => a.key === b.key && a.effect === b.effect;
  const missing = add.filter((a) => !taints.some((t) => same(t, a)));
  const present = remove.filter((r) => taints.some((t) => same(t, r)));
  if (missing.length === 0 && present.length === 0) return undefined;
  return [...taints.filter((t) => !present.some((r) => same(t, r)) && !missing.some((a) => same(t, a))), ...missing];
}
