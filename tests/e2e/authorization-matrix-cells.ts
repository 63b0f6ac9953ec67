// The cells of the authorization matrix, one identity's worth: the attributes each asks about and
// the real request that asks it (attribute-requests.ts: writes as dry runs).
// Every HTTP verb is asked of every served resource and subresource, including verbs a kind does
// not serve (authorization comes first: the answer is then 403 or 405); lists and watches also
// with the field selectors that name an object or a node. Cells without a real request are
// answered by SubjectAccessReview alone.
import type { Attributes, ResourceAttributes } from '../helpers/authorization-reference.ts';
import { requestFor } from '../helpers/attribute-requests.ts';
import type { Call } from '../helpers/identity-client.ts';
import { deployment, lease } from './authorization-matrix-fixture.ts';

export interface Cell {
  attributes: Attributes;
  call?: Call;
  /** What the real request asks besides the cell: it is allowed only if both are. */
  alsoAsks?: Attributes;
}

const RBAC = 'rbac.authorization.k8s.io';
const NAMESPACES = ['team', 'other'];

interface Target {
  group: string;
  resource: string;
  cluster?: boolean;
  names: string[];
  /** Subresources served here, with the verbs asked of each. */
  subresources?: Record<string, string[]>;
  /** Field selectors lists and watches are asked with, besides none. */
  selectors?: string[];
  namespaces?: string[];
  /** Asked across all namespaces too (list and watch). */
  everywhere?: boolean;
  /** Only create is served (an access or token review): create, list and get are asked. */
  review?: boolean;
  body(name: string, namespace: string | undefined): object;
}

const core = (kind: string, extra: object = {}) => (name: string) => ({ apiVersion: 'v1', kind, metadata: { name }, ...extra });
const rbac = (kind: string, extra: object) => (name: string) => ({ apiVersion: `${RBAC}/v1`, kind, metadata: { name }, ...extra });
const reviewBody = (group: string, kind: string, spec: object) => () => ({ apiVersion: `${group}/v1`, kind, spec });
const podAttributes = { verb: 'get', resource: 'pods', namespace: 'team' };

const TARGETS: Target[] = [
  { group: '', resource: 'pods', names: ['p1', 'p2', 'p3', 'p4'], everywhere: true,
    subresources: { status: ['get', 'update', 'patch', 'delete'], binding: ['create', 'get'], eviction: ['create', 'get'] },
    selectors: ['spec.nodeName=node-1', 'spec.nodeName=node-2', 'metadata.name=p1'],
    body: core('Pod', { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } }) },
  { group: '', resource: 'configmaps', names: ['settings', 'c1', 'c2'], everywhere: true, selectors: ['metadata.name=settings', 'metadata.name=c2'],
    body: core('ConfigMap', { data: { k: 'v' } }) },
  { group: '', resource: 'secrets', names: ['s1', 's2', 's3', 's4', 'pull1'], everywhere: true, selectors: ['metadata.name=s1', 'metadata.name=s4'],
    body: core('Secret', { data: { k: 'dg==' } }) },
  { group: '', resource: 'serviceaccounts', names: ['builder', 'default', 'robot'], everywhere: true, subresources: { token: ['create', 'get'] },
    body: core('ServiceAccount') },
  { group: '', resource: 'services', names: ['svc'], subresources: { status: ['get', 'patch'] }, body: core('Service', { spec: { ports: [{ port: 80 }] } }) },
  { group: 'apps', resource: 'deployments', names: ['web'], everywhere: true, subresources: { status: ['get', 'update', 'patch', 'delete'] }, body: deployment },
  { group: 'coordination.k8s.io', resource: 'leases', names: ['node-1', 'node-2', 'orch-scheduler'], namespaces: ['team', 'kube-node-lease'], everywhere: true,
    selectors: ['metadata.name=node-1'], body: lease },
  { group: RBAC, resource: 'roles', names: ['empty', 'pod-reader'], body: rbac('Role', { rules: [] }) },
  { group: RBAC, resource: 'rolebindings', names: ['alice-pods'], everywhere: true,
    body: rbac('RoleBinding', { roleRef: { apiGroup: RBAC, kind: 'Role', name: 'empty' }, subjects: [] }) },
  { group: 'authorization.k8s.io', resource: 'localsubjectaccessreviews', names: ['x'], review: true,
    body: (_n, ns) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec: { user: 'x', resourceAttributes: { ...podAttributes, namespace: ns } } }) },
  { group: '', resource: 'nodes', cluster: true, names: ['node-1', 'node-2', 'node-3'], subresources: { status: ['get', 'update', 'patch', 'delete'] },
    selectors: ['metadata.name=node-1', 'metadata.name=node-2'], body: core('Node') },
  { group: '', resource: 'namespaces', cluster: true, names: ['team'], subresources: { status: ['get'] }, body: core('Namespace') },
  { group: RBAC, resource: 'clusterroles', cluster: true, names: ['empty', 'view'], body: rbac('ClusterRole', { rules: [] }) },
  { group: RBAC, resource: 'clusterrolebindings', cluster: true, names: ['bob-nodes'],
    body: rbac('ClusterRoleBinding', { roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'empty' }, subjects: [] }) },
  { group: 'authorization.k8s.io', resource: 'subjectaccessreviews', cluster: true, names: ['x'], review: true,
    body: reviewBody('authorization.k8s.io', 'SubjectAccessReview', { user: 'x', resourceAttributes: podAttributes }) },
  { group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews', cluster: true, names: ['x'], review: true,
    body: reviewBody('authorization.k8s.io', 'SelfSubjectAccessReview', { resourceAttributes: podAttributes }) },
  { group: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews', cluster: true, names: ['x'], review: true,
    body: reviewBody('authorization.k8s.io', 'SelfSubjectRulesReview', { namespace: 'team' }) },
  { group: 'authentication.k8s.io', resource: 'tokenreviews', cluster: true, names: ['x'], review: true,
    body: reviewBody('authentication.k8s.io', 'TokenReview', { token: 'not-a-token' }) },
  { group: 'authentication.k8s.io', resource: 'selfsubjectreviews', cluster: true, names: ['x'], review: true,
    body: reviewBody('authentication.k8s.io', 'SelfSubjectReview', {}) },
];

