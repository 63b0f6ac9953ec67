// What the endpoint controllers read of Services and their pods, as the real ones do
// (pkg/controller/util/endpoint, endpointslice/util): which Services select a pod, which pods
// belong in a Service's endpoints and at which address and port, and which pod changes matter.
//
// ServiceSelectors keeps the selectors of the Services that have one, by namespace, from the
// Service informer's events: the controllers ask it on every pod event, so a pod in a namespace
// no selecting Service lives in costs one map lookup (every pod of the 500-node run does).
import { isReady } from '../../api/fields.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import type { KObject } from '../../api/types.ts';
import type { Pod } from '../../api/model/core.ts';

export interface ServicePort {
  name?: string;
  protocol?: string;
  port?: number;
  targetPort?: number | string;
  appProtocol?: string;
}

export interface ServiceSpec {
  type?: string;
  selector?: Record<string, string>;
  clusterIP?: string;
  ipFamilies?: string[];
  ports?: ServicePort[];
  publishNotReadyAddresses?: boolean;
}

export const serviceSpecOf = (svc: KObject): ServiceSpec => (svc.spec ?? {}) as ServiceSpec;

/** The selector the controllers follow: none for ExternalName Services and for selectorless ones (their endpoints are their owners'). */
export function selectorOf(svc: KObject): Record<string, string> | undefined {
  const spec = serviceSpecOf(svc);
  if (spec.type === 'ExternalName' || !spec.selector || Object.keys(spec.selector).length === 0) return undefined;
  return spec.selector;
}

const NO_KEYS: readonly string[] = [];

const selects = (selector: Record<string, string>, labels: Record<string, string> | undefined) =>
  Object.entries(selector).every(([k, v]) => labels?.[k] === v);

export class ServiceSelectors {
  readonly #byNamespace = new Map<string, Map<string, Record<string, string>>>();

  /** Follows `svc`'s selector (or forgets it, when it has none any more). */
  set(svc: KObject): void {
    const ns = svc.metadata.namespace ?? '';
    const selector = selectorOf(svc);
    if (!selector) return this.remove(svc);
    let services = this.#byNamespace.get(ns);
    if (!services) this.#byNamespace.set(ns, (services = new Map()));
    services.set(cacheKey(svc), selector);
  }

  remove(svc: KObject): void {
    const ns = svc.metadata.namespace ?? '';
    const services = this.#byNamespace.get(ns);
    if (!services?.delete(cacheKey(svc))) return;
    if (services.size === 0) this.#byNamespace.delete(ns);
  }

  /** Whether some Service of `namespace` has a selector: if not, its pods concern no Service. */
  watching(namespace: string | undefined): boolean {
    return this.#byNamespace.has(namespace ?? '');
  }

  /** The keys of the Services in `pod`'s namespace whose selector matches its labels. */
  selecting(pod: KObject): readonly string[] {
    const services = this.#byNamespace.get(pod.metadata.namespace ?? '');
    if (!services) return NO_KEYS;
    const keys: string[] = [];
    for (const [key, selector] of services) if (selects(selector, pod.metadata.labels)) keys.push(key);
    return keys;
  }

  /** The pods of `pods` a Service's selector matches. */
  static pods(svc: KObject, pods: readonly KObject[]): KObject[] {
    const selector = selectorOf(svc);
    return selector ? pods.filter((p) => selects(selector, p.metadata.labels)) : [];
  }
}

type PodStatus = { phase?: string; podIP?: string; podIPs?: { ip: string }[]; conditions?: { type: string; lastTransitionTime?: string }[] };
const statusOf = (pod: KObject) => (pod.status ?? {}) as PodStatus;
const podIPs = (pod: KObject): string[] => {
  const s = statusOf(pod);
  return s.podIPs?.length ? s.podIPs.map((p) => p.ip) : s.podIP ? [s.podIP] : [];
};

/**
 * Whether a pod has a place in a Service's endpoints (ShouldPodBeInEndpoints): it has an address,
 * has not finished for good, and is not being deleted unless terminating pods are kept.
 */
