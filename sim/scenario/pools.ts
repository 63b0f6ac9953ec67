// Node pools: `count` identical nodes named `<pool>-<index>`, spread over zones round-robin,
// described by fields of the pool or by a Node manifest (`node:`, or a Node in `manifests:`).
import type { KObject } from '../../actors/api/types.ts';
import type { NodePool } from './types.ts';
import type { Field } from './field.ts';
import { taints } from './constraints.ts';
import { manifest } from './manifest-schema.ts';
import { dnsLabel, integer, labels, labelValue, number, optional, positiveInteger, quantity } from './schema.ts';

const POOL_FIELDS = ['name', 'count', 'region', 'zones', 'capacity', 'labels', 'taints', 'node', 'costPerHour', 'autoscaling', 'provisioningFailure'];
const CAPACITY_FIELDS = ['cpu', 'memory', 'ephemeralStorage', 'pods'] as const;
const DEFAULT_CAPACITY: NodePool['capacity'] = { cpu: '4', memory: '16Gi', ephemeralStorage: '100Gi', pods: 110 };
const POOL_NODES_MAX = 100_000;
const PODS_PER_NODE_MAX = 1000;
const ZONES_MAX = 1000;
const REGION_LABEL = 'topology.kubernetes.io/region';
const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** Labels a Node manifest carries that differ per node: the simulator sets them on each node. */
const PER_NODE_LABELS = new Set(['kubernetes.io/hostname', REGION_LABEL, ZONE_LABEL]);
/** Node status resource names for the pool's capacity fields. */
const STATUS_NAMES: Record<(typeof CAPACITY_FIELDS)[number], string> = { cpu: 'cpu', memory: 'memory', ephemeralStorage: 'ephemeral-storage', pods: 'pods' };

/** What a Node manifest says about its pool; `region` and `zone` come from its topology labels. */
interface NodeFacts {
  manifest: KObject;
  labels: Record<string, string>;
  taints: NodePool['taints'];
  capacity: Partial<NodePool['capacity']>;
  region?: string;
  zone?: string;
}

/** One entry of `nodePools:`. */
export function nodePool(f: Field): NodePool {
  f.mapping(POOL_FIELDS);
  const name = dnsLabel(f.child('name'));
  const count = integer(f.child('count'), f.child('autoscaling').present ? 0 : 1, POOL_NODES_MAX, f.child('autoscaling').present ? 'a non-negative integer' : 'a positive integer');
  const facts = f.child('node').present ? nodeFacts(f.child('node')) : undefined;
  const out = pool(f, name, count, facts);
  if (f.child('autoscaling').present) out.autoscaling = autoscaling(f.child('autoscaling'), count);
  if (f.child('provisioningFailure').present) {
    if (!out.autoscaling) f.child('provisioningFailure').error('belongs to pools with autoscaling: only the nodes the cluster autoscaler asks for can fail to come');
    out.provisioningFailure = number(f.child('provisioningFailure'), 0, 1, 'a probability from 0 to 1');
  }
  return out;
}

/** `autoscaling: { min, max }`: 0 <= min <= count <= max, max at least 1. */
function autoscaling(f: Field, count: number): { min: number; max: number } {
  f.mapping(['min', 'max']);
  const min = integer(f.child('min'), 0, POOL_NODES_MAX, 'a non-negative integer');
  const max = positiveInteger(f.child('max'), POOL_NODES_MAX);
  if (min > max) f.child('min').fail(`must be at most max (${max})`);
  if (count < min || count > max) f.fail(`must have min <= count <= max (count is ${count})`);
  return { min, max };
}

/** A Node of a manifests file: a pool of one, named after the node. */
export function poolFromNode(f: Field): NodePool {
  const facts = nodeFacts(f);
  const name = dnsLabel(f.child('metadata').child('name'));
  return pool(f.with({}), name, 1, facts);
}

/** The pool's fields override what its Node manifest says; labels merge key by key. */
function pool(f: Field, name: string, count: number, facts: NodeFacts | undefined): NodePool {
  const explicitCapacity = f.child('capacity');
  if (explicitCapacity.present) explicitCapacity.mapping(CAPACITY_FIELDS);
  const capacity = { ...DEFAULT_CAPACITY, ...facts?.capacity, ...capacityFields((k) => explicitCapacity.child(k)) };
  const out: NodePool = {
    name,
    count,
    region: optional(f.child('region'), labelValue, facts?.region ?? ''),
    zones: optional(f.child('zones'), zones, facts?.zone === undefined ? [''] : [facts.zone]),
    capacity,
    labels: { ...facts?.labels, ...labels(f.child('labels')) },
    taints: f.child('taints').present ? taints(f.child('taints')) : (facts?.taints ?? []),
  };
  if (f.child('costPerHour').present) out.costPerHour = number(f.child('costPerHour'), 0, 1e9, 'a non-negative number (per node-hour)');
  if (facts) out.manifest = facts.manifest;
  return out;
}

