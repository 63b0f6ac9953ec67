// A Service's validation, as the real ValidateService and ValidateServiceUpdate word it
// (pkg/apis/core/validation): ports, type-dependent fields, session affinity, traffic policies,
// and the cluster IPs and families (ValidateServiceClusterIPsRelatedFields, which the allocator
// also runs before it allocates).
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { validateLabels, validateName } from '../../validation/names.ts';
import { familyOf } from '../service-ranges.ts';
import { forbidden } from './rules.ts';
import { externallyReachable, goStrings, isHeadless, NONE, storedSpec, type ServicePortSpec, type ServiceSpec } from './service-fields.ts';

const required = (field: string): StatusCause => ({ reason: 'FieldValueRequired', field, message: 'Required value' });
const invalid = (field: string, value: string, why: string): StatusCause => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${value}: ${why}` });
const duplicate = (field: string, value: string): StatusCause => ({ reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${value}` });
const notSupported = (field: string, value: string, allowed: readonly string[]): StatusCause =>
  ({ reason: 'FieldValueNotSupported', field, message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}` });

const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const FAMILIES = ['IPv4', 'IPv6'];
const POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const PORT_RANGE = 'must be between 1 and 65535, inclusive';
const VALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

const isIP = (ip: string) => familyOf(ip) !== undefined && !ip.includes('%');
const isPort = (n: unknown) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 65535;

/** clusterIP, clusterIPs, ipFamilies and ipFamilyPolicy, each on its own and together. */
export function clusterIPsCauses(s: ServiceSpec): StatusCause[] {
  if (s.type === 'ExternalName') return [];
  const causes: StatusCause[] = [];
  const ips = s.clusterIPs ?? [];
  if (s.clusterIP) {
    if (ips.length === 0) causes.push(required('spec.clusterIPs'));
    else if (ips[0] !== s.clusterIP) causes.push(invalid('spec.clusterIPs', goStrings(ips), 'first value must match `clusterIP`'));
  } else if (ips.length) causes.push(invalid('spec.clusterIPs', goStrings(ips), 'must be empty when `clusterIP` is not specified'));
  const seen = new Set<string>();
  (s.ipFamilies ?? []).forEach((f, i) => {
    if (!FAMILIES.includes(f)) causes.push(notSupported(`spec.ipFamilies[${i}]`, f, FAMILIES));
    if (seen.has(f)) causes.push(duplicate(`spec.ipFamilies[${i}]`, JSON.stringify(f)));
    seen.add(f);
  });
  if (s.ipFamilyPolicy !== undefined && !POLICIES.includes(s.ipFamilyPolicy)) causes.push(notSupported('spec.ipFamilyPolicy', s.ipFamilyPolicy, POLICIES));
  let badIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === NONE) {
      if (ips.length > 1) (badIPs = true), causes.push(invalid('spec.clusterIPs', goStrings(ips), "'None' must be the first and only value"));
      return;
    }
    if (!isIP(ip)) (badIPs = true), causes.push(invalid(`spec.clusterIPs[${i}]`, JSON.stringify(ip), VALID_IP));
  });
  if (ips.length > 2) causes.push(invalid('spec.clusterIPs', goStrings(ips), 'may only hold up to 2 values'));
  if (badIPs) return causes;
  if (ips.length > 1 && familyOf(ips[0]!) === familyOf(ips[1]!))
    causes.push(invalid('spec.clusterIPs', goStrings(ips), 'may specify no more than one IP for each IP family'));
  if (!isHeadless(s)) ips.forEach((ip, i) => {
    const want = s.ipFamilies?.[i];
    if (want && want !== familyOf(ip) && FAMILIES.includes(want))
      causes.push(invalid(`spec.clusterIPs[${i}]`, JSON.stringify(ip), `expected an ${want} value as indicated by \`ipFamilies[${i}]\``));
  });
  return causes;
}

