// The API server's options (seed 001: "Options common to ...", "API server", its Authentication
// and Limits rows), as one table that parses the command line, fills in defaults, checks every
// rule and writes `--help`. Every option of the seed is accepted and checked; those orchsim acts
// on set a typed field (`key`), the others say why they have no effect in a simulator (`inert`).
// A few knobs of the simulator itself are fields set in code only, merged by apiServerOptions().
import { isIP } from 'node:net';
import { commonOptions } from '../api/options/common.ts';
import { tlsSpecs } from '../api/options/delegated-auth.ts';
import { knownCipherSuites } from './tls-versions.ts';
import { bool, checkCidr, cidrs, duration, float, int, oneOf, parseBool, portRange, string, stringMap, strings, type NamedCertKey, type PortRange } from '../api/options/kinds.ts';
import { OptionTable, type CrossRule, type OptionSpec } from '../api/options/table.ts';
import { DEFAULT_PLUGINS, PLUGIN_NAMES } from './admission/plugins.ts';
import { AUTHORIZATION_MODES } from './auth/authorizer.ts';

export interface ApiServerOptions {
  securePort: number;
  bindAddress: string;
  certDir: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  externalHostname?: string;
  featureGates: Record<string, boolean>;
  /** How often the store forgets history older than the previous interval; 0 disables compaction. */
  etcdCompactionIntervalMs: number;
  etcdPrefix: string;
  authorizationMode: string[];
  /** The ABAC policy (abac.ts); needed by, and only with, the ABAC mode. */
  authorizationPolicyFile?: string;
  /** The kubeconfig of the Webhook mode's service (webhook-authorizer.ts); needed by, and only with, that mode. */
  authorizationWebhookConfigFile?: string;
  authorizationWebhookVersion: 'v1' | 'v1beta1';
  authorizationWebhookCacheAuthorizedTtlMs: number;
  authorizationWebhookCacheUnauthorizedTtlMs: number;
  anonymousAuth: boolean;
  tokenAuthFile?: string;
  /** The lowest TLS version served (`VersionTLS12`), and the TLS 1.2 cipher suites by their Go names (tls-versions.ts). */
  tlsMinVersion?: string;
  tlsCipherSuites?: string[];
  /** Certificates served by the name a client asks for (SNI): each pair with its names, or the certificate's own. */
  tlsSniCertKey?: NamedCertKey[];
  /** The CA bundle whose client certificates authenticate (their CommonName the user, Organizations the groups). */
  clientCaFile?: string;
  /** Front proxies (auth/front-proxy.ts): the CA of their certificates, and the headers they name users in. */
  requestheaderClientCaFile?: string;
  requestheaderAllowedNames?: string[];
  requestheaderUsernameHeaders?: string[];
  requestheaderGroupHeaders?: string[];
  requestheaderExtraHeadersPrefix?: string[];
  /** Service-account tokens (auth/service-accounts.ts): off unless an issuer and a signing key are given. */
  serviceAccountIssuer?: string[];
  serviceAccountSigningKeyFile?: string;
  /** Absent: the signing key's public part, and the --tls-private-key-file key when it is one. */
  serviceAccountKeyFile?: string[];
  /** Absent: every issuer. */
  apiAudiences?: string[];
  serviceAccountJwksUri?: string;
  serviceAccountLookup: boolean;
  serviceAccountExtendTokenExpiration: boolean;
  serviceAccountMaxTokenExpirationMs?: number;
  /** Plugins on top of, and removed from, the seed's default set (see admissionPluginNames). */
  enableAdmissionPlugins?: string[];
  disableAdmissionPlugins?: string[];
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
  deleteCollectionWorkers: number;
  /** Absent: no delay (the seed gives no default). */
  shutdownDelayMs?: number;
  shutdownSendRetryAfter: boolean;
  watchCache: boolean;
  /** How long Event objects are kept. */
  eventTtlMs: number;
  /** Where Service cluster IPs come from: one CIDR, or two of different families, comma-separated. */
  serviceClusterIpRange: string;
  serviceNodePortRange: PortRange;
  /** Non-zero: the `kubernetes` Service is a NodePort on this port. */
  orchServiceNodePort?: number;
  /** The address the `kubernetes` Service's endpoints name; absent: the bind address, or 127.0.0.1 when that is unspecified. */
  advertiseAddress?: string;
  /** `none` keeps the `kubernetes` Service's endpoints unwritten. */
  endpointReconcilerType: 'master-count' | 'lease' | 'none';
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  enablePriorityAndFairness: boolean;
  requestTimeoutMs: number;
  /** A watch without timeoutSeconds lasts a random time between this and twice this. */
  minRequestTimeoutSeconds: number;
  /** Events a watcher may fall behind its client before it is cut off with a 410 (`--watcher-capacity`). */
  watcherCapacity: number;

  // Set in code only, never by a flag:
  /** Tokens known besides the file's (serve registers the token its kubeconfig carries). */
  tokens?: Map<string, { username: string; groups: string[]; uid?: string }>;
  /** How often an idle watch that asked for bookmarks gets one (at most a minute, as real servers do). */
  watchBookmarkIntervalMs: number;
  /** Largest request body accepted; real servers take 3 MiB of JSON. */
  maxRequestBodyBytes: number;
}

type CodeOnly = 'tokens' | 'watchBookmarkIntervalMs' | 'maxRequestBodyBytes';

const API = 'API server options';
const AUTHN = 'Authentication options';
const LIMITS = 'Limits';
const SIMULATOR = 'Simulator options';

const NO_AUDIT = 'orchsim keeps no audit log';
const NO_WEBHOOK_AUDIT = 'orchsim sends no audit events';
const NO_CLOUD = 'no cloud provider is simulated';
const NO_ETCD = 'the store is in memory, with no etcd to reach';
const NO_TOKEN_ISSUER = 'orchsim authenticates bearer tokens from --token-auth-file and service-account tokens only';
const NO_NODE_CONNECTION = 'node agents are reached over the bus, not over HTTPS';

