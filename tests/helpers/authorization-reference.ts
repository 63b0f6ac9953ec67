// A reference authorizer for tests, written from the documented rules and from nothing of the code
// under test, so that a decision it computes is a second opinion, not the server's answer read back.
//
// RBAC (the RBAC reference page): a rule allows a request when its verbs, apiGroups and
// resources hold the request's (`*` holding anything; `resource/subresource` a subresource,
// `*/subresource` that subresource of any resource; a bare resource never its subresources) and
// its resourceNames are empty or hold the name; a list or watch names its object by a
// `metadata.name` field selector. A non-resource rule allows a path it names, or one under a
// prefix ending in `*`. A ClusterRoleBinding grants everywhere (and alone grants non-resource
// paths and cluster-scoped requests); a RoleBinding grants in its namespace, a Role of that
// namespace or a ClusterRole. A binding to a role that does not exist grants nothing. Subjects: a
// User by name, a Group by membership, a ServiceAccount as system:serviceaccount:<ns>:<name>
// (ns defaulting to the binding's). An aggregated ClusterRole holds what the roles its selectors
// pick hold, aggregated ones included, and nothing of its own.
//
// Node (the Node authorization page, cut as node-authorizer.ts states orchsim's contract): a user
// system:node:<name> in system:nodes may read the Secrets and ConfigMaps, get the claims and
// create tokens for the service accounts that pods bound to its node use; get, update and patch
// its own Node (and status), create Nodes, list and watch Nodes selecting its own name; list and
// watch pods selecting spec.nodeName=<its name>, get and delete the pods bound to it, create pods,
// get, update and patch their status and create their evictions; get, create, update, patch and
// delete its own Lease in kube-node-lease (create naming none); and what every node may: create
// token and access reviews, read services, write events, get endpoints.
//
// Members of system:masters may do anything; otherwise the modes are asked in order.

export interface Rule { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] }
export interface Subject { kind: string; name: string; namespace?: string; apiGroup?: string }
export interface RoleRef { kind: string; name: string; apiGroup?: string }
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

/** An RBAC object as written to the server (`kind` says which of the four). */
export interface RbacObject {
  apiVersion: string;
  kind: 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  rules?: Rule[];
  aggregationRule?: { clusterRoleSelectors: LabelSelector[] };
  roleRef?: RoleRef;
  subjects?: Subject[];
}

export interface User { username: string; groups: string[] }

export interface ResourceAttributes { verb: string; namespace?: string; group: string; resource: string; subresource?: string; name?: string; fieldSelector?: string }
export interface NonResourceAttributes { verb: string; path: string }
export type Attributes = ResourceAttributes | NonResourceAttributes;

/** A pod as the Node authorizer sees it: its node and what it uses, as the fixture declares them. */
export interface BoundPod { namespace: string; name: string; node?: string; serviceAccount: string; secrets: string[]; configMaps: string[]; claims: string[] }

export const isNonResource = (a: Attributes): a is NonResourceAttributes => 'path' in a;

const MASTERS = 'system:masters';
const NODE_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** The value a field selector requires `field` to equal (`f=v` or `f==v`), if it does. */
export function requiredValue(selector: string | undefined, field: string): string | undefined {
  for (const term of (selector ?? '').split(',')) {
    const m = /^\s*([^!=\s]+)\s*(==|=)\s*(.*?)\s*$/.exec(term);
    if (m && m[1] === field) return m[3];
  }
  return undefined;
}

/** The name a request is about: its path's, or for a list or watch the one its field selector requires. */
export function requestedName(a: ResourceAttributes): string | undefined {
  if (a.name) return a.name;
  return a.verb === 'list' || a.verb === 'watch' ? requiredValue(a.fieldSelector, 'metadata.name') : undefined;
}

const holds = (list: readonly string[] | undefined, value: string) => (list ?? []).some((v) => v === '*' || v === value);

