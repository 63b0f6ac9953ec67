// The world the authorization matrix asks about: who asks (users, groups, service accounts, nodes,
// nobody), what they were granted (Roles, ClusterRoles, their bindings: resourceNames,
// subresources, wildcards, non-resource URLs, aggregation, a dangling reference), and the pods
// bound to nodes with the Secrets, ConfigMaps, claims and service accounts they use. Each pod's
// uses are declared beside its spec (the reference reads the declaration, the server the spec),
// each written a different way: volumes, projected sources, env, envFrom, image pull secrets.
import type { BoundPod, RbacObject, Rule, Subject, User } from '../helpers/authorization-reference.ts';

const RBAC = 'rbac.authorization.k8s.io';
const AUTHENTICATED = 'system:authenticated';

/** How an identity proves itself: a static token (--token-auth-file), a client certificate, a TokenRequest token, or nothing. */
export type Proof = { token: string } | { cert: { cn: string; orgs: string[] } } | { serviceAccount: { namespace: string; name: string } } | { anonymous: true };

export interface Identity { name: string; user: User; proof: Proof }

const saUser = (namespace: string, name: string): User =>
  ({ username: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, AUTHENTICATED] });

export const ADMIN_TOKEN = 'matrix-admin-token';
/** The aggregation controller's static token: it runs as its service account, as the real one. */
export const AGGREGATOR_TOKEN = 'matrix-aggregator-token';

export const IDENTITIES: Identity[] = [
  { name: 'admin', user: { username: 'matrix-admin', groups: ['system:masters', AUTHENTICATED] }, proof: { token: ADMIN_TOKEN } },
  { name: 'alice', user: { username: 'alice', groups: ['devs', AUTHENTICATED] }, proof: { token: 'alice-token' } },
  { name: 'bob', user: { username: 'bob', groups: ['ops', AUTHENTICATED] }, proof: { cert: { cn: 'bob', orgs: ['ops'] } } },
  { name: 'carol', user: { username: 'carol', groups: [AUTHENTICATED] }, proof: { token: 'carol-token' } },
  // In the nodes' group without a node's name: not a node.
  { name: 'mallory', user: { username: 'mallory', groups: ['system:nodes', AUTHENTICATED] }, proof: { token: 'mallory-token' } },
  // A node's name outside the nodes' group: not a node either.
  { name: 'impostor', user: { username: 'system:node:node-1', groups: [AUTHENTICATED] }, proof: { token: 'impostor-token' } },
  { name: 'builder', user: saUser('team', 'builder'), proof: { serviceAccount: { namespace: 'team', name: 'builder' } } },
  { name: 'robot', user: saUser('other', 'robot'), proof: { serviceAccount: { namespace: 'other', name: 'robot' } } },
  { name: 'node-1', user: { username: 'system:node:node-1', groups: ['system:nodes', AUTHENTICATED] }, proof: { cert: { cn: 'system:node:node-1', orgs: ['system:nodes'] } } },
  { name: 'node-2', user: { username: 'system:node:node-2', groups: ['system:nodes', AUTHENTICATED] }, proof: { token: 'node-2-token' } },
  { name: 'anonymous', user: { username: 'system:anonymous', groups: ['system:unauthenticated'] }, proof: { anonymous: true } },
];

/** The static token file: every identity proved by a token, and the aggregation controller. */
export function tokenFile(): string {
  const lines = IDENTITIES.flatMap((i) => ('token' in i.proof
    ? [`${i.proof.token},${i.user.username},uid-${i.name},"${i.user.groups.filter((g) => g !== AUTHENTICATED).join(',')}"`] : []));
  lines.push(`${AGGREGATOR_TOKEN},system:serviceaccount:orch-system:clusterrole-aggregation-controller,uid-aggregator,"system:serviceaccounts,system:serviceaccounts:orch-system"`);
  return `${lines.join('\n')}\n`;
}

const role = (namespace: string, name: string, rules: Rule[]): RbacObject => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules });
const clusterRole = (name: string, rules: Rule[], extra: Pick<RbacObject, 'aggregationRule'> & { labels?: Record<string, string> } = {}): RbacObject =>
  ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name, ...(extra.labels ? { labels: extra.labels } : {}) }, rules,
    ...(extra.aggregationRule ? { aggregationRule: extra.aggregationRule } : {}) });
const roleBinding = (namespace: string, name: string, ref: ['Role' | 'ClusterRole', string], subjects: Subject[]): RbacObject =>
  ({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind: ref[0], name: ref[1] }, subjects });
const clusterRoleBinding = (name: string, roleName: string, subjects: Subject[]): RbacObject =>
  ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects });
const user = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC, name });
const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC, name });
const sa = (name: string, namespace?: string): Subject => ({ kind: 'ServiceAccount', name, ...(namespace ? { namespace } : {}) });
const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): Rule =>
  ({ verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) });

const TO_READER = 'example.com/aggregate-to-reader';

