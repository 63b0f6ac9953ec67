// The roles and bindings the API server creates at start when RBAC is on, after the real server's
// bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), cut to the kinds served here
// and with this cluster's neutral names (the orch-system namespace, the orch-* lock names):
// cluster-admin, the aggregated admin, edit and view, the discovery and self-review roles, the
// roles of the scheduler and the controller manager, and one role per controller for
// --use-service-account-credentials. Each carries the real labels and the autoupdate annotation.
import { SYSTEM_NAMESPACE } from '../../api/namespaces.ts';
import type { KObject } from '../../api/types.ts';
import type { PolicyRule } from './rbac-rules.ts';
import { RBAC_GROUP } from './rbac.ts';

export const AGGREGATE_TO = (role: 'admin' | 'edit' | 'view') => `rbac.authorization.k8s.io/aggregate-to-${role}`;

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const CORE = '';
const APPS = 'apps';
const COORDINATION = 'coordination.k8s.io';
const BATCH = 'batch';
const DISCOVERY = 'discovery.k8s.io';

function rule(verbs: string[], groups: string[], resources: string[], names?: string[]): PolicyRule {
  return { verbs, apiGroups: groups, resources, ...(names ? { resourceNames: names } : {}) };
}
const urls = (verbs: string[], paths: string[]): PolicyRule => ({ verbs, nonResourceURLs: paths });
const events = rule(['create', 'patch', 'update'], [CORE, 'events.k8s.io'], ['events']);

const labels = (extra: Record<string, string> = {}) => ({ 'kubernetes.io/bootstrapping': 'rbac-defaults', ...extra });
const annotations = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

function clusterRole(name: string, rules: PolicyRule[], extra: { labels?: Record<string, string>; aggregate?: string } = {}): KObject {
  return {
    apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole',
    metadata: { name, labels: labels(extra.labels), annotations },
    ...(extra.aggregate ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [extra.aggregate]: 'true' } }] } } : {}),
    rules,
  } as KObject;
}

function clusterRoleBinding(name: string, role: string, subjects: { kind: 'User' | 'Group' | 'ServiceAccount'; name: string; namespace?: string }[]): KObject {
  return {
    apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRoleBinding',
    metadata: { name, labels: labels(), annotations },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects: subjects.map((s) => (s.kind === 'ServiceAccount' ? s : { ...s, apiGroup: RBAC_GROUP })),
  } as KObject;
}

const PUBLIC_INFO = ['/healthz', '/livez', '/readyz', '/version', '/version/'];

