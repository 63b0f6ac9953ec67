// The core (v1) kinds product code reads and writes, with their resources.
import type * as v1 from 'kubernetes-types/core/v1.js';
import { typedResource, type Stored } from './stored.ts';

export type {
  Container, ContainerPort, ContainerState, ContainerStatus, NodeAddress, NodeCondition, NodeSpec, NodeStatus, PodAffinityTerm,
  PodCondition, PodSpec, PodStatus, PodTemplateSpec, ResourceRequirements, Taint, Toleration, TopologySpreadConstraint,
} from 'kubernetes-types/core/v1.js';

export type Pod = Stored<v1.Pod>;
export type Node = Stored<v1.Node>;
export type Namespace = Stored<v1.Namespace>;
export type Service = Stored<v1.Service>;
export type Endpoints = Stored<v1.Endpoints>;
export type Event = Stored<v1.Event>;
export type ConfigMap = Stored<v1.ConfigMap>;
export type Secret = Stored<v1.Secret>;
export type ServiceAccount = Stored<v1.ServiceAccount>;
export type ResourceQuota = Stored<v1.ResourceQuota>;
export type LimitRange = Stored<v1.LimitRange>;

export const PODS = typedResource<Pod>('', 'v1', 'pods');
export const NODES = typedResource<Node>('', 'v1', 'nodes');
export const NAMESPACES = typedResource<Namespace>('', 'v1', 'namespaces');
export const SERVICES = typedResource<Service>('', 'v1', 'services');
export const ENDPOINTS = typedResource<Endpoints>('', 'v1', 'endpoints');
export const EVENTS = typedResource<Event>('', 'v1', 'events');
export const CONFIG_MAPS = typedResource<ConfigMap>('', 'v1', 'configmaps');
export const SECRETS = typedResource<Secret>('', 'v1', 'secrets');
export const SERVICE_ACCOUNTS = typedResource<ServiceAccount>('', 'v1', 'serviceaccounts');
export const RESOURCE_QUOTAS = typedResource<ResourceQuota>('', 'v1', 'resourcequotas');
export const LIMIT_RANGES = typedResource<LimitRange>('', 'v1', 'limitranges');
