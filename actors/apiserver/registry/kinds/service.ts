// Services (pkg/apis/core/v1 defaults.go, printService): DNS-label names, a status subresource,
// ClusterIP with no session affinity by default, TCP ports targeting themselves, traffic policies.
import type { KObject } from '../../../api/types.ts';
import { child, fill, items, nil, present, zero } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
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

export const service = defineKind({ nameRule: 'label', hasStatus: true, hasGeneration: false, defaults, printer });
