// Defaulting: what the API server fills into every decoded object before admission and
// validation, on create and on update (kubernetes pkg/apis/core/v1, apps/v1, rbac/v1 and flowcontrol/v1 defaults.go and
// zz_generated.defaults.go, 1.32 with default feature gates). Idempotent: defaulting a defaulted
// object changes nothing. Resources not listed (config maps, events, leases, PDBs, ...) have no
// visible defaults.
import type { KObject } from '../../api/types.ts';
import { defaultDaemonSet, defaultDeployment, defaultReplicaSet, defaultStatefulSet } from './defaults-apps.ts';
import { child, type FieldDefault, fill, items, nil, present, zero } from './defaults-fields.ts';
import { defaultPod, defaultPodTemplateSpec } from './defaults-pod.ts';
import { defaultBinding } from './defaults-rbac.ts';
import { defaultFlowSchema, defaultPriorityLevel } from './defaults-flowcontrol.ts';

export { defaultTolerations } from './defaults-pod.ts';

const CLIENT_IP_AFFINITY_TIMEOUT_SECONDS = 10800;
const EXTERNALLY_REACHABLE = new Set(['NodePort', 'LoadBalancer']);

function defaultService(svc: KObject): void {
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

/**
 * The metadata.name label every namespace carries, spec.finalizers ["kubernetes"] when unset (the
 * namespace strategy's PrepareForCreate), and status.phase Active.
 *
 * A /finalize write that leaves spec.finalizers out would get "kubernetes" back: such writes must
 * send `finalizers: []`, or skip defaulting.
 */
function defaultNamespace(ns: KObject): void {
  if (ns.metadata.name) ns.metadata.labels = { ...ns.metadata.labels, 'kubernetes.io/metadata.name': ns.metadata.name };
  fill(child(ns, 'spec'), [nil('finalizers', ['kubernetes'])]);
  fill(child(ns, 'status'), [zero('phase', 'Active')]);
}

/** Allocatable defaults to capacity. A node's phase is deprecated and not defaulted. */
function defaultNode(node: KObject): void {
  const status = present(node, 'status');
  const capacity = status && present(status, 'capacity');
  if (status && capacity) fill(status, [nil('allocatable', capacity)]);
}

const SECRET: readonly FieldDefault[] = [zero('type', 'Opaque')];

/**
 * A Secret's `stringData` is write-only, as the real server converts it on every write: each
 * string value goes into `data` (base64 of its UTF-8), over a key `data` already has, and
 * `stringData` is never stored or returned. A value that is not a string stays for validation to refuse.
 */
function defaultSecret(o: KObject): void {
  fill(o, SECRET);
  const stringData = (o as { stringData?: unknown }).stringData;
  if (stringData === null || typeof stringData !== 'object' || Array.isArray(stringData)) return;
  const rest: Record<string, unknown> = {};
  const data = { ...((o as { data?: Record<string, string> }).data ?? {}) };
  for (const [key, value] of Object.entries(stringData)) {
    if (typeof value === 'string') data[key] = Buffer.from(value, 'utf8').toString('base64');
    else rest[key] = value;
  }
  (o as { data?: Record<string, string> }).data = data;
  if (Object.keys(rest).length) (o as { stringData?: unknown }).stringData = rest;
  else delete (o as { stringData?: unknown }).stringData;
}

const DEFAULTERS: ReadonlyMap<string, (obj: KObject) => void> = new Map([
  ['/pods', defaultPod],
  ['/podtemplates', (o: KObject) => defaultPodTemplateSpec(child(o, 'template'))],
  ['/services', defaultService],
  ['/secrets', defaultSecret],
  ['/namespaces', defaultNamespace],
  ['/nodes', defaultNode],
  ['apps/deployments', defaultDeployment],
  ['apps/replicasets', defaultReplicaSet],
  ['apps/daemonsets', defaultDaemonSet],
  ['apps/statefulsets', defaultStatefulSet],
  ['rbac.authorization.k8s.io/rolebindings', defaultBinding],
  ['rbac.authorization.k8s.io/clusterrolebindings', defaultBinding],
  ['flowcontrol.apiserver.k8s.io/flowschemas', defaultFlowSchema],
  ['flowcontrol.apiserver.k8s.io/prioritylevelconfigurations', defaultPriorityLevel],
]);

/** Fills the defaults of a freshly decoded object, in place. The object must be the caller's own copy. */
export function applyDefaults(resource: string, group: string, obj: KObject): void {
  DEFAULTERS.get(`${group}/${resource}`)?.(obj);
}