function portCauses(p: ServicePortSpec, i: number, requireName: boolean, names: Set<string>): StatusCause[] {
  const causes: StatusCause[] = [];
  const at = `spec.ports[${i}]`;
  if (requireName && !p.name) causes.push(required(`${at}.name`));
  else if (p.name) {
    causes.push(...validateName(p.name, 'label', `${at}.name`));
    if (names.has(p.name)) causes.push(duplicate(`${at}.name`, JSON.stringify(p.name)));
    names.add(p.name);
  }
  if (!isPort(p.port)) causes.push(invalid(`${at}.port`, String(p.port ?? 0), PORT_RANGE));
  if (!p.protocol) causes.push(required(`${at}.protocol`));
  else if (!PROTOCOLS.includes(p.protocol)) causes.push(notSupported(`${at}.protocol`, p.protocol, PROTOCOLS));
  if (typeof p.targetPort === 'number' && !isPort(p.targetPort)) causes.push(invalid(`${at}.targetPort`, String(p.targetPort), PORT_RANGE));
  return causes;
}

/** What NodePorts, LoadBalancers and ExternalNames may not have, and what an ExternalName must. */
function typeCauses(s: ServiceSpec): StatusCause[] {
  const causes: StatusCause[] = [];
  if ((s.type === 'NodePort' || s.type === 'LoadBalancer') && isHeadless(s))
    causes.push(invalid('spec.clusterIPs[0]', JSON.stringify(NONE), `may not be set to 'None' for ${s.type} services`));
  if (s.type === 'ExternalName') {
    if (s.clusterIPs?.length) causes.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (s.ipFamilies?.length) causes.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (s.ipFamilyPolicy !== undefined) causes.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = (s.externalName ?? '').replace(/\.$/, '');
    causes.push(...(cname ? validateName(cname, 'subdomain', 'spec.externalName') : [required('spec.externalName')]));
  }
  return causes;
}

/** The type itself, and the node ports a ClusterIP Service may not name. */
function typeValueCauses(s: ServiceSpec): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!s.type) causes.push(required('spec.type'));
  else if (!TYPES.includes(s.type)) causes.push(notSupported('spec.type', s.type, TYPES));
  if (s.type === 'ClusterIP') (s.ports ?? []).forEach((p, i) => {
    if (p.nodePort) causes.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
  });
  return causes;
}

