// What a ResourceQuota counts, as the real quota evaluators measure it (kubernetes
// pkg/quota/v1/evaluator/core, apiserver pkg/quota/v1/generic): pods by their compute requests and
// limits, services by type, and every other namespaced resource by `count/<resource>[.<group>]`
// (configmaps, secrets and resourcequotas also by their old names). The ResourceQuota admission
// plugin charges a create with an evaluator's usage; the resource quota controller sums it.
import { addLists, podTotal, readResourceList, type ResourceList } from './resource-lists.ts';
import { compareQuantities, unitQuantity, ZERO_QUANTITY } from './quantity.ts';
import type { Pod } from './model/core.ts';
import type { KObject } from './types.ts';

export interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values?: string[];
}

export interface Evaluator {
  /** count/<resource>[.<group>] */
  readonly countName: string;
  /** Whether a write is charged (CREATE for counts; services also on UPDATE, as their type may change). */
  handles(operation: string, subresource: string | undefined): boolean;
  /** The names among a quota's that this evaluator measures (MatchingResources). */
  matching(names: Iterable<string>): string[];
  matchesScope(req: ScopeRequirement, obj: KObject): boolean;
  /** The object's usage; `nowMs` decides whether a terminating pod still counts. */
  usage(obj: KObject, nowMs: number): ResourceList;
  /** Why the object may not be charged against a quota constraining `required`, or undefined. */
  constraints(required: readonly string[], obj: KObject): string | undefined;
}

const one = () => unitQuantity(1n);
const countName = (group: string, resource: string) => (group ? `count/${resource}.${group}` : `count/${resource}`);

/** The generic object count evaluator: `count/<r>` (and an old alias) is 1 per object; no scopes. */
function objectCount(group: string, resource: string, alias?: string): Evaluator {
  const names = alias ? [countName(group, resource), alias] : [countName(group, resource)];
  return {
    countName: names[0]!,
    handles: (operation, subresource) => !subresource && operation === 'CREATE',
    matching: (input) => [...input].filter((n) => names.includes(n)),
    matchesScope: () => false,
    usage: () => new Map(names.map((n) => [n, one()])),
    constraints: () => undefined,
  };
}

const SERVICE_NAMES = ['count/services', 'services', 'services.nodeports', 'services.loadbalancers'];

const services: Evaluator = {
  countName: 'count/services',
  handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
  matching: (input) => [...input].filter((n) => SERVICE_NAMES.includes(n)),
  matchesScope: () => false,
  usage(svc) {
    const spec = (svc.spec ?? {}) as { type?: string; ports?: { nodePort?: number }[]; allocateLoadBalancerNodePorts?: boolean };
    const ports = Array.isArray(spec.ports) ? spec.ports : [];
    let nodePorts = 0n;
    if (spec.type === 'NodePort') nodePorts = BigInt(ports.length);
    if (spec.type === 'LoadBalancer')
      nodePorts = BigInt(spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p?.nodePort).length : ports.length);
    return new Map([
      ['count/services', one()], ['services', one()],
      ['services.loadbalancers', spec.type === 'LoadBalancer' ? one() : ZERO_QUANTITY], ['services.nodeports', unitQuantity(nodePorts)],
    ]);
  },
  constraints: () => undefined,
};

const POD_NAMES = ['count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods'];
/** A quota on these makes every container state them: an old mistake the real evaluator keeps. */
const MUST_SPECIFY = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

/** Native names have no domain, or one under kubernetes.io. */
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
const isExtended = (name: string) => !isNative(name) && !name.startsWith('requests.');

/** podComputeUsageHelper: what one container's (or a pod's) requests and limits charge. */
function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const usage: ResourceList = new Map([['pods', one()]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(r);
    if (request) usage.set(r, request).set(`requests.${r}`, request);
    const limit = limits.get(r);
    if (limit) usage.set(`limits.${r}`, limit);
  }
  for (const [name, q] of requests) {
    if (name.startsWith('hugepages-')) usage.set(name, q).set(`requests.${name}`, q);
    if (isExtended(name)) usage.set(`requests.${name}`, q);
  }
  return usage;
}

type PodSpec = { containers?: unknown; initContainers?: unknown; activeDeadlineSeconds?: number; priorityClassName?: string;
  overhead?: unknown; affinity?: Record<string, Record<string, unknown[]> | undefined> };
const podSpec = (pod: KObject) => (pod.spec ?? {}) as PodSpec;
const containersOf = (spec: PodSpec) => [spec.containers, spec.initContainers]
  .flatMap((list) => (Array.isArray(list) ? list : [])) as { name?: string; resources?: { requests?: unknown; limits?: unknown } }[];

/** BestEffort QoS: no container asks for or limits cpu or memory. */
function isBestEffort(pod: KObject): boolean {
  return !containersOf(podSpec(pod)).some((c) => ['requests', 'limits'].some((which) => {
    const list = readResourceList(c?.resources?.[which as 'requests']);
    return ['cpu', 'memory'].some((r) => list.has(r) && compareQuantities(list.get(r)!, ZERO_QUANTITY) > 0);
  }));
}

