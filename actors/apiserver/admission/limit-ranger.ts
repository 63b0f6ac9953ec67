// The LimitRanger admission plugin (plugin/pkg/admission/limitranger), for pod creates (a pod's
// containers never change after): first each LimitRange's Container defaults fill the requests
// and limits a container leaves out, noted in the `kubernetes.io/limit-ranger` annotation; then,
// once the pod is valid, every Container and Pod min, max and maxLimitRequestRatio is enforced,
// refusing with the real messages ("maximum cpu usage per Container is 1, but limit is 2").
import { formatQuantity, milliValue, unitValue, ZERO_QUANTITY, type Quantity } from '../../api/quantity.ts';
import { podTotal, readResourceList, writeResourceList, type ResourceList } from '../../api/resource-lists.ts';
import { forbidden } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { targetOf, type AdmissionAttributes, type AdmissionPlugin } from './chain.ts';
import type { PolicyObjects } from './policy-objects.ts';

const ANNOTATION = 'kubernetes.io/limit-ranger';
/** Above this, values are compared in whole units rather than thousandths (resource.MaxMilliValue). */
const MAX_MILLI_VALUE = 9_223_372_036_854_775n;

type Item = { type?: string; min?: unknown; max?: unknown; default?: unknown; defaultRequest?: unknown; maxLimitRequestRatio?: unknown };
type Container = { name?: string; resources?: { requests?: unknown; limits?: unknown } };

const itemsOf = (lr: KObject): Item[] => {
  const limits = (lr.spec as { limits?: unknown } | undefined)?.limits;
  return Array.isArray(limits) ? limits.filter(isPlainObject) as Item[] : [];
};
const containers = (pod: KObject, list: 'containers' | 'initContainers') => {
  const cs = (pod.spec as Record<string, unknown> | undefined)?.[list];
  return (Array.isArray(cs) ? cs.filter(isPlainObject) : []) as Container[];
};
const sortedEntries = (list: ResourceList) => [...list].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Adds what `defaults` has and `resources[which]` lacks; returns the names it added. */
function fillIn(c: Container, which: 'requests' | 'limits', defaults: ResourceList): string[] {
  const resources = (c.resources ??= {});
  const given = isPlainObject(resources[which]) ? resources[which] as Record<string, unknown> : {};
  const added = [...defaults.keys()].filter((name) => !(name in given)).sort();
  if (added.length === 0) return added;
  // A ResourceList is a Go map: its JSON keys come out sorted.
  const merged: Record<string, unknown> = { ...writeResourceList(defaults), ...given };
  resources[which] = Object.fromEntries(Object.keys(merged).sort().map((k) => [k, merged[k]]));
  return added;
}

