// The namespaces the API server makes at start, under the specification's neutral names.
export const SYSTEM_NAMESPACE = 'orch-system';
export const PUBLIC_NAMESPACE = 'orch-public';
/** Where each node agent keeps its heartbeat Lease, named after its node. */
export const NODE_LEASE_NAMESPACE = 'orch-node-lease';
export const SYSTEM_NAMESPACES = ['default', SYSTEM_NAMESPACE, PUBLIC_NAMESPACE, NODE_LEASE_NAMESPACE];
