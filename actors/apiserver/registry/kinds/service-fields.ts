// Reading a Service's spec as the real registry does (pkg/registry/core/service): which types get
// a cluster IP, node ports or a health-check node port, and the fields an update compares.
import { isPlainObject, type KObject } from '../../../api/types.ts';

export interface ServicePortSpec {
  name?: string;
  protocol?: string;
  port?: number;
  targetPort?: number | string;
  nodePort?: number;
  appProtocol?: string;
}

export interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ipFamilies?: string[];
  ipFamilyPolicy?: string;
  ports?: ServicePortSpec[];
  selector?: Record<string, string>;
  externalName?: string;
  externalIPs?: string[];
  externalTrafficPolicy?: string;
  internalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  allocateLoadBalancerNodePorts?: boolean;
  loadBalancerClass?: string;
  publishNotReadyAddresses?: boolean;
  sessionAffinity?: string;
}

/** The spec of a Service being written (created on first ask, so it may be filled in place). */
export const serviceSpec = (svc: KObject): ServiceSpec => (svc.spec ??= {}) as ServiceSpec;
/**
 * The spec of an update's object, copied down to its ports and lists so that it may be changed in
 * place: a patch's result shares what it left unchanged with the stored object, which nobody may change.
 */
export function ownSpec(svc: KObject): ServiceSpec {
  const spec: ServiceSpec = { ...((svc.spec ?? {}) as ServiceSpec) };
  if (Array.isArray(spec.ports)) spec.ports = spec.ports.map((p) => (isPlainObject(p) ? { ...p } : p));
  if (Array.isArray(spec.clusterIPs)) spec.clusterIPs = [...spec.clusterIPs];
  if (Array.isArray(spec.ipFamilies)) spec.ipFamilies = [...spec.ipFamilies];
  svc.spec = spec;
  return spec;
}

/** The spec of a stored Service, only read. */
export const storedSpec = (svc: KObject): ServiceSpec => (svc.spec ?? {}) as ServiceSpec;

export const NONE = 'None';

export const needsClusterIP = (s: ServiceSpec) => s.type !== 'ExternalName';
export const needsNodePorts = (s: ServiceSpec) => s.type === 'NodePort' || s.type === 'LoadBalancer';
/** A LoadBalancer keeping client addresses needs a node port for the balancer's health checks. */
export const needsHealthCheck = (s: ServiceSpec) => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';
/** Ports not asked for are allocated for NodePorts, and for LoadBalancers unless allocateLoadBalancerNodePorts is false. */
export const allocatesNodePorts = (s: ServiceSpec) => s.type === 'NodePort' || (s.type === 'LoadBalancer' && s.allocateLoadBalancerNodePorts !== false);
/** Reachable from outside the cluster: externalTrafficPolicy applies. */
export const externallyReachable = (s: ServiceSpec) => needsNodePorts(s) || (s.type === 'ClusterIP' && (s.externalIPs?.length ?? 0) > 0);
export const isHeadless = (s: ServiceSpec) => s.clusterIPs?.length === 1 && s.clusterIPs[0] === NONE;

/** The node ports a spec names (0 for none is left out). */
export const nodePortsOf = (s: ServiceSpec): number[] => (s.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => n !== 0);

export function sameList(a: readonly unknown[] | undefined, b: readonly unknown[] | undefined): boolean {
  const x = a ?? [], y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/** A string list as Go's %#v prints it in validation messages: `[]string{"10.0.0.1"}`. */
export const goStrings = (list: readonly string[] | undefined) => `[]string{${(list ?? []).map((s) => JSON.stringify(s)).join(', ')}}`;