/** mergePodResourceRequirements for one LimitRange's Container defaults. */
function applyDefaults(pod: KObject, lr: KObject): void {
  const requests: ResourceList = new Map();
  const limits: ResourceList = new Map();
  for (const item of itemsOf(lr)) {
    if (item.type !== 'Container') continue;
    readResourceList(item.defaultRequest).forEach((q, name) => requests.set(name, q));
    readResourceList(item.default).forEach((q, name) => limits.set(name, q));
  }
  const notes: string[] = [];
  for (const [list, what] of [['containers', 'container'], ['initContainers', 'init container']] as const) {
    for (const c of containers(pod, list)) {
      const setRequests = fillIn(c, 'requests', requests);
      const setLimits = fillIn(c, 'limits', limits);
      if (setRequests.length) notes.push(`${setRequests.join(', ')} request for ${what} ${c.name ?? ''}`);
      if (setLimits.length) notes.push(`${setLimits.join(', ')} limit for ${what} ${c.name ?? ''}`);
    }
  }
  if (notes.length) pod.metadata.annotations = { ...pod.metadata.annotations, [ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
}

/** requestLimitEnforcedValues: thousandths when all fit, else whole units. */
function comparable(...qs: Quantity[]): bigint[] {
  return qs.every((q) => unitValue(q) <= MAX_MILLI_VALUE) ? qs.map(milliValue) : qs.map(unitValue);
}

/** The min, max and maxLimitRequestRatio of one item against one container's (or the pod's) requests and limits. */
function check(type: string, item: Item, requests: ResourceList, limits: ResourceList): string[] {
  const errors: string[] = [];
  const s = formatQuantity;
  for (const [name, enforced] of sortedEntries(readResourceList(item.min))) {
    const [req, lim] = [requests.get(name), limits.get(name)];
    const [r, l, e] = comparable(req ?? ZERO_QUANTITY, lim ?? ZERO_QUANTITY, enforced);
    if (!req) errors.push(`minimum ${name} usage per ${type} is ${s(enforced)}.  No request is specified`);
    else if (r! < e!) errors.push(`minimum ${name} usage per ${type} is ${s(enforced)}, but request is ${s(req)}`);
    else if (lim && l! < e!) errors.push(`minimum ${name} usage per ${type} is ${s(enforced)}, but limit is ${s(lim)}`);
  }
  for (const [name, enforced] of sortedEntries(readResourceList(item.max))) {
    const [req, lim] = [requests.get(name), limits.get(name)];
    const [r, l, e] = comparable(req ?? ZERO_QUANTITY, lim ?? ZERO_QUANTITY, enforced);
    if (!lim) errors.push(`maximum ${name} usage per ${type} is ${s(enforced)}.  No limit is specified`);
    else if (l! > e!) errors.push(`maximum ${name} usage per ${type} is ${s(enforced)}, but limit is ${s(lim)}`);
    else if (req && r! > e!) errors.push(`maximum ${name} usage per ${type} is ${s(enforced)}, but request is ${s(req)}`);
  }
  for (const [name, enforced] of sortedEntries(readResourceList(item.maxLimitRequestRatio))) {
    const [req, lim] = [requests.get(name), limits.get(name)];
    const [r, l] = comparable(req ?? ZERO_QUANTITY, lim ?? ZERO_QUANTITY, enforced);
    const prefix = `${name} max limit to request ratio per ${type} is ${s(enforced)}`;
    if (!req || r === 0n) errors.push(`${prefix}, but no request is specified or request is 0`);
    else if (!lim || l === 0n) errors.push(`${prefix}, but no limit is specified or limit is 0`);
    else {
      const ratio = Number(l) / Number(r!);
      const milli = unitValue(enforced) <= MAX_MILLI_VALUE;
      if ((milli ? ratio * 1000 : ratio) > Number(milli ? milliValue(enforced) : unitValue(enforced)))
        errors.push(`${prefix}, but provided ratio is ${ratio.toFixed(6)}`);
    }
  }
  return errors;
}

/** PodValidateLimitFunc: every error of one LimitRange. */
function violations(pod: KObject, lr: KObject): string[] {
  const errors: string[] = [];
  for (const item of itemsOf(lr)) {
    if (item.type === 'Container')
      for (const c of [...containers(pod, 'containers'), ...containers(pod, 'initContainers')])
        errors.push(...check('Container', item, readResourceList(c.resources?.requests), readResourceList(c.resources?.limits)));
    if (item.type === 'Pod') errors.push(...check('Pod', item, podTotal(pod.spec, 'requests'), podTotal(pod.spec, 'limits')));
  }
  return errors;
}

/** utilerrors.NewAggregate's text: one message alone, several (each once) in brackets. */
const aggregate = (errors: string[]) => {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
};

const isPodCreate = (a: AdmissionAttributes) =>
  a.operation === 'CREATE' && !a.subresource && a.object !== undefined && a.type.group === '' && a.type.resource === 'pods' && a.namespace !== undefined;

export function limitRangerPlugin(objects: PolicyObjects): AdmissionPlugin {
  return {
    name: 'LimitRanger',
    mutate(a) {
      if (!isPodCreate(a)) return;
      for (const lr of objects.limitRanges(a.namespace!) ?? []) applyDefaults(a.object!, lr);
    },
    validate(a) {
      if (!isPodCreate(a)) return;
      for (const lr of objects.limitRanges(a.namespace!) ?? []) {
        const errors = violations(a.object!, lr);
        if (errors.length) throw forbidden(targetOf(a), aggregate(errors));
      }
    },
  };
}
