// Faults on the virtual clock. A node crash stops the node's agent (no lease renewals, no status,
// its pods' containers forgotten); recovery starts a fresh agent for the same node, which finds
// its node registered and its pods bound, and runs them again. Memory pressure loads the nodes'
// memory beyond their pods' use until it ends; their agents evict pods as the real agent would. Targets not named in the scenario
// are drawn from the run's `faults` stream, so the same seed crashes the same nodes. A partitioned
// zone's agents keep running but everything they send is lost. A controller-manager or scheduler
// replica (the leader at the time, or one by index) crashes and is replaced by a fresh one after
// recoverAfter, or freezes: everything it sends is held for recoverAfter.
import type { Clock, Random } from '../actors/api/env.ts';
import type { SimCluster } from './cluster.ts';
import type { FaultRecord } from './report/types.ts';
import type { Fault } from './scenario/types.ts';

/** `count` distinct names drawn from `names` (a partial Fisher–Yates shuffle of a sorted copy). */
export function drawTargets(names: string[], count: number, random: Random): string[] {
  const pool = [...names].sort();
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random.next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, n);
}

export function scheduleFaults(cluster: SimCluster, clock: Clock, random: Random, faults: Fault[], t0: number, onError: (e: unknown) => void): FaultRecord[] {
  const records: FaultRecord[] = [];
  faults.forEach((f, i) => {
    const stream = random.fork(`fault/${i}`);
    clock.setTimeout(() => {
      if (f.kind !== 'nodeCrash' && f.kind !== 'memoryPressure' && f.kind !== 'zonePartition') return records.push(replicaFault(cluster, clock, f, t0));
      const candidates = cluster.nodes.filter((n) => (!f.pool || n.pool === f.pool) && (f.zone === undefined || n.zone === f.zone)).map((n) => n.name);
      const targets = f.kind === 'zonePartition' ? candidates.sort() : f.nodes ?? drawTargets(candidates, f.count, stream);
      const record: FaultRecord = { kind: f.kind, atMs: clock.now() - t0, targets };
      records.push(record);
      const memory = f.kind === 'memoryPressure';
      for (const name of targets) {
        if (memory) cluster.agents.get(name)?.setExtraMemoryUsage(f.memoryBytes ?? 0);
        else if (f.kind === 'zonePartition') cluster.links.get(name)!.cut = true;
        else cluster.crashNode(name);
      }
      if (f.recoverAfterMs === undefined) return;
      clock.setTimeout(() => {
        record.recoveredAtMs = clock.now() - t0;
        for (const name of targets) {
          if (memory) cluster.agents.get(name)?.setExtraMemoryUsage(0);
          else if (f.kind === 'zonePartition') cluster.links.get(name)!.cut = false;
          else void cluster.startNode(name).catch(onError);
        }
      }, f.recoverAfterMs);
    }, Math.max(0, t0 + f.atMs - clock.now()));
  });
  return records;
}

function replicaFault(cluster: SimCluster, clock: Clock, f: Fault, t0: number): FaultRecord {
  const component = f.kind.startsWith('scheduler') ? 'scheduler' : 'controllerManager';
  const index = f.replica === 'leader' || f.replica === undefined ? cluster.leaderIndex(component) : f.replica;
  const identity = `${component === 'scheduler' ? 'scheduler' : 'controller-manager'}-${index}`;
  const record: FaultRecord = { kind: f.kind, atMs: clock.now() - t0, targets: index < 0 ? [] : [identity] };
  if (index < 0) return record;
  if (f.kind.endsWith('Freeze')) cluster.links.get(identity)!.pause(f.recoverAfterMs!);
  else cluster.crashReplica(component, index, f.recoverAfterMs);
  if (f.recoverAfterMs !== undefined) clock.setTimeout(() => (record.recoveredAtMs = clock.now() - t0), f.recoverAfterMs);
  return record;
}
