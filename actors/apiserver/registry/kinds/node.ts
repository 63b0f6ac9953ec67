// Nodes (pkg/registry/core/node/strategy.go): cluster-wide, with a status subresource; a node
// created with a status keeps it (the agent registers with its capacity), and allocatable defaults
// to capacity. printNode.
import type { KObject } from '../../../api/types.ts';
import { fill, nil, present } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, byCodeUnit, column, type Fields, fields, list, nameColumn, nameOf, type Printer, text, wide } from '../tables-format.ts';

/** Allocatable defaults to capacity. A node's phase is deprecated and not defaulted. */
function defaults(node: KObject): void {
  const status = present(node, 'status');
  const capacity = status && present(status, 'capacity');
  if (status && capacity) fill(status, [nil('allocatable', capacity)]);
}

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const LEGACY_ROLE_LABEL = 'kubernetes.io/role';

const printer: Printer = {
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
      nameOf(o), states.join(','), roles.length ? roles.join(',') : '<none>', age(o, nowMs), text(info.kubeletVersion),
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

export const node = defineKind({ nameRule: 'subdomain', hasStatus: true, hasGeneration: false, defaults, printer, prepareForCreate: () => {} });
