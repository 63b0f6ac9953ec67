// Rows of seed 001's tables that more than one component has, transcribed from the seed:
// "Options common to the API server, controller manager and scheduler", and "Authentication >
// Controller manager and scheduler". Component tests add their own tables' rows to these.
import type { OptionCase } from './option-cases.ts';

export function commonRows(component: 'apiserver' | 'controller-manager' | 'scheduler'): OptionCase[] {
  return [
    { name: 'allow-metric-labels', default: '[]', valid: '"apiserver_request_total,verb=GET,LIST"', invalid: [['"bad key,verb=GET"', 'keys must be <MetricName>,<LabelName>']] },
    { name: 'disabled-metrics', default: undefined, valid: 'workqueue_depth,rest_client_requests_total' },
    { name: 'show-hidden-metrics-for-version', default: undefined, valid: '1.31', invalid: [['1.30', 'must be 1.31'], ['latest', 'must be 1.31']] },
    { name: 'feature-gates', default: '[]', valid: 'APIListChunking=false,NodeSwap=true,AllAlpha=true',
      invalid: [['NoSuchGate=true', 'unrecognized feature gate: NoSuchGate'], ['EphemeralContainers=true', 'unrecognized feature gate: EphemeralContainers']] },
    { name: 'bind-address', default: '0.0.0.0', valid: '::', invalid: [['localhost', 'must be an IPv4 or IPv6 address, or blank'], ['10.0.0.256', 'must be an IPv4 or IPv6 address']] },
    { name: 'cert-dir', default: component === 'apiserver' ? '/var/run/orch' : undefined, valid: '/tmp/certs' },
    { name: 'permit-address-sharing', default: 'false', valid: 'true' },
    { name: 'permit-port-sharing', default: 'false', valid: 'true' },
    { name: 'profiling', default: 'true', valid: 'false' },
    { name: 'contention-profiling', default: component === 'scheduler' ? 'true' : 'false', valid: 'true' },
    { name: 'http2-max-streams-per-connection', default: '0', valid: '250', invalid: [['-1', 'must not be negative']] },
    { name: 'log-flush-frequency', default: '5s', valid: '1s', invalid: [['0s', 'must be a duration greater than 0']] },
    { name: 'logging-format', default: 'text', valid: 'text', invalid: [['json', 'must be "text"']] },
    { name: 'v', default: '0', valid: '4', invalid: [['-1', 'must be a non-negative integer']] },
    { name: 'vmodule', default: undefined, valid: 'scheduler*=4,queue=2' },
    { name: 'version', default: 'false', valid: 'raw' },
    { name: 'help', default: 'false', valid: 'true' },
    { name: 'azure-container-registry-config', default: undefined, valid: '/etc/acr.json' },
  ];
}

/** The TLS serving rows ("As for the API server"). */
export const TLS_ROWS: OptionCase[] = [
  { name: 'tls-cert-file', default: undefined, valid: '/etc/orch/serving.crt' },
  { name: 'tls-private-key-file', default: undefined, valid: '/etc/orch/serving.key' },
  { name: 'tls-sni-cert-key', default: undefined, valid: 'a.crt,a.key:*.example.com,example.com', invalid: [['onlyone', 'must be certfile,keyfile']] },
  { name: 'tls-min-version', default: undefined, valid: 'VersionTLS12', invalid: [['VersionTLS14', 'must be one of "VersionTLS10"']] },
  { name: 'tls-cipher-suites', default: undefined, valid: 'TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384' },
];

export function delegatedAuthRows(component: 'controller-manager' | 'scheduler'): OptionCase[] {
  return [
    { name: 'authentication-kubeconfig', default: undefined, valid: '/etc/orch/auth.conf' },
    { name: 'authentication-skip-lookup', default: 'false', valid: 'true' },
    { name: 'authentication-tolerate-lookup-failure', default: component === 'scheduler' ? 'true' : 'false', valid: 'false' },
    { name: 'authentication-token-webhook-cache-ttl', default: '10s', valid: '1m0s', invalid: [['0s', 'must be a duration greater than 0']] },
    { name: 'authorization-kubeconfig', default: undefined, valid: '/etc/orch/authz.conf' },
    { name: 'authorization-always-allow-paths', default: '[/healthz,/readyz,/livez]', valid: '/healthz,/metrics', invalid: [['metrics', 'each path must start with /']] },
    { name: 'authorization-webhook-cache-authorized-ttl', default: '10s', valid: '30s', invalid: [['-1s', 'must be a duration greater than 0']] },
    { name: 'authorization-webhook-cache-unauthorized-ttl', default: '10s', valid: '30s', invalid: [['0s', 'must be a duration greater than 0']] },
    { name: 'client-ca-file', default: undefined, valid: '/etc/orch/ca.crt' },
    { name: 'requestheader-client-ca-file', default: undefined, valid: '/etc/orch/front-proxy-ca.crt' },
    { name: 'requestheader-allowed-names', default: undefined, valid: 'front-proxy-client' },
    { name: 'requestheader-extra-headers-prefix', default: '[x-remote-extra-]', valid: 'X-Remote-Extra-' },
    { name: 'requestheader-group-headers', default: '[x-remote-group]', valid: 'X-Remote-Group' },
    { name: 'requestheader-username-headers', default: '[x-remote-user]', valid: 'X-Remote-User' },
    ...TLS_ROWS,
  ];
}

/** `--leader-elect*`, with the lock name each component defaults to. */
export function leaderElectRows(resourceName: string): OptionCase[] {
  return [
    { name: 'leader-elect', default: 'true', valid: 'false' },
    { name: 'leader-elect-lease-duration', default: '15s', valid: '30s', invalid: [['0s', 'must be a duration greater than 0'], ['5s', 'must be greater than --leader-elect-renew-deadline']] },
    { name: 'leader-elect-renew-deadline', default: '10s', valid: '5s', invalid: [['15s', '--leader-elect-lease-duration (15s) must be greater than --leader-elect-renew-deadline (15s)'], ['2s', 'must be greater than 1.2 × --leader-elect-retry-period (2s)']] },
    { name: 'leader-elect-retry-period', default: '2s', valid: '1s', invalid: [['0s', 'must be a duration greater than 0'], ['9s', 'must be greater than 1.2 × --leader-elect-retry-period (9s)']] },
    { name: 'leader-elect-resource-lock', default: 'leases', valid: 'endpointsleases', invalid: [['configmaps', 'must be one of "leases", "endpointsleases", "configmapsleases"']] },
    { name: 'leader-elect-resource-name', default: resourceName, valid: 'my-lock', invalid: [['', 'must not be empty']] },
    { name: 'leader-elect-resource-namespace', default: 'orch-system', valid: 'kube-system', invalid: [['', 'must not be empty']] },
  ];
}
