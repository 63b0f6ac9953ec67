// coordination.k8s.io/v1: the Lease of node heartbeats and leader election.
import type * as coordination from 'kubernetes-types/coordination/v1.js';
import { typedResource, type Stored } from './stored.ts';

export type { LeaseSpec } from 'kubernetes-types/coordination/v1.js';
export type Lease = Stored<coordination.Lease>;
export const LEASES = typedResource<Lease>('coordination.k8s.io', 'v1', 'leases');