function zones(f: Field): string[] {
  return f.list('zones', { nonEmpty: true, max: ZONES_MAX }).map((z) => {
    if (z.value === '') z.fail('must be a non-empty zone name');
    return labelValue(z);
  });
}

/** The capacity fields present at `at(field)`: quantities > 0, and `pods` a positive integer. */
function capacityFields(at: (field: (typeof CAPACITY_FIELDS)[number]) => Field): Partial<NodePool['capacity']> {
  const out: Partial<NodePool['capacity']> = {};
  for (const key of CAPACITY_FIELDS) {
    const f = at(key);
    if (!f.present) continue;
    if (key === 'pods') out.pods = maxPods(f);
    else out[key] = quantity(f, { positive: true });
  }
  return out;
}

/** A node's `pods`: an integer, or in a Node's status a quantity text such as "110". */
function maxPods(f: Field): number {
  const n = typeof f.value === 'string' && /^\s*\d+\s*$/.test(f.value) ? Number(f.value) : f.value;
  return positiveInteger(f.with(n), PODS_PER_NODE_MAX);
}

/**
 * Labels (without the per-node ones), taints and capacity of a Node manifest. Capacity is read
 * from `status.allocatable`, else `status.capacity`, resource by resource (the simulator's nodes
 * have allocatable equal to capacity).
 */
function nodeFacts(f: Field): NodeFacts {
  const body = manifest(f, 'Node');
  const all = labels(f.child('metadata').child('labels'));
  const status = f.child('status');
  const facts: NodeFacts = {
    manifest: body as KObject,
    labels: Object.fromEntries(Object.entries(all).filter(([k]) => !PER_NODE_LABELS.has(k))),
    taints: taints(f.child('spec').child('taints'), { fromManifest: true }),
    capacity: capacityFields((k) => {
      const allocatable = status.child('allocatable').child(STATUS_NAMES[k]);
      return allocatable.present ? allocatable : status.child('capacity').child(STATUS_NAMES[k]);
    }),
  };
  if (all[REGION_LABEL] !== undefined) facts.region = all[REGION_LABEL];
  if (all[ZONE_LABEL]) facts.zone = all[ZONE_LABEL];
  return facts;
}

/**
 * The pool's node names: `<pool>-<index>`, the index zero-padded to the width of `count - 1`
 * (`general-00` … `general-19`); in an autoscaled pool, of `max - 1`, so nodes added later are
 * named alike.
 */
export function nodeNames(pool: NodePool): string[] {
  return Array.from({ length: pool.count }, (_, i) => nodeName(pool, i));
}

/** The name of the pool's node number `index`. */
export function nodeName(pool: NodePool, index: number): string {
  return `${pool.name}-${String(index).padStart(indexWidth(pool), '0')}`;
}

const indexWidth = (pool: NodePool) => String((pool.autoscaling?.max ?? pool.count) - 1).length;

/**
 * The pool and index a node name denotes, if any, without listing the pool's nodes. Unambiguous:
 * an index has no '-', so the pool name is everything before the last '-'.
 */
export function locateNode(pools: ReadonlyMap<string, NodePool>, node: string): { pool: NodePool; index: number } | undefined {
  const dash = node.lastIndexOf('-');
  const pool = dash > 0 ? pools.get(node.slice(0, dash)) : undefined;
  const digits = node.slice(dash + 1);
  if (!pool || !/^\d+$/.test(digits) || digits.length !== indexWidth(pool)) return undefined;
  const index = Number(digits);
  return index < pool.count ? { pool, index } : undefined;
}

/** How many of the pool's nodes are in `zone` (node i is in zones[i % zones.length]). */
export function nodesInZone(pool: NodePool, zone: string): number {
  let n = 0;
  pool.zones.forEach((z, j) => {
    if (z === zone && j < pool.count) n += Math.ceil((pool.count - j) / pool.zones.length);
  });
  return n;
}