function loadBalancerCauses(s: ServiceSpec): StatusCause[] {
  if (s.type === 'LoadBalancer') return s.allocateLoadBalancerNodePorts === undefined ? [required('spec.allocateLoadBalancerNodePorts')] : [];
  return s.allocateLoadBalancerNodePorts === undefined ? [] : [forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'")];
}

/** externalTrafficPolicy and healthCheckNodePort for what is reachable from outside; internalTrafficPolicy. */
function trafficCauses(s: ServiceSpec): StatusCause[] {
  const causes: StatusCause[] = [];
  const external = externallyReachable(s);
  const etp = s.externalTrafficPolicy;
  if (!external && etp) causes.push(invalid('spec.externalTrafficPolicy', JSON.stringify(etp), 'may only be set for externally-accessible services'));
  if (external && !etp) causes.push(required('spec.externalTrafficPolicy'));
  else if (external && !TRAFFIC_POLICIES.includes(etp!)) causes.push(notSupported('spec.externalTrafficPolicy', etp!, TRAFFIC_POLICIES));
  const hc = s.healthCheckNodePort ?? 0;
  if (!(s.type === 'LoadBalancer' && etp === 'Local')) {
    if (hc !== 0) causes.push(invalid('spec.healthCheckNodePort', String(hc), "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc === 0) causes.push(required('spec.healthCheckNodePort'));
  else if (!isPort(hc)) causes.push(invalid('spec.healthCheckNodePort', String(hc), PORT_RANGE));
  const itp = s.internalTrafficPolicy;
  if (itp === undefined && ['ClusterIP', 'NodePort', 'LoadBalancer'].includes(s.type ?? '')) causes.push(required('spec.internalTrafficPolicy'));
  if (itp !== undefined && !TRAFFIC_POLICIES.includes(itp)) causes.push(notSupported('spec.internalTrafficPolicy', itp, TRAFFIC_POLICIES));
  return causes;
}

export function validateService(svc: KObject): StatusCause[] {
  const s = storedSpec(svc);
  const ports = s.ports ?? [];
  const causes: StatusCause[] = [];
  if (ports.length === 0 && !isHeadless(s) && s.type !== 'ExternalName') causes.push(required('spec.ports'));
  causes.push(...typeCauses(s));
  const names = new Set<string>();
  ports.forEach((p, i) => causes.push(...portCauses(p, i, ports.length > 1, names)));
  if (s.selector) causes.push(...validateLabels(s.selector, 'spec.selector'));
  if (!s.sessionAffinity) causes.push(required('spec.sessionAffinity'));
  else if (!['ClientIP', 'None'].includes(s.sessionAffinity)) causes.push(notSupported('spec.sessionAffinity', s.sessionAffinity, ['ClientIP', 'None']));
  causes.push(...clusterIPsCauses(s));
  (s.externalIPs ?? []).forEach((ip, i) => {
    if (!isIP(ip)) causes.push(invalid(`spec.externalIPs[${i}]`, JSON.stringify(ip), VALID_IP));
  });
  causes.push(...typeValueCauses(s));
  const nodePorts = new Set<string>(), portKeys = new Set<string>();
  ports.forEach((p, i) => {
    const nodeKey = `${p.protocol}/${p.nodePort}`;
    if (p.nodePort && nodePorts.has(nodeKey)) causes.push(duplicate(`spec.ports[${i}].nodePort`, String(p.nodePort)));
    if (p.nodePort) nodePorts.add(nodeKey);
    const key = `${p.protocol}/${p.port}`;
    if (portKeys.has(key))
      causes.push(duplicate(`spec.ports[${i}]`, `core.ServicePort{Name:"", Protocol:${JSON.stringify(p.protocol ?? '')}, AppProtocol:(*string)(nil), Port:${p.port ?? 0}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`));
    portKeys.add(key);
  });
  causes.push(...trafficCauses(s), ...loadBalancerCauses(s));
  return causes;
}

/** The primary cluster IP and family may not change, unless to or from ExternalName (validateUpgradeDowngrade*). */
export function validateServiceUpdate(svc: KObject, old: KObject): StatusCause[] {
  const s = storedSpec(svc), o = storedSpec(old);
  const causes: StatusCause[] = [];
  if (s.type !== 'ExternalName' && o.type !== 'ExternalName') {
    const ips = s.clusterIPs ?? [], oldIPs = o.clusterIPs ?? [];
    if (!(isHeadless(s) && isHeadless(o))) {
      if (ips.length === oldIPs.length) oldIPs.forEach((ip, i) => {
        if (ip !== ips[i]) causes.push(invalid(`spec.clusterIPs[${i}]`, goStrings(ips), 'may not change once set'));
      });
      else if (ips.length === 0) causes.push(invalid('spec.clusterIPs[0]', goStrings(ips), 'primary clusterIP can not be unset'));
      else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) causes.push(invalid('spec.clusterIPs[0]', goStrings(ips), 'may not change once set'));
    }
    const fams = s.ipFamilies ?? [], oldFams = o.ipFamilies ?? [];
    if (isHeadless(s) === isHeadless(o) && !isHeadless(s) && fams.length > 0 && oldFams.length > 0 && fams[0] !== oldFams[0])
      causes.push(invalid('spec.ipFamilies[0]', `[]core.IPFamily{${fams.map((f) => JSON.stringify(f)).join(', ')}}`, 'may not change once set'));
  }
  return [...causes, ...validateService(svc)];
}
