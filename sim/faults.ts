// Faults on the virtual clock. A node crash stops the node's agent (no lease renewals, no status,
// its pods' containers forgotten); recovery starts a fresh agent for the same node, which finds
// its node registered and its pods bound, and runs them again. Memory pressure loads the nodes'
// memory beyond their pods' use until it ends; their agents evict pods as the real agent would.
// A partitioned zone's agents keep running but everything they send is lost; a flapping node
// crashes and comes back in turn; a lossy or slow link loses or delays what its component sends.
// A controller-manager or scheduler replica (the leader at the time, or one by index) crashes and
// is replaced by a fresh one after recoverAfter, or freezes: everything it sends is held for
// recoverAfter. An API server restart stops it for recoverAfter and starts a new one on the same
// store: nothing is lost. A NATS outage cuts every component off the bus both ways (what they
// send and what is published to them is lost) until it ends; clients reaching the API server
// over HTTPS (the workload) are not affected. A maintenance drain, a spot interruption and a
// node deletion are told in disruptions.ts. Targets not named in the scenario are drawn from the
// run's `faults` stream, so the same seed hits the same nodes.
import type { Clock, Random } from '../actors/api/env.ts';
import { milliCPU, wholeUnits } from '../actors/api/quantity.ts';
import type { SimCluster } from './cluster.ts';
import { DISRUPTIONS, disrupt } from './disruptions.ts';
import type { FaultRecord } from './report/types.ts';
import { REPLICA_FAULTS, type Fault } from './scenario/types.ts';

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

/** What a fault does to one target, and how it is undone at recovery. */
interface Effect {
  apply(target: string): void;
  undo(target: string): void;
}

function effectOf(cluster: SimCluster, f: Fault, onError: (e: unknown) => void): Effect {
  const link = (name: string) => cluster.links.get(name)!;
  switch (f.kind) {
    case 'memoryPressure':
      return { apply: (n) => cluster.agents.get(n)?.setExtraMemoryUsage(f.memoryBytes ?? 0), undo: (n) => cluster.agents.get(n)?.setExtraMemoryUsage(0) };
    case 'zonePartition':
      return { apply: (n) => (link(n).cut = true), undo: (n) => (link(n).cut = false) };
    case 'messageLoss':
      return { apply: (n) => (link(n).loss = f.probability ?? 0), undo: (n) => (link(n).loss = 0) };
    case 'latency':
      return { apply: (n) => (link(n).latencyMs = f.latencyMs ?? 0), undo: (n) => (link(n).latencyMs = 0) };
    case 'natsOutage':
      return { apply: (n) => (link(n).cut = link(n).deaf = true), undo: (n) => (link(n).cut = link(n).deaf = false) };
    default:
      // A node deleted meanwhile (nodeDelete, a spot loss) has nothing to come back to.
      return { apply: (n) => cluster.crashNode(n), undo: (n) => void (cluster.node(n) && cluster.startNode(n).catch(onError)) };
  }
}

/** The links or nodes a fault hits: every replica of a component, a whole zone, named nodes, the largest, or nodes drawn at random. */
function targetsOf(cluster: SimCluster, f: Fault, stream: Random): string[] {
  if (f.kind === 'natsOutage') return [...cluster.links.keys()].sort();
  if (f.component === 'controllerManager') return cluster.controllerManagers.map((_, i) => `controller-manager-${i}`);
  if (f.component === 'scheduler') return cluster.schedulers.map((_, i) => `scheduler-${i}`);
  const candidates = cluster.nodes.filter((n) => (!f.pool || n.pool === f.pool) && (f.zone === undefined || n.zone === f.zone)).map((n) => n.name);
  if (f.kind === 'zonePartition') return candidates.sort();
  return f.nodes ?? (f.largest ? largest(cluster, candidates, f.count) : drawTargets(candidates, f.count, stream));
}

/** The `count` largest of `names`: most CPU, then most memory, then by name (what a worst case loses first). */
function largest(cluster: SimCluster, names: string[], count: number): string[] {
  const size = new Map(cluster.scenario.nodePools.map((p) => [p.name, [milliCPU(p.capacity.cpu), wholeUnits(p.capacity.memory)] as const]));
  const of = (name: string) => size.get(cluster.nodes.find((n) => n.name === name)!.pool)!;
  return [...names].sort((a, b) => of(b)[0] - of(a)[0] || of(b)[1] - of(a)[1] || (a < b ? -1 : 1)).slice(0, count);
}

export function scheduleFaults(cluster: SimCluster, clock: Clock, random: Random, faults: Fault[], t0: number, onError: (e: unknown) => void): FaultRecord[] {
  const records: FaultRecord[] = [];
  faults.forEach((f, i) => {
    const stream = random.fork(`fault/${i}`);
    clock.setTimeout(() => {
      if ((REPLICA_FAULTS as readonly string[]).includes(f.kind)) return void records.push(replicaFault(cluster, clock, f, t0));
      if (f.kind === 'capacityShortage') return void records.push(capacityShortage(cluster, clock, f, t0));
      if (f.kind === 'apiServerRestart') {
        const record: FaultRecord = { kind: f.kind, atMs: clock.now() - t0, targets: ['apiserver'] };
        records.push(record);
        cluster.restartApiServer(f.recoverAfterMs!);
        return void clock.setTimeout(() => (record.recoveredAtMs = clock.now() - t0), f.recoverAfterMs!);
      }
      const targets = targetsOf(cluster, f, stream);
      const record: FaultRecord = { kind: f.kind, atMs: clock.now() - t0, ...(f.zone !== undefined ? { zone: f.zone } : {}), targets };
      records.push(record);
      if (DISRUPTIONS.includes(f.kind)) return disrupt(cluster, clock, f, targets, stream, record, t0, onError);
      const effect = effectOf(cluster, f, onError);
      const endAt = f.recoverAfterMs === undefined ? Infinity : clock.now() + f.recoverAfterMs;
      for (const name of targets) effect.apply(name);
      // A flapping node comes back after downFor, goes down again after upFor, ... until the fault ends.
      if (f.kind === 'nodeFlap') {
        const flip = (down: boolean) => clock.setTimeout(() => {
          if (clock.now() >= endAt) return;
          for (const name of targets) (down ? effect.undo : effect.apply)(name);
          flip(!down);
        }, down ? f.downForMs! : f.upForMs!);
        flip(true);
      }
      if (f.recoverAfterMs === undefined) return;
      clock.setTimeout(() => {
        record.recoveredAtMs = clock.now() - t0;
        for (const name of targets) effect.undo(name);
      }, f.recoverAfterMs);
    }, Math.max(0, t0 + f.atMs - clock.now()));
  });
  return records;
}

/** The cloud has no machines for the pool until the fault ends (sim/cloud-provider.ts). */
function capacityShortage(cluster: SimCluster, clock: Clock, f: Fault, t0: number): FaultRecord {
  const record: FaultRecord = { kind: f.kind, atMs: clock.now() - t0, targets: [f.pool!] };
  cluster.cloud?.shortage(f.pool!, true);
  if (f.recoverAfterMs !== undefined) clock.setTimeout(() => {
    record.recoveredAtMs = clock.now() - t0;
    cluster.cloud?.shortage(f.pool!, false);
  }, f.recoverAfterMs);
  return record;
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