const SUBRESOURCE_BODIES: Record<string, (name: string, ns: string | undefined) => object> = {
  binding: (name) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } }),
  eviction: (name, ns) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns } }),
  token: () => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [] } }),
};

/** The real request of resource attributes on `t`. */
function callOf(t: Target, a: ResourceAttributes): Call {
  const sub = a.subresource ? SUBRESOURCE_BODIES[a.subresource] : undefined;
  return requestFor(a, sub ? sub(a.name!, a.namespace) : t.body(a.name ?? 'matrix-new', a.namespace));
}

function targetCells(t: Target): Cell[] {
  const scopes: (string | undefined)[] = t.cluster ? [undefined] : (t.namespaces ?? NAMESPACES);
  const attrs: ResourceAttributes[] = [];
  const at = (verb: string, namespace: string | undefined, extra: Partial<ResourceAttributes> = {}) =>
    attrs.push({ verb, group: t.group, resource: t.resource, ...(namespace ? { namespace } : {}), ...extra });
  for (const ns of scopes) {
    const verbs = t.review ? { nameless: ['create', 'list'], named: ['get'] } : { nameless: ['list', 'watch', 'create', 'deletecollection'], named: ['get', 'update', 'patch', 'delete'] };
    for (const verb of verbs.nameless) at(verb, ns);
    for (const selector of t.selectors ?? []) for (const verb of ['list', 'watch']) at(verb, ns, { fieldSelector: selector });
    for (const name of t.names) {
      for (const verb of verbs.named) at(verb, ns, { name });
      for (const [sub, subVerbs] of Object.entries(t.subresources ?? {})) for (const verb of subVerbs) at(verb, ns, { name, subresource: sub });
    }
  }
  if (t.everywhere)
    for (const fieldSelector of [undefined, ...(t.selectors ?? [])]) for (const verb of ['list', 'watch']) at(verb, undefined, fieldSelector ? { fieldSelector } : {});
  return attrs.map((a) => ({ attributes: a, call: callOf(t, a) }));
}

const NON_RESOURCE_PATHS = ['/healthz', '/healthz/ping', '/livez', '/readyz', '/version', '/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1',
  '/openapi/v3', '/metrics', '/logs/x', '/openid/v1/jwks', '/.well-known/openid-configuration', '/nothing-here'];

function nonResourceCells(): Cell[] {
  const asked: [string, string][] = [...NON_RESOURCE_PATHS.map((p): [string, string] => ['get', p]), ['post', '/logs/x'], ['post', '/healthz']];
  return asked.map(([verb, path]) => ({ attributes: { verb, path }, call: { method: verb.toUpperCase(), path } }));
}

