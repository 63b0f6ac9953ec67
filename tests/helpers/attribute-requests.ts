// From authorization attributes to what asks about them: the real request that carries them (its
// writes dry runs, which need the same permission; a deletecollection selecting nothing) and the
// SubjectAccessReview of them for a user. Every group served here is at v1.
import { isNonResource, requestedName, type Attributes, type ResourceAttributes, type User } from './authorization-reference.ts';
import type { Call } from './identity-client.ts';

const METHODS: Record<string, string> = { get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' };
const DRY_RUN = 'dryRun=All';
/** Even a dry run of deletecollection should not walk real objects. */
const SELECTS_NOTHING = 'labelSelector=authorization-test%3Dnone';

export function collectionPath(a: Pick<ResourceAttributes, 'group' | 'resource' | 'namespace'>): string {
  return `${a.group ? `/apis/${a.group}/v1` : '/api/v1'}${a.namespace ? `/namespaces/${a.namespace}` : ''}/${a.resource}`;
}

/** The request a client sends for resource attributes; `body` for a create or update. */
export function requestFor(a: ResourceAttributes, body?: object): Call {
  let path = collectionPath(a) + (a.name ? `/${a.name}${a.subresource ? `/${a.subresource}` : ''}` : '');
  const query: string[] = [];
  if (a.verb === 'watch') query.push('watch=1');
  if (a.fieldSelector) query.push(`fieldSelector=${encodeURIComponent(a.fieldSelector)}`);
  if (!['get', 'list', 'watch'].includes(a.verb)) query.push(DRY_RUN);
  if (a.verb === 'deletecollection') query.push(SELECTS_NOTHING);
  if (query.length) path += `?${query.join('&')}`;
  const sent = a.verb === 'patch' ? {} : a.verb === 'create' || a.verb === 'update' ? body : undefined;
  return { method: METHODS[a.verb]!, path, ...(sent !== undefined ? { body: sent } : {}),
    ...(a.verb === 'patch' ? { contentType: 'application/merge-patch+json' } : {}), ...(a.verb === 'watch' ? { stream: true } : {}) };
}

/** The SubjectAccessReview of attributes for `user`: what its request carries (a list's name is its field selector's). */
export function accessReview(user: User, a: Attributes): object {
  const name = isNonResource(a) ? undefined : requestedName(a);
  const attributes = isNonResource(a) ? { nonResourceAttributes: { path: a.path, verb: a.verb } }
    : { resourceAttributes: { verb: a.verb, group: a.group, resource: a.resource, ...(a.subresource ? { subresource: a.subresource } : {}),
      ...(a.namespace ? { namespace: a.namespace } : {}), ...(name ? { name } : {}),
      ...(a.fieldSelector ? { fieldSelector: { rawSelector: a.fieldSelector } } : {}) } };
  return { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: user.username, groups: user.groups, ...attributes } };
}

export const SUBJECT_ACCESS_REVIEWS = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

/** A cell in words, for a failure message. */
export function describe(a: Attributes): string {
  if (isNonResource(a)) return `${a.verb} ${a.path}`;
  const what = `${a.group || 'core'}/${a.resource}${a.subresource ? `/${a.subresource}` : ''}`;
  return `${a.verb} ${what} ${a.namespace ? `ns=${a.namespace}` : 'cluster'}${a.name ? ` name=${a.name}` : ''}${a.fieldSelector ? ` fieldSelector=${a.fieldSelector}` : ''}`;
}