/** The controllers' service accounts (in orch-system) and their rules, as the real controller roles. */
export const CONTROLLER_ROLES: Record<string, PolicyRule[]> = {
  'deployment-controller': [
    rule([...READ, 'update'], [APPS], ['deployments']),
    rule(['patch', 'update'], [APPS], ['deployments/status', 'deployments/finalizers']),
    rule(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], [APPS], ['replicasets']),
    rule(['get', 'list', 'update', 'watch'], [CORE], ['pods']),
    events,
  ],
  'replicaset-controller': [
    rule([...READ, 'update'], [APPS], ['replicasets']),
    rule(['patch', 'update'], [APPS], ['replicasets/status', 'replicasets/finalizers']),
    rule(['create', 'delete', 'list', 'patch', 'watch'], [CORE], ['pods']),
    events,
  ],
  'daemon-set-controller': [
    rule(READ, [APPS], ['daemonsets']),
    rule(['patch', 'update'], [APPS], ['daemonsets/status', 'daemonsets/finalizers']),
    rule(READ, [CORE], ['nodes']),
    rule(['create', 'delete', 'list', 'patch', 'watch'], [CORE], ['pods']),
    rule(['create'], [CORE], ['pods/binding']),
    rule(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], [APPS], ['controllerrevisions']),
    events,
  ],
  'statefulset-controller': [
    rule(READ, [CORE], ['pods']),
    rule(READ, [APPS], ['statefulsets']),
    rule(['patch', 'update'], [APPS], ['statefulsets/status', 'statefulsets/finalizers']),
    rule(['create', 'delete', 'get', 'patch', 'update'], [CORE], ['pods']),
    rule(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], [APPS], ['controllerrevisions']),
    rule(['get', 'create'], [CORE], ['persistentvolumeclaims']),
    events,
  ],
  'job-controller': [
    rule(['get', 'list', 'watch', 'update', 'patch'], [BATCH], ['jobs']),
    rule(['update'], [BATCH], ['jobs/status']),
    rule(['update'], [BATCH], ['jobs/finalizers']),
    rule(['list', 'watch', 'create', 'delete', 'patch'], [CORE], ['pods']),
    events,
  ],
  'cronjob-controller': [
    rule(['get', 'list', 'watch', 'update'], [BATCH], ['cronjobs']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [BATCH], ['jobs']),
    rule(['update'], [BATCH], ['cronjobs/status']),
    rule(['update'], [BATCH], ['cronjobs/finalizers']),
    rule(['list', 'delete'], [CORE], ['pods']),
    events,
  ],
  'ttl-after-finished-controller': [
    rule(['get', 'list', 'watch', 'delete'], [BATCH], ['jobs']),
    events,
  ],
  'node-controller': [
    rule(['delete', 'get', 'list', 'patch', 'update'], [CORE], ['nodes']),
    rule(['patch', 'update'], [CORE], ['nodes/status']),
    rule(['patch', 'update'], [CORE], ['pods/status']),
    rule(['delete', 'list'], [CORE], ['pods']),
    events,
  ],
  'taint-eviction-controller': [
    rule(['patch'], [CORE], ['pods/status']),
    rule(['delete', 'get', 'list'], [CORE], ['pods']),
    events,
  ],
  'pod-garbage-collector': [
    rule(['list', 'watch', 'delete'], [CORE], ['pods']),
    rule(READ, [CORE], ['nodes']),
    rule(['patch'], [CORE], ['pods/status']),
  ],
  'generic-garbage-collector': [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), events],
  'clusterrole-aggregation-controller': [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [RBAC_GROUP], ['clusterroles'])],
  'resourcequota-controller': [
    rule(['list', 'watch'], ['*'], ['*']),
    rule(['update'], [CORE], ['resourcequotas/status']),
    events,
  ],
  'disruption-controller': [
    rule(READ, [APPS], ['deployments', 'replicasets', 'statefulsets']),
    rule(READ, [CORE], ['replicationcontrollers']),
    rule(READ, ['policy'], ['poddisruptionbudgets']),
    rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
    rule(['patch', 'update'], [CORE], ['pods/status']),
    rule(['get'], ['*'], ['*/scale']),
    events,
  ],
  'horizontal-pod-autoscaler': [
    rule(READ, ['autoscaling'], ['horizontalpodautoscalers']),
    rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
    rule(['get', 'update'], ['*'], ['*/scale']),
    rule(['list'], [CORE], ['pods']),
    rule(['list'], ['metrics.k8s.io'], ['pods']),
    rule(['get', 'list'], ['custom.metrics.k8s.io'], ['*']),
    rule(['get', 'list'], ['external.metrics.k8s.io'], ['*']),
    events,
  ],
  'namespace-controller': [
    rule(['delete', 'get', 'list', 'watch'], [CORE], ['namespaces']),
    rule(['update'], [CORE], ['namespaces/finalize', 'namespaces/status']),
    rule(['get', 'list', 'delete', 'deletecollection'], ['*'], ['*']),
  ],
  'endpoint-controller': [
    rule(READ, [CORE], ['services', 'pods']),
    rule(['get', 'list', 'create', 'update', 'delete'], [CORE], ['endpoints']),
    rule(['create'], [CORE], ['endpoints/restricted']),
    events,
  ],
  'endpointslice-controller': [
    rule(READ, [CORE], ['services', 'pods', 'nodes']),
    // Its slices name their Service as an owner that blocks deletion.
    rule(['update'], [CORE], ['services/finalizers']),
    rule(['get', 'list', 'create', 'update', 'delete'], [DISCOVERY], ['endpointslices']),
    events,
  ],
  'endpointslicemirroring-controller': [
    rule(READ, [CORE], ['services', 'endpoints']),
    rule(['update'], [CORE], ['services/finalizers', 'endpoints/finalizers']),
    rule(['get', 'list', 'create', 'update', 'delete'], [DISCOVERY], ['endpointslices']),
    events,
  ],
  'service-account-controller': [rule(['create'], [CORE], ['serviceaccounts']), events],
  'root-ca-cert-publisher': [rule(['create', 'update'], [CORE], ['configmaps']), events],
};

