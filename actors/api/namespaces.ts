// The namespaces the API server makes at start: the real cluster's four, and the specification's
// own system namespace (`orch-system`), where the components' leader-election locks and the
// controllers' service accounts live.
export const SYSTEM_NAMESPACE = 'orch-system';
/** The real cluster's system namespace: the `kube-root-ca.crt` ConfigMap and the like live there too. */
export const KUBE_SYSTEM_NAMESPACE = 'kube-system';
export const PUBLIC_NAMESPACE = 'kube-public';
/** Where each node agent keeps its heartbeat Lease, named after its node. */
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
export const DEFAULT_NAMESPACE = 'default';
export const SYSTEM_NAMESPACES = [DEFAULT_NAMESPACE, KUBE_SYSTEM_NAMESPACE, PUBLIC_NAMESPACE, NODE_LEASE_NAMESPACE, SYSTEM_NAMESPACE];
