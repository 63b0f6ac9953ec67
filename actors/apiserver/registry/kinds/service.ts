// Services (pkg/apis/core/v1 defaults.go, pkg/registry/core/service strategy.go, printService):
// DNS-label names, a status subresource, ClusterIP with no session affinity by default, TCP ports
// targeting themselves, traffic policies; cluster IPs and node ports from the server's ranges
// (service-allocation.ts), validation in service-validation.ts.
import type { KObject } from '../../../api/types.ts';
import { child, fill, items, nil, present, zero } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { serviceAllocator } from './service-allocation.ts';
import { externallyReachable, needsClusterIP, needsHealthCheck, needsNodePorts, nodePortsOf, ownSpec, sameList, storedSpec } from './service-fields.ts';
import { validateService, validateServiceUpdate } from './service-validation.ts';
import { age, ageColumn, byCodeUnit, column, type Fields, fields, formatLabels, int, list, nameColumn, nameOf, type Printer, text, wide } from '../tables-format.ts';

const CLIENT_IP_AFFINITY_TIMEOUT_SECONDS = 10800;
const EXTERNALLY_REACHABLE = new Set(['NodePort', 'LoadBalancer']);

function defaults(svc: KObject): void {
  const spec = child(svc, 'spec');
  fill(spec, [zero('sessionAffinity', 'None'), zero('type', 'ClusterIP')]);
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP')
    fill(child(child(spec, 'sessionAffinityConfig'), 'clientIP'), [nil('timeoutSeconds', CLIENT_IP_AFFINITY_TIMEOUT_SECONDS)]);
  for (const port of items(spec, 'ports')) {
    fill(port, [zero('protocol', 'TCP')]);
    if (typeof port.port === 'number') fill(port, [zero('targetPort', port.port)]);
  }
  const externalIPs = Array.isArray(spec.externalIPs) ? spec.externalIPs.length : 0;
  if (EXTERNALLY_REACHABLE.has(String(spec.type)) || (spec.type === 'ClusterIP' && externalIPs > 0))
    fill(spec, [zero('externalTrafficPolicy', 'Cluster')]);
  if (spec.type === 'ClusterIP' || EXTERNALLY_REACHABLE.has(String(spec.type))) fill(spec, [nil('internalTrafficPolicy', 'Cluster')]);
  if (spec.type !== 'LoadBalancer') return;
  fill(spec, [nil('allocateLoadBalancerNodePorts', true)]);
  const ingress = items(present(present(svc, 'status') ?? {}, 'loadBalancer') ?? {}, 'ingress');
  for (const i of ingress) if (i.ip) fill(i, [nil('ipMode', 'VIP')]);
}

const printer: Printer = {
  columns: [
    nameColumn,
    column('Type', 'type determines how the Service is exposed. Defaults to ClusterIP.'),
    column('Cluster-IP', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
    column('External-IP', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
    column('Port(s)', 'The list of ports that are exposed by this service.'),
    ageColumn,
    column('Selector', 'Route service traffic to pods with label keys and values matching this selector.', wide),
  ],
  cells(o, nowMs) {
    const spec = fields(o.spec);
    // spec.clusterIP wins over clusterIPs[0] (the v1 to internal conversion keeps them in step).
    const clusterIP = text(spec.clusterIP) || text(list(spec.clusterIPs)[0]) || '<none>';
    const ports = list(spec.ports).map((p) => servicePort(fields(p))).join(',');
    return [nameOf(o), text(spec.type), clusterIP, externalIP(o), ports || '<none>', age(o, nowMs), formatLabels(spec.selector)];
  },
};

function servicePort(p: Fields): string {
  const nodePort = int(p.nodePort);
  return nodePort > 0 ? `${int(p.port)}:${nodePort}/${text(p.protocol)}` : `${int(p.port)}/${text(p.protocol)}`;
}

/** getServiceExternalIP, wide: load balancer ingress addresses are not clipped. */
function externalIP(svc: KObject): string {
  const spec = fields(svc.spec);
  const externalIPs = list(spec.externalIPs).map(text);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = list(fields(svc.status, 'loadBalancer').ingress).map((x) => fields(x));
      const lb = [...new Set(ingress.map((i) => text(i.ip) || text(i.hostname)).filter((a) => a !== ''))].sort(byCodeUnit);
      const all = [...lb, ...externalIPs];
      return all.length ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return text(spec.externalName);
    default:
      return '<unknown>';
  }
}

/**
 * What an update to another type drops of what the old type was given, when the client sent it
 * back unchanged (dropTypeDependentFields): a NodePort patched to ClusterIP loses its node ports.
 */
function prepareForUpdate(next: KObject, current: KObject): void {
  const spec = ownSpec(next), old = storedSpec(current);
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    if (sameList(old.clusterIPs, spec.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameList(old.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if (old.ipFamilyPolicy === spec.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  const leftLoadBalancer = old.type === 'LoadBalancer' && spec.type !== 'LoadBalancer';
  if (leftLoadBalancer && old.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts === old.allocateLoadBalancerNodePorts)
    delete spec.allocateLoadBalancerNodePorts;
  if (needsNodePorts(old) && !needsNodePorts(spec) && nodePortsOf(spec).every((p) => nodePortsOf(old).includes(p)))
    for (const p of spec.ports ?? []) delete p.nodePort;
  if (needsHealthCheck(old) && !needsHealthCheck(spec) && spec.healthCheckNodePort === old.healthCheckNodePort) delete spec.healthCheckNodePort;
  if (leftLoadBalancer && spec.loadBalancerClass === old.loadBalancerClass) delete spec.loadBalancerClass;
  if (externallyReachable(old) && !externallyReachable(spec) && spec.externalTrafficPolicy === old.externalTrafficPolicy) delete spec.externalTrafficPolicy;
  // A load balancer's status goes with its type.
  if (spec.type !== 'LoadBalancer') next.status = { ...(next.status as object | undefined), loadBalancer: {} };
}

export const service = defineKind({
  nameRule: 'label', hasStatus: true, hasGeneration: false, defaults, printer, prepareForUpdate,
  // A new Service's status is empty: no load balancer yet.
  prepareForCreate: (svc) => void (svc.status = { loadBalancer: {} }),
  validate: validateService,
  validateUpdate: validateServiceUpdate,
  allocator: serviceAllocator,
});
