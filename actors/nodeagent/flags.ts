// The node agent's command line (seed 001, "Node agent: command line"): the options without a
// file field, then the command-line form of each configuration-file field, made from its row in
// config-fields.ts (same kind, same rule), deprecated in favour of `--config` as the real agent
// has them (a few are not), with the command line's own defaults where the seed gives them:
// --read-only-port 10255, --authorization-mode AlwaysAllow, --anonymous-auth true.
import { isIP } from 'node:net';
import { bool, duration, int, int32, oneOf, string, stringMap, versionFlag } from '../api/options/kinds.ts';
import { OptionTable, type OptionSpec } from '../api/options/table.ts';
import { validateLabels } from '../apiserver/validation/names.ts';
import { CONFIG_FILE_NOTE, FIELDS, LEGACY_LOG_NOTE, type FieldSpec } from './config-fields.ts';
import { inspectOptions } from '../system/options.ts';

/** Every value lands in `extra`, by flag name: loadNodeAgentConfig (config.ts) maps them. */
export type NoFields = Record<string, never>;

const GROUP = 'Node agent options';
const OLD = 'Deprecated options';
const LOGS = 'Legacy log options';
const FILE = 'Configuration-file fields on the command line (most deprecated: set them in the --config file)';

/** Labels under these domains are the system's: only the prefixes and names below may be set. */
const SYSTEM_DOMAINS = ['kubernetes.io', 'k8s.io'];
export const NODE_LABEL_PREFIXES = ['nodeagent.kubernetes.io', 'kubelet.kubernetes.io', 'node.kubernetes.io'];
export const NODE_LABELS_ALLOWED = [
  'kubernetes.io/hostname', 'kubernetes.io/os', 'kubernetes.io/arch', 'beta.kubernetes.io/os', 'beta.kubernetes.io/arch',
  'node.kubernetes.io/instance-type', 'beta.kubernetes.io/instance-type', 'topology.kubernetes.io/region', 'topology.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/zone',
];
const under = (namespace: string, domains: string[]) => domains.some((d) => namespace === d || namespace.endsWith(`.${d}`));

function nodeLabelsRule(labels: Record<string, string>): string | undefined {
  const bad = validateLabels(labels, 'node-labels')[0];
  if (bad) return bad.message;
  const refused = Object.keys(labels).filter((key) => {
    const namespace = key.includes('/') ? key.slice(0, key.indexOf('/')) : '';
    return under(namespace, SYSTEM_DOMAINS) && !NODE_LABELS_ALLOWED.includes(key) && !under(namespace, NODE_LABEL_PREFIXES);
  });
  if (refused.length === 0) return undefined;
  return `unknown labels under ${SYSTEM_DOMAINS.join(' or ')}: ${refused.join(', ')}; such labels must begin with an allowed prefix (${NODE_LABEL_PREFIXES.join(', ')}) or be one of ${NODE_LABELS_ALLOWED.join(', ')}`;
}

function nodeIpRule(v: string): string | undefined {
  const ips = v.split(',').map((s) => s.trim());
  if (ips.length > 2 || ips.some((a) => isIP(a) === 0)) return 'must be an IP address, or an IPv4 and an IPv6 address separated by a comma';
  if (ips.length === 2 && isIP(ips[0]) === isIP(ips[1])) return 'a dual-stack pair must hold one IPv4 and one IPv6 address';
  if (ips.length === 2 && ips.some((a) => a === '0.0.0.0' || a === '::')) return 'a dual-stack pair cannot hold 0.0.0.0 or ::';
  return undefined;
}

