// What a test of a whole run sees happen to nodes and pods, from the store's changes, in seconds
// since the run's start.
import type { Node, Pod } from '../../actors/api/model/core.ts';
import type { LiveRun } from '../../sim/run.ts';

const since = (live: LiveRun) => live.virtualMs() / 1000;

/** Each node's changes of a watched property, as [seconds since the start, value] when it changes. */
export function watchNodes(live: LiveRun, of: (n: Node | undefined) => string, seen: Map<string, [number, string][]>): void {
  live.cluster.server.store.onChange((c) => {
    if (!c.key.includes('/core/nodes/')) return;
    const before = of(c.prev as Node | undefined);
    const after = of(c.type === 'DELETED' ? undefined : (c.object as Node));
    if (before === after) return;
    const name = c.object.metadata.name!;
    seen.set(name, [...(seen.get(name) ?? []), [since(live), after]]);
  });
}

export interface PodLife {
  name: string;
  node?: string;
  /** When it was bound, got its deletionTimestamp (evicted or deleted), became Ready, was removed. */
  boundAt?: number;
  terminatingAt?: number;
  readyAt?: number;
  goneAt?: number;
}

/** Every pod's life by uid. */
export function watchPods(live: LiveRun, pods: Map<string, PodLife>): void {
  live.cluster.server.store.onChange((c) => {
    if (!c.key.includes('/core/pods/')) return;
    const pod = c.object as Pod;
    const life = pods.get(pod.metadata.uid!) ?? { name: pod.metadata.name! };
    pods.set(pod.metadata.uid!, life);
    const t = since(live);
    if (pod.spec?.nodeName && life.node === undefined) [life.node, life.boundAt] = [pod.spec.nodeName, t];
    if (pod.metadata.deletionTimestamp && life.terminatingAt === undefined) life.terminatingAt = t;
    if (life.readyAt === undefined && (pod.status?.conditions ?? []).some((x) => x.type === 'Ready' && x.status === 'True')) life.readyAt = t;
    if (c.type === 'DELETED') life.goneAt = t;
  });
}
