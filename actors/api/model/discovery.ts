// discovery.k8s.io/v1: the EndpointSlice.
import type * as discovery from 'kubernetes-types/discovery/v1.js';
import { typedResource, type Stored } from './stored.ts';

export type { Endpoint, EndpointPort } from 'kubernetes-types/discovery/v1.js';
export type EndpointSlice = Stored<discovery.EndpointSlice>;
export const ENDPOINT_SLICES = typedResource<EndpointSlice>('discovery.k8s.io', 'v1', 'endpointslices');
