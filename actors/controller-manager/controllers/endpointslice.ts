// The endpointslice controller, as the real one (pkg/controller/endpointslice and the staging
// reconciler) keeps each Service's EndpointSlices: one set per address family of the Service
// (ipFamilies), holding an endpoint for each pod its selector matches that has an address of that
// family, terminating pods included (ready only while Ready and not terminating, unless
// publishNotReadyAddresses), with the pod's node, its node's zone (topology.kubernetes.io/zone)
// and a reference to the pod, grouped by the ports they serve (named targetPorts resolved per
// pod), at most --max-endpoints-per-slice to a slice (endpointslice-plan.ts decides the writes).
// Slices are labelled kubernetes.io/service-name and endpointslice.kubernetes.io/managed-by, and
// owned by their Service (the garbage collector deletes them with it). Selectorless and
// ExternalName Services get none. A pod's event wakes only the Services selecting it (after
// --endpointslice-updates-batch-period); keys are reconciled by --concurrent-service-endpoint-syncs workers.
import { isReady } from '../../api/fields.ts';
import type { KObject, OwnerReference } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { planSlices, type PortGroup, type SliceEndpoint, type SliceMeta, type SlicePort } from './endpointslice-plan.ts';
import { belongsInEndpoints, ENDPOINTS_TRIGGER_TIME, HEADLESS_LABEL, hostnameFor, lastChangeTriggerTime, podAddress, podReference, selectorOf,
  serviceSpecOf, ServiceSelectors, followPods, targetPort } from './service-pods.ts';
import { SliceWrites } from './slice-writes.ts';
import { NODES, type Node, PODS, type Pod, SERVICES, type Service } from '../../api/model/core.ts';
import { ENDPOINT_SLICES, type EndpointSlice } from '../../api/model/discovery.ts';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
const MANAGED_BY = 'endpointslice-controller.k8s.io';
const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** How soon a Service with a pod on a missing Node is looked at again. */
const MISSING_NODE_RETRY_MS = 1_000;

export interface EndpointSliceControllerInit extends QueuedControllerInit {
  maxEndpointsPerSlice: number;
  /** --endpointslice-updates-batch-period. */
  batchPeriodMs: number;
}

export class EndpointSliceController extends QueuedController {
  readonly #services: Informer<Service>;
  readonly #pods: Informer<Pod>;
  readonly #slices: Informer<EndpointSlice>;
  readonly #nodes: Informer<Node>;
  readonly #selectors = new ServiceSelectors();
  readonly #writes: SliceWrites;
  readonly #max: number;
  readonly #batchMs: number;

