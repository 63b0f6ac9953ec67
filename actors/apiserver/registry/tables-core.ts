// Printers for the core group besides pods: nodes, namespaces, services, config maps, secrets,
// events, service accounts and pod templates (printers.go printNode, printService, printEvent, ...).
import type { KObject } from '../../api/types.ts';
import { timestampIsSet, translateTimestampSince } from './human-duration.ts';
import {
  ageColumn, byCodeUnit, column, containerCells, fields, type Fields, formatLabels, int, list, NAME_DOC, nameColumn, type Printer, text, wide,
} from './tables-format.ts';

const age = (o: KObject, nowMs: number) => translateTimestampSince(o.metadata.creationTimestamp, nowMs);
const name = (o: KObject) => o.metadata.name ?? '';

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

const node: Printer = {
  columns: [
    nameColumn,
    column('Status', 'The status of the node'),
    column('Roles', 'The roles of the node'),
    ageColumn,
    column('Version', 'Kubelet Version reported by the node.'),
    column('Internal-IP', 'List of addresses reachable to the node.', wide),
    column('External-IP', 'List of addresses reachable to the node.', wide),
    column('OS-Image', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', wide),
    column('Kernel-Version', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", wide),
    column('Container-Runtime', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', wide),
  ],
  cells(o, nowMs) {
    const spec = fields(o.spec);
    const status = fields(o.status);
    const info = fields(status.nodeInfo);
    const ready = list(status.conditions).map((c) => fields(c)).filter((c) => c.type === 'Ready').at(-1);
    const states = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
    if (spec.unschedulable === true) states.push('SchedulingDisabled');
    const roles = nodeRoles(o.metadata.labels ?? {});
    return [
      name(o), states.join(','), roles.length ? roles.join(',') : '<none>', age(o, nowMs), text(info.kubeletVersion),
      nodeAddress(status, 'InternalIP'), nodeAddress(status, 'ExternalIP'),
      text(info.osImage) || '<unknown>', text(info.kernelVersion) || '<unknown>', text(info.containerRuntimeVersion) || '<unknown>',
    ];
  },
};

/** Roles from `node-role.kubernetes.io/<role>` label keys and the `kubernetes.io/role` value, sorted, unique. */
function nodeRoles(labels: Record<string, string>): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(labels)) {
    if (k.startsWith(ROLE_LABEL_PREFIX) && k.length > ROLE_LABEL_PREFIX.length) roles.add(k.slice(ROLE_LABEL_PREFIX.length));
    else if (k === LEGACY_ROLE_LABEL && v !== '') roles.add(v);
  }
  return [...roles].sort(byCodeUnit);
}

function nodeAddress(status: Fields, type: string): string {
  const a = list(status.addresses).map((x) => fields(x)).find((x) => x.type === type);
  return a ? text(a.address) : '<none>';
}

const namespace: Printer = {
  columns: [nameColumn, column('Status', 'The status of the namespace'), ageColumn],
  cells: (o, nowMs) => [name(o), text(fields(o.status).phase), age(o, nowMs)],
};

const service: Printer = {
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
    return [name(o), text(spec.type), clusterIP, externalIP(o), ports || '<none>', age(o, nowMs), formatLabels(spec.selector)];
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

const configMap: Printer = {
  columns: [nameColumn, column('Data', 'Data contains the configuration data.'), ageColumn],
  cells: (o, nowMs) => [name(o), Object.keys(fields(o.data)).length + Object.keys(fields(o.binaryData)).length, age(o, nowMs)],
};

const secret: Printer = {
  columns: [
    nameColumn,
    column('Type', 'Used to facilitate programmatic handling of secret data.'),
    column('Data', 'Data contains the secret data.'),
    ageColumn,
  ],
  cells(o, nowMs) {
    // stringData merges into data on write, so a key in both counts once.
    const keys = new Set([...Object.keys(fields(o.data)), ...Object.keys(fields(o.stringData))]);
    return [name(o), text(o.type), keys.size, age(o, nowMs)];
  },
};

const serviceAccount: Printer = {
  columns: [nameColumn, column('Secrets', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), ageColumn],
  cells: (o, nowMs) => [name(o), list(o.secrets).length, age(o, nowMs)],
};

const podTemplate: Printer = {
  columns: [
    nameColumn,
    column('Containers', 'Names of each container in the template.'),
    column('Images', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'The labels for the pod template.'),
  ],
  cells(o) {
    const [names, images] = containerCells(fields(o.template, 'spec').containers);
    return [name(o), names, images, formatLabels(fields(o.template, 'metadata').labels)];
  },
};

const event: Printer = {
  columns: [
    column('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
    column('Type', 'Type of this event (Normal, Warning), new types could be added in the future'),
    column('Reason', 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
    column('Object', 'The object that this event is about.'),
    column('Subobject', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.', wide),
    column('Source', 'The component reporting this event.', wide),
    column('Message', 'A human-readable description of the status of this operation.'),
    column('First Seen', 'The time at which the event was first recorded.', wide),
    column('Count', 'The number of times this event has occurred.', wide),
    column('Name', NAME_DOC, { format: 'name', priority: 1 }),
  ],
  cells: eventCells,
};

function eventCells(o: KObject, nowMs: number): unknown[] {
  const involved = fields(o.involvedObject);
  const source = fields(o.source);
  const series = o.series !== undefined && o.series !== null ? fields(o.series) : undefined;
  const firstSeen = translateTimestampSince(timestampIsSet(o.firstTimestamp) ? o.firstTimestamp : o.eventTime, nowMs);
  let lastSeen = timestampIsSet(o.lastTimestamp) ? translateTimestampSince(o.lastTimestamp, nowMs) : firstSeen;
  let count = int(o.count);
  if (series) {
    lastSeen = translateTimestampSince(series.lastObservedTime, nowMs);
    count = int(series.count);
  } else if (count === 0) {
    count = 1; // singleton events of the events.k8s.io API carry no count
  }
  const kind = text(involved.kind).toLowerCase();
  const target = text(involved.name) ? `${kind}/${text(involved.name)}` : kind;
  const component = text(source.component) || text(o.reportingComponent);
  const instance = text(source.host) || text(o.reportingInstance);
  return [
    lastSeen, text(o.type), text(o.reason), target, text(involved.fieldPath), instance ? `${component}, ${instance}` : component,
    text(o.message).trim(), firstSeen, count, name(o),
  ];
}

/** Printers of core resources by plural; pods have their own file. */
export const CORE_PRINTERS: Readonly<Record<string, Printer>> = {
  nodes: node,
  namespaces: namespace,
  services: service,
  configmaps: configMap,
  secrets: secret,
  serviceaccounts: serviceAccount,
  podtemplates: podTemplate,
  events: event,
};