const positive = (v: number) => (v > 0 ? undefined : 'must be greater than 0');
const notNegative = (v: number) => (v >= 0 ? undefined : 'must not be negative');
const positiveDuration = (v: number) => (v > 0 ? undefined : 'must be a duration greater than 0');
const notNegativeDuration = (v: number) => (v >= 0 ? undefined : 'must not be a negative duration');
const ipAddress = (v: string) => (v === '' || isIP(v) ? undefined : 'must be an IPv4 or IPv6 address');
/** Every entry one of `allowed`. */
const eachOf = (allowed: readonly string[]) => (v: string[]) => {
  const bad = v.find((x) => !allowed.includes(x));
  return bad === undefined ? undefined : `${JSON.stringify(bad)} is not one of ${allowed.join(', ')}`;
};
function httpsUrl(v: string): string | undefined {
  if (v === '') return undefined;
  try {
    if (new URL(v).protocol === 'https:') return undefined;
  } catch { /* not a URL at all */ }
  return 'must be an https:// URL';
}

/** The seed's default admission plugins, then the other names it accepts. */
export const SEED_DEFAULT_PLUGINS = ['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'PodSecurity', 'Priority', 'DefaultTolerationSeconds',
  'DefaultStorageClass', 'StorageObjectInUseProtection', 'PersistentVolumeClaimResize', 'RuntimeClass', 'CertificateApproval', 'CertificateSigning',
  'CertificateSubjectRestriction', 'DefaultIngressClass', 'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota'];
const OTHER_PLUGINS = ['AlwaysAdmit', 'AlwaysDeny', 'AlwaysPullImages', 'DenyServiceExternalIPs', 'EventRateLimit', 'ExtendedResourceToleration', 'ImagePolicyWebhook',
  'LimitPodHardAntiAffinityTopology', 'NamespaceAutoProvision', 'NamespaceExists', 'NodeRestriction', 'OwnerReferencesPermissionEnforcement', 'PersistentVolumeLabel',
  'PodNodeSelector', 'PodTolerationRestriction', 'SecurityContextDeny'];
const ALL_PLUGINS = [...SEED_DEFAULT_PLUGINS, ...OTHER_PLUGINS];
const implemented = (name: string) => PLUGIN_NAMES.has(name);
export const IMPLEMENTED_PLUGINS = ALL_PLUGINS.filter(implemented);
const pluginNames = (v: string[]) => {
  const bad = v.find((p) => !ALL_PLUGINS.includes(p));
  return bad === undefined ? undefined : `admission plugin ${JSON.stringify(bad)} is unknown; the plugins are ${ALL_PLUGINS.join(', ')}`;
};
const PLUGINS_HELP = `; orchsim runs ${IMPLEMENTED_PLUGINS.join(', ')}: the seed's other plugins are accepted and admit everything`;

function authorizationModes(v: string[]): string | undefined {
  if (v.length === 0) return 'must name at least one mode';
  for (const [i, m] of v.entries()) {
    if (!AUTHORIZATION_MODES.includes(m)) return `${JSON.stringify(m)} is not a mode; the modes are ${AUTHORIZATION_MODES.join(', ')}`;
    if (v.indexOf(m) !== i) return `${m} is given more than once`;
  }
  return undefined;
}

/** ABAC and Webhook each need their file, and each file its mode, in the real server's words. */
function authorizationFiles(v: (name: string) => unknown): string | undefined {
  const modes = (v('authorization-mode') as string[] | undefined) ?? [];
  const policy = v('authorization-policy-file');
  const webhook = v('authorization-webhook-config-file');
  if (modes.includes('ABAC') && !policy)
    return 'authorization-mode ABAC\'s authorization policy file not passed: --authorization-mode=ABAC needs --authorization-policy-file';
  if (modes.includes('Webhook') && !webhook)
    return 'authorization-mode Webhook\'s authorization config file not passed: --authorization-mode=Webhook needs --authorization-webhook-config-file';
  if (policy && !modes.includes('ABAC')) return 'cannot specify --authorization-policy-file without mode ABAC: add ABAC to --authorization-mode';
  if (webhook && !modes.includes('Webhook')) return 'cannot specify --authorization-webhook-config-file without mode Webhook: add Webhook to --authorization-mode';
  return undefined;
}

const AUDIT_MODES = oneOf('batch', 'blocking', 'blocking-strict');
const AUDIT_VERSION = 'audit.k8s.io/v1';
const auditVersion = (v: string) => (v === AUDIT_VERSION ? undefined : `must be ${AUDIT_VERSION}, the one audit version`);
const REVIEW_VERSIONS = oneOf('v1', 'v1beta1');
const OIDC_ALGS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];
const ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];
const MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.orchestrator.protobuf', 'application/vnd.kubernetes.protobuf'];