export function belongsInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (podIPs(pod).length === 0) return false;
  const restart = pod.spec?.restartPolicy;
  const phase = statusOf(pod).phase;
  if (restart === 'Never' && (phase === 'Failed' || phase === 'Succeeded')) return false;
  if (restart === 'OnFailure' && phase === 'Succeeded') return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

/** The pod's address of `family` (IPv4 or IPv6), else undefined. */
export function podAddress(pod: KObject, family: string): string | undefined {
  return podIPs(pod).find((ip) => (family === 'IPv6') === ip.includes(':'));
}

/** The container port a Service port targets on this pod (FindPort); undefined when a named port is not found. */
export function targetPort(pod: Pod, port: ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  const containers = pod.spec?.containers ?? [];
  for (const c of containers) for (const p of c.ports ?? []) if (p.name === target && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP')) return p.containerPort;
  return undefined;
}

const hostnameOf = (pod: KObject) => {
  const spec = (pod.spec ?? {}) as { hostname?: string; subdomain?: string };
  return `${spec.hostname ?? ''}/${spec.subdomain ?? ''}`;
};
const sameLabels = (a: Record<string, string> | undefined, b: Record<string, string> | undefined) => {
  const x = a ?? {}, y = b ?? {};
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
};

/**
 * The Services a pod's update concerns (GetServicesToUpdateOnPodChange): when its labels changed,
 * those selecting it before or after; when what its endpoint shows changed (deletion, readiness,
 * addresses), those selecting it now; else none.
 */
function servicesOnPodChange(selectors: ServiceSelectors, old: KObject, pod: KObject): readonly string[] {
  // A pod update is the hot path: most pods live where no Service selects.
  if (!selectors.watching(pod.metadata.namespace) || old.metadata.resourceVersion === pod.metadata.resourceVersion) return NO_KEYS;
  const labelsChanged = !sameLabels(old.metadata.labels, pod.metadata.labels) || hostnameOf(old) !== hostnameOf(pod);
  const endpointChanged = !!old.metadata.deletionTimestamp !== !!pod.metadata.deletionTimestamp || isReady(old) !== isReady(pod)
    || podIPs(old).join() !== podIPs(pod).join();
  if (labelsChanged) return [...new Set([...selectors.selecting(old), ...selectors.selecting(pod)])];
  return endpointChanged ? selectors.selecting(pod) : NO_KEYS;
}

/** Wakes the Services each pod event concerns: selecting the pod added or deleted, or concerned by its update. */
export function followPods(pods: Informer, selectors: ServiceSelectors, wake: (keys: readonly string[]) => void): void {
  pods.on({
    add: (pod) => wake(selectors.selecting(pod)),
    update: (old, pod) => wake(servicesOnPodChange(selectors, old, pod)),
    delete: (pod) => wake(selectors.selecting(pod)),
  });
}

/**
 * When the newest change that shaped a Service's endpoints happened: its creation, or a pod's
 * readiness change or creation (what the real trigger-time tracker reports, read from the objects).
 */
export function lastChangeTriggerTime(svc: KObject, pods: readonly KObject[]): string | undefined {
  let newest = svc.metadata.creationTimestamp ?? undefined;
  for (const pod of pods) {
    const ready = statusOf(pod).conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime;
    const at = ready ?? pod.metadata.creationTimestamp ?? undefined;
    if (at && (!newest || at > newest)) newest = at;
  }
  return newest;
}

/** The reference an endpoint carries to its pod. */
export const podReference = (pod: KObject) =>
  ({ kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid });

/** A pod's hostname, published for a headless Service it names as its subdomain (ShouldSetHostname). */
export function hostnameFor(pod: KObject, svc: KObject): string | undefined {
  const spec = (pod.spec ?? {}) as { hostname?: string; subdomain?: string };
  return spec.hostname && spec.subdomain === svc.metadata.name && serviceSpecOf(svc).clusterIP === 'None' ? spec.hostname : undefined;
}

export const ENDPOINTS_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
