// The resource table: every type the API server serves, described once. Routing, discovery,
// OpenAPI, validation, Table output and errors all read this table and nothing else.
import type { KObject } from './types.ts';

export type Scope = 'Namespaced' | 'Cluster';

export interface Subresource {
  name: string;
  /** Kind of the subresource's body when it differs from the parent (Eviction, Binding). */
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
}

declare const OBJECT: unique symbol;

/** A served resource; `T` is the shape of its objects (`actors/api/model/`), a type only. */
export interface ResourceType<T extends KObject = KObject> {
  /** Never set: it carries `T` so that clients and informers of a typed resource return `T`. */
  readonly [OBJECT]?: T;
  group: string;
  version: string;
  /** Plural, lower case: the name in URLs. */
  resource: string;
  singular: string;
  kind: string;
  scope: Scope;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  subresources: Subresource[];
  /** Virtual types (access reviews) answer a create and store nothing. */
  virtual: boolean;
}

const STORED = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const status = (kind: string): Subresource => ({ name: 'status', kind, verbs: ['get', 'patch', 'update'] });
export const scaleSubresource: Subresource = { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] };

interface Entry {
  group?: string;
  version?: string;
  resource: string;
  kind: string;
  scope?: Scope;
  shortNames?: string[];
  categories?: string[];
  subresources?: Subresource[];
  virtual?: boolean;
}

function define(e: Entry): ResourceType {
  const virtual = e.virtual ?? false;
  return {
    group: e.group ?? '',
    version: e.version ?? 'v1',
    resource: e.resource,
    singular: e.kind.toLowerCase(),
    kind: e.kind,
    scope: e.scope ?? 'Namespaced',
    shortNames: e.shortNames ?? [],
    categories: e.categories ?? [],
    verbs: virtual ? ['create'] : STORED,
    subresources: e.subresources ?? [],
    virtual,
  };
}

const ALL = ['all'];