function resourceHeld(rule: Rule, resource: string, subresource: string | undefined): boolean {
  const wanted = subresource ? `${resource}/${subresource}` : resource;
  return (rule.resources ?? []).some((r) => r === '*' || r === wanted || (subresource !== undefined && r === `*/${subresource}`));
}

function pathHeld(rule: Rule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));
}

/** Whether one rule allows the request. */
export function ruleAllows(rule: Rule, a: Attributes): boolean {
  if (!holds(rule.verbs, a.verb)) return false;
  if (isNonResource(a)) return pathHeld(rule, a.path);
  if (!holds(rule.apiGroups, a.group) || !resourceHeld(rule, a.resource, a.subresource)) return false;
  if (!rule.resourceNames?.length) return true;
  const name = requestedName(a);
  return name !== undefined && rule.resourceNames.includes(name);
}

function labelsMatch(s: LabelSelector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(s.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of s.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const ok = e.operator === 'Exists' ? has : e.operator === 'DoesNotExist' ? !has
      : e.operator === 'In' ? has && (e.values ?? []).includes(labels[e.key]!) : !has || !(e.values ?? []).includes(labels[e.key]!);
    if (!ok) return false;
  }
  return true;
}

const ruleKey = (r: Rule) => JSON.stringify([r.verbs, r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceURLs ?? []]);

/** Each ClusterRole's rules once aggregation has settled: the fixpoint of every aggregated role taking its picks' rules. */
export function aggregatedRules(objects: readonly RbacObject[]): Map<string, Rule[]> {
  const roles = objects.filter((o) => o.kind === 'ClusterRole');
  const rules = new Map(roles.map((r) => [r.metadata.name, r.aggregationRule ? [] : (r.rules ?? [])]));
  for (let round = 0; round <= roles.length; round++) {
    let changed = false;
    for (const role of roles) {
      const selectors = role.aggregationRule?.clusterRoleSelectors;
      if (!selectors) continue;
      const picked = new Map<string, Rule>();
      for (const other of roles)
        if (other !== role && selectors.some((s) => labelsMatch(s, other.metadata.labels ?? {})))
          for (const r of rules.get(other.metadata.name)!) picked.set(ruleKey(r), r);
      const before = new Set(rules.get(role.metadata.name)!.map(ruleKey));
      if (picked.size !== before.size || [...picked.keys()].some((k) => !before.has(k))) changed = true;
      rules.set(role.metadata.name, [...picked.values()]);
    }
    if (!changed) return rules;
  }
  throw new Error('aggregation did not settle');
}

/** Whether two rule lists hold the same rules (order and repeats aside). */
export function sameRules(a: readonly Rule[], b: readonly Rule[]): boolean {
  const x = new Set(a.map(ruleKey));
  const y = new Set(b.map(ruleKey));
  return x.size === y.size && [...x].every((k) => y.has(k));
}

function subjectIs(s: Subject, bindingNamespace: string | undefined, user: User): boolean {
  if (s.kind === 'User') return s.name === user.username;
  if (s.kind === 'Group') return user.groups.includes(s.name);
  if (s.kind !== 'ServiceAccount') return false;
  const ns = s.namespace || bindingNamespace;
  return ns !== undefined && ns !== '' && user.username === `system:serviceaccount:${ns}:${s.name}`;
}

/** The RBAC policy of a set of objects, asked as the documented rules say. */
export class ReferenceRbac {
  readonly #objects: readonly RbacObject[];
  readonly #clusterRules: Map<string, Rule[]>;

  constructor(objects: readonly RbacObject[]) {
    this.#objects = objects;
    this.#clusterRules = aggregatedRules(objects);
  }

  clusterRoleRules(name: string): Rule[] | undefined {
    return this.#clusterRules.get(name);
  }

