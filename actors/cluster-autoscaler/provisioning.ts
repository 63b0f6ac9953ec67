// The first step of each loop, as the real UpdateNodes and removeOldUnregisteredNodes: scale-ups
// whose nodes did not all register within max-node-provision-time back their group off
// (`ScaleUpTimedOut` on the status ConfigMap), and machines unregistered for that long are deleted
// through the provider (`DeleteUnregistered`), never below the group's minimum. The rules and
// times are cluster-state.ts's; this does the telling and the deleting.
import { formatDuration } from '../api/duration.ts';
import type { CloudProvider } from './cloud-provider.ts';
import type { ClusterState, GroupSight } from './cluster-state.ts';

export interface ProvisioningContext {
  provider: CloudProvider;
  state: ClusterState;
  /** An Event on the status ConfigMap. */
  log(reason: string, message: string, type?: 'Normal' | 'Warning'): void;
}

/** Updates the cluster state at `atMs`; true when a machine was deleted, which ends the loop. */
export async function giveUpOnMissingNodes(ctx: ProvisioningContext, atMs: number, sights: readonly GroupSight[], registered: (name: string) => boolean): Promise<boolean> {
  for (const { groupId, afterMs } of ctx.state.update(atMs, sights, registered)) {
    ctx.log('ScaleUpTimedOut', `Nodes added to group ${groupId} failed to register within ${formatDuration(afterMs)}`, 'Warning');
    ctx.state.failed(groupId, atMs, { errorCode: 'timeout', errorMessage: `Scale-up timed out for node group ${groupId} after ${formatDuration(afterMs)}` });
  }
  let removed = false;
  for (const g of ctx.provider.nodeGroups()) {
    const names = ctx.state.unregistered(g.id).long.slice(0, Math.max(0, g.targetSize() - g.minSize));
    if (names.length === 0) continue;
    try {
      await ctx.provider.deleteNodes(g.id, names);
    } catch (e) {
      for (const n of names) ctx.log('DeleteUnregisteredFailed', `Failed to remove node ${n}: ${(e as Error).message}`, 'Warning');
      continue;
    }
    for (const n of names) ctx.log('DeleteUnregistered', `Removed unregistered node ${n}`);
    removed = true;
  }
  return removed;
}
