// The `kubernetes` Service in `default`, which the real API server's kubernetes-service controller
// makes at start: the first address of --service-cluster-ip-range, port 443 (https) to the secure
// port, and (unless --endpoint-reconciler-type=none) its Endpoints and EndpointSlice naming the
// server's advertised address. With --orch-service-node-port it is a NodePort on that port.
import { DEFAULT_NAMESPACE } from '../api/namespaces.ts';
import type { ResourceType } from '../api/resources.ts';
import type { KObject } from '../api/types.ts';
import type { ApiServerOptions } from './options.ts';
import { familyOf, firstAddress } from './registry/service-ranges.ts';
import { ENDPOINTS, SERVICES } from '../api/model/core.ts';
import { ENDPOINT_SLICES } from '../api/model/discovery.ts';

const NAME = 'kubernetes';
const UNSPECIFIED = new Set(['', '0.0.0.0', '::']);

/** The first --service-cluster-ip-range, as a list. */
export const serviceClusterIPRanges = (o: Pick<ApiServerOptions, 'serviceClusterIpRange'>): string[] =>
  o.serviceClusterIpRange.split(',').map((c) => c.trim()).filter((c) => c !== '');

/** --advertise-address, else the bind address when it names one, else loopback. */
export function advertisedAddress(o: Pick<ApiServerOptions, 'advertiseAddress' | 'bindAddress'>): string {
  if (o.advertiseAddress) return o.advertiseAddress;
  return UNSPECIFIED.has(o.bindAddress) ? '127.0.0.1' : o.bindAddress;
}

/** What the server makes in `default` at start, in order (each only if missing). */
export function kubernetesService(o: ApiServerOptions): [ResourceType, KObject][] {
  const clusterIP = firstAddress(serviceClusterIPRanges(o)[0]!);
  const nodePort = o.orchServiceNodePort ?? 0;
  const service: KObject = {
    metadata: { name: NAME, namespace: DEFAULT_NAMESPACE, labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: nodePort ? 'NodePort' : 'ClusterIP', clusterIP, clusterIPs: [clusterIP], sessionAffinity: 'None',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: o.securePort, ...(nodePort ? { nodePort } : {}) }],
    },
  };
  if (o.endpointReconcilerType === 'none') return [[SERVICES, service]];
  const ip = advertisedAddress(o);
  const port = { name: 'https', port: o.securePort, protocol: 'TCP' };
  const endpoints: KObject = {
    metadata: { name: NAME, namespace: DEFAULT_NAMESPACE, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip }], ports: [port] }],
  };
  const slice: KObject = {
    metadata: { name: NAME, namespace: DEFAULT_NAMESPACE, labels: { 'kubernetes.io/service-name': NAME } },
    addressType: familyOf(ip) ?? 'IPv4', endpoints: [{ addresses: [ip], conditions: { ready: true } }], ports: [port],
  };
  return [[SERVICES, service], [ENDPOINTS, endpoints], [ENDPOINT_SLICES, slice]];
}