/** The ClusterRoles and ClusterRoleBindings created at start (and again whenever one is missing at a start). */
export function bootstrapPolicy(): KObject[] {
  const roles = [
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    clusterRole('system:discovery', [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*', ...PUBLIC_INFO])]),
    clusterRole('system:public-info-viewer', [urls(['get'], PUBLIC_INFO)]),
    clusterRole('system:monitoring', [urls(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])]),
    clusterRole('system:basic-user', [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    clusterRole('system:service-account-issuer-discovery', [urls(['get'], ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'])]),
    clusterRole('admin', [], { aggregate: AGGREGATE_TO('admin') }),
    clusterRole('edit', [], { aggregate: AGGREGATE_TO('edit'), labels: { [AGGREGATE_TO('admin')]: 'true' } }),
    clusterRole('view', [], { aggregate: AGGREGATE_TO('view'), labels: { [AGGREGATE_TO('edit')]: 'true' } }),
    clusterRole('system:aggregate-to-admin', [
      rule([...READ, ...WRITE], [RBAC_GROUP], ['roles', 'rolebindings']),
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
    ], { labels: { [AGGREGATE_TO('admin')]: 'true' } }),
    clusterRole('system:aggregate-to-edit', [
      rule(['impersonate'], [CORE], ['serviceaccounts']),
      rule(WRITE, [CORE], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [CORE], ['pods/eviction']),
      rule(WRITE, [CORE], ['configmaps', 'events', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
      rule(['create'], [CORE], ['serviceaccounts/token']),
      rule(WRITE, [APPS], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
      rule(WRITE, [BATCH], ['cronjobs', 'jobs']),
      rule(WRITE, ['policy'], ['poddisruptionbudgets']),
      rule(READ, [CORE], ['secrets']),
    ], { labels: { [AGGREGATE_TO('edit')]: 'true' } }),
    clusterRole('system:aggregate-to-view', [
      rule(READ, [CORE], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status',
        'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps', 'bindings', 'events', 'limitranges',
        'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
      rule(READ, [CORE], ['namespaces']),
      rule(READ, [DISCOVERY], ['endpointslices']),
      rule(READ, [APPS], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status',
        'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
      rule(READ, [BATCH], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
    ], { labels: { [AGGREGATE_TO('view')]: 'true' } }),
    // What the metrics server's manifests add, so that whoever may view a namespace may `kubectl top` it.
    clusterRole('system:aggregated-metrics-reader', [rule(['get', 'list', 'watch'], ['metrics.k8s.io'], ['pods', 'nodes'])],
      { labels: { [AGGREGATE_TO('view')]: 'true', [AGGREGATE_TO('edit')]: 'true', [AGGREGATE_TO('admin')]: 'true' } }),
    clusterRole('system:kube-scheduler', [
      events,
      rule(['create'], [COORDINATION], ['leases']),
      rule(['get', 'update'], [COORDINATION], ['leases'], ['orch-scheduler']),
      rule(READ, [CORE], ['nodes']),
      rule(['delete', ...READ], [CORE], ['pods']),
      rule(['create'], [CORE], ['bindings', 'pods/binding']),
      rule(['patch', 'update'], [CORE], ['pods/status']),
      rule(READ, [CORE], ['replicationcontrollers', 'services']),
      rule(READ, [APPS], ['replicasets', 'statefulsets']),
      rule(READ, ['policy'], ['poddisruptionbudgets']),
      rule(READ, [CORE], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      rule(READ, [CORE], ['namespaces']),
    ]),
    clusterRole('system:kube-controller-manager', [
      events,
      rule(['create'], [COORDINATION], ['leases']),
      rule(['get', 'update'], [COORDINATION], ['leases'], ['orch-controller-manager']),
      rule(['create'], [CORE], ['secrets', 'serviceaccounts']),
      rule(['delete'], [CORE], ['secrets']),
      rule(['get'], [CORE], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
      rule(['update'], [CORE], ['secrets', 'serviceaccounts']),
      rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [CORE], ['serviceaccounts/token']),
    ]),
    ...Object.entries(CONTROLLER_ROLES).map(([sa, rules]) => clusterRole(`system:controller:${sa}`, rules)),
  ];
  const bindings = [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [{ kind: 'Group', name: 'system:masters' }]),
    // Anonymous requests reach health, version and discovery; self-reviews need an authenticated user.
    clusterRoleBinding('system:discovery', 'system:discovery', [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'system:unauthenticated' }]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'system:unauthenticated' }]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [{ kind: 'Group', name: 'system:authenticated' }]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [{ kind: 'Group', name: 'system:monitoring' }]),
    clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [{ kind: 'Group', name: 'system:serviceaccounts' }]),
    clusterRoleBinding('system:kube-scheduler', 'system:kube-scheduler', [{ kind: 'User', name: 'system:kube-scheduler' }]),
    clusterRoleBinding('system:kube-controller-manager', 'system:kube-controller-manager', [{ kind: 'User', name: 'system:kube-controller-manager' }]),
    ...Object.keys(CONTROLLER_ROLES).map((sa) => clusterRoleBinding(`system:controller:${sa}`, `system:controller:${sa}`, [{ kind: 'ServiceAccount', name: sa, namespace: SYSTEM_NAMESPACE }])),
  ];
  return [...roles, ...bindings];
}
