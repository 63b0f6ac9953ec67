// Faults on the virtual clock. A node crash stops the node's agent (no lease renewals, no status,
// its pods' containers forgotten); recovery starts a fresh agent for the same node, which finds
// its node registered and its pods bound, and runs them again. Memory pressure loads the nodes'
// memory beyond their pods' use until it ends; their agents evict pods as the real agent would. Targets not named in the scenario
// are drawn from the run's `faults` stream, so the same seed crashes the same nodes.
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
      const candidates = cluster.nodes.filter((n) => (!f.pool || n.pool === f.pool) && (f.zone === undefined || n.zone === f.zone)).map((n) => n.name);
      const targets = f.nodes ?? drawTargets(candidates, f.count, stream);
      const record: FaultRecord = { kind: f.kind, atMs: clock.now() - t0, targets };
      records.push(record);
      const memory = f.kind === 'memoryPressure';
      for (const name of targets) {
        if (memory) cluster.agents.get(name)?.setExtraMemoryUsage(f.memoryBytes ?? 0);
        else cluster.crashNode(name);
      }
      if (f.recoverAfterMs === undefined) return;
      clock.setTimeout(() => {
        record.recoveredAtMs = clock.now() - t0;
        for (const name of targets) {
          if (memory) cluster.agents.get(name)?.setExtraMemoryUsage(0);
          else void cluster.startNode(name).catch(onError);
        }
      }, f.recoverAfterMs);
    }, Math.max(0, t0 + f.atMs - clock.now()));
  });
  return records;
}
