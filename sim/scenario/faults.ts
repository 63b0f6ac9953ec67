// Faults injected at a virtual time. Checked against the expanded pools: named nodes must exist,
// and a count drawn at random must not exceed the nodes its pool and zone filters leave.
import { formatDuration } from '../../actors/api/duration.ts';
import { wholeUnits } from '../../actors/api/quantity.ts';
import { REPLICA_FAULTS, type Fault, type NodePool, type ReplicaFaultKind, type Scenario } from './types.ts';
import { listed, type Field } from './field.ts';
import { locateNode, nodeName, nodesInZone } from './pools.ts';
import { boolean, dnsLabel, durationMs, nonEmptyString, number, oneOf, optional, positiveInteger, quantity } from './schema.ts';

const FAULT_FIELDS = ['kind', 'at', 'recoverAfter', 'nodes', 'count', 'largest', 'pool', 'zone', 'memory', 'replica', 'downFor', 'upFor', 'probability', 'latency', 'component', 'waveSize', 'timeout', 'notice', 'drain', 'replace'];
const KIND_FIELDS: Record<string, string[]> = {
  downFor: ['nodeFlap', 'maintenanceDrain'], upFor: ['nodeFlap'], waveSize: ['maintenanceDrain'], timeout: ['maintenanceDrain'], notice: ['spotInterruption'], drain: ['spotInterruption'], replace: ['nodeDelete'], probability: ['messageLoss'], latency: ['latency'], component: ['messageLoss', 'latency'] };
const FAULT_NODES_MAX = 100_000;
/** `zone: any`: the fault over every zone in turn, a fault set (fault-sets.ts). */
export const ANY_ZONE = 'any';