/** The policy on top of the bootstrap one. */
export const POLICY: RbacObject[] = [
  role('team', 'pod-reader', [rule(['get', 'list', 'watch'], [''], ['pods']), rule(['get'], [''], ['pods/log'])]),
  role('team', 'settings-only', [rule(['get', 'list', 'watch', 'update', 'patch', 'delete'], [''], ['configmaps'], ['settings'])]),
  role('team', 'rbac-editor', [rule(['*'], [RBAC], ['roles', 'rolebindings'])]),
  // Grants nothing a request can ask: `pods/*` is no pattern, and pods are not in apps.
  role('team', 'trap', [rule(['get', 'update'], [''], ['pods/*']), rule(['list'], ['apps'], ['pods'])]),
  role('team', 'empty', []),
  role('other', 'empty', []),
  role('other', 'sa-minter', [rule(['create'], [''], ['serviceaccounts/token'], ['robot']), rule(['get'], [''], ['serviceaccounts'])]),
  clusterRole('empty', []),
  clusterRole('deployer', [rule(['*'], ['apps'], ['deployments', 'deployments/scale']), rule(['create'], [''], ['pods/eviction'])]),
  clusterRole('status-writer', [rule(['get', 'update', 'patch'], ['*'], ['*/status'])]),
  clusterRole('node-reader', [rule(['get', 'list', 'watch'], [''], ['nodes']), { verbs: ['get'], nonResourceURLs: ['/metrics', '/healthz/*'] }]),
  clusterRole('logs-poster', [{ verbs: ['get', 'post'], nonResourceURLs: ['/logs/*'] }]),
  clusterRole('secrets-all', [rule(['*'], [''], ['secrets'])]),
  clusterRole('lease-reader', [rule(['get', 'list'], ['*'], ['leases'])]),
  clusterRole('binder', [rule(['bind'], [RBAC], ['clusterroles'], ['view']), rule(['escalate'], [RBAC], ['roles'])]),
  clusterRole('impersonator', [rule(['impersonate'], [''], ['users'], ['alice', 'carol']), rule(['impersonate'], [''], ['groups']),
    rule(['impersonate'], ['authentication.k8s.io'], ['userextras/scopes'])]),
  clusterRole('restricted-user', [rule(['use'], ['policy'], ['podsecuritypolicies'], ['restricted'])]),
  clusterRole('node-extra', [rule(['get'], [''], ['configmaps'], ['c2'])]),
  // Aggregation: reader picks two roles by label; reader-plus picks by expression, and reader itself.
  clusterRole('reader', [rule(['delete'], [''], ['pods'])], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [TO_READER]: 'true' } }] },
    labels: { 'example.com/aggregate-to-plus': 'true' } }),
  clusterRole('reader-services', [rule(['get', 'list', 'watch'], [''], ['services'])], { labels: { [TO_READER]: 'true' } }),
  clusterRole('reader-accounts', [rule(['list'], [''], ['serviceaccounts'])], { labels: { [TO_READER]: 'true', 'example.com/tier': 'gold' } }),
  clusterRole('reader-plus', [], { aggregationRule: { clusterRoleSelectors: [
    { matchExpressions: [{ key: 'example.com/tier', operator: 'In', values: ['gold', 'platinum'] }] },
    { matchLabels: { 'example.com/aggregate-to-plus': 'true' } },
  ] } }),
  clusterRole('gold-deployments', [rule(['get'], ['apps'], ['deployments/status'])], { labels: { 'example.com/tier': 'gold' } }),

  roleBinding('team', 'alice-pods', ['Role', 'pod-reader'], [user('alice')]),
  roleBinding('team', 'alice-rbac', ['Role', 'rbac-editor'], [user('alice')]),
  roleBinding('team', 'devs-deploy', ['ClusterRole', 'deployer'], [group('devs')]),
  roleBinding('other', 'devs-view', ['ClusterRole', 'view'], [group('devs')]),
  clusterRoleBinding('ops-status', 'status-writer', [group('ops')]),
  clusterRoleBinding('bob-nodes', 'node-reader', [user('bob')]),
  clusterRoleBinding('carol-logs', 'logs-poster', [user('carol')]),
  roleBinding('team', 'builder-settings', ['Role', 'settings-only'], [sa('builder')]),
  roleBinding('other', 'team-accounts-read', ['ClusterRole', 'reader'], [group('system:serviceaccounts:team')]),
  clusterRoleBinding('accounts-leases', 'lease-reader', [group('system:serviceaccounts')]),
  clusterRoleBinding('carol-secrets', 'secrets-all', [user('carol')]),
  roleBinding('team', 'carol-dangling', ['Role', 'no-such-role'], [user('carol')]),
  clusterRoleBinding('carol-dangling', 'no-such-clusterrole', [user('carol')]),
  roleBinding('other', 'robot-minter', ['Role', 'sa-minter'], [sa('robot', 'other')]),
  // `robot` here is team's robot (the binding's namespace), which is not other's.
  roleBinding('team', 'team-robot-pods', ['Role', 'pod-reader'], [sa('robot')]),
  // A service account named as a User subject is that service account.
  roleBinding('team', 'robot-by-name', ['ClusterRole', 'deployer'], [user('system:serviceaccount:other:robot')]),
  clusterRoleBinding('binders', 'binder', [user('alice')]),
  clusterRoleBinding('impersonators', 'impersonator', [user('bob')]),
  roleBinding('team', 'accounts-restricted', ['ClusterRole', 'restricted-user'], [group('system:serviceaccounts')]),
  roleBinding('team', 'nodes-extra', ['ClusterRole', 'node-extra'], [group('system:nodes')]),
  clusterRoleBinding('mallory-plus', 'reader-plus', [user('mallory')]),
  roleBinding('team', 'impostor-trap', ['Role', 'trap'], [user('system:node:node-1')]),
  roleBinding('other', 'anonymous-services', ['ClusterRole', 'reader-services'], [group('system:unauthenticated')]),
];

