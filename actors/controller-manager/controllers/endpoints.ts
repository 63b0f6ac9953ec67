// The endpoints controller, as the real one (pkg/controller/endpoint) keeps each Service's
// Endpoints: the pods its selector matches that have an address, Ready ones in `addresses` and
// the others in `notReadyAddresses` (all in `addresses` with publishNotReadyAddresses), each with
// its node and a reference to the pod, on the ports the Service targets (a named targetPort
// resolved on each pod's containers; a pod without it is left out of that port). Subsets group
// the addresses that share ports. Selectorless and ExternalName Services are left to their owners;
// the Endpoints of a Service that is gone are deleted. A pod's event wakes only the Services
// selecting it (after --endpoint-updates-batch-period), and only when what its endpoint shows
// changed; keys are reconciled by --concurrent-endpoint-syncs workers.
import { isReady } from '../../api/fields.ts';
import { isAlreadyExists, isConflict, isForbidden, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { belongsInEndpoints, ENDPOINTS_TRIGGER_TIME, HEADLESS_LABEL, lastChangeTriggerTime, podAddress, podReference, selectorOf, serviceSpecOf,
  ServiceSelectors, followPods, targetPort } from './service-pods.ts';
import { WrittenVersions } from './written-versions.ts';
import { ENDPOINTS, type Endpoints, PODS, type Pod, SERVICES, type Service } from '../../api/model/core.ts';

/** The most addresses an Endpoints holds; beyond, it is truncated and says so (maxCapacity). */
const MAX_ADDRESSES = 1000;
const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';

export interface EndpointsControllerInit extends QueuedControllerInit {
  /** --endpoint-updates-batch-period: pod changes wait this long, so a burst makes one write. */
  batchPeriodMs: number;
}

interface Port {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

interface Subset {
  addresses: Record<string, unknown>[];
  notReadyAddresses: Record<string, unknown>[];
  ports: Port[];
}

export class EndpointsController extends QueuedController {
  readonly #services: Informer<Service>;
  readonly #pods: Informer<Pod>;
  readonly #endpoints: Informer<Endpoints>;
  readonly #selectors = new ServiceSelectors();
  readonly #written = new WrittenVersions();
  readonly #batchMs: number;

  constructor(init: EndpointsControllerInit) {
    super('endpoint-controller', init);
    this.#batchMs = init.batchPeriodMs;
    this.#services = init.informers.get(SERVICES);
    this.#pods = init.informers.get(PODS);
    this.#endpoints = init.informers.get(ENDPOINTS);
    const service = (svc: KObject) => (this.#selectors.set(svc), this.queue.add(cacheKey(svc)));
    this.#services.on({ add: service, update: (_old, svc) => service(svc), delete: (svc) => (this.#selectors.remove(svc), this.queue.add(cacheKey(svc))) });
    followPods(this.#pods, this.#selectors, (keys) => this.#wake(keys));
    // Endpoints it did not write (or that went) are looked at again; at start every one is, so
    // those of Services that are gone get deleted (checkLeftoverEndpoints).
    const endpoints = (ep: KObject) => this.#written.own(cacheKey(ep), ep) || this.queue.add(cacheKey(ep));
    this.#endpoints.on({ add: endpoints, update: (_old, ep) => endpoints(ep), delete: (ep) => this.queue.add(cacheKey(ep)) });
  }

  #wake(keys: readonly string[]): void {
    for (const key of keys) this.#batchMs > 0 ? this.queue.addAfter(key, this.#batchMs) : this.queue.add(key);
  }

  protected async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const current = this.#endpoints.cache.byKey(key);
    if (this.#written.stale(key, current)) return; // its own write's event brings it back
    const svc = this.#services.cache.byKey(key);
    if (!svc) return current && this.#delete(key, current);
    if (!selectorOf(svc)) return;
    const pods = ServiceSelectors.pods(svc, this.#pods.cache.inNamespace(namespace));
    const { subsets, truncated } = endpointSubsets(svc, pods);
    const labels = endpointsLabels(svc);
    const annotations: Record<string, string> = { ...current?.metadata.annotations };
    delete annotations[ENDPOINTS_TRIGGER_TIME];
    if (truncated) annotations[OVER_CAPACITY] = 'truncated';
    else delete annotations[OVER_CAPACITY];
    if (current && sameJson(current.subsets ?? [], subsets) && sameJson(withoutHeadless(current.metadata.labels), withoutHeadless(labels))
      && current.metadata.annotations?.[OVER_CAPACITY] === annotations[OVER_CAPACITY]) return;
    const triggered = lastChangeTriggerTime(svc, pods);
    if (triggered) annotations[ENDPOINTS_TRIGGER_TIME] = triggered;
    const metadata = { ...current?.metadata, name, namespace, labels, ...(Object.keys(annotations).length ? { annotations } : {}) };
    if (!Object.keys(annotations).length) delete metadata.annotations;
    const next = { ...current, metadata, ...(subsets.length ? { subsets } : {}) } as KObject;
    if (!subsets.length) delete next.subsets;
    await this.#write(key, next, current === undefined);
  }

  async #write(key: string, ep: KObject, create: boolean): Promise<void> {
    try {
      const written = create ? await this.client.create(ENDPOINTS, ep) : await this.client.update(ENDPOINTS, ep);
      this.#written.wrote(key, written);
    } catch (e) {
      // Written by someone else meanwhile (its event brings the key back), or its namespace is going.
      if (!(isAlreadyExists(e) || isConflict(e) || isNotFound(e) || terminating(e))) throw e;
    }
  }

  async #delete(key: string, ep: KObject): Promise<void> {
    try {
      await this.client.delete(ENDPOINTS, ep.metadata.namespace, ep.metadata.name!);
      this.#written.deleted(key, ep);
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
}

/** The Service's labels, marked headless when it has no cluster IP. */
export function endpointsLabels(svc: KObject): Record<string, string> {
  const labels = { ...svc.metadata.labels };
  const ip = serviceSpecOf(svc).clusterIP;
  if (!ip || ip === 'None') labels[HEADLESS_LABEL] = '';
  else delete labels[HEADLESS_LABEL];
  return labels;
}

const withoutHeadless = (labels: Record<string, string> | undefined) => {
  const { [HEADLESS_LABEL]: _, ...rest } = labels ?? {};
  return rest;
};
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const terminating = (e: unknown) => isForbidden(e) && (e.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');

/** The Service's subsets from its pods (addresses grouped by the ports they serve, sorted), at most MAX_ADDRESSES addresses. */
export function endpointSubsets(svc: Service, pods: readonly Pod[]): { subsets: Subset[]; truncated: boolean } {
  const spec = serviceSpecOf(svc);
  const tolerate = spec.publishNotReadyAddresses === true;
  const family = spec.ipFamilies?.[0] ?? 'IPv4';
  const servicePorts = spec.ports ?? [];
  const byPorts = new Map<string, Subset>();
  for (const pod of pods) {
    if (!belongsInEndpoints(pod, tolerate)) continue;
    const ip = podAddress(pod, family);
    if (!ip) continue;
    const ports: Port[] = [];
    for (const p of servicePorts) {
      const port = targetPort(pod, p);
      if (port !== undefined) ports.push({ ...(p.name ? { name: p.name } : {}), port, protocol: p.protocol ?? 'TCP', ...(p.appProtocol ? { appProtocol: p.appProtocol } : {}) });
    }
    if (servicePorts.length > 0 && ports.length === 0) continue;
    ports.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '') || a.port - b.port);
    const portsKey = JSON.stringify(ports);
    let subset = byPorts.get(portsKey);
    if (!subset) byPorts.set(portsKey, (subset = { addresses: [], notReadyAddresses: [], ports }));
    const hostname = pod.spec;
    const address = { ip, ...(hostname?.hostname && hostname.subdomain === svc.metadata.name ? { hostname: hostname.hostname } : {}),
      nodeName: pod.spec!.nodeName ?? '', targetRef: podReference(pod) };
    (tolerate || isReady(pod) ? subset.addresses : subset.notReadyAddresses).push(address);
  }
  let room = MAX_ADDRESSES;
  const subsets: Subset[] = [];
  for (const key of [...byPorts.keys()].sort()) {
    const s = byPorts.get(key)!;
    const byIP = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.ip).localeCompare(String(b.ip));
    const addresses = s.addresses.sort(byIP).slice(0, Math.max(0, room));
    room -= addresses.length;
    const notReady = s.notReadyAddresses.sort(byIP).slice(0, Math.max(0, room));
    room -= notReady.length;
    if (addresses.length + notReady.length === 0) continue;
    subsets.push({ ...(addresses.length ? { addresses } : {}), ...(notReady.length ? { notReadyAddresses: notReady } : {}), ...(s.ports.length ? { ports: s.ports } : {}) } as Subset);
  }
  const total = [...byPorts.values()].reduce((n, s) => n + s.addresses.length + s.notReadyAddresses.length, 0);
  return { subsets, truncated: total > MAX_ADDRESSES };
}
