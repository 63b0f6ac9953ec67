// Pods (kubernetes pkg/registry/core/pod/strategy.go): a new pod starts Pending with its QoS
// class, its spec is immutable but for images, deadlines, added tolerations and the grace period,
// and a delete waits for the node agent unless nothing runs it.
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { deepEqual } from '../deep-equal.ts';
import { defaultPod } from '../defaults-pod.ts';
import { defineKind } from '../kind.ts';
import { POD_PRINTER } from './pod-printer.ts';
import { containerImages, forbidden, specOf, type Spec } from './rules.ts';

const DEFAULT_GRACE_PERIOD_SECONDS = 30;

/** Pod updates may change only images, activeDeadlineSeconds, tolerations (additions) and the grace period. */
function podSpecWithoutMutable(spec: Spec): Spec {
  const strip = (cs: unknown) => (Array.isArray(cs) ? cs.map((c) => ({ ...(c as Spec), image: undefined })) : cs);
  return { ...spec, containers: strip(spec.containers), initContainers: strip(spec.initContainers), activeDeadlineSeconds: undefined,
    tolerations: undefined, terminationGracePeriodSeconds: undefined, schedulingGates: undefined };
}

function qosClass(pod: KObject): string {
  const containers = ((pod.spec as { containers?: unknown[] } | undefined)?.containers ?? []) as { resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> } }[];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = lim[r];
      const q = req[r] ?? l;
      if (l === undefined || String(q) !== String(l)) guaranteed = false;
    }
  }
  return guaranteed ? 'Guaranteed' : any ? 'Burstable' : 'BestEffort';
}

export const pod = defineKind({
  nameRule: 'subdomain',
  hasStatus: true,
  hasGeneration: false,
  returnsDeletedObject: true,
  printer: POD_PRINTER,
  defaults: defaultPod,
  prepareForCreate(obj) {
    obj.status = { phase: 'Pending', qosClass: qosClass(obj) };
  },
  validate: (obj) => containerImages(specOf(obj), 'spec'),
  validateUpdate(obj, old) {
    const causes: StatusCause[] = [];
    if (!deepEqual(podSpecWithoutMutable(specOf(obj)), podSpecWithoutMutable(specOf(old))))
      causes.push(forbidden('spec', 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'));
    return causes;
  },
  gracePeriodSeconds(obj, requested) {
    const spec = specOf(obj);
    const phase = (obj.status as Spec | undefined)?.phase;
    // An unscheduled or finished pod has no node agent to wait for.
    if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
    const fallback = typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : DEFAULT_GRACE_PERIOD_SECONDS;
    const g = requested ?? fallback;
    return g < 0 ? 1 : g;
  },
});