export const RESOURCES: readonly ResourceType[] = [
  define({ resource: 'namespaces', kind: 'Namespace', scope: 'Cluster', shortNames: ['ns'],
    subresources: [status('Namespace'), { name: 'finalize', kind: 'Namespace', verbs: ['update'] }] }),
  define({ resource: 'pods', kind: 'Pod', shortNames: ['po'], categories: ALL, subresources: [
    status('Pod'),
    { name: 'binding', kind: 'Binding', verbs: ['create'] },
    { name: 'eviction', kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] },
  ] }),
  define({ resource: 'nodes', kind: 'Node', scope: 'Cluster', shortNames: ['no'], subresources: [status('Node')] }),
  define({ resource: 'configmaps', kind: 'ConfigMap', shortNames: ['cm'] }),
  define({ resource: 'secrets', kind: 'Secret' }),
  define({ resource: 'services', kind: 'Service', shortNames: ['svc'], categories: ALL, subresources: [status('Service')] }),
  define({ resource: 'podtemplates', kind: 'PodTemplate' }),
  define({ resource: 'endpoints', kind: 'Endpoints', shortNames: ['ep'] }),
  define({ resource: 'events', kind: 'Event', shortNames: ['ev'] }),
  define({ resource: 'resourcequotas', kind: 'ResourceQuota', shortNames: ['quota'], subresources: [status('ResourceQuota')] }),
  define({ resource: 'limitranges', kind: 'LimitRange', shortNames: ['limits'] }),
  define({ resource: 'serviceaccounts', kind: 'ServiceAccount', shortNames: ['sa'],
    subresources: [{ name: 'token', kind: 'TokenRequest', group: 'authentication.k8s.io', version: 'v1', verbs: ['create'] }] }),
  define({ group: 'apps', resource: 'controllerrevisions', kind: 'ControllerRevision' }),
  define({ group: 'apps', resource: 'replicasets', kind: 'ReplicaSet', shortNames: ['rs'], categories: ALL,
    subresources: [status('ReplicaSet'), scaleSubresource] }),
  define({ group: 'apps', resource: 'deployments', kind: 'Deployment', shortNames: ['deploy'], categories: ALL,
    subresources: [status('Deployment'), scaleSubresource] }),
  define({ group: 'apps', resource: 'daemonsets', kind: 'DaemonSet', shortNames: ['ds'], categories: ALL,
    subresources: [status('DaemonSet')] }),
  define({ group: 'apps', resource: 'statefulsets', kind: 'StatefulSet', shortNames: ['sts'], categories: ALL,
    subresources: [status('StatefulSet'), scaleSubresource] }),
  define({ group: 'batch', resource: 'jobs', kind: 'Job', categories: ALL, subresources: [status('Job')] }),
  define({ group: 'batch', resource: 'cronjobs', kind: 'CronJob', shortNames: ['cj'], categories: ALL, subresources: [status('CronJob')] }),
  define({ group: 'coordination.k8s.io', resource: 'leases', kind: 'Lease' }),
  define({ group: 'events.k8s.io', resource: 'events', kind: 'Event', shortNames: ['ev'] }),
  define({ group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', shortNames: ['hpa'],
    categories: ALL, subresources: [status('HorizontalPodAutoscaler')] }),
  // After v2, which discovery lists first and so prefers: v1 is what `kubectl autoscale` writes.
  define({ group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', shortNames: ['hpa'],
    categories: ALL, subresources: [status('HorizontalPodAutoscaler')] }),
  define({ group: 'discovery.k8s.io', resource: 'endpointslices', kind: 'EndpointSlice' }),
  define({ group: 'policy', resource: 'poddisruptionbudgets', kind: 'PodDisruptionBudget', shortNames: ['pdb'],
    subresources: [status('PodDisruptionBudget')] }),
  define({ group: 'scheduling.k8s.io', resource: 'priorityclasses', kind: 'PriorityClass', scope: 'Cluster', shortNames: ['pc'] }),
  define({ group: 'rbac.authorization.k8s.io', resource: 'clusterroles', kind: 'ClusterRole', scope: 'Cluster' }),
  define({ group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', scope: 'Cluster' }),
  define({ group: 'rbac.authorization.k8s.io', resource: 'roles', kind: 'Role' }),
  define({ group: 'rbac.authorization.k8s.io', resource: 'rolebindings', kind: 'RoleBinding' }),
  define({ group: 'flowcontrol.apiserver.k8s.io', resource: 'flowschemas', kind: 'FlowSchema', scope: 'Cluster',
    subresources: [status('FlowSchema')] }),
  define({ group: 'flowcontrol.apiserver.k8s.io', resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration',
    scope: 'Cluster', subresources: [status('PriorityLevelConfiguration')] }),
  define({ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', scope: 'Cluster',
    shortNames: ['crd', 'crds'], categories: ['api-extensions'], subresources: [status('CustomResourceDefinition')] }),
  define({ group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', scope: 'Cluster',
    categories: ['api-extensions'] }),
  define({ group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', scope: 'Cluster',
    categories: ['api-extensions'] }),
  define({ group: 'authentication.k8s.io', resource: 'tokenreviews', kind: 'TokenReview', scope: 'Cluster', virtual: true }),
  define({ group: 'authentication.k8s.io', resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', scope: 'Cluster', virtual: true }),
  define({ group: 'authorization.k8s.io', resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', virtual: true }),
  define({ group: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', scope: 'Cluster', virtual: true }),
  define({ group: 'authorization.k8s.io', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview',
    scope: 'Cluster', virtual: true }),
  define({ group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview',
    scope: 'Cluster', virtual: true }),
];

/** `v1` for the core group, `apps/v1` elsewhere. */
/** `group/version`, one string per pair: every stored object's apiVersion is one of these. */
export function groupVersion(group: string, version: string): string {
  if (!group) return version;
  let versions = joinedGroupVersions.get(group);
  if (!versions) joinedGroupVersions.set(group, (versions = new Map()));
  let gv = versions.get(version);
  if (gv === undefined) versions.set(version, (gv = `${group}/${version}`));
  return gv;
}
const joinedGroupVersions = new Map<string, Map<string, string>>();

export function apiVersionOf(t: ResourceType): string {
  return groupVersion(t.group, t.version);
}

/** Served group versions, core first, in the order discovery lists them. */
export function groupVersions(): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const t of RESOURCES) seen.set(groupVersion(t.group, t.version), { group: t.group, version: t.version });
  return [...seen.values()];
}

const byPath = new Map(RESOURCES.map((t) => [`${t.group}/${t.version}/${t.resource}`, t]));
const byKind = new Map(RESOURCES.map((t) => [`${apiVersionOf(t)}/${t.kind}`, t]));

export function lookupResource(group: string, version: string, resource: string): ResourceType | undefined {
  return byPath.get(`${group}/${version}/${resource}`);
}

export function lookupKind(apiVersion: string, kind: string): ResourceType | undefined {
  return byKind.get(`${apiVersion}/${kind}`);
}