/** The user a group, uid or extra is impersonated beside: one the fixture lets some impersonate and not others. */
const BESIDE: ResourceAttributes = { verb: 'impersonate', group: '', resource: 'users', name: 'alice' };

/**
 * The real request of an impersonate cell: impersonation headers on a request every user may make
 * (GET /version), so that a 403 can only be the impersonation's. A user or a service account is
 * asked alone (Impersonate-User); a group, uid or extra only beside a user (alice), so the request
 * is allowed only when impersonating her is too.
 */
function impersonationRequest(a: ResourceAttributes): Pick<Cell, 'call' | 'alsoAsks'> {
  const call = (headers: Record<string, string>): Call => ({ method: 'GET', path: '/version', headers });
  switch (a.resource) {
    case 'users': return { call: call({ 'impersonate-user': a.name! }) };
    case 'serviceaccounts': return { call: call({ 'impersonate-user': `system:serviceaccount:${a.namespace}:${a.name}` }) };
    case 'groups': return { call: call({ 'impersonate-user': BESIDE.name!, 'impersonate-group': a.name! }), alsoAsks: BESIDE };
    case 'uids': return { call: call({ 'impersonate-user': BESIDE.name!, 'impersonate-uid': a.name! }), alsoAsks: BESIDE };
    case 'userextras': return { call: call({ 'impersonate-user': BESIDE.name!, [`impersonate-extra-${a.subresource}`]: a.name! }), alsoAsks: BESIDE };
    default: throw new Error(`no impersonation request for ${a.resource}`);
  }
}

/** Cells no request can ask here (bind, escalate, use; subresources and kinds not served), and the impersonate cells with theirs. */
function reviewOnlyCells(): Cell[] {
  const a = (verb: string, group: string, resource: string, extra: Partial<ResourceAttributes> = {}): ResourceAttributes => ({ verb, group, resource, ...extra });
  const attrs: ResourceAttributes[] = [];
  for (const namespace of NAMESPACES) {
    for (const name of ['p1', 'p3']) attrs.push(a('get', '', 'pods', { namespace, name, subresource: 'log' }));
    for (const verb of ['get', 'update', 'patch']) attrs.push(a(verb, 'apps', 'deployments', { namespace, name: 'web', subresource: 'scale' }));
    for (const name of ['claim1', 'claim2']) for (const verb of ['get', 'update', 'delete']) attrs.push(a(verb, '', 'persistentvolumeclaims', { namespace, name }));
    for (const verb of ['list', 'create']) attrs.push(a(verb, '', 'persistentvolumeclaims', { namespace }));
    for (const name of ['builder', 'robot']) attrs.push(a('impersonate', '', 'serviceaccounts', { namespace, name }));
    attrs.push(a('bind', RBAC, 'clusterroles', { namespace, name: 'view' }), a('bind', RBAC, 'roles', { namespace, name: 'empty' }));
    attrs.push(a('escalate', RBAC, 'roles', { namespace, name: 'pod-reader' }), a('escalate', RBAC, 'roles', { namespace }));
    for (const name of ['restricted', 'privileged']) attrs.push(a('use', 'policy', 'podsecuritypolicies', { namespace, name }));
  }
  for (const name of ['alice', 'carol', 'bob']) attrs.push(a('impersonate', '', 'users', { name }));
  for (const name of ['devs', 'system:masters']) attrs.push(a('impersonate', '', 'groups', { name }));
  attrs.push(a('impersonate', 'authentication.k8s.io', 'userextras', { subresource: 'scopes', name: 'view' }), a('impersonate', 'authentication.k8s.io', 'uids', { name: 'u1' }));
  for (const name of ['view', 'admin']) attrs.push(a('bind', RBAC, 'clusterroles', { name }), a('escalate', RBAC, 'clusterroles', { name }));
  attrs.push(a('use', 'policy', 'podsecuritypolicies', { name: 'restricted' }));
  return attrs.map((attributes) => ({ attributes, ...(attributes.verb === 'impersonate' ? impersonationRequest(attributes) : {}) }));
}

/** Every cell of one identity's row. */
export function matrixCells(): Cell[] {
  return [...TARGETS.flatMap(targetCells), ...nonResourceCells(), ...reviewOnlyCells()];
}