/** `group/resource#servers`, servers separated by semicolons; the core group is empty (`/events#...`). */
function etcdOverrides(v: string[]): string | undefined {
  for (const o of v) {
    const m = /^([^/#]*)\/([^/#]+)#(.+)$/.exec(o);
    if (!m || m[3].split(';').some((s) => s === '')) return `${JSON.stringify(o)} must be group/resource#servers, the servers separated by semicolons`;
  }
  return undefined;
}
function etcdServers(v: string[]): string | undefined {
  for (const s of v) {
    try {
      if (['http:', 'https:', 'unix:'].includes(new URL(s).protocol)) continue;
    } catch { /* reported below */ }
    return `${JSON.stringify(s)} must be a URL such as https://127.0.0.1:2379`;
  }
  return undefined;
}
function watchCacheSizes(v: string[]): string | undefined {
  const bad = v.find((e) => !/^[a-z0-9]([-a-z0-9]*)(\.[a-z0-9]([-a-z0-9.]*[a-z0-9])?)?#\d+$/.test(e));
  return bad === undefined ? undefined : `${JSON.stringify(bad)} must be resource[.group]#size with size a non-negative integer`;
}

const RUNTIME_KEY = /^(v1|api\/(all|ga|beta|alpha|legacy)|[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/v\d+((alpha|beta)\d+)?)$/;
function runtimeConfig(v: Record<string, string>): string | undefined {
  for (const [key, value] of Object.entries(v)) {
    if (!RUNTIME_KEY.test(key)) return `key ${JSON.stringify(key)} must be v1, <group>/<version>, api/all, api/ga, api/beta, api/alpha or api/legacy`;
    try {
      parseBool(value);
    } catch {
      return `the value of ${key} must be true or false, got ${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

/** At most two CIDRs, and two only as one IPv4 and one IPv6 (dual-stack). */
function serviceRange(v: string): string | undefined {
  if (v === '') return undefined;
  const list = v.split(',').map((s) => s.trim());
  if (list.length > 2) return 'must be one CIDR, or two for dual-stack';
  for (const c of list) {
    const bad = checkCidr(c) ?? cidrSize(c);
    if (bad) return bad;
  }
  if (list.length === 2 && isIP(list[0].split('/')[0]) === isIP(list[1].split('/')[0])) return 'two CIDRs must be one IPv4 and one IPv6 (dual-stack)';
  return undefined;
}

/** As the real server: at most 20 host bits (the allocator keeps a bitmap), at least 8 addresses. */
function cidrSize(cidr: string): string | undefined {
  const bits = isIP(cidr.split('/')[0]!) === 4 ? 32 : 128;
  const hostBits = bits - Number(cidr.split('/')[1]);
  if (hostBits > 20) return `specified --service-cluster-ip-range is too large; for ${bits}-bit addresses, the mask must be >= ${bits - 20}`;
  if (hostBits < 3) return 'the service cluster IP range must be at least 8 IP addresses';
  return undefined;
}

const HSTS = /^(max-age=\d+|includeSubDomains|preload)$/i;
function regexps(v: string[]): string | undefined {
  for (const r of v) {
    try {
      new RegExp(r);
    } catch {
      return `${JSON.stringify(r)} is not a regular expression`;
    }
  }
  return undefined;
}
const MAX_TOKEN_EXPIRATION_MS = 2 ** 32 * 1000;
const tokenExpiration = (v: number) => (v === 0 || (v >= 3_600_000 && v <= MAX_TOKEN_EXPIRATION_MS) ? undefined : 'must be from 1h0m0s to 2^32 seconds');
/** An issuer with a colon must be a URL (an https one, the seed advises); none empty, none twice (as the real server checks). */
function issuers(v: string[]): string | undefined {
  for (const [n, i] of v.entries()) {
    if (i === '') return 'should not be an empty string';
    if (v.indexOf(i) !== n) return `${JSON.stringify(i)} is already specified`;
    if (!i.includes(':')) continue;
    try {
      new URL(i);
    } catch {
      return `${JSON.stringify(i)} has a colon but is not a URL; use an https:// URL`;
    }
  }
  return undefined;
}

/** The seed's rows under "API server", in its order. */
const serverSpecs: OptionSpec<ApiServerOptions>[] = [
  { name: 'secure-port', kind: int, key: 'securePort', default: 6443, group: API, help: 'the HTTPS port',
    rule: (v: number) => (v >= 1 && v <= 65535 ? undefined : 'must be from 1 to 65535; it cannot be switched off with 0') },
  { name: 'advertise-address', kind: string, key: 'advertiseAddress', group: API, rule: ipAddress,
    help: 'the address advertised to cluster members, in the kubernetes Service\'s endpoints; when blank, the bind address, or 127.0.0.1 when that is 0.0.0.0 or ::' },
  { name: 'external-hostname', kind: string, key: 'externalHostname', group: API, help: 'the hostname for externalized URLs; added to the self-signed certificate\'s names' },
  { name: 'admission-control-config-file', kind: string, group: API, help: 'the admission configuration file', inert: 'orchsim\'s admission plugins take no configuration' },
  { name: 'enable-admission-plugins', kind: strings, key: 'enableAdmissionPlugins', group: API, rule: pluginNames, help: `admission plugins on top of the defaults${PLUGINS_HELP}` },
  { name: 'disable-admission-plugins', kind: strings, key: 'disableAdmissionPlugins', group: API, rule: pluginNames,
    help: `admission plugins removed from the defaults (${SEED_DEFAULT_PLUGINS.join(', ')}); their order is irrelevant${PLUGINS_HELP}` },
  { name: 'allow-privileged', kind: bool, default: false, group: API, help: 'allow privileged containers', inert: 'containers run nowhere, so privileged ones are not refused' },
  { name: 'audit-policy-file', kind: string, group: API, help: 'the audit policy file', inert: NO_AUDIT },
  { name: 'audit-log-path', kind: string, group: API, help: 'the log file of audited requests; - is standard output', inert: NO_AUDIT },
  { name: 'audit-log-format', kind: oneOf('legacy', 'json'), default: 'json', group: API, help: 'legacy (one line of text per event) or json', inert: NO_AUDIT },
  { name: 'audit-log-mode', kind: AUDIT_MODES, default: 'blocking', group: API, help: 'batch, blocking or blocking-strict', inert: NO_AUDIT },
  { name: 'audit-log-version', kind: string, default: AUDIT_VERSION, group: API, rule: auditVersion, help: 'the group and version of the events written', inert: NO_AUDIT },
  { name: 'audit-log-maxage', kind: int, group: API, rule: notNegative, help: 'days old log files are kept', inert: NO_AUDIT },
  { name: 'audit-log-maxbackup', kind: int, group: API, rule: notNegative, help: 'old log files kept; 0 keeps them all', inert: NO_AUDIT },
  { name: 'audit-log-maxsize', kind: int, group: API, rule: notNegative, help: 'megabytes a log file reaches before it is rotated', inert: NO_AUDIT },
  { name: 'audit-log-compress', kind: bool, default: false, group: API, help: 'gzip rotated log files', inert: NO_AUDIT },
  { name: 'audit-log-batch-buffer-size', kind: int, default: 10_000, group: API, rule: positive, help: 'events buffered in batch mode', inert: NO_AUDIT },
  { name: 'audit-log-batch-max-size', kind: int, default: 1, group: API, rule: positive, help: 'the largest batch', inert: NO_AUDIT },
  { name: 'audit-log-batch-max-wait', kind: duration, group: API, rule: notNegativeDuration, help: 'the longest wait before a short batch is written', inert: NO_AUDIT },
  { name: 'audit-log-batch-throttle-enable', kind: bool, group: API, help: 'throttle batches', inert: NO_AUDIT },
  { name: 'audit-log-batch-throttle-qps', kind: float, group: API, rule: positive, help: 'batches per second when throttled', inert: NO_AUDIT },
  { name: 'audit-log-batch-throttle-burst', kind: int, group: API, rule: positive, help: 'batches at once when throttled', inert: NO_AUDIT },
  { name: 'audit-log-truncate-enabled', kind: bool, default: false, group: API, help: 'truncate batches and events', inert: NO_AUDIT },
  { name: 'audit-log-truncate-max-batch-size', kind: int, default: 10_485_760, group: API, rule: positive, help: 'bytes; a larger batch is split', inert: NO_AUDIT },
  { name: 'audit-log-truncate-max-event-size', kind: int, default: 102_400, group: API, rule: positive,
    help: 'bytes; a larger event loses its request and response, then is dropped if still too large', inert: NO_AUDIT },
  { name: 'audit-webhook-config-file', kind: string, group: API, help: 'the audit webhook configuration file', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-mode', kind: AUDIT_MODES, default: 'batch', group: API, help: 'batch, blocking or blocking-strict', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-version', kind: string, default: AUDIT_VERSION, group: API, rule: auditVersion, help: 'the group and version of the events sent', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-batch-buffer-size', kind: int, default: 10_000, group: API, rule: positive, help: 'events buffered in batch mode', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-batch-max-size', kind: int, default: 400, group: API, rule: positive, help: 'the largest batch', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-batch-max-wait', kind: duration, default: 30_000, group: API, rule: notNegativeDuration, help: 'the longest wait before a short batch is sent', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-batch-throttle-enable', kind: bool, default: true, group: API, help: 'throttle batches', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-batch-throttle-qps', kind: float, default: 10, group: API, rule: positive, help: 'batches per second when throttled', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-batch-throttle-burst', kind: int, default: 15, group: API, rule: positive, help: 'batches at once when throttled', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-initial-backoff', kind: duration, default: 10_000, group: API, rule: positiveDuration, help: 'the wait before the first retry', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-truncate-enabled', kind: bool, default: false, group: API, help: 'truncate batches and events', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-truncate-max-batch-size', kind: int, default: 10_485_760, group: API, rule: positive, help: 'bytes; a larger batch is split', inert: NO_WEBHOOK_AUDIT },
  { name: 'audit-webhook-truncate-max-event-size', kind: int, default: 102_400, group: API, rule: positive,
    help: 'bytes; a larger event loses its request and response, then is dropped if still too large', inert: NO_WEBHOOK_AUDIT },
  { name: 'cloud-config', kind: string, group: API, help: 'the cloud provider\'s configuration file', inert: NO_CLOUD, deprecated: 'cloud provider flags are removed in 1.24 or later' },
  { name: 'cloud-provider', kind: string, group: API, help: 'the cloud provider', inert: NO_CLOUD, deprecated: 'cloud provider flags are removed in 1.24 or later' },
  { name: 'cloud-provider-gce-l7lb-src-cidrs', kind: cidrs, default: ['130.211.0.0/22', '35.191.0.0/16'], group: API,
    help: 'firewall ranges of layer-7 load balancer traffic', inert: NO_CLOUD },
  { name: 'default-not-ready-toleration-seconds', kind: int, key: 'defaultNotReadyTolerationSeconds', default: 300, group: API,
    help: 'tolerationSeconds of the notReady:NoExecute toleration DefaultTolerationSeconds adds to pods without one' },
  { name: 'default-unreachable-toleration-seconds', kind: int, key: 'defaultUnreachableTolerationSeconds', default: 300, group: API,
    help: 'tolerationSeconds of the unreachable:NoExecute toleration DefaultTolerationSeconds adds to pods without one' },
  { name: 'delete-collection-workers', kind: int, key: 'deleteCollectionWorkers', default: 1, group: API, rule: positive, help: 'workers deleting a collection', inert: 'the in-memory store deletes a collection in one pass' },
  { name: 'egress-selector-config-file', kind: string, group: API, help: 'the egress selector configuration', inert: 'orchsim dials nothing outside its process' },
  { name: 'enable-aggregator-routing', kind: bool, default: false, group: API, help: 'route aggregated APIs to endpoint IPs rather than the cluster IP', inert: 'orchsim serves no aggregated APIs' },
  { name: 'enable-garbage-collector', kind: bool, default: true, group: API, help: 'must match the controller manager\'s',
    inert: 'orchsim\'s registry always honours propagation policies, as with the collector on' },
  { name: 'enable-priority-and-fairness', kind: bool, key: 'enablePriorityAndFairness', default: true, group: API,
    help: 'replaces the max-in-flight handler with API Priority and Fairness: the two in-flight limits\' sum is divided among the priority levels of the flowcontrol.apiserver.k8s.io FlowSchemas and PriorityLevelConfigurations (their bootstrap configuration kept in the store), whose queues hold requests beyond a level\'s seats; probes and system:masters are exempt' },
  { name: 'encryption-provider-config', kind: string, group: API, help: 'how Secrets are encrypted in storage', inert: 'the store is in memory and kept as given' },
  { name: 'endpoint-reconciler-type', kind: oneOf('master-count', 'lease', 'none'), key: 'endpointReconcilerType', default: 'lease', group: API,
    help: 'master-count (deprecated), lease or none: with none, the kubernetes Service gets no Endpoints or EndpointSlice from the server',
    deprecatedValue: (v: string) => (v === 'master-count' ? 'the master-count reconciler is deprecated; use lease' : undefined) },
  { name: 'etcd-servers', kind: strings, group: API, rule: etcdServers, help: 'the backing store\'s URLs', inert: 'the store is in memory; the etcd store is not built yet' },
  { name: 'etcd-servers-overrides', kind: strings, group: API, rule: etcdOverrides, help: 'per-resource servers, as group/resource#servers with the servers separated by semicolons', inert: NO_ETCD },
  { name: 'etcd-cafile', kind: string, group: API, help: 'the backing store\'s CA (TLS)', inert: NO_ETCD },
  { name: 'etcd-certfile', kind: string, group: API, help: 'the client certificate for the backing store (TLS)', inert: NO_ETCD },
  { name: 'etcd-keyfile', kind: string, group: API, help: 'the client key for the backing store (TLS)', inert: NO_ETCD },
  { name: 'etcd-prefix', kind: string, key: 'etcdPrefix', default: '/registry', group: API, help: 'the prefix of resource paths in storage',
    rule: (v: string) => (v.startsWith('/') ? undefined : 'must start with /') },
  { name: 'etcd-compaction-interval', kind: duration, key: 'etcdCompactionIntervalMs', default: 300_000, group: API, rule: notNegativeDuration,
    help: 'how often the store forgets history older than the previous interval: the window in which versions can be read and watched from; 0 keeps everything' },
  { name: 'etcd-count-metric-poll-period', kind: duration, default: 60_000, group: API, rule: notNegativeDuration, help: 'how often objects are counted per resource; 0 disables', inert: 'orchsim exports no storage metrics' },
  { name: 'etcd-db-metric-poll-interval', kind: duration, default: 30_000, group: API, rule: notNegativeDuration, help: 'how often the database size is read; 0 disables', inert: 'orchsim exports no storage metrics' },
  { name: 'etcd-healthcheck-timeout', kind: duration, default: 2_000, group: API, rule: positiveDuration, help: 'the timeout of a backing store health check', inert: NO_ETCD },
  { name: 'etcd-readycheck-timeout', kind: duration, default: 2_000, group: API, rule: positiveDuration, help: 'the timeout of a backing store readiness check', inert: NO_ETCD },
  { name: 'storage-backend', kind: string, default: 'etcd3', group: API, rule: (v: string) => (v === 'etcd3' ? undefined : 'must be "etcd3", the only backend'),
    help: 'the storage backend', inert: 'the store is in memory' },
  { name: 'storage-media-type', kind: string, default: 'application/vnd.orchestrator.protobuf', group: API, rule: (v: string) => (MEDIA_TYPES.includes(v) ? undefined : `must be one of ${MEDIA_TYPES.join(', ')}`),
    help: 'the media type objects are stored in; some resources ignore it', inert: 'the store keeps objects, not bytes' },
  { name: 'identity-lease-duration-seconds', kind: int, default: 3600, group: API, rule: positive, help: 'the duration of the API server\'s identity lease (APIServerIdentity gate)',
    inert: 'orchsim keeps no identity leases' },
  { name: 'identity-lease-renew-interval-seconds', kind: int, default: 10, group: API, rule: positive, help: 'how often the identity lease is renewed', inert: 'orchsim keeps no identity leases' },
  { name: 'lease-reuse-duration-seconds', kind: int, default: 60, group: API, rule: positive, help: 'how long a storage lease is reused; too small a value may hurt storage',
    inert: 'the store expires nothing by lease' },
  { name: 'nodeagent-certificate-authority', kind: string, group: API, help: 'the CA of node agents\' serving certificates', inert: NO_NODE_CONNECTION },
  { name: 'nodeagent-client-certificate', kind: string, group: API, help: 'the client certificate for node agent connections', inert: NO_NODE_CONNECTION },
  { name: 'nodeagent-client-key', kind: string, group: API, help: 'the client key for node agent connections', inert: NO_NODE_CONNECTION },
  { name: 'nodeagent-preferred-address-types', kind: strings, default: ADDRESS_TYPES, group: API, rule: eachOf(ADDRESS_TYPES),
    help: 'the order of node address types tried to reach a node agent', inert: NO_NODE_CONNECTION },
  { name: 'orch-service-node-port', kind: int, key: 'orchServiceNodePort', group: API, rule: (v: number) => (v >= 0 && v <= 65535 ? undefined : 'must be 0 or a port'),
    help: 'non-zero makes the kubernetes Service a NodePort on this port; 0 makes it ClusterIP' },
  { name: 'livez-grace-period', kind: duration, group: API, rule: notNegativeDuration, help: 'the startup time during which /livez assumes unfinished hooks succeed',
    inert: 'orchsim starts with no post-start hooks' },
  { name: 'master-service-namespace', kind: string, default: 'default', group: API, help: 'the namespace of the master service', inert: 'the kubernetes Service is always in default',
    deprecated: 'it will be removed; the master service is in default' },
  { name: 'runtime-config', kind: stringMap, group: API, rule: runtimeConfig, inert: 'orchsim serves its groups and versions whatever is set',
    help: 'key=value pairs enabling or disabling API groups and versions: v1, <group>/<version>, api/all, api/ga, api/beta or api/alpha set true or false (api/legacy is deprecated)',
    deprecatedValue: (v: Record<string, string>) => ('api/legacy' in v ? 'the api/legacy key is deprecated; use v1' : undefined) },
  { name: 'service-cluster-ip-range', kind: string, key: 'serviceClusterIpRange', default: '10.0.0.0/24', group: API, rule: serviceRange,
    help: 'the CIDR Service cluster IPs come from (the kubernetes Service takes its first address); at most two, one of each family (dual-stack), the first the default family; must not overlap node or pod ranges' },
  { name: 'service-node-port-range', kind: portRange, key: 'serviceNodePortRange', default: { base: 30000, size: 2768 }, group: API,
    help: 'the inclusive range node ports of NodePort and LoadBalancer Services come from, N1-N2' },
  { name: 'shutdown-delay-duration', kind: duration, key: 'shutdownDelayMs', group: API, rule: notNegativeDuration,
    help: 'delay termination; meanwhile /healthz and /livez succeed while /readyz fails at once' },
  { name: 'shutdown-send-retry-after', kind: bool, key: 'shutdownSendRetryAfter', default: false, group: API,
    help: 'while shutting down, drain in-flight requests and answer new ones 429 with Retry-After and Connection: close' },
  { name: 'watch-cache', kind: bool, key: 'watchCache', default: true, group: API, help: 'serve watches and lists from the watch cache', inert: 'the in-memory store serves lists and watches itself: there is no cache apart from it' },
  { name: 'watch-cache-sizes', kind: strings, group: API, rule: watchCacheSizes, help: 'resource[.group]#size entries; only 0, disabling the cache of a resource, is meaningful',
    inert: 'the watch history is one window for every resource' },
  { name: 'tracing-config-file', kind: string, group: API, help: 'the tracing configuration', inert: 'orchsim exports no traces' },
];

/** The seed's rows under "Authentication > API server". */
const authSpecs: OptionSpec<ApiServerOptions>[] = [
  { name: 'anonymous-auth', kind: bool, key: 'anonymousAuth', default: true, group: AUTHN,
    help: 'requests no authenticator rejected are served as user system:anonymous, group system:unauthenticated' },
  { name: 'client-ca-file', kind: string, key: 'clientCaFile', group: AUTHN, help: 'a CA bundle: a client certificate it signed authenticates as its CommonName, in the groups of its Organizations' },
  { name: 'token-auth-file', kind: string, key: 'tokenAuthFile', group: AUTHN, help: 'the static token file, CSV: token,user,uid,"group1,group2"' },
  { name: 'enable-bootstrap-token-auth', kind: bool, default: false, group: AUTHN, help: 'accept bootstrap-type Secrets in orch-system as tokens', inert: NO_TOKEN_ISSUER },
  { name: 'api-audiences', kind: strings, key: 'apiAudiences', defaultText: 'the --service-account-issuer URL when that is set', group: AUTHN,
    help: 'tokens must be bound to one of these audiences; TokenRequests without audiences get these' },
  { name: 'authentication-token-webhook-config-file', kind: string, group: AUTHN, help: 'the remote token authenticator\'s configuration', inert: NO_TOKEN_ISSUER },
  { name: 'authentication-token-webhook-cache-ttl', kind: duration, default: 120_000, group: AUTHN, rule: notNegativeDuration, help: 'how long webhook answers are cached', inert: NO_TOKEN_ISSUER },
  { name: 'authentication-token-webhook-version', kind: REVIEW_VERSIONS, default: 'v1beta1', group: AUTHN, help: 'the version of the TokenReview exchanged', inert: NO_TOKEN_ISSUER },
  { name: 'authorization-mode', kind: strings, key: 'authorizationMode', default: ['AlwaysAllow'], group: AUTHN, rule: authorizationModes,
    help: `the ordered authorizers, from ${AUTHORIZATION_MODES.join(', ')}; the first that allows or denies decides` },
  { name: 'authorization-policy-file', kind: string, key: 'authorizationPolicyFile', group: AUTHN,
    help: 'the ABAC policy, one JSON policy per line (# comments and blank lines skipped); read at start, with ABAC only' },
  { name: 'authorization-webhook-config-file', kind: string, key: 'authorizationWebhookConfigFile', group: AUTHN,
    help: 'a kubeconfig naming the service the Webhook mode posts SubjectAccessReviews to (its cluster) and the credentials it uses (its user); with Webhook only' },
  { name: 'authorization-webhook-version', kind: REVIEW_VERSIONS, key: 'authorizationWebhookVersion', default: 'v1beta1', group: AUTHN,
    help: 'the version of the SubjectAccessReview exchanged with the webhook: v1 or v1beta1' },
  { name: 'authorization-webhook-cache-authorized-ttl', kind: duration, key: 'authorizationWebhookCacheAuthorizedTtlMs', default: 300_000, group: AUTHN, rule: notNegativeDuration,
    help: 'how long the webhook\'s allowed answers are cached; 0 caches none' },
  { name: 'authorization-webhook-cache-unauthorized-ttl', kind: duration, key: 'authorizationWebhookCacheUnauthorizedTtlMs', default: 30_000, group: AUTHN, rule: notNegativeDuration,
    help: 'how long the webhook\'s other answers (denied, no opinion) are cached; 0 caches none' },
  { name: 'oidc-issuer-url', kind: string, group: AUTHN, rule: httpsUrl, help: 'the OpenID issuer (https only); enables JWT verification', inert: NO_TOKEN_ISSUER },
  { name: 'oidc-client-id', kind: string, group: AUTHN, help: 'the client id tokens must be issued for; required with --oidc-issuer-url', inert: NO_TOKEN_ISSUER },
  { name: 'oidc-ca-file', kind: string, defaultText: 'the host\'s root CAs', group: AUTHN, help: 'the CA of the issuer\'s certificate', inert: NO_TOKEN_ISSUER },
  { name: 'oidc-username-claim', kind: string, default: 'sub', group: AUTHN, help: 'the claim naming the user', inert: NO_TOKEN_ISSUER },
  { name: 'oidc-username-prefix', kind: string, group: AUTHN, help: 'a prefix of user names; - skips it; otherwise claims other than email get the issuer as prefix', inert: NO_TOKEN_ISSUER },
  { name: 'oidc-groups-claim', kind: string, group: AUTHN, help: 'the claim naming the groups, a string or an array of strings', inert: NO_TOKEN_ISSUER },
  { name: 'oidc-groups-prefix', kind: string, group: AUTHN, help: 'a prefix of group names', inert: NO_TOKEN_ISSUER },
  { name: 'oidc-required-claim', kind: stringMap, group: AUTHN, help: 'key=value claims every token must carry; repeatable', inert: NO_TOKEN_ISSUER },
  { name: 'oidc-signing-algs', kind: strings, default: ['RS256'], group: AUTHN, rule: eachOf(OIDC_ALGS), help: `the signing algorithms accepted: ${OIDC_ALGS.join(', ')}`, inert: NO_TOKEN_ISSUER },
  { name: 'requestheader-client-ca-file', kind: string, key: 'requestheaderClientCaFile', group: AUTHN,
    help: 'a CA bundle: a client certificate it signed is a front proxy, whose headers name the user (before client certificates and tokens)' },
  { name: 'requestheader-allowed-names', kind: strings, key: 'requestheaderAllowedNames', group: AUTHN, help: 'front-proxy certificate common names allowed; any when empty' },
  { name: 'requestheader-username-headers', kind: strings, key: 'requestheaderUsernameHeaders', group: AUTHN, help: 'headers carrying the user name, the first non-empty wins; X-Remote-User is usual' },
  { name: 'requestheader-group-headers', kind: strings, key: 'requestheaderGroupHeaders', group: AUTHN, help: 'headers carrying group names, each repeat one group; X-Remote-Group is usual' },
  { name: 'requestheader-extra-headers-prefix', kind: strings, key: 'requestheaderExtraHeadersPrefix', group: AUTHN,
    help: 'header prefixes of extra user information, keyed by the rest of the name; X-Remote-Extra- is usual' },
  { name: 'proxy-client-cert-file', kind: string, group: AUTHN, help: 'the client certificate the server uses when it calls out', inert: 'orchsim calls out to nothing' },
  { name: 'proxy-client-key-file', kind: string, group: AUTHN, help: 'the key of --proxy-client-cert-file', inert: 'orchsim calls out to nothing' },
  { name: 'service-account-issuer', kind: strings, key: 'serviceAccountIssuer', group: AUTHN, rule: issuers,
    help: 'the iss claim of service account tokens: the first issues, all are accepted; should be an https URL, whose discovery documents are then served' },
  { name: 'service-account-jwks-uri', kind: string, key: 'serviceAccountJwksUri', group: AUTHN, rule: httpsUrl,
    help: 'overrides the URI of the key set in the discovery document (default: https://<--external-hostname or --bind-address>:<--secure-port>/openid/v1/jwks)' },
  { name: 'service-account-key-file', kind: strings, key: 'serviceAccountKeyFile', defaultText: 'the --service-account-signing-key-file and --tls-private-key-file keys', group: AUTHN,
    help: 'PEM files of RSA or ECDSA keys (public or private keys, or certificates) verifying service account tokens' },
  { name: 'service-account-signing-key-file', kind: string, key: 'serviceAccountSigningKeyFile', group: AUTHN, help: 'the PEM RSA or ECDSA private key signing service account tokens' },
  { name: 'service-account-lookup', kind: bool, key: 'serviceAccountLookup', default: true, group: AUTHN,
    help: 'check that a secret-based (legacy) service account token and its service account are still stored; bound tokens are always checked' },
  { name: 'service-account-extend-token-expiration', kind: bool, key: 'serviceAccountExtendTokenExpiration', default: true, group: AUTHN,
    help: 'a pod-bound token asked for 3607 seconds with the API audiences lasts a year, warning after the 3607 seconds' },
  { name: 'service-account-max-token-expiration', kind: duration, key: 'serviceAccountMaxTokenExpirationMs', group: AUTHN, rule: tokenExpiration,
    help: 'the cap on a requested token\'s lifetime' },
  ...tlsSpecs<ApiServerOptions>(AUTHN, 'orchsim serves one certificate: --tls-cert-file\'s or its self-signed one').map((s) =>
    s.name === 'tls-cert-file' ? { ...s, key: 'tlsCertFile' as const } : s.name === 'tls-private-key-file' ? { ...s, key: 'tlsPrivateKeyFile' as const }
    : s.name === 'tls-sni-cert-key' ? { ...s, key: 'tlsSniCertKey' as const, inert: undefined }
    : s.name === 'tls-min-version' ? { ...s, key: 'tlsMinVersion' as const, inert: undefined }
    : s.name === 'tls-cipher-suites' ? { ...s, key: 'tlsCipherSuites' as const, inert: undefined, rule: knownCipherSuites } : s),
  { name: 'strict-transport-security-directives', kind: strings, group: AUTHN, help: 'HSTS directives (max-age=N, includeSubDomains, preload); none are sent when empty',
    rule: (v: string[]) => { const bad = v.find((d) => !HSTS.test(d)); return bad === undefined ? undefined : `${JSON.stringify(bad)} is not max-age=N, includeSubDomains or preload`; },
    inert: 'orchsim sends no HSTS header' },
  { name: 'cors-allowed-origins', kind: strings, group: AUTHN, rule: regexps, help: 'origins allowed by CORS, as regular expressions; empty disables CORS', inert: 'orchsim answers no CORS requests' },
];

/** The seed's Limits rows for the API server. */
const limitSpecs: OptionSpec<ApiServerOptions>[] = [
  { name: 'max-requests-inflight', kind: int, key: 'maxRequestsInflight', default: 400, group: LIMITS, rule: notNegative, help: 'non-mutating requests served at once, watches not counted; beyond, 429 with Retry-After: 1; 0 means no limit (without priority and fairness)' },
  { name: 'max-mutating-requests-inflight', kind: int, key: 'maxMutatingRequestsInflight', default: 200, group: LIMITS, rule: notNegative,
    help: 'mutating requests served at once; 0 means no limit; with priority and fairness on, the two limits are summed into the server\'s concurrency limit, which must be positive' },
  { name: 'request-timeout', kind: duration, key: 'requestTimeoutMs', default: 60_000, group: LIMITS, rule: positiveDuration, help: 'the longest a request that is not long-running waits for its answer before it gets 504 Timeout; a ?timeout= can only shorten it' },
  { name: 'min-request-timeout', kind: int, key: 'minRequestTimeoutSeconds', default: 1800, group: LIMITS, rule: positive,
    help: 'seconds; a watch without timeoutSeconds lasts a random time between this and twice this' },
  { name: 'max-connection-bytes-per-sec', kind: int, default: 0, group: LIMITS, rule: notNegative, help: 'bytes per second of a long-running request; 0 means no limit',
    inert: 'orchsim does not throttle connections' },
  { name: 'goaway-chance', kind: float, default: 0, group: LIMITS, rule: (v: number) => (v >= 0 && v <= 0.02 ? undefined : 'must be from 0 (off) to 0.02'),
    help: 'the chance an HTTP/2 request gets a GOAWAY, spreading clients over servers', inert: 'orchsim serves HTTP/1.1' },
  { name: 'event-ttl', kind: duration, key: 'eventTtlMs', default: 3_600_000, group: LIMITS, rule: positiveDuration, help: 'how long Events are kept' },
  { name: 'nodeagent-timeout', kind: duration, default: 5_000, group: LIMITS, rule: positiveDuration, help: 'the timeout of calls to node agents', inert: NO_NODE_CONNECTION },
];

const simulatorSpecs: OptionSpec<ApiServerOptions>[] = [
  { name: 'watcher-capacity', kind: int, key: 'watcherCapacity', default: 10_000, group: SIMULATOR, rule: positive,
    help: 'events a watcher may fall behind its client before it is cut off with 410 Gone and must relist' },
];

const sumOf = (v: (n: string) => unknown, a: string, b: string) => (v(a) as number) + (v(b) as number);
const truncation = (prefix: string): CrossRule => ({
  names: [`${prefix}-truncate-max-event-size`, `${prefix}-truncate-max-batch-size`],
  check: (v) => ((v(`${prefix}-truncate-max-event-size`) as number) <= (v(`${prefix}-truncate-max-batch-size`) as number) ? undefined
    : `--${prefix}-truncate-max-event-size (${v(`${prefix}-truncate-max-event-size`)}) must be at most --${prefix}-truncate-max-batch-size (${v(`${prefix}-truncate-max-batch-size`)})`),
});

/** Any of these turns service-account tokens on, and then an issuer and a signing key are both needed. */
const SERVICE_ACCOUNT_FLAGS = ['service-account-issuer', 'service-account-signing-key-file', 'service-account-key-file', 'api-audiences',
  'service-account-jwks-uri', 'service-account-max-token-expiration'];
const SERVICE_ACCOUNT_NEEDS = ['service-account-issuer', 'service-account-signing-key-file'];
const flagList = (names: string[]) => names.map((n) => `--${n}`).join(' and ');

/** As the real server's validateTokenRequest: signing needs an issuer to name, and an issuer needs a key to sign. */
function serviceAccountTokens(v: (name: string) => unknown): string | undefined {
  const given = SERVICE_ACCOUNT_FLAGS.filter((n) => { const x = v(n); return x !== undefined && !(Array.isArray(x) && x.length === 0); });
  const missing = SERVICE_ACCOUNT_NEEDS.filter((n) => !given.includes(n));
  if (given.length === 0 || missing.length === 0) return undefined;
  return `${flagList(given)} ${given.length > 1 ? 'need' : 'needs'} ${flagList(missing)}: service-account tokens are signed with the `
    + '--service-account-signing-key-file key in the name of the first --service-account-issuer, so give both, or no service-account option';
}

const crossRules: CrossRule[] = [
  { names: SERVICE_ACCOUNT_FLAGS, check: serviceAccountTokens },
  { names: ['requestheader-client-ca-file', 'requestheader-username-headers'],
    check: (v) => (v('requestheader-client-ca-file') && !((v('requestheader-username-headers') as string[] | undefined) ?? []).length
      ? '--requestheader-username-headers must name at least one header with --requestheader-client-ca-file' : undefined) },
  { names: ['authorization-mode', 'authorization-policy-file', 'authorization-webhook-config-file'], check: authorizationFiles },
  { names: ['oidc-issuer-url', 'oidc-client-id'],
    check: (v) => (v('oidc-issuer-url') && !v('oidc-client-id') ? '--oidc-client-id is required with --oidc-issuer-url' : undefined) },
  { names: ['enable-admission-plugins', 'disable-admission-plugins'], check: (v) => {
    const both = ((v('enable-admission-plugins') as string[] | undefined) ?? []).filter((p) => ((v('disable-admission-plugins') as string[] | undefined) ?? []).includes(p));
    return both.length ? `admission plugin ${both[0]} is in both --enable-admission-plugins and --disable-admission-plugins` : undefined;
  } },
  { names: ['enable-priority-and-fairness', 'max-requests-inflight', 'max-mutating-requests-inflight'],
    check: (v) => (v('enable-priority-and-fairness') && sumOf(v, 'max-requests-inflight', 'max-mutating-requests-inflight') <= 0
      ? `--max-requests-inflight (${v('max-requests-inflight')}) plus --max-mutating-requests-inflight (${v('max-mutating-requests-inflight')}) must be positive with --enable-priority-and-fairness`
      : undefined) },
  truncation('audit-log'),
  truncation('audit-webhook'),
  { names: ['tls-min-version', 'tls-cipher-suites'],
    check: (v) => (v('tls-min-version') === 'VersionTLS13' && ((v('tls-cipher-suites') as string[] | undefined) ?? []).length > 0
      ? '--tls-cipher-suites cannot be set with --tls-min-version=VersionTLS13: TLS 1.3 suites are not configurable' : undefined) },
  { names: ['orch-service-node-port', 'service-node-port-range'], check: (v) => {
    const port = v('orch-service-node-port') as number | undefined;
    const range = v('service-node-port-range') as PortRange;
    return port && (port < range.base || port >= range.base + range.size)
      ? `--orch-service-node-port (${port}) must be within --service-node-port-range (${range.base}-${range.base + range.size - 1})` : undefined;
  } },
];

export const API_SERVER_TABLE = new OptionTable<ApiServerOptions>('API server', [
  ...commonOptions<ApiServerOptions>('apiserver', { 'bind-address': 'bindAddress', 'cert-dir': 'certDir', 'feature-gates': 'featureGates' }),
  ...serverSpecs,
  ...authSpecs,
  ...limitSpecs,
  ...simulatorSpecs,
], crossRules);

/** The code-only fields' defaults. */
const CODE_DEFAULTS: Pick<ApiServerOptions, Exclude<CodeOnly, 'tokens'>> = {
  watchBookmarkIntervalMs: 60_000,
  maxRequestBodyBytes: 3 * 1024 * 1024,
};

/** The table's options completed with the code-only fields, which are checked here. */
export function withCodeOnlyFields(options: ApiServerOptions, code: Partial<Pick<ApiServerOptions, CodeOnly>> = {}): ApiServerOptions {
  const { tokens, ...rest } = code;
  const o: ApiServerOptions = { ...options, ...CODE_DEFAULTS, ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)), ...(tokens ? { tokens } : {}) };
  if (!(o.watchBookmarkIntervalMs > 0 && o.watchBookmarkIntervalMs <= 60_000)) throw new RangeError('watchBookmarkIntervalMs must be positive and at most a minute');
  if (!(Number.isInteger(o.maxRequestBodyBytes) && o.maxRequestBodyBytes > 0)) throw new RangeError('maxRequestBodyBytes must be a positive integer');
  return o;
}

/** Defaults, then `given`; the flags' fields checked by the table's rules (an OptionError names the option at fault). */
export function apiServerOptions(given: Partial<ApiServerOptions> = {}): ApiServerOptions {
  const { tokens, watchBookmarkIntervalMs, maxRequestBodyBytes, ...flags } = given;
  return withCodeOnlyFields(API_SERVER_TABLE.options(flags), { tokens, watchBookmarkIntervalMs, maxRequestBodyBytes });
}

/**
 * The admission plugins orchsim runs, in order: its implemented ones of the seed's default set,
 * less the disabled, then the enabled others. The seed's other names are accepted but admit everything.
 */
export function admissionPluginNames(o: ApiServerOptions): string[] {
  const disabled = o.disableAdmissionPlugins ?? [];
  const names = DEFAULT_PLUGINS.filter((p) => !disabled.includes(p));
  for (const p of o.enableAdmissionPlugins ?? []) if (!names.includes(p) && !disabled.includes(p) && implemented(p)) names.push(p);
  return names;
}

/** The enabled plugins orchsim accepts but does not run, for a warning at start. */
export function inertAdmissionPlugins(o: ApiServerOptions): string[] {
  return (o.enableAdmissionPlugins ?? []).filter((p) => !implemented(p));
}

/** A scenario's `options.apiserver`: flags by name (`etcd-compaction-interval: 1m0s`). */
export function apiServerFromScenario(record: Record<string, unknown>, where = ''): ApiServerOptions {
  return withCodeOnlyFields(API_SERVER_TABLE.resolve(API_SERVER_TABLE.readValues(record, where)).options);
}