/** One entry of `faults:`; `runMs` is the scenario's duration, `pools` every pool by name. */
export function fault(f: Field, runMs: number, pools: ReadonlyMap<string, NodePool>, replicas: Scenario['replicas']): Fault {
  f.mapping(FAULT_FIELDS);
  const kind = oneOf(f.child('kind'), ['nodeCrash', 'memoryPressure', 'zonePartition', 'nodeFlap', 'messageLoss', 'latency', 'apiServerRestart', 'natsOutage', 'maintenanceDrain', 'spotInterruption', 'nodeDelete', 'capacityShortage', ...REPLICA_FAULTS] as const);
  for (const [field, kinds] of Object.entries(KIND_FIELDS))
    if (f.child(field).present && !kinds.includes(kind)) f.child(field).error(`belongs to ${kinds.join(' and ')} faults only`);
  const atMs = durationMs(f.child('at'));
  if (atMs < 0) f.child('at').fail('must not be negative');
  if (atMs >= runMs) f.child('at').fail(`must be before the end of the run (duration ${formatDuration(runMs)})`);
  const out: Fault = { kind, atMs, count: 1 };
  if ((REPLICA_FAULTS as readonly string[]).includes(kind)) return replicaFault(f, out, kind as ReplicaFaultKind, replicas);
  if (f.child('replica').present) f.child('replica').error('belongs to controller-manager and scheduler faults only');
  if (kind === 'zonePartition') return zoneFault(f, out, pools);
  if (kind === 'capacityShortage') return capacityShortage(f, out, pools);
  if (kind === 'apiServerRestart' || kind === 'natsOutage') {
    const what = kind === 'apiServerRestart' ? 'it stops the API server' : 'it stops the bus between every component and the API server';
    for (const other of ['nodes', 'count', 'pool', 'zone', 'memory'])
      if (f.child(other).present) f.child(other).error(`does not apply to ${kind}: ${what}`);
    if (!f.child('recoverAfter').present) f.child('recoverAfter').error(`is required for ${kind}: how long ${kind === 'apiServerRestart' ? 'the API server' : 'the bus'} is down`);
    out.recoverAfterMs = positiveDuration(f.child('recoverAfter'));
    return out;
  }
  if (kind === 'maintenanceDrain' || kind === 'spotInterruption' || kind === 'nodeDelete') disruption(f, out, kind);
  if (kind === 'nodeFlap') {
    for (const field of ['downFor', 'upFor'] as const) {
      if (!f.child(field).present) f.child(field).error(`is required for nodeFlap: how long the nodes stay ${field === 'downFor' ? 'down' : 'up'} each time`);
      const ms = durationMs(f.child(field));
      if (!(ms > 0)) f.child(field).fail('must be greater than 0');
      out[field === 'downFor' ? 'downForMs' : 'upForMs'] = ms;
    }
  }
  if (kind === 'messageLoss') {
    if (!f.child('probability').present) f.child('probability').error('is required for messageLoss: the share of messages lost, 0..1');
    out.probability = number(f.child('probability'), 0, 1, 'a probability from 0 to 1');
  }
  if (kind === 'latency') {
    if (!f.child('latency').present) f.child('latency').error('is required for latency: the extra delay of each message, e.g. 200ms');
    out.latencyMs = durationMs(f.child('latency'));
    if (!(out.latencyMs > 0)) f.child('latency').fail('must be greater than 0');
  }
  if (kind === 'messageLoss' || kind === 'latency') {
    out.component = optional(f.child('component'), (c) => oneOf(c, ['nodes', 'controllerManager', 'scheduler'] as const), 'nodes');
    if (out.component !== 'nodes') {
      for (const other of ['nodes', 'count', 'pool', 'zone'])
        if (f.child(other).present) f.child(other).error(`does not apply to component ${out.component}: it hits every replica`);
      if (f.child('recoverAfter').present) out.recoverAfterMs = positiveDuration(f.child('recoverAfter'));
      return out;
    }
  }
  if (kind === 'memoryPressure') {
    if (!f.child('memory').present) f.child('memory').error('is required for a memoryPressure fault: the extra memory each node uses, e.g. 30Gi');
    out.memoryBytes = wholeUnits(quantity(f.child('memory'), { positive: true }));
  } else if (f.child('memory').present) f.child('memory').error('belongs to memoryPressure faults only');
  if (f.child('recoverAfter').present) {
    out.recoverAfterMs = durationMs(f.child('recoverAfter'));
    if (!(out.recoverAfterMs > 0)) f.child('recoverAfter').fail('must be greater than 0');
  }
  if (f.child('largest').present) {
    if (f.child('largest').value !== true && f.child('largest').value !== false) f.child('largest').fail('must be true or false');
    if (f.child('nodes').present) f.child('largest').error('cannot be given with nodes: it chooses among the nodes count draws from');
    if (f.child('largest').value === true) out.largest = true;
  }
  if (f.child('nodes').present) {
    for (const filter of ['count', 'pool', 'zone'])
      if (f.child(filter).present) f.child(filter).error('cannot be given with nodes: name the nodes, or give count with optional pool and zone filters');
    out.nodes = namedNodes(f.child('nodes'), pools);
    out.count = out.nodes.length;
    return out;
  }
  const pool = optional(f.child('pool'), dnsLabel, undefined);
  const zone = optional(f.child('zone'), nonEmptyString, undefined);
  const candidates = pool === undefined ? [...pools.values()] : [pools.get(pool) ?? f.child('pool').fail(`must name a node pool (${listed([...pools.keys()])})`)];
  if (pool !== undefined) out.pool = pool;
  const zones = new Set(candidates.flatMap((p) => p.zones));
  if (zone === ANY_ZONE) out.zones = [...zones].sort();
  else if (zone !== undefined) {
    out.zone = zone;
    if (!zones.has(zone)) f.child('zone').fail(`must be a zone of ${pool === undefined ? 'some pool' : `pool ${pool}`} (${listed([...zones].map((z) => JSON.stringify(z)))}), or any`);
  }
  // Drawn from every zone of a set in turn: the count must fit the smallest.
  const inZone = (z: string | undefined) => candidates.reduce((n, p) => n + (z === undefined ? p.count : nodesInZone(p, z)), 0);
  const [matching, from] = out.zones
    ? out.zones.map((z) => [inZone(z), z] as const).sort((a, b) => a[0] - b[0])[0]!
    : [inZone(zone), zone] as const;
  if (f.child('count').present) out.count = positiveInteger(f.child('count'), FAULT_NODES_MAX);
  if (out.count > matching) f.child('count').fail(`must be at most the number of nodes it draws from (${matching}${describeFilter(pool, from)})`);
  return out;
}

function namedNodes(f: Field, pools: ReadonlyMap<string, NodePool>): string[] {
  const seen = new Set<string>();
  return f.list('node names', { nonEmpty: true, max: FAULT_NODES_MAX }).map((n) => {
    const name = nonEmptyString(n);
    if (!locateNode(pools, name)) n.fail(`must name a node of a pool: <pool>-<index> with the index zero-padded to the width of count - 1 (e.g. ${exampleNode(pools)})`);
    if (seen.has(name)) n.fail('is listed twice');
    seen.add(name);
    return name;
  });
}

function exampleNode(pools: ReadonlyMap<string, NodePool>): string {
  const pool = pools.values().next().value as NodePool;
  return nodeName(pool, 0);
}

function describeFilter(pool: string | undefined, zone: string | undefined): string {
  const parts = [pool === undefined ? '' : `pool ${pool}`, zone === undefined ? '' : `zone ${zone}`].filter((s) => s !== '');
  return parts.length ? ` in ${parts.join(', ')}` : ' in all pools';
}

/** The default notice of a spot interruption: the two minutes a cloud gives before it takes the instance back. */
export const SPOT_NOTICE_MS = 120_000;

const NO_RECOVERY = {
  maintenanceDrain: 'does not apply to maintenanceDrain: it ends when its last wave is uncordoned (see downFor)',
  spotInterruption: 'does not apply to spotInterruption: the instance is gone for good',
  nodeDelete: 'does not apply to nodeDelete: the node is gone for good (replace: true brings a new one)',
};

/**
 * A planned drain's waves and maintenance time, a spot interruption's notice and drain, or a node
 * deletion's replacement; none takes recoverAfter (each ends by itself).
 */
