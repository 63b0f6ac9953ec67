// The endpointslice-mirroring controller, as the real one (pkg/controller/endpointslicemirroring)
// mirrors the Endpoints their owners write for selectorless Services into EndpointSlices, so that
// what reads slices sees them too: per subset and address family, an endpoint per address (ready
// for `addresses`, not for `notReadyAddresses`, at most --mirroring-max-endpoints-per-subset of
// them), with the subset's ports. Mirrored slices carry the Endpoints' labels and annotations (less
// the trigger time and kubectl's last-applied configuration), `kubernetes.io/service-name` and
// `endpointslice.kubernetes.io/managed-by: endpointslicemirroring-controller.k8s.io`, and are owned
// by the Endpoints. Endpoints labelled `endpointslice.kubernetes.io/skip-mirror: "true"` (the
// kubernetes Service's), those of Services with a selector, and those without a Service are not
// mirrored (and lose what was). Keys are reconciled by --mirroring-concurrent-service-endpoint-syncs workers.
import type { KObject, OwnerReference } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from './endpointslice.ts';
import { planSlices, type PortGroup, type SliceMeta } from './endpointslice-plan.ts';
import { ENDPOINTS_TRIGGER_TIME, selectorOf } from './service-pods.ts';
import { SliceWrites } from './slice-writes.ts';
import { ENDPOINTS, type Endpoints, SERVICES, type Service } from '../../api/model/core.ts';
import { ENDPOINT_SLICES, type EndpointSlice } from '../../api/model/discovery.ts';

const MIRRORED_BY = 'endpointslicemirroring-controller.k8s.io';
const SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
const LEADER = 'control-plane.alpha.kubernetes.io/leader';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

export interface MirroringControllerInit extends QueuedControllerInit {
  /** --mirroring-max-endpoints-per-subset: the endpoints mirrored of one subset, and the most a mirrored slice holds. */
  maxEndpointsPerSubset: number;
  /** --mirroring-endpointslice-updates-batch-period: Endpoints changes wait this long, so a burst makes one write. */
  batchPeriodMs: number;
}

type Address = { ip?: string; hostname?: string; nodeName?: string; targetRef?: { kind: string; namespace?: string; name?: string; uid?: string } };
type Subset = { addresses?: Address[]; notReadyAddresses?: Address[]; ports?: { name?: string; port: number; protocol?: string; appProtocol?: string }[] };

export class EndpointSliceMirroringController extends QueuedController {
  readonly #services: Informer<Service>;
  readonly #endpoints: Informer<Endpoints>;
  readonly #slices: Informer<EndpointSlice>;
  readonly #writes: SliceWrites;
  readonly #max: number;