function usesCrossNamespaceAffinity(pod: KObject): boolean {
  const affinity = podSpec(pod).affinity ?? {};
  const crossNamespace = (t: unknown) => {
    const term = ((t as { podAffinityTerm?: unknown })?.podAffinityTerm ?? t) as { namespaces?: unknown[]; namespaceSelector?: unknown } | undefined;
    return (Array.isArray(term?.namespaces) && term.namespaces.length > 0) || (term?.namespaceSelector !== undefined && term?.namespaceSelector !== null);
  };
  return [affinity.podAffinity, affinity.podAntiAffinity].some((a) =>
    [a?.requiredDuringSchedulingIgnoredDuringExecution, a?.preferredDuringSchedulingIgnoredDuringExecution].some((terms) => Array.isArray(terms) && terms.some(crossNamespace)));
}

/** A label requirement on {PriorityClass: <the pod's class>} (ScopedResourceSelectorRequirementsAsSelector). */
function priorityClassMatches(req: ScopeRequirement, className: string | undefined): boolean {
  const has = !!className;
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In': return has && values.includes(className!);
    case 'NotIn': return !has || !values.includes(className!);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    default: return false;
  }
}

/** A pod still charges its compute resources until it ends or its grace period after deletion runs out (QuotaV1Pod). */
export function chargesCompute(pod: Pod, nowMs: number): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
  return !(deletionTimestamp && deletionGracePeriodSeconds !== undefined && nowMs > Date.parse(deletionTimestamp) + deletionGracePeriodSeconds * 1000);
}

const pods: Evaluator = {
  countName: 'count/pods',
  handles: (operation, subresource) => !subresource && operation === 'CREATE',
  matching: (input) => [...input].filter((n) => POD_NAMES.includes(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-')
    || (!isNative(n) && n.startsWith('requests.'))),
  matchesScope(req, pod) {
    const spec = podSpec(pod);
    switch (req.scopeName) {
      case 'Terminating': return typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0;
      case 'NotTerminating': return !(typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0);
      case 'BestEffort': return isBestEffort(pod);
      case 'NotBestEffort': return !isBestEffort(pod);
      case 'PriorityClass': return priorityClassMatches(req, spec.priorityClassName);
      case 'CrossNamespacePodAffinity': return usesCrossNamespaceAffinity(pod);
      default: return false;
    }
  },
  usage(pod, nowMs) {
    const count: ResourceList = new Map([['count/pods', one()]]);
    if (!chargesCompute(pod, nowMs)) return count;
    const spec = podSpec(pod);
    const requests = addLists(podTotal(spec, 'requests'), readResourceList(spec.overhead));
    return addLists(count, computeUsage(requests, podTotal(spec, 'limits')));
  },
  constraints(required, pod) {
    const needed = required.filter((n) => MUST_SPECIFY.includes(n));
    const missing = new Map<string, Set<string>>();
    for (const c of containersOf(podSpec(pod))) {
      const has = computeUsage(readResourceList(c?.resources?.requests), readResourceList(c?.resources?.limits));
      for (const r of needed) if (!has.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(c?.name ?? ''));
    }
    if (missing.size === 0) return undefined;
    return `must specify ${[...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`).join('; ')}`;
  },
};

/** The old names of a few object counts (legacyObjectCountAliases). */
const ALIASES: Record<string, string> = { configmaps: 'configmaps', resourcequotas: 'resourcequotas', replicationcontrollers: 'replicationcontrollers', secrets: 'secrets' };

const evaluators = new Map<string, Evaluator>([['/pods', pods], ['/services', services]]);

/** The evaluator of a resource; events are never counted (the real registry ignores them). */
export function evaluatorFor(group: string, resource: string): Evaluator | undefined {
  if (group === '' && resource === 'events') return undefined;
  const key = `${group}/${resource}`;
  let e = evaluators.get(key);
  if (!e) evaluators.set(key, (e = objectCount(group, resource, group === '' ? ALIASES[resource] : undefined)));
  return e;
}

/** spec.scopes as Exists requirements, then spec.scopeSelector's (getScopeSelectorsFromQuota). */
export function scopeRequirements(quota: KObject): ScopeRequirement[] {
  const spec = (quota.spec ?? {}) as { scopes?: unknown; scopeSelector?: { matchExpressions?: unknown } };
  const scopes = Array.isArray(spec.scopes) ? spec.scopes.filter((s): s is string => typeof s === 'string') : [];
  const expressions = Array.isArray(spec.scopeSelector?.matchExpressions) ? spec.scopeSelector.matchExpressions as ScopeRequirement[] : [];
  return [...scopes.map((scopeName) => ({ scopeName, operator: 'Exists' })), ...expressions];
}

/** Whether the quota governs the object: it limits something the evaluator measures, and the object is in every scope. */
export function quotaMatches(e: Evaluator, quota: KObject, hardNames: Iterable<string>, obj: KObject): boolean {
  return e.matching(hardNames).length > 0 && scopeRequirements(quota).every((req) => e.matchesScope(req, obj));
}