function disruption(f: Field, out: Fault, kind: keyof typeof NO_RECOVERY): void {
  if (f.child('recoverAfter').present) f.child('recoverAfter').error(NO_RECOVERY[kind]);
  if (kind === 'nodeDelete') {
    if (f.child('replace').present) out.replace = boolean(f.child('replace'));
    return;
  }
  if (kind === 'spotInterruption') {
    out.noticeMs = f.child('notice').present ? durationMs(f.child('notice')) : SPOT_NOTICE_MS;
    if (out.noticeMs < 0) f.child('notice').fail('must not be negative');
    out.drain = optional(f.child('drain'), boolean, true);
    return;
  }
  out.downForMs = f.child('downFor').present ? durationMs(f.child('downFor')) : 0;
  if (out.downForMs < 0) f.child('downFor').fail('must not be negative');
  out.waveSize = f.child('waveSize').present ? positiveInteger(f.child('waveSize'), FAULT_NODES_MAX) : 1;
  if (f.child('timeout').present) out.timeoutMs = positiveDuration(f.child('timeout'));
}

/** A fault of one controller-manager or scheduler replica: the leader at the time, or one by index. */
function replicaFault(f: Field, out: Fault, kind: ReplicaFaultKind, replicas: Scenario['replicas']): Fault {
  for (const other of ['nodes', 'count', 'pool', 'zone', 'memory'])
    if (f.child(other).present) f.child(other).error(`does not apply to ${kind}: it hits one replica (replica: leader or an index)`);
  const count = kind.startsWith('scheduler') ? replicas.scheduler : replicas.controllerManager;
  const at = f.child('replica');
  if (!at.present || at.value === 'leader') out.replica = 'leader';
  else if (Number.isInteger(at.value) && (at.value as number) >= 0 && (at.value as number) < count) out.replica = at.value as number;
  else at.fail(`must be leader or a replica index from 0 to ${count - 1} (replicas: ${count})`);
  if (f.child('recoverAfter').present) {
    out.recoverAfterMs = durationMs(f.child('recoverAfter'));
    if (!(out.recoverAfterMs > 0)) f.child('recoverAfter').fail('must be greater than 0');
  } else if (kind.endsWith('Freeze')) f.child('recoverAfter').error(`is required for ${kind}: how long the replica stays frozen`);
  return out;
}

/** A zone cut off from the control plane: every node agent in it. */
function zoneFault(f: Field, out: Fault, pools: ReadonlyMap<string, NodePool>): Fault {
  for (const other of ['nodes', 'count', 'pool', 'memory'])
    if (f.child(other).present) f.child(other).error('does not apply to zonePartition: it cuts off every node of its zone');
  if (!f.child('zone').present) f.child('zone').error('is required for zonePartition: the zone cut off, or any (each zone in turn)');
  const zone = nonEmptyString(f.child('zone'));
  const zones = new Set([...pools.values()].flatMap((p) => p.zones));
  if (zone === ANY_ZONE) out.zones = [...zones].sort();
  else {
    if (!zones.has(zone)) f.child('zone').fail(`must be a zone of some pool (${listed([...zones].map((z) => JSON.stringify(z)))}), or any`);
    out.zone = zone;
    out.count = zonePartitionSize(pools.values(), zone);
  }
  if (f.child('recoverAfter').present) {
    out.recoverAfterMs = durationMs(f.child('recoverAfter'));
    if (!(out.recoverAfterMs > 0)) f.child('recoverAfter').fail('must be greater than 0');
  }
  return out;
}

/** The nodes a zone partition cuts off: every node of the zone. */
export function zonePartitionSize(pools: Iterable<NodePool>, zone: string): number {
  let n = 0;
  for (const p of pools) n += nodesInZone(p, zone);
  return n;
}

/** The cloud has no machine for an autoscaled pool from `at` for `recoverAfter` (or to the end): nodes asked for meanwhile never come. */
function capacityShortage(f: Field, out: Fault, pools: ReadonlyMap<string, NodePool>): Fault {
  for (const other of ['nodes', 'count', 'zone', 'memory', 'largest'])
    if (f.child(other).present) f.child(other).error('does not apply to capacityShortage: it hits a pool\'s new machines, not nodes');
  if (!f.child('pool').present) f.child('pool').error('is required for capacityShortage: the autoscaled pool the cloud has no machines for');
  const pool = dnsLabel(f.child('pool'));
  const autoscaled = [...pools.values()].filter((p) => p.autoscaling).map((p) => p.name);
  if (!autoscaled.includes(pool)) f.child('pool').fail(`must name a pool with autoscaling: (${listed(autoscaled)})`);
  out.pool = pool;
  out.count = 0;
  if (f.child('recoverAfter').present) out.recoverAfterMs = positiveDuration(f.child('recoverAfter'));
  return out;
}

function positiveDuration(f: Field): number {
  const ms = durationMs(f);
  if (!(ms > 0)) f.fail('must be greater than 0');
  return ms;
}
