// The faults that end by themselves, each run by the party that would in a real cluster: a
// maintenance by an operator's client (maintenance-drain.ts), a spot interruption by the cloud and
// its termination handler (spot-interruption.ts), a node deletion by the cloud (the Node and its
// instance deleted, as `kubectl delete node` and the instance's termination; the pods on it left
// to the pod GC as for any deleted node; a replacement joining after the provisioning delay,
// cluster.ts and cloud-provider.ts). Each writes what it came to into the fault's record.
import type { Clock, Random } from '../actors/api/env.ts';
import { ApiClient } from '../actors/client/client.ts';
import { CoreEventRecorder, NO_EVENTS } from '../actors/client/events/index.ts';
import type { SimCluster } from './cluster.ts';
import { Drainer, maintain } from './maintenance-drain.ts';
import type { FaultRecord } from './report/types.ts';
import { SPOT_NOTICE_MS } from './scenario/faults.ts';
import type { Fault } from './scenario/types.ts';
import { interruptSpot } from './spot-interruption.ts';

export const DISRUPTIONS: readonly Fault['kind'][] = ['maintenanceDrain', 'spotInterruption', 'nodeDelete'];

/**
 * Starts the disruption `f` on its targets now. A maintenance has recovered when its last wave is
 * uncordoned (never, if a drain timed out and left its node cordoned); a node deletion when every
 * target's replacement has joined (never, if one is not replaced); a spot interruption never.
 */
export function disrupt(cluster: SimCluster, clock: Clock, f: Fault, targets: string[], stream: Random, record: FaultRecord, t0: number, onError: (e: unknown) => void): void {
  const identity = f.kind === 'maintenanceDrain' ? 'orchsim-operator' : 'orchsim-cloud';
  const client = new ApiClient(cluster.adminBus, identity);
  if (f.kind === 'maintenanceDrain') {
    const plan = { nodes: targets, waveSize: f.waveSize ?? 1, downForMs: f.downForMs ?? 0, ...(f.timeoutMs !== undefined ? { timeoutMs: f.timeoutMs } : {}) };
    return void maintain(new Drainer(client, clock), plan, t0).then((timeouts) => {
      if (timeouts.length) record.drainTimeouts = timeouts;
      else record.recoveredAtMs = clock.now() - t0;
    }, onError);
  }
  if (f.kind === 'nodeDelete') return void deleteNodes(cluster, clock, f, targets, record, t0).catch(onError);
  const events = cluster.scenario.events ? new CoreEventRecorder({ client, clock, random: stream.fork('events'), source: { component: 'node-termination-handler' } }) : NO_EVENTS;
  const drainer = f.drain === false ? {} : { drainer: new Drainer(client, clock) };
  void interruptSpot({ client, clock, events, host: cluster, t0, ...drainer }, targets, f.noticeMs ?? SPOT_NOTICE_MS, onError).then((timeouts) => {
    if (timeouts.length) record.drainTimeouts = timeouts;
  }, onError);
}

/** Deletes the targets one after another; each replacement is recorded when it joins. */
async function deleteNodes(cluster: SimCluster, clock: Clock, f: Fault, targets: string[], record: FaultRecord, t0: number): Promise<void> {
  let unreplaced = targets.length;
  for (const node of targets) {
    const replacement = await cluster.deleteNode(node, f.replace);
    if (!replacement) continue;
    clock.setTimeout(() => {
      const joinedAtMs = clock.now() - t0;
      (record.replacements ??= []).push({ node, by: replacement.by, joinedAtMs });
      if (--unreplaced === 0) record.recoveredAtMs = joinedAtMs;
    }, replacement.joinsInMs);
  }
}
