// RBAC objects as tests write and read them over HTTPS: where each kind is posted, and the
// bootstrap policy as the server holds it, for a reference to start from.
import type { RbacObject } from './authorization-reference.ts';
import type { IdentityClient } from './identity-client.ts';

const RBAC_V1 = '/apis/rbac.authorization.k8s.io/v1';

/** The collection an RBAC object is created in. */
export function rbacCollection(o: RbacObject): string {
  return `${RBAC_V1}/${o.metadata.namespace ? `namespaces/${o.metadata.namespace}/` : ''}${o.kind.toLowerCase()}s`;
}

/** The ClusterRoles and ClusterRoleBindings the server made at start (labelled as the real bootstrap policy), read as `admin`. */
export async function bootstrapPolicy(admin: IdentityClient): Promise<RbacObject[]> {
  const out: RbacObject[] = [];
  for (const [resource, kind] of [['clusterroles', 'ClusterRole'], ['clusterrolebindings', 'ClusterRoleBinding']] as const) {
    const list = await admin.must({ method: 'GET', path: `${RBAC_V1}/${resource}?labelSelector=kubernetes.io%2Fbootstrapping%3Drbac-defaults` });
    out.push(...list.json.items.map((o: RbacObject) => ({ ...o, kind })));
  }
  return out;
}
