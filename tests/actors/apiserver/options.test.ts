// The API server's options against seed 001 ("Options common to ...", "API server", its
// Authentication and Limits rows): every option, its default, a valid value and each invalid
// form; then the defaults orchsim starts with, the rules across options, and what is deprecated.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OptionError } from '../../../actors/api/options/table.ts';
import { API_SERVER_TABLE, admissionPluginNames, apiServerOptions, inertAdmissionPlugins } from '../../../actors/apiserver/options.ts';
import { checkOptionTable, type OptionCase } from '../../helpers/option-cases.ts';
import { commonRows, TLS_ROWS } from '../../helpers/seed-common-options.ts';

const SERVER_ROWS: OptionCase[] = [
  { name: 'secure-port', default: '6443', valid: '8443', invalid: [['0', 'cannot be switched off with 0'], ['65536', 'must be from 1 to 65535']] },
  { name: 'advertise-address', default: undefined, valid: '10.0.0.1', invalid: [['node-1', 'must be an IPv4 or IPv6 address']] },
  { name: 'external-hostname', default: undefined, valid: 'api.example.com' },
  { name: 'admission-control-config-file', default: undefined, valid: '/etc/orch/admission.yaml' },
  { name: 'enable-admission-plugins', default: undefined, valid: 'AlwaysPullImages,NodeRestriction',
    invalid: [['NoSuchPlugin', 'admission plugin "NoSuchPlugin" is unknown']] },
  { name: 'disable-admission-plugins', default: undefined, valid: 'ResourceQuota,NamespaceLifecycle', invalid: [['Nope', 'admission plugin "Nope" is unknown']] },
  { name: 'allow-privileged', default: 'false', valid: 'true' },
  { name: 'audit-policy-file', default: undefined, valid: '/etc/orch/audit-policy.yaml' },
  { name: 'audit-log-path', default: undefined, valid: '-' },
  { name: 'audit-log-format', default: 'json', valid: 'legacy', invalid: [['text', 'must be one of "legacy", "json"']] },
  { name: 'audit-log-mode', default: 'blocking', valid: 'blocking-strict', invalid: [['async', 'must be one of "batch", "blocking", "blocking-strict"']] },
  { name: 'audit-log-version', default: 'audit.k8s.io/v1', valid: 'audit.k8s.io/v1', invalid: [['audit.k8s.io/v2', 'must be audit.k8s.io/v1']] },
  { name: 'audit-log-maxage', default: undefined, valid: '30', invalid: [['-1', 'must not be negative']] },
  { name: 'audit-log-maxbackup', default: undefined, valid: '0', invalid: [['-1', 'must not be negative']] },
  { name: 'audit-log-maxsize', default: undefined, valid: '100', invalid: [['-1', 'must not be negative']] },
  { name: 'audit-log-compress', default: 'false', valid: 'true' },
  { name: 'audit-log-batch-buffer-size', default: '10000', valid: '500', invalid: [['0', 'must be greater than 0']] },
  { name: 'audit-log-batch-max-size', default: '1', valid: '50', invalid: [['0', 'must be greater than 0']] },
  { name: 'audit-log-batch-max-wait', default: undefined, valid: '5s', invalid: [['-1s', 'must not be a negative duration']] },
  { name: 'audit-log-batch-throttle-enable', default: undefined, valid: 'true' },
  { name: 'audit-log-batch-throttle-qps', default: undefined, valid: '2.5', invalid: [['0', 'must be greater than 0']] },
  { name: 'audit-log-batch-throttle-burst', default: undefined, valid: '5', invalid: [['0', 'must be greater than 0']] },
  { name: 'audit-log-truncate-enabled', default: 'false', valid: 'true' },
  { name: 'audit-log-truncate-max-batch-size', default: '10485760', valid: '204800',
    invalid: [['0', 'must be greater than 0'], ['1024', '--audit-log-truncate-max-event-size (102400) must be at most --audit-log-truncate-max-batch-size (1024)']] },
  { name: 'audit-log-truncate-max-event-size', default: '102400', valid: '51200', invalid: [['0', 'must be greater than 0']] },
  { name: 'audit-webhook-config-file', default: undefined, valid: '/etc/orch/audit-webhook.conf' },
  { name: 'audit-webhook-mode', default: 'batch', valid: 'blocking', invalid: [['sometimes', 'must be one of "batch", "blocking", "blocking-strict"']] },
  { name: 'audit-webhook-version', default: 'audit.k8s.io/v1', valid: 'audit.k8s.io/v1', invalid: [['v1', 'must be audit.k8s.io/v1']] },
  { name: 'audit-webhook-batch-buffer-size', default: '10000', valid: '20000', invalid: [['-1', 'must be greater than 0']] },
  { name: 'audit-webhook-batch-max-size', default: '400', valid: '100', invalid: [['0', 'must be greater than 0']] },
  { name: 'audit-webhook-batch-max-wait', default: '30s', valid: '1m0s', invalid: [['-5s', 'must not be a negative duration']] },
  { name: 'audit-webhook-batch-throttle-enable', default: 'true', valid: 'false' },
  { name: 'audit-webhook-batch-throttle-qps', default: '10', valid: '20', invalid: [['-1', 'must be greater than 0']] },
  { name: 'audit-webhook-batch-throttle-burst', default: '15', valid: '30', invalid: [['0', 'must be greater than 0']] },
  { name: 'audit-webhook-initial-backoff', default: '10s', valid: '5s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'audit-webhook-truncate-enabled', default: 'false', valid: 'true' },
  { name: 'audit-webhook-truncate-max-batch-size', default: '10485760', valid: '1048576',
    invalid: [['100', '--audit-webhook-truncate-max-event-size (102400) must be at most --audit-webhook-truncate-max-batch-size (100)']] },
  { name: 'audit-webhook-truncate-max-event-size', default: '102400', valid: '1024', invalid: [['0', 'must be greater than 0']] },
  { name: 'cloud-config', default: undefined, valid: '/etc/orch/cloud.conf' },
  { name: 'cloud-provider', default: undefined, valid: 'gce' },
  { name: 'cloud-provider-gce-l7lb-src-cidrs', default: '130.211.0.0/22,35.191.0.0/16', valid: '10.0.0.0/8' },
  { name: 'default-not-ready-toleration-seconds', default: '300', valid: '60' },
  { name: 'default-unreachable-toleration-seconds', default: '300', valid: '120' },
  { name: 'delete-collection-workers', default: '1', valid: '4', invalid: [['0', 'must be greater than 0']] },
  { name: 'egress-selector-config-file', default: undefined, valid: '/etc/orch/egress.yaml' },
  { name: 'enable-aggregator-routing', default: 'false', valid: 'true' },
  { name: 'enable-garbage-collector', default: 'true', valid: 'false' },
  { name: 'enable-priority-and-fairness', default: 'true', valid: 'false' },
  { name: 'encryption-provider-config', default: undefined, valid: '/etc/orch/encryption.yaml' },
  { name: 'endpoint-reconciler-type', default: 'lease', valid: 'none', invalid: [['endpoints', 'must be one of "master-count", "lease", "none"']] },
  { name: 'etcd-servers', default: undefined, valid: 'https://10.0.0.1:2379,http://127.0.0.1:2379', invalid: [['10.0.0.1:2379', 'must be a URL']] },
  { name: 'etcd-servers-overrides', default: undefined, valid: '/events#http://127.0.0.1:4002;http://127.0.0.1:4003,apps/deployments#http://127.0.0.1:4004',
    invalid: [['events#http://a', 'must be group/resource#servers'], ['/events', 'must be group/resource#servers']] },
  { name: 'etcd-cafile', default: undefined, valid: '/etc/etcd/ca.crt' },
  { name: 'etcd-certfile', default: undefined, valid: '/etc/etcd/client.crt' },
  { name: 'etcd-keyfile', default: undefined, valid: '/etc/etcd/client.key' },
  { name: 'etcd-prefix', default: '/registry', valid: '/orch', invalid: [['registry', 'must start with /']] },
  { name: 'etcd-compaction-interval', default: '5m0s', valid: '0', invalid: [['-1m', 'must not be a negative duration']] },
  { name: 'etcd-count-metric-poll-period', default: '1m0s', valid: '0', invalid: [['-1s', 'must not be a negative duration']] },
  { name: 'etcd-db-metric-poll-interval', default: '30s', valid: '0', invalid: [['-1s', 'must not be a negative duration']] },
  { name: 'etcd-healthcheck-timeout', default: '2s', valid: '5s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'etcd-readycheck-timeout', default: '2s', valid: '5s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'storage-backend', default: 'etcd3', valid: 'etcd3', invalid: [['etcd2', 'must be "etcd3"']] },
  { name: 'storage-media-type', default: 'application/vnd.orchestrator.protobuf', valid: 'application/json', invalid: [['text/plain', 'must be one of']] },
  { name: 'identity-lease-duration-seconds', default: '3600', valid: '60', invalid: [['0', 'must be greater than 0']] },
  { name: 'identity-lease-renew-interval-seconds', default: '10', valid: '5', invalid: [['-1', 'must be greater than 0']] },
  { name: 'lease-reuse-duration-seconds', default: '60', valid: '120', invalid: [['0', 'must be greater than 0']] },
  { name: 'nodeagent-certificate-authority', default: undefined, valid: '/etc/orch/nodeagent-ca.crt' },
  { name: 'nodeagent-client-certificate', default: undefined, valid: '/etc/orch/apiserver-nodeagent.crt' },
  { name: 'nodeagent-client-key', default: undefined, valid: '/etc/orch/apiserver-nodeagent.key' },
  { name: 'nodeagent-preferred-address-types', default: '[Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP]', valid: 'InternalIP,Hostname',
    invalid: [['PodIP', '"PodIP" is not one of Hostname']] },
  { name: 'orch-service-node-port', default: undefined, valid: '30443',
    invalid: [['-1', 'must be 0 or a port'], ['8443', '--orch-service-node-port (8443) must be within --service-node-port-range (30000-32767)']] },
  { name: 'livez-grace-period', default: undefined, valid: '30s', invalid: [['-1s', 'must not be a negative duration']] },
  { name: 'master-service-namespace', default: 'default', valid: 'orch-system' },
  { name: 'runtime-config', default: undefined, valid: 'api/all=true,batch/v1beta1=false,v1=true,api/legacy=false',
    invalid: [['apps=true', 'key "apps" must be v1, <group>/<version>'], ['api/all=maybe', 'the value of api/all must be true or false']] },
  { name: 'service-cluster-ip-range', default: '10.0.0.0/24', valid: '10.96.0.0/12,fd00::/108',
    invalid: [['10.96.0.0/12,10.97.0.0/16', 'one IPv4 and one IPv6'], ['10.0.0.0/8,fd00::/108,10.1.0.0/16', 'must be one CIDR, or two'], ['10.96.0.0', 'is not a CIDR'],
      ['10.0.0.0/8', 'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12'],
      ['fd00::/64', 'specified --service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108'],
      ['10.0.0.0/30', 'the service cluster IP range must be at least 8 IP addresses']] },
  { name: 'service-node-port-range', default: '30000-32767', valid: '20000-22767' },
  { name: 'shutdown-delay-duration', default: undefined, valid: '10s', invalid: [['-1s', 'must not be a negative duration']] },
  { name: 'shutdown-send-retry-after', default: 'false', valid: 'true' },
  { name: 'watch-cache', default: 'true', valid: 'false' },
  { name: 'watch-cache-sizes', default: undefined, valid: 'pods#0,deployments.apps#0', invalid: [['pods=0', 'must be resource[.group]#size'], ['pods#-1', 'must be resource[.group]#size']] },
  { name: 'tracing-config-file', default: undefined, valid: '/etc/orch/tracing.yaml' },
];

/** Service-account options act only with an issuer and a signing key (the rule across them is tested below). */
const SIGNING = ['--service-account-issuer=https://orch.default.svc', '--service-account-signing-key-file=/etc/orch/sa.key'];

const AUTHENTICATION_ROWS: OptionCase[] = [
  { name: 'anonymous-auth', default: 'true', valid: 'false' },
  { name: 'client-ca-file', default: undefined, valid: '/etc/orch/ca.crt' },
  { name: 'token-auth-file', default: undefined, valid: '/etc/orch/tokens.csv' },
  { name: 'enable-bootstrap-token-auth', default: 'false', valid: 'true' },
  { name: 'api-audiences', default: 'the --service-account-issuer URL when that is set', valid: 'api,https://orch.default.svc', with: SIGNING },
  { name: 'authentication-token-webhook-config-file', default: undefined, valid: '/etc/orch/authn-webhook.conf' },
  { name: 'authentication-token-webhook-cache-ttl', default: '2m0s', valid: '10s', invalid: [['-1s', 'must not be a negative duration']] },
  { name: 'authentication-token-webhook-version', default: 'v1beta1', valid: 'v1', invalid: [['v2', 'must be one of "v1", "v1beta1"']] },
  { name: 'authorization-mode', default: '[AlwaysAllow]', valid: 'AlwaysDeny,AlwaysAllow',
    invalid: [['Everything', '"Everything" is not a mode; the modes are AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node'],
      ['ABAC', 'authorization-mode ABAC\'s authorization policy file not passed: --authorization-mode=ABAC needs --authorization-policy-file'],
      ['Webhook,AlwaysAllow', 'authorization-mode Webhook\'s authorization config file not passed: --authorization-mode=Webhook needs --authorization-webhook-config-file'],
      ['AlwaysAllow,AlwaysAllow', 'AlwaysAllow is given more than once'], ['', 'must name at least one mode']] },
  { name: 'authorization-policy-file', default: undefined, valid: '/etc/orch/abac.jsonl', with: ['--authorization-mode=ABAC'] },
  { name: 'authorization-webhook-config-file', default: undefined, valid: '/etc/orch/authz-webhook.conf', with: ['--authorization-mode=RBAC,Webhook'] },
  { name: 'authorization-webhook-version', default: 'v1beta1', valid: 'v1', invalid: [['v1alpha1', 'must be one of "v1", "v1beta1"']] },
  { name: 'authorization-webhook-cache-authorized-ttl', default: '5m0s', valid: '1m0s', invalid: [['-1s', 'must not be a negative duration']] },
  { name: 'authorization-webhook-cache-unauthorized-ttl', default: '30s', valid: '10s', invalid: [['-1s', 'must not be a negative duration']] },
  { name: 'oidc-issuer-url', default: undefined, valid: 'https://issuer.example.com', with: ['--oidc-client-id=orchsim'],
    invalid: [['http://issuer.example.com', 'must be an https:// URL'], ['issuer', 'must be an https:// URL']] },
  { name: 'oidc-client-id', default: undefined, valid: 'orchsim' },
  { name: 'oidc-ca-file', default: 'the host\'s root CAs', valid: '/etc/orch/oidc-ca.crt' },
  { name: 'oidc-username-claim', default: 'sub', valid: 'email' },
  { name: 'oidc-username-prefix', default: undefined, valid: '-' },
  { name: 'oidc-groups-claim', default: undefined, valid: 'groups' },
  { name: 'oidc-groups-prefix', default: undefined, valid: 'oidc:' },
  { name: 'oidc-required-claim', default: undefined, valid: 'hd=example.com,tier=admin' },
  { name: 'oidc-signing-algs', default: '[RS256]', valid: 'RS256,ES256,PS512', invalid: [['HS256', '"HS256" is not one of RS256, RS384']] },
  { name: 'requestheader-client-ca-file', default: undefined, valid: '/etc/orch/front-proxy-ca.crt', with: ['--requestheader-username-headers=X-Remote-User'] },
  { name: 'requestheader-allowed-names', default: undefined, valid: 'front-proxy-client' },
  { name: 'requestheader-username-headers', default: undefined, valid: 'X-Remote-User' },
  { name: 'requestheader-group-headers', default: undefined, valid: 'X-Remote-Group' },
  { name: 'requestheader-extra-headers-prefix', default: undefined, valid: 'X-Remote-Extra-' },
  { name: 'proxy-client-cert-file', default: undefined, valid: '/etc/orch/proxy-client.crt' },
  { name: 'proxy-client-key-file', default: undefined, valid: '/etc/orch/proxy-client.key' },
  { name: 'service-account-issuer', default: undefined, valid: 'https://orch.default.svc,orch-legacy', with: ['--service-account-signing-key-file=/etc/orch/sa.key'],
    invalid: [['https://[bad', 'has a colon but is not a URL'], ['https://a,,https://b', 'should not be an empty string'], ['https://a,https://a', '"https://a" is already specified']] },
  { name: 'service-account-jwks-uri', default: undefined, valid: 'https://orch.example.com/openid/v1/jwks', with: SIGNING,
    invalid: [['http://orch.example.com/jwks', 'must be an https:// URL']] },
  { name: 'service-account-key-file', default: 'the --service-account-signing-key-file and --tls-private-key-file keys', valid: '/etc/orch/sa.pub,/etc/orch/sa-old.pub', with: SIGNING },
  { name: 'service-account-signing-key-file', default: undefined, valid: '/etc/orch/sa.key', with: ['--service-account-issuer=https://orch.default.svc'] },
  { name: 'service-account-lookup', default: 'true', valid: 'false' },
  { name: 'service-account-extend-token-expiration', default: 'true', valid: 'false' },
  { name: 'service-account-max-token-expiration', default: undefined, valid: '24h', with: SIGNING, invalid: [['30m', 'must be from 1h0m0s to 2^32 seconds']] },
  ...TLS_ROWS,
  { name: 'strict-transport-security-directives', default: undefined, valid: 'max-age=31536000,includeSubDomains,preload',
    invalid: [['max-age=forever', 'is not max-age=N, includeSubDomains or preload']] },
  { name: 'cors-allowed-origins', default: undefined, valid: '//localhost(:|$),//127\\.0\\.0\\.1(:|$)', invalid: [['(unclosed', 'is not a regular expression']] },
];

const LIMIT_ROWS: OptionCase[] = [
  { name: 'max-requests-inflight', default: '400', valid: '800', invalid: [['-1', 'must not be negative']] },
  { name: 'max-mutating-requests-inflight', default: '200', valid: '0', invalid: [['-1', 'must not be negative']] },
  { name: 'request-timeout', default: '1m0s', valid: '30s', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'min-request-timeout', default: '1800', valid: '300', invalid: [['0', 'must be greater than 0']] },
  { name: 'max-connection-bytes-per-sec', default: '0', valid: '1048576', invalid: [['-1', 'must not be negative']] },
  { name: 'goaway-chance', default: '0', valid: '0.02', invalid: [['0.05', 'must be from 0 (off) to 0.02'], ['-0.01', 'must be from 0']] },
  { name: 'event-ttl', default: '1h0m0s', valid: '2h', invalid: [['0s', 'must be a duration greater than 0']] },
  { name: 'nodeagent-timeout', default: '5s', valid: '10s', invalid: [['0s', 'must be a duration greater than 0']] },
];

/** orchsim's own, not the seed's. */
const SIMULATOR_ROWS: OptionCase[] = [
  { name: 'watcher-capacity', default: '10000', valid: '100', invalid: [['0', 'must be greater than 0']] },
];

test('every API server option of seed 001: default, a valid value, each invalid form', () => {
  const rows = [...commonRows('apiserver'), ...SERVER_ROWS, ...AUTHENTICATION_ROWS, ...LIMIT_ROWS, ...SIMULATOR_ROWS];
  assert.ok(checkOptionTable(API_SERVER_TABLE, rows) > rows.length);
});

test('help groups the options as the seed does, then the simulator\'s', () => {
  const groups = [...new Set(API_SERVER_TABLE.specs.map((s) => s.group))];
  assert.equal(groups, ['Common options', 'API server options', 'Authentication options', 'Limits', 'Simulator options']);
});

test('the defaults are the seed\'s, in the units the fields name', () => {
  const o = apiServerOptions();
  assert.equal({
    securePort: o.securePort, bindAddress: o.bindAddress, certDir: o.certDir, etcdCompactionIntervalMs: o.etcdCompactionIntervalMs, etcdPrefix: o.etcdPrefix,
    authorizationMode: o.authorizationMode, anonymousAuth: o.anonymousAuth, defaultNotReadyTolerationSeconds: o.defaultNotReadyTolerationSeconds,
    defaultUnreachableTolerationSeconds: o.defaultUnreachableTolerationSeconds, deleteCollectionWorkers: o.deleteCollectionWorkers,
    maxRequestsInflight: o.maxRequestsInflight, maxMutatingRequestsInflight: o.maxMutatingRequestsInflight, enablePriorityAndFairness: o.enablePriorityAndFairness,
    requestTimeoutMs: o.requestTimeoutMs, minRequestTimeoutSeconds: o.minRequestTimeoutSeconds, eventTtlMs: o.eventTtlMs, watchCache: o.watchCache,
    shutdownSendRetryAfter: o.shutdownSendRetryAfter, featureGates: o.featureGates,
  }, {
    securePort: 6443, bindAddress: '0.0.0.0', certDir: '/var/run/orch', etcdCompactionIntervalMs: 300_000, etcdPrefix: '/registry',
    authorizationMode: ['AlwaysAllow'], anonymousAuth: true, defaultNotReadyTolerationSeconds: 300,
    defaultUnreachableTolerationSeconds: 300, deleteCollectionWorkers: 1,
    maxRequestsInflight: 400, maxMutatingRequestsInflight: 200, enablePriorityAndFairness: true,
    requestTimeoutMs: 60_000, minRequestTimeoutSeconds: 1800, eventTtlMs: 3_600_000, watchCache: true,
    shutdownSendRetryAfter: false, featureGates: {},
  });
  // The seed gives these no default: absent, not empty.
  for (const key of ['shutdownDelayMs', 'tlsCertFile', 'tokenAuthFile', 'enableAdmissionPlugins', 'disableAdmissionPlugins', 'externalHostname'] as const) assert.is(o[key], undefined, key);
  // The simulator's own: a watcher's backlog, bookmarks once a minute, 3 MiB bodies.
  assert.equal([o.watcherCapacity, o.watchBookmarkIntervalMs, o.maxRequestBodyBytes], [10_000, 60_000, 3 * 1024 * 1024]);
});

test('fields given in code go through the table\'s rules; code-only fields are checked too', () => {
  assert.is(apiServerOptions({ etcdCompactionIntervalMs: 0, watcherCapacity: 5 }).watcherCapacity, 5);
  assert.throws(() => apiServerOptions({ securePort: 0 }), (e: Error) => e instanceof OptionError && e.message === 'invalid value "0" for --secure-port: must be from 1 to 65535; it cannot be switched off with 0');
  assert.throws(() => apiServerOptions({ authorizationMode: ['ABAC'] }), /ABAC's authorization policy file not passed/);
  assert.is(apiServerOptions({ authorizationMode: ['ABAC'], authorizationPolicyFile: '/p' }).authorizationPolicyFile, '/p');
  assert.throws(() => apiServerOptions({ etcdCompactionIntervalMs: '5m' as unknown as number }), /--etcd-compaction-interval \(etcdCompactionIntervalMs\): must be of kind duration/);
  assert.throws(() => apiServerOptions({ watchBookmarkIntervalMs: 120_000 }), /at most a minute/);
  const tokens = new Map([['t', { username: 'alice', groups: [] }]]);
  assert.is(apiServerOptions({ tokens }).tokens, tokens);
});

test('rules across options: OIDC client with its issuer, admission plugins, in-flight total, TLS 1.3 suites', () => {
  const fails = (argv: string[], says: string) =>
    assert.throws(() => API_SERVER_TABLE.parse(argv), (e: Error) => e instanceof OptionError && e.message === says, `${argv.join(' ')}: ${says}`);
  fails(['--oidc-issuer-url=https://issuer.example.com'], '--oidc-client-id is required with --oidc-issuer-url');
  assert.ok(API_SERVER_TABLE.parse(['--oidc-client-id=orchsim']).given.has('oidc-client-id'), 'a client id alone is accepted');
  fails(['--enable-admission-plugins=AlwaysDeny', '--disable-admission-plugins=AlwaysDeny'],
    'admission plugin AlwaysDeny is in both --enable-admission-plugins and --disable-admission-plugins');
  fails(['--max-requests-inflight=0', '--max-mutating-requests-inflight=0'],
    '--max-requests-inflight (0) plus --max-mutating-requests-inflight (0) must be positive with --enable-priority-and-fairness');
  assert.is(API_SERVER_TABLE.parse(['--max-requests-inflight=0', '--max-mutating-requests-inflight=0', '--enable-priority-and-fairness=false']).options.maxRequestsInflight, 0);
  fails(['--tls-min-version=VersionTLS13', '--tls-cipher-suites=TLS_AES_128_GCM_SHA256'],
    '--tls-cipher-suites cannot be set with --tls-min-version=VersionTLS13: TLS 1.3 suites are not configurable');
  assert.is(API_SERVER_TABLE.parse(['--orch-service-node-port=8443', '--service-node-port-range=8000-9000']).options.orchServiceNodePort, 8443);
});

test('ABAC and Webhook each need their file, and each file its mode, in the real server\'s words', () => {
  const fails = (argv: string[], says: string) =>
    assert.throws(() => API_SERVER_TABLE.parse(argv), (e: Error) => e instanceof OptionError && e.message.startsWith(says), `${argv.join(' ')}: ${says}`);
  fails(['--authorization-mode=RBAC,ABAC'], 'authorization-mode ABAC\'s authorization policy file not passed');
  fails(['--authorization-mode=Webhook'], 'authorization-mode Webhook\'s authorization config file not passed');
  fails(['--authorization-policy-file=/p.jsonl'], 'cannot specify --authorization-policy-file without mode ABAC');
  fails(['--authorization-mode=RBAC', '--authorization-webhook-config-file=/w.yaml'], 'cannot specify --authorization-webhook-config-file without mode Webhook');
  const o = API_SERVER_TABLE.parse(['--authorization-mode=ABAC,Webhook,RBAC', '--authorization-policy-file=/p.jsonl', '--authorization-webhook-config-file=/w.yaml',
    '--authorization-webhook-version=v1', '--authorization-webhook-cache-authorized-ttl=1m', '--authorization-webhook-cache-unauthorized-ttl=0s']).options;
  assert.equal([o.authorizationMode, o.authorizationPolicyFile, o.authorizationWebhookConfigFile, o.authorizationWebhookVersion,
    o.authorizationWebhookCacheAuthorizedTtlMs, o.authorizationWebhookCacheUnauthorizedTtlMs], [['ABAC', 'Webhook', 'RBAC'], '/p.jsonl', '/w.yaml', 'v1', 60_000, 0]);
  const defaults = apiServerOptions({});
  assert.equal([defaults.authorizationWebhookVersion, defaults.authorizationWebhookCacheAuthorizedTtlMs, defaults.authorizationWebhookCacheUnauthorizedTtlMs], ['v1beta1', 300_000, 30_000]);
});

test('service-account options: an issuer and a signing key go together, and the others need both', () => {
  const fails = (argv: string[], says: string) =>
    assert.throws(() => API_SERVER_TABLE.parse(argv), (e: Error) => e instanceof OptionError && e.message.startsWith(says), `${argv.join(' ')}: ${says}`);
  const because = ': service-account tokens are signed with the --service-account-signing-key-file key in the name of the first --service-account-issuer, so give both, or no service-account option';
  assert.throws(() => API_SERVER_TABLE.parse(['--service-account-signing-key-file=/k']), (e: Error) => e.message === `--service-account-signing-key-file needs --service-account-issuer${because}`);
  fails(['--service-account-issuer=https://orch.default.svc'], '--service-account-issuer needs --service-account-signing-key-file');
  fails(['--api-audiences=api'], '--api-audiences needs --service-account-issuer and --service-account-signing-key-file');
  fails(['--service-account-key-file=/k.pub', '--service-account-max-token-expiration=2h'],
    '--service-account-key-file and --service-account-max-token-expiration need --service-account-issuer and --service-account-signing-key-file');
  fails(['--service-account-jwks-uri=https://x/jwks', '--service-account-issuer=https://x'], '--service-account-issuer and --service-account-jwks-uri need --service-account-signing-key-file');
  const o = API_SERVER_TABLE.parse(['--service-account-issuer=https://a', '--service-account-issuer=https://b', '--service-account-signing-key-file=/k']).options;
  assert.equal([o.serviceAccountIssuer, o.serviceAccountSigningKeyFile, o.serviceAccountLookup, o.apiAudiences], [['https://a', 'https://b'], '/k', true, undefined]);
  assert.is(API_SERVER_TABLE.parse(['--service-account-lookup=false']).options.serviceAccountLookup, false, 'lookup alone turns nothing on');
  assert.is(apiServerOptions().serviceAccountIssuer, undefined, 'off by default');
});

test('deprecated options and values are taken with a warning', () => {
  const r = API_SERVER_TABLE.parse(['--master-service-namespace=default', '--cloud-provider=gce', '--endpoint-reconciler-type=master-count', '--runtime-config=api/legacy=true']);
  assert.equal(r.warnings, [
    'Flag --cloud-provider has been deprecated, cloud provider flags are removed in 1.24 or later',
    'Flag --endpoint-reconciler-type: the master-count reconciler is deprecated; use lease',
    'Flag --master-service-namespace has been deprecated, it will be removed; the master service is in default',
    'Flag --runtime-config: the api/legacy key is deprecated; use v1',
  ]);
  assert.equal(API_SERVER_TABLE.parse(['--endpoint-reconciler-type=lease']).warnings, []);
});

test('admission: the seed\'s names are all accepted, orchsim runs the ones it implements', () => {
  const o = apiServerOptions({ enableAdmissionPlugins: ['NodeRestriction', 'AlwaysDeny'], disableAdmissionPlugins: ['ServiceAccount', 'LimitRanger'] });
  assert.equal(admissionPluginNames(o), ['NamespaceLifecycle', 'TaintNodesByCondition', 'Priority', 'DefaultTolerationSeconds',
    'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota', 'AlwaysDeny']);
  assert.equal(inertAdmissionPlugins(o), ['NodeRestriction']);
  assert.equal(admissionPluginNames(apiServerOptions()), ['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'Priority',
    'DefaultTolerationSeconds', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota']);
  assert.equal(admissionPluginNames(apiServerOptions({ disableAdmissionPlugins: ['ValidatingAdmissionWebhook'] })).slice(-3),
    ['DefaultTolerationSeconds', 'MutatingAdmissionWebhook', 'ResourceQuota'], 'the webhook plugins are disabled by their names');
});

test.run();