  constructor(init: MirroringControllerInit) {
    super('endpointslicemirroring-controller', init);
    this.#writes = new SliceWrites(this.client);
    this.#max = init.maxEndpointsPerSubset;
    this.#services = init.informers.get(SERVICES);
    this.#endpoints = init.informers.get(ENDPOINTS);
    this.#slices = init.informers.get(ENDPOINT_SLICES);
    const key = (o: KObject) => this.queue.add(cacheKey(o));
    this.#services.on({ add: key, update: (_old, svc) => key(svc), delete: key });
    const endpoints = (ep: KObject) => (init.batchPeriodMs > 0 ? this.queue.addAfter(cacheKey(ep), init.batchPeriodMs) : key(ep));
    this.#endpoints.on({ add: endpoints, update: (_old, ep) => endpoints(ep), delete: endpoints });
    const slice = (s: KObject) => {
      const owner = mirroredFrom(s);
      if (owner && !this.#writes.written.own(cacheKey(s), s)) this.queue.add(owner);
    };
    this.#slices.on({ add: slice, update: (_old, s) => slice(s), delete: (s) => { const owner = mirroredFrom(s); if (owner) this.queue.add(owner); } });
  }

  protected async sync(key: string): Promise<void> {
    const [namespace] = key.split('/') as [string, string];
    const slices = this.#slices.cache.inNamespace(namespace).filter((s) => mirroredFrom(s) === key);
    if (slices.some((s) => this.#writes.written.stale(cacheKey(s), s))) return;
    const svc = this.#services.cache.byKey(key);
    const ep = this.#endpoints.cache.byKey(key);
    if (!svc || selectorOf(svc) || !ep || !mirrored(ep)) {
      for (const s of slices) await this.#writes.delete(s);
      return;
    }
    const byFamily = groupsByFamily((ep.subsets ?? []) as Subset[], this.#max);
    for (const s of slices) if (!byFamily.has(String(s.addressType))) await this.#writes.delete(s);
    for (const [family, groups] of byFamily) {
      const meta: SliceMeta = { labels: mirroredLabels(ep), annotations: mirroredAnnotations(ep), ownerReference: ownerReference(ep),
        generateName: `${ep.metadata.name}-`, namespace, addressType: family, placeholder: false };
      const plan = planSlices(groups, slices.filter((s) => s.addressType === family), meta, this.#max);
      for (const s of plan.delete) await this.#writes.delete(s);
      for (const s of plan.update) await this.#writes.write(s, false);
      for (const s of plan.create) await this.#writes.write(s, true);
    }
  }
}

/** The Endpoints key of a slice this controller mirrored, else undefined. */
function mirroredFrom(slice: KObject): string | undefined {
  const labels = slice.metadata.labels;
  return labels?.[MANAGED_BY_LABEL] === MIRRORED_BY && labels[SERVICE_NAME_LABEL] ? `${slice.metadata.namespace}/${labels[SERVICE_NAME_LABEL]}` : undefined;
}

const mirrored = (ep: KObject) => ep.metadata.labels?.[SKIP_MIRROR] !== 'true' && ep.metadata.annotations?.[LEADER] === undefined;

/** Each subset's endpoints, by address family, at most `max` of a subset, ready ones first. */
function groupsByFamily(subsets: readonly Subset[], max: number): Map<string, PortGroup[]> {
  const byFamily = new Map<string, PortGroup[]>();
  for (const subset of subsets) {
    const ports = (subset.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) }));
    const addresses = [...(subset.addresses ?? []).map((a) => [a, true] as const), ...(subset.notReadyAddresses ?? []).map((a) => [a, false] as const)].slice(0, max);
    const groups = new Map<string, PortGroup>();
    for (const [a, ready] of addresses) {
      if (!a.ip) continue;
      const family = a.ip.includes(':') ? 'IPv6' : 'IPv4';
      let group = groups.get(family);
      if (!group) groups.set(family, (group = { ports, endpoints: [] }));
      group.endpoints.push({ addresses: [a.ip], conditions: { ready }, ...(a.hostname ? { hostname: a.hostname } : {}),
        ...(a.targetRef ? { targetRef: a.targetRef } : {}), ...(a.nodeName ? { nodeName: a.nodeName } : {}) });
    }
    for (const [family, group] of groups) byFamily.set(family, [...(byFamily.get(family) ?? []), group]);
  }
  return byFamily;
}

function mirroredLabels(ep: KObject): Record<string, string> {
  return { ...ep.metadata.labels, [SERVICE_NAME_LABEL]: ep.metadata.name!, [MANAGED_BY_LABEL]: MIRRORED_BY };
}

function mirroredAnnotations(ep: KObject): Record<string, string> {
  const { [ENDPOINTS_TRIGGER_TIME]: _time, [LAST_APPLIED]: _applied, ...rest } = ep.metadata.annotations ?? {};
  return rest;
}

const ownerReference = (ep: KObject): OwnerReference =>
  ({ apiVersion: 'v1', kind: 'Endpoints', name: ep.metadata.name!, uid: ep.metadata.uid!, controller: true, blockOwnerDeletion: true });
