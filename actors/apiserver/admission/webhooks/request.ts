// What a request is, as webhooks are told it: its kind (a subresource's own, such as an
// Eviction), its namespace as admission sees it, its user, and the fields an AdmissionReview and
// matchConditions' `request` share.
import type { ResourceType } from '../../../api/resources.ts';
import type { KObject } from '../../../api/types.ts';
import type { AdmissionAttributes } from '../chain.ts';
import type { GroupVersionKind, Invocation } from './matching.ts';

export const isNamespaces = (type: ResourceType): boolean => type.group === '' && type.resource === 'namespaces';

/**
 * The request's namespace as admission sees it: a Namespace's own name when the request names one
 * (its update or delete: the path is /api/v1/namespaces/<name>), none for other cluster-scoped objects.
 */
export function requestNamespace(a: AdmissionAttributes): string {
  if (isNamespaces(a.type)) return a.operation === 'CREATE' ? '' : a.name;
  return a.namespace ?? '';
}

export function kindOfRequest(type: ResourceType, subresource: string | undefined): GroupVersionKind {
  const sub = subresource ? type.subresources.find((s) => s.name === subresource) : undefined;
  return { group: sub?.group ?? type.group, version: sub?.version ?? type.version, kind: sub?.kind ?? type.kind };
}

function userInfoOf(a: AdmissionAttributes): Record<string, unknown> {
  const u = a.user;
  if (!u) return {};
  return { username: u.username, ...(u.uid ? { uid: u.uid } : {}), ...(u.groups.length ? { groups: u.groups } : {}),
    ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}) };
}

/** `object` at the invocation's version: another apiVersion when an equivalent resource matched. */
export function asInvoked(o: KObject | undefined, inv: Invocation): KObject | null {
  if (!o) return null;
  const apiVersion = inv.kind.group ? `${inv.kind.group}/${inv.kind.version}` : inv.kind.version;
  return o.apiVersion === apiVersion ? o : { ...o, apiVersion };
}

/** What a request is, as the review and matchConditions' `request` describe it (no uid, objects or options). */
export function requestFields(inv: Invocation, a: AdmissionAttributes): Record<string, unknown> {
  const namespace = requestNamespace(a);
  return {
    kind: inv.kind,
    resource: inv.resource,
    ...(inv.subresource ? { subResource: inv.subresource } : {}),
    requestKind: kindOfRequest(a.type, a.subresource),
    requestResource: { group: a.type.group, version: a.type.version, resource: a.type.resource },
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(namespace ? { namespace } : {}),
    operation: a.operation,
    userInfo: userInfoOf(a),
  };
}
