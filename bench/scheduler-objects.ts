// The scheduler benchmark's cluster: 5,000 nodes in 3 zones and pending pods of 250m/512Mi,
// created through an API client in batches, for the in-process cases and the process case alike.
import { lookupResource } from '../actors/api/resources.ts';
import type { KObject } from '../actors/api/types.ts';
import { apiServerOptions, type ApiServerOptions } from '../actors/apiserver/options.ts';
import type { ApiClient } from '../actors/client/client.ts';

export const NODES = lookupResource('', 'v1', 'nodes')!;
export const PODS = lookupResource('', 'v1', 'pods')!;
export const NODE_COUNT = 5_000;
export const ZONES = ['zone-a', 'zone-b', 'zone-c'];
const IN_FLIGHT = 256;

export const nodeObject = (i: number): KObject => {
  const name = `node-${String(i).padStart(5, '0')}`;
  const resources = { cpu: '32', memory: '128Gi', pods: '110' };
  return {
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': ZONES[i % ZONES.length]! } },
    spec: {}, status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  } as KObject;
};

export const podObject = (i: number): KObject => ({
  metadata: { name: `pod-${String(i).padStart(6, '0')}`, namespace: 'default', labels: { app: `app-${i % 50}` } },
  spec: { containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '250m', memory: '512Mi' } } }] },
} as KObject);

/**
 * The API server's options: nodes are created Ready and untainted, so no taint controller is
 * needed; no ServiceAccount plugin, as no controller makes the accounts it asks pods for.
 */
export const benchServerOptions = (): ApiServerOptions => apiServerOptions({ disableAdmissionPlugins: ['TaintNodesByCondition', 'ServiceAccount'] });

export async function inBatches(count: number, work: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += IN_FLIGHT) {
    const batch: Promise<unknown>[] = [];
    for (let i = start; i < Math.min(count, start + IN_FLIGHT); i++) batch.push(work(i));
    await Promise.all(batch);
  }
}

/** Every node, then `pods` pending pods. */
export async function fill(client: ApiClient, pods: number): Promise<void> {
  await inBatches(NODE_COUNT, (i) => client.create(NODES, nodeObject(i)));
  await inBatches(pods, (i) => client.create(PODS, podObject(i)));
}