/** What each pod uses, for the reference; `podSpecs` writes the same uses into specs. */
export const PODS: BoundPod[] = [
  { namespace: 'team', name: 'p1', node: 'node-1', serviceAccount: 'builder', secrets: ['s1', 'pull1'], configMaps: ['c1'], claims: ['claim1'] },
  { namespace: 'team', name: 'p2', node: 'node-2', serviceAccount: 'default', secrets: ['s2', 's4'], configMaps: ['c2'], claims: [] },
  { namespace: 'team', name: 'p3', serviceAccount: 'default', secrets: ['s3'], configMaps: ['settings'], claims: ['claim2'] },
  { namespace: 'other', name: 'p4', node: 'node-1', serviceAccount: 'robot', secrets: ['s4'], configMaps: ['c1'], claims: [] },
];

const container = (extra: object = {}) => ({ name: 'c', image: 'nginx:1.27', ...extra });

export const POD_SPECS: Record<string, object> = {
  p1: { nodeName: 'node-1', serviceAccountName: 'builder', imagePullSecrets: [{ name: 'pull1' }],
    volumes: [{ name: 'v', secret: { secretName: 's1' } }, { name: 'd', persistentVolumeClaim: { claimName: 'claim1' } }],
    containers: [container({ env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: 'c1', key: 'k' } } }] })] },
  p2: { nodeName: 'node-2', serviceAccountName: 'default',
    volumes: [{ name: 'p', projected: { sources: [{ secret: { name: 's2' } }, { configMap: { name: 'c2' } }] } }],
    containers: [container({ envFrom: [{ secretRef: { name: 's4' } }] })] },
  p3: { serviceAccountName: 'default', volumes: [{ name: 'v', secret: { secretName: 's3' } }, { name: 'c', configMap: { name: 'settings' } },
    { name: 'd', persistentVolumeClaim: { claimName: 'claim2' } }], containers: [container()] },
  p4: { nodeName: 'node-1', serviceAccountName: 'robot',
    initContainers: [{ name: 'i', image: 'busybox:1.36', env: [{ name: 'S', valueFrom: { secretKeyRef: { name: 's4', key: 'k' } } }] }],
    containers: [container({ envFrom: [{ configMapRef: { name: 'c1' } }] })] },
};

/** The objects stored before the policy: namespaces, service accounts, Secrets, ConfigMaps, the rest the cells name. */
export function worldObjects(): { path: string; body: object }[] {
  const core = (ns: string, resource: string, body: object) => ({ path: `/api/v1/namespaces/${ns}/${resource}`, body });
  const named = (kind: string, name: string, extra: object = {}) => ({ apiVersion: 'v1', kind, metadata: { name }, ...extra });
  const out = [
    ...['team', 'other'].map((n) => ({ path: '/api/v1/namespaces', body: named('Namespace', n) })),
    ...['node-1', 'node-2'].map((n) => ({ path: '/api/v1/nodes', body: named('Node', n) })),
    ...[['team', 'builder'], ['team', 'default'], ['other', 'robot'], ['other', 'default']].map(([ns, n]) => core(ns!, 'serviceaccounts', named('ServiceAccount', n!))),
    ...['s1', 's2', 's3', 's4', 'pull1'].flatMap((n) => ['team', 'other'].map((ns) => core(ns, 'secrets', named('Secret', n, { data: { k: 'dg==' } })))),
    ...['settings', 'c1', 'c2'].flatMap((n) => ['team', 'other'].map((ns) => core(ns, 'configmaps', named('ConfigMap', n, { data: { k: 'v' } })))),
    ...['team', 'other'].map((ns) => core(ns, 'services', named('Service', 'svc', { spec: { ports: [{ port: 80 }], selector: { app: 'web' } } }))),
    ...['team', 'other'].map((ns) => ({ path: `/apis/apps/v1/namespaces/${ns}/deployments`, body: deployment('web') })),
    ...['node-1', 'node-2'].map((n) => ({ path: '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', body: lease(n) })),
    ...PODS.map((p) => core(p.namespace, 'pods', named('Pod', p.name, { spec: POD_SPECS[p.name] }))),
  ];
  return out;
}

export const deployment = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, spec: { replicas: 1,
  selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [container()] } } } });
export const lease = (name: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: name } });