  constructor(init: EndpointSliceControllerInit) {
    super('endpointslice-controller', init);
    this.#writes = new SliceWrites(this.client);
    this.#max = init.maxEndpointsPerSlice;
    this.#batchMs = init.batchPeriodMs;
    this.#services = init.informers.get(SERVICES);
    this.#pods = init.informers.get(PODS);
    this.#slices = init.informers.get(ENDPOINT_SLICES);
    this.#nodes = init.informers.get(NODES);
    const service = (svc: KObject) => (this.#selectors.set(svc), this.queue.add(cacheKey(svc)));
    this.#services.on({ add: service, update: (_old, svc) => service(svc), delete: (svc) => this.#selectors.remove(svc) });
    followPods(this.#pods, this.#selectors, (keys) => this.#wake(keys));
    // A managed slice someone else changed or deleted is put right.
    const slice = (s: KObject) => {
      const owner = serviceKeyOf(s);
      if (owner && !this.#writes.written.own(cacheKey(s), s)) this.queue.add(owner);
    };
    this.#slices.on({ add: slice, update: (_old, s) => slice(s), delete: (s) => { const owner = serviceKeyOf(s); if (owner) this.queue.add(owner); } });
  }

  #wake(keys: readonly string[]): void {
    for (const key of keys) this.#batchMs > 0 ? this.queue.addAfter(key, this.#batchMs) : this.queue.add(key);
  }

  protected async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const svc = this.#services.cache.byKey(key);
    // A Service that is gone takes its slices with it (the garbage collector follows their owner reference).
    if (!svc || !selectorOf(svc) || svc.metadata.deletionTimestamp) return;
    const labelled = this.#slices.cache.inNamespace(namespace).filter((s) => serviceKeyOf(s) === key);
    if (labelled.some((s) => this.#writes.written.stale(cacheKey(s), s))) return;
    const pods = ServiceSelectors.pods(svc, this.#pods.cache.inNamespace(namespace));
    const families = serviceSpecOf(svc).ipFamilies?.length ? serviceSpecOf(svc).ipFamilies! : ['IPv4'];
    const triggered = lastChangeTriggerTime(svc, pods);
    // Slices of an earlier Service of that name, or of a family it no longer has, go.
    const slices = labelled.filter((s) => s.metadata.ownerReferences?.some((r) => r.uid === svc.metadata.uid) && families.includes(String(s.addressType)));
    for (const s of labelled) if (!slices.includes(s)) await this.#writes.delete(s);
    for (const family of families) {
      const meta: SliceMeta = { labels: sliceLabels(svc), ownerReference: ownerReference(svc), generateName: `${name}-`, namespace, addressType: family };
      const plan = planSlices(this.#groups(svc, pods, family), slices.filter((s) => s.addressType === family), meta, this.#max);
      for (const s of plan.delete) await this.#writes.delete(s);
      for (const s of plan.update) await this.#writes.write(withTrigger(s, triggered), false);
      for (const s of plan.create) await this.#writes.write(withTrigger(s, triggered), true);
    }
  }

  /** The Service's endpoints of one family, grouped by the ports each pod serves. */
  #groups(svc: KObject, pods: readonly KObject[], family: string): PortGroup[] {
    const spec = serviceSpecOf(svc);
    const groups = new Map<string, PortGroup>();
    for (const pod of [...pods].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
      if (!belongsInEndpoints(pod, true)) continue;
      const ip = podAddress(pod, family);
      if (!ip) continue;
      // A pod on a Node that is gone is left out until the Node is back (or the pod goes), unless every pod is published.
      if (!this.#nodeKnown(pod) && !spec.publishNotReadyAddresses) {
        this.queue.addAfter(cacheKey(svc), MISSING_NODE_RETRY_MS);
        continue;
      }
      const ports: SlicePort[] = [];
      for (const p of spec.ports ?? []) {
        const port = targetPort(pod, p);
        if (port !== undefined) ports.push({ name: p.name ?? '', port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) });
      }
      const key = JSON.stringify(ports);
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { ports, endpoints: [] }));
      group.endpoints.push(this.#endpoint(svc, pod, ip));
    }
    return [...groups.values()];
  }

  #nodeKnown(pod: Pod): boolean {
    const nodeName = pod.spec?.nodeName;
    return !nodeName || this.#nodes.cache.get(undefined, nodeName) !== undefined;
  }

  /** podToEndpoint: serving when Ready, ready only when also not terminating (or publishNotReadyAddresses). */
  #endpoint(svc: Service, pod: Pod, ip: string): SliceEndpoint {
    const serving = isReady(pod);
    const terminating = !!pod.metadata.deletionTimestamp;
    const nodeName = pod.spec?.nodeName;
    const zone = nodeName ? this.#nodes.cache.get(undefined, nodeName)?.metadata.labels?.[ZONE_LABEL] : undefined;
    const hostname = hostnameFor(pod, svc);
    return {
      addresses: [ip], conditions: { ready: serviceSpecOf(svc).publishNotReadyAddresses === true || (serving && !terminating), serving, terminating },
      ...(hostname ? { hostname } : {}), targetRef: podReference(pod), ...(nodeName ? { nodeName } : {}), ...(zone ? { zone } : {}),
    };
  }
}

/** The Service key of a slice this controller manages, else undefined. */
function serviceKeyOf(slice: KObject): string | undefined {
  const labels = slice.metadata.labels;
  return labels?.[MANAGED_BY_LABEL] === MANAGED_BY && labels[SERVICE_NAME_LABEL] ? `${slice.metadata.namespace}/${labels[SERVICE_NAME_LABEL]}` : undefined;
}

/** The Service's labels (less the reserved ones), headless when it has no cluster IP, then the reserved two (setEndpointSliceLabels). */
function sliceLabels(svc: KObject): Record<string, string> {
  const { [SERVICE_NAME_LABEL]: _name, [MANAGED_BY_LABEL]: _by, ...labels } = svc.metadata.labels ?? {};
  const ip = serviceSpecOf(svc).clusterIP;
  if (!ip || ip === 'None') labels[HEADLESS_LABEL] = '';
  else delete labels[HEADLESS_LABEL];
  return { ...labels, [SERVICE_NAME_LABEL]: svc.metadata.name!, [MANAGED_BY_LABEL]: MANAGED_BY };
}

const ownerReference = (svc: KObject): OwnerReference =>
  ({ apiVersion: 'v1', kind: 'Service', name: svc.metadata.name!, uid: svc.metadata.uid!, controller: true, blockOwnerDeletion: true });

function withTrigger(slice: KObject, triggered: string | undefined): KObject {
  if (!triggered) return slice;
  return { ...slice, metadata: { ...slice.metadata, annotations: { ...slice.metadata.annotations, [ENDPOINTS_TRIGGER_TIME]: triggered } } };
}
