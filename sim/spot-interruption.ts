// A spot interruption, as a cloud gives it and aws-node-termination-handler passes it on: at the
// notice the node gets the taint aws-node-termination-handler/spot-itn (NoSchedule, the handler's
// own key, so nothing new lands there) and a Warning Event, and the handler drains it as kubectl
// drain does (maintenance-drain.ts: cordon, evictions honouring budgets), with the notice as the
// drain's timeout, so the pods are replaced elsewhere before the instance goes (`drain: false`:
// the taint alone, the pods lost with the node). `notice` later the cloud takes the instance
// back: the node's agent stops and its Node is deleted, the pods still on it left to the pod GC as
// for any deleted node. An autoscaled pool's group shrinks with it (the autoscaler may replace
// the node); any other pool has lost the node for the rest of the run.
import type { Clock } from '../actors/api/env.ts';
import { formatDuration } from '../actors/api/duration.ts';
import { isNotFound } from '../actors/api/status.ts';
import { NODES, type Node, type Taint } from '../actors/api/model/core.ts';
import type { ApiClient } from '../actors/client/client.ts';
import { referenceTo, type EventRecorder } from '../actors/client/events/index.ts';
import type { Drainer } from './maintenance-drain.ts';
import type { DrainTimeout } from './report/types.ts';

export const SPOT_TAINT = 'aws-node-termination-handler/spot-itn';

/** What the interruption needs of the cluster: the instance taken back, by the cloud or outright. */
export interface InstanceHost {
  loseInstance(name: string): Promise<void>;
}

export interface SpotInit {
  client: ApiClient;
  clock: Clock;
  events: EventRecorder;
  host: InstanceHost;
  /** The handler's drain; absent: the taint alone. */
  drainer?: Drainer;
  /** The run's start on the clock, for the times reported. */
  t0: number;
}

/**
 * Gives the nodes their notice now, their loss `noticeMs` later going on behind; resolves when
 * every drain has ended (at once without one), with the drains the instance's loss cut short.
 */
export async function interruptSpot(init: SpotInit, nodes: readonly string[], noticeMs: number, onError: (e: unknown) => void): Promise<DrainTimeout[]> {
  const at = init.clock.now();
  const timeouts: DrainTimeout[] = [];
  const drains: Promise<void>[] = [];
  for (const name of nodes) {
    const node = await notice(init, name, noticeMs);
    init.clock.setTimeout(() => void init.host.loseInstance(name).catch(onError), Math.max(0, at + noticeMs - init.clock.now()));
    if (node) init.events.event(referenceTo(NODES, node), 'Warning', 'SpotInterruption',
      `Spot interruption notice: the instance of node ${name} will be terminated in ${formatDuration(noticeMs)}`);
    if (node && init.drainer) drains.push(init.drainer.drain(name, Math.max(0, at + noticeMs - init.clock.now())).then((outcome) => {
      if (!outcome.gone && outcome.podsLeft > 0) timeouts.push({ node: name, atMs: init.clock.now() - init.t0, podsLeft: outcome.podsLeft });
    }));
  }
  await Promise.all(drains);
  return timeouts;
}

/** Taints the node; undefined if it is gone already. */
async function notice(init: SpotInit, name: string, noticeMs: number): Promise<Node | undefined> {
  try {
    const node = await init.client.get(NODES, undefined, name);
    const value = String(Math.floor((init.clock.now() + noticeMs) / 1000));
    const taints: Taint[] = [...(node.spec?.taints ?? []).filter((t) => t.key !== SPOT_TAINT), { key: SPOT_TAINT, value, effect: 'NoSchedule' }];
    return await init.client.patch(NODES, undefined, name, { spec: { taints } }, 'merge');
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}