  /** Every rule granted to `user` where `namespace` is (cluster-wide bindings only when it is undefined). */
  rulesOf(user: User, namespace: string | undefined): Rule[] {
    const out: Rule[] = [];
    for (const b of this.#objects) {
      const cluster = b.kind === 'ClusterRoleBinding';
      if (!cluster && !(b.kind === 'RoleBinding' && namespace !== undefined && b.metadata.namespace === namespace)) continue;
      if (!(b.subjects ?? []).some((s) => subjectIs(s, b.metadata.namespace, user))) continue;
      const ref = b.roleRef!;
      if (ref.kind === 'ClusterRole') out.push(...(this.#clusterRules.get(ref.name) ?? []));
      else if (ref.kind === 'Role' && !cluster)
        out.push(...(this.#objects.find((r) => r.kind === 'Role' && r.metadata.namespace === b.metadata.namespace && r.metadata.name === ref.name)?.rules ?? []));
    }
    return out;
  }

  allows(user: User, a: Attributes): boolean {
    const where = isNonResource(a) ? undefined : a.namespace || undefined;
    return this.rulesOf(user, where).some((r) => ruleAllows(r, a));
  }
}

/** The rules every node may use, whatever its pods (the real system:node rules, cut to what is served or asked here). */
const NODE_RULES: Rule[] = [
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'] },
  { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews', 'localsubjectaccessreviews'] },
  { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['services'] },
  { verbs: ['create', 'update', 'patch'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] },
  { verbs: ['get'], apiGroups: [''], resources: ['endpoints'] },
];

/** The node a user is, when it is one. */
export function nodeOf(user: User): string | undefined {
  return user.username.startsWith(NODE_PREFIX) && user.groups.includes(NODES_GROUP) ? user.username.slice(NODE_PREFIX.length) : undefined;
}

/** The Node authorizer's half: whether it allows (it never denies; what it does not allow goes on to RBAC). */
export function nodeAllows(pods: readonly BoundPod[], user: User, a: Attributes): boolean {
  const node = nodeOf(user);
  if (!node || isNonResource(a)) return false;
  const bound = pods.filter((p) => p.node === node && p.namespace === a.namespace);
  const name = requestedName(a);
  const { verb, subresource: sub } = a;
  if (a.group === '') {
    switch (a.resource) {
      case 'secrets':
        return ['get', 'list', 'watch'].includes(verb) && !sub && bound.some((p) => p.secrets.includes(name!));
      case 'configmaps':
        return ['get', 'list', 'watch'].includes(verb) && !sub && bound.some((p) => p.configMaps.includes(name!));
      case 'persistentvolumeclaims':
        return verb === 'get' && !sub && bound.some((p) => p.claims.includes(name!));
      case 'serviceaccounts':
        if (sub === 'token') return verb === 'create' && bound.some((p) => p.serviceAccount === name);
        break;
      case 'nodes':
        if (sub && sub !== 'status') return false;
        if (verb === 'create') return !sub;
        if (verb === 'list' || verb === 'watch') return requiredValue(a.fieldSelector, 'metadata.name') === node;
        return ['get', 'update', 'patch'].includes(verb) && a.name === node;
      case 'pods': {
        if (verb === 'list' || verb === 'watch') return !sub && requiredValue(a.fieldSelector, 'spec.nodeName') === node;
        const mine = a.name !== undefined && bound.some((p) => p.name === a.name);
        if (!sub) return verb === 'create' || (['get', 'delete'].includes(verb) && mine);
        if (sub === 'status') return ['get', 'update', 'patch'].includes(verb) && mine;
        return sub === 'eviction' && verb === 'create' && mine;
      }
    }
  }
  if (a.group === 'coordination.k8s.io' && a.resource === 'leases') {
    if (a.namespace !== NODE_LEASE_NAMESPACE || sub) return false;
    return verb === 'create' || (['get', 'update', 'patch', 'delete'].includes(verb) && a.name === node);
  }
  return NODE_RULES.some((r) => ruleAllows(r, a));
}

/** The whole chain: system:masters, then Node, then RBAC (as --authorization-mode=Node,RBAC). */
export function referenceAllows(rbac: ReferenceRbac, pods: readonly BoundPod[], user: User, a: Attributes): boolean {
  return user.groups.includes(MASTERS) || nodeAllows(pods, user, a) || rbac.allows(user, a);
}