const CAPACITY = ['cpu', 'memory', 'ephemeral-storage'];
function capacityRule(v: Record<string, string>): string | undefined {
  const other = Object.keys(v).find((k) => !CAPACITY.includes(k));
  if (other !== undefined) return `names ${JSON.stringify(other)}; the resources are ${CAPACITY.join(', ')}`;
  const bad = Object.entries(v).find(([, q]) => !/^\d+(\.\d+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.test(q));
  return bad ? `${bad[0]}=${bad[1]} is not a quantity such as 4, 500m or 16Gi` : undefined;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const hostnameRule = (v: string) => (v.length <= 253 && DNS_SUBDOMAIN.test(v.trim().toLowerCase()) ? undefined : 'must be a DNS subdomain such as node-1.example.com (letters are read lowercase)');
const cgroupRule = (v: string) => (v === '' || v.startsWith('/') ? undefined : 'must be an absolute cgroup name such as /runtime.slice, or empty');
const notNegative = (v: number) => (v >= 0 ? undefined : 'must not be negative');
const SEVERITIES = ['0', '1', '2', '3', 'INFO', 'WARNING', 'ERROR', 'FATAL'];
const OLD_GC = 'Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.';
const log = (s: Omit<OptionSpec<NoFields>, 'group'>): OptionSpec<NoFields> => ({ ...s, group: LOGS, deprecated: LEGACY_LOG_NOTE });

const OWN: OptionSpec<NoFields>[] = [
  { name: 'orchconfig', kind: string, group: GROUP, help: 'the connection file; given, the agent works with an API server; omitted, it runs standalone' },
  ...inspectOptions<NoFields>(GROUP),
  { name: 'bootstrap-orchconfig', kind: string, group: GROUP, help: 'a connection file used to request a client certificate when the --orchconfig file is missing' },
  { name: 'config', kind: string, group: GROUP, help: 'the configuration file (NodeAgentConfiguration), relative or absolute; flags given explicitly override it; omitted, the built-in defaults apply' },
  { name: 'hostname-override', kind: string, group: GROUP, rule: hostnameRule, help: 'the node\'s name instead of the hostname' },
  { name: 'node-ip', kind: string, group: GROUP, rule: nodeIpRule, help: 'the node\'s address, or a dual-stack pair; :: prefers IPv6' },
  { name: 'node-labels', kind: stringMap, group: GROUP, rule: nodeLabelsRule, help: `<alpha> labels the node registers with, key=value,...; under ${SYSTEM_DOMAINS.join(' or ')} only the allowed prefixes and names` },
  { name: 'container-runtime', kind: oneOf('docker', 'remote'), default: 'remote', group: GROUP, help: 'docker or remote', deprecated: "will be removed in 1.27 as the only valid value is 'remote'" },
  { name: 'container-runtime-endpoint', kind: string, group: GROUP, help: 'the runtime\'s socket or pipe', inert: 'pods run in the simulator' },
  { name: 'image-service-endpoint', kind: string, defaultText: 'the --container-runtime-endpoint', group: GROUP, help: '<experimental> the image service\'s socket or pipe', inert: 'images are not pulled' },
  { name: 'image-credential-provider-bin-dir', kind: string, group: GROUP, help: 'the directory of credential provider plugins' },
  { name: 'image-credential-provider-config', kind: string, group: GROUP, help: 'the CredentialProviderConfig file naming the credential provider plugins' },
  { name: 'pod-infra-container-image', kind: string, default: 'registry.k8s.io/pause:3.6', group: GROUP, help: 'the sandbox image, kept out of image garbage collection' },
  { name: 'root-dir', kind: string, default: '/var/lib/nodeagent', group: GROUP, help: 'the directory of volume mounts and state' },
  { name: 'cert-dir', kind: string, default: '/var/lib/nodeagent/pki', group: GROUP, help: 'the directory of certificates; ignored when tlsCertFile and tlsPrivateKeyFile are set' },
  { name: 'lock-file', kind: string, group: GROUP, help: '<alpha> a file to hold as a lock' },
  { name: 'exit-on-lock-contention', kind: bool, default: false, group: GROUP, help: 'exit when another process contends for the lock file' },
  { name: 'runtime-cgroups', kind: string, group: GROUP, rule: cgroupRule, help: 'the cgroup of the container runtime' },
  { name: 'version', kind: versionFlag, default: 'false', group: GROUP, help: 'print the version and exit; --version=raw prints it in full' },
  { name: 'help', short: 'h', kind: bool, default: false, group: GROUP, help: 'this help' },
  { name: 'simulated-capacity', kind: stringMap, default: { cpu: '4', memory: '16Gi', 'ephemeral-storage': '100Gi' }, group: 'Simulator options', rule: capacityRule,
    help: 'the simulated node\'s capacity: cpu, memory and ephemeral-storage as quantities (allocatable equals it); maxPods gives its pods' },
  { name: 'register-schedulable', kind: bool, default: true, group: OLD, help: 'register the node as schedulable (with registerNode)', deprecated: 'will be removed in a future version' },
  { name: 'keep-terminated-pod-volumes', kind: bool, default: false, group: OLD, help: 'keep the volumes of terminated pods mounted', deprecated: 'will be removed in a future version' },
  { name: 'maximum-dead-containers', kind: int32, default: -1, group: OLD, help: 'dead containers kept in all; negative: no limit', deprecated: OLD_GC },
  { name: 'maximum-dead-containers-per-container', kind: int32, default: 1, group: OLD, help: 'dead instances kept per container', deprecated: OLD_GC },
  { name: 'minimum-container-ttl-duration', kind: duration, default: 0, group: OLD, help: 'the youngest a finished container may be collected', deprecated: OLD_GC },
  { name: 'experimental-mounter-path', kind: string, defaultText: 'mount', group: OLD, help: 'the mount binary; empty uses the default mount', deprecated: 'will be removed in 1.25 or later, in favour of CSI' },
  { name: 'experimental-allocatable-ignore-eviction', kind: bool, default: false, group: OLD, help: 'leave hard eviction thresholds out of allocatable', deprecated: 'will be removed in 1.25 or later' },
  log({ name: 'add-dir-header', kind: bool, default: false, help: 'add the file\'s directory to log headers' }),
  log({ name: 'alsologtostderr', kind: bool, default: false, help: 'log to standard error as well as to files' }),
  log({ name: 'log-backtrace-at', kind: string, default: ':0', help: 'emit a stack trace at file:N', rule: (v: string) => (v === '' || /^[^:]*:\d+$/.test(v) ? undefined : 'must be file:N') }),
  log({ name: 'log-dir', kind: string, help: 'write log files into this directory' }),
  log({ name: 'log-file', kind: string, help: 'write logs to this file' }),
  log({ name: 'log-file-max-size', kind: int, default: 1800, help: 'the largest log file, in megabytes; 0: no limit', rule: notNegative }),
  log({ name: 'logtostderr', kind: bool, default: true, help: 'log to standard error instead of files' }),
  log({ name: 'one-output', kind: bool, default: false, help: 'write each line to its own severity level only' }),
  log({ name: 'skip-headers', kind: bool, default: false, help: 'no header prefixes on log lines' }),
  log({ name: 'skip-log-headers', kind: bool, default: false, help: 'no headers when opening log files' }),
  log({ name: 'stderrthreshold', kind: string, default: '2', help: 'lines at or above this severity go to standard error',
    rule: (v: string) => (SEVERITIES.includes(v.toUpperCase()) ? undefined : 'must be a severity: 0 to 3, or INFO, WARNING, ERROR, FATAL') }),
];

/** The command-line form of a file field. */
function fieldFlag(f: FieldSpec): OptionSpec<NoFields> {
  const dflt = 'flagDefault' in f ? f.flagDefault : f.default;
  return {
    name: f.flag!, ...(f.short ? { short: f.short } : {}), kind: f.kind, ...(dflt !== undefined ? { default: dflt } : {}), ...(f.rule ? { rule: f.rule } : {}),
    group: FILE, help: `${f.help} (file field ${f.field})`, ...(f.flagNote === false ? {} : { deprecated: f.flagNote ?? CONFIG_FILE_NOTE }),
  };
}

/** The file field each command-line form sets, by flag name. */
export const FLAG_FIELDS: ReadonlyMap<string, FieldSpec> = new Map(FIELDS.filter((f) => f.flag).map((f) => [f.flag!, f]));

export const NODE_AGENT_FLAGS = new OptionTable<NoFields>('node agent', [...OWN, ...[...FLAG_FIELDS.values()].map(fieldFlag)]);
