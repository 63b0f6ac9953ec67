// The fields of the node agent's configuration file (seed 001, "Node agent: configuration file",
// with its Authentication and Limits rows), one row each: the dotted path, the kind of value, the
// file's default, the field's own rule, and the flag that sets it from the command line (with
// that flag's default where the seed says it differs). The file reader (config.ts) and the
// command line (flags.ts) both read values through these rows, so a field is parsed and checked
// in one place. Rules across fields, feature gates among them, are in config.ts.
import { isIP } from 'node:net';
import { checkGates, NODE_AGENT_GATES } from '../api/options/feature-gates.ts';
import { bool, boolMap, checkCidr, csvFields, duration, float, int, int32, ip, oneOf, quantity, string, stringMap, strings, vmodule, type Kind } from '../api/options/kinds.ts';
import { formatDuration } from '../api/duration.ts';
import { parseQuantity } from '../api/quantity.ts';
import { VERSION_INFO } from '../api/version.ts';
import { validateQualifiedKey } from '../apiserver/validation/names.ts';
import type { Taint } from './options.ts';

/** Durations are milliseconds here; the file writes them as `10s`, `5m0s`. */
type Millis = number;
type Json = { splitStream: boolean; infoBufferSize: string };

/** The configuration, as read, defaulted and checked. A field with no default in the seed is optional. */
export interface NodeAgentConfiguration {
  enableServer: boolean; staticPodPath: string; syncFrequency: Millis; fileCheckFrequency: Millis; httpCheckFrequency: Millis;
  staticPodURL: string; staticPodURLHeader?: Record<string, string[]>; address: string; port: number; readOnlyPort: number;
  tlsCertFile: string; tlsPrivateKeyFile: string; tlsCipherSuites?: string[]; tlsMinVersion: string; rotateCertificates: boolean; serverTLSBootstrap: boolean;
  authentication: { anonymous: { enabled: boolean }; webhook: { enabled: boolean; cacheTTL: Millis }; x509: { clientCAFile: string } };
  authorization: { mode: 'AlwaysAllow' | 'Webhook'; webhook: { cacheAuthorizedTTL: Millis; cacheUnauthorizedTTL: Millis } };
  registryPullQPS: number; registryBurst: number; eventRecordQPS: number; eventBurst: number;
  enableDebuggingHandlers: boolean; enableContentionProfiling: boolean; healthzPort: number; healthzBindAddress: string; oomScoreAdj: number;
  clusterDomain: string; clusterDNS?: string[]; streamingConnectionIdleTimeout: Millis;
  nodeStatusUpdateFrequency: Millis; nodeStatusReportFrequency: Millis; nodeLeaseDurationSeconds: number;
  imageMinimumGCAge: Millis; imageGCHighThresholdPercent: number; imageGCLowThresholdPercent: number; volumeStatsAggPeriod: Millis;
  nodeagentCgroups: string; systemCgroups: string; cgroupRoot: string; cgroupsPerQOS: boolean; cgroupDriver: 'cgroupfs' | 'systemd';
  cpuManagerPolicy: 'none' | 'static'; cpuManagerPolicyOptions?: Record<string, string>; cpuManagerReconcilePeriod: Millis;
  memoryManagerPolicy: 'None' | 'Static'; topologyManagerPolicy: 'none' | 'best-effort' | 'restricted' | 'single-numa-node'; topologyManagerScope: 'container' | 'pod';
  qosReserved?: Record<string, string>; runtimeRequestTimeout: Millis; hairpinMode: 'promiscuous-bridge' | 'hairpin-veth' | 'none';
  maxPods: number; podCIDR: string; podPidsLimit: number; resolvConf: string; runOnce: boolean; cpuCFSQuota: boolean; cpuCFSQuotaPeriod: Millis;
  nodeStatusMaxImages: number; maxOpenFiles: number; contentType: string; orchAPIQPS: number; orchAPIBurst: number; serializeImagePulls: boolean;
  evictionHard: Record<string, string>; evictionSoft?: Record<string, string>; evictionSoftGracePeriod?: Record<string, Millis>; evictionMinimumReclaim?: Record<string, string>;
  evictionPressureTransitionPeriod: Millis; evictionMaxPodGracePeriod: number; podsPerCore: number;
  enableControllerAttachDetach: boolean; protectKernelDefaults: boolean; makeIPTablesUtilChains: boolean; iptablesMasqueradeBit: number; iptablesDropBit: number;
  featureGates?: Record<string, boolean>; failSwapOn: boolean; memorySwap?: { swapBehavior?: '' | 'LimitedSwap' | 'UnlimitedSwap' };
  containerLogMaxSize: string; containerLogMaxFiles: number; configMapAndSecretChangeDetectionStrategy: 'Get' | 'Cache' | 'Watch';
  systemReserved?: Record<string, string>; orchReserved?: Record<string, string>; reservedSystemCPUs: string; showHiddenMetricsForVersion: string;
  systemReservedCgroup: string; orchReservedCgroup: string; enforceNodeAllocatable: string[]; allowedUnsafeSysctls?: string[];
  volumePluginDir: string; providerID: string; kernelMemcgNotification: boolean;
  logging: { format: 'text' | 'json'; flushFrequency: Millis; verbosity: number; vmodule?: { pattern: string; level: number }[]; options: { json: Json } };
  enableSystemLogHandler: boolean; shutdownGracePeriod: Millis; shutdownGracePeriodCriticalPods: Millis;
  shutdownGracePeriodByPodPriority?: { priority: number; shutdownGracePeriodSeconds: number }[];
  reservedMemory?: { numaNode: number; limits: Record<string, string> }[];
  enableProfilingHandler: boolean; enableDebugFlagsHandler: boolean; seccompDefault?: boolean; memoryThrottlingFactor: number;
  registerWithTaints?: Taint[]; registerNode: boolean; tracing?: { endpoint?: string; samplingRatePerMillion?: number }; localStorageCapacityIsolation: boolean;
}

/** Every leaf's dotted path: `authentication.webhook.cacheTTL`. Lists and free-form maps are leaves. */
type Paths<T> = { [K in keyof T & string]-?: NonNullable<T[K]> extends readonly unknown[] ? K
  : NonNullable<T[K]> extends object ? (string extends keyof NonNullable<T[K]> ? K : `${K}.${Paths<NonNullable<T[K]>>}`) : K }[keyof T & string];
export type FieldPath = Paths<NodeAgentConfiguration>;

export interface FieldSpec {
  field: FieldPath;
  kind: Kind<never> | Kind<unknown>;
  /** Absent: no default ("none" in the seed). */
  default?: unknown;
  /** The field's own rule: what a value must be, or undefined when it is fine. */
  rule?: (value: never) => string | undefined;
  help: string;
  /** The command-line form, deprecated in favour of the file unless `flagNote` says otherwise. */
  flag?: string;
  short?: string;
  /** The command line's default where it differs from the file's. */
  flagDefault?: unknown;
  /** `false`: the flag is not deprecated; a string: its own deprecation note. */
  flagNote?: false | string;
}

const fail = (want: string): never => {
  throw new RangeError(want);
};
const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const scalar = (v: unknown, want: string): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : fail(want));
/** A quantity's value, NaN when the text is not one. */
function quantityOf(text: string): number {
  try {
    return parseQuantity(text);
  } catch {
    return NaN;
  }
}
const fileOnly = (): never => fail('is set in the configuration file only');
function onlyKeys(entry: Record<string, unknown>, allowed: string[], what: string): void {
  const unknown = Object.keys(entry).find((k) => !allowed.includes(k));
  if (unknown !== undefined) fail(`unknown field ${JSON.stringify(unknown)} in ${what} (known: ${allowed.join(', ')})`);
}
function listOf<V>(v: unknown, what: string, entry: (e: Record<string, unknown>, at: string) => V): V[] {
  if (!Array.isArray(v)) return fail(`must be a list of ${what}`);
  return v.map((e, i) => (isMapping(e) ? entry(e, `${what} [${i}]`) : fail(`[${i}] must be a mapping`)));
}

/** `key<sep>value,...` on the command line (repeating the flag adds keys), a mapping in a file; `value` reads each value. */
function pairs<V>(name: string, sep: string, value: (text: string, key: string) => V, show: (v: V) => string): Kind<Record<string, V>> {
  const want = `must be key${sep}value pairs separated by commas`;
  const parse = (text: string): Record<string, V> => {
    const out: Record<string, V> = {};
    for (const pair of text.trim() === '' ? [] : csvFields(text)) {
      const at = pair.indexOf(sep);
      if (at <= 0) fail(`${want}; ${JSON.stringify(pair)} is not key${sep}value`);
      out[pair.slice(0, at).trim()] = value(pair.slice(at + 1).trim(), pair.slice(0, at).trim());
    }
    return out;
  };
  return {
    name, parse,
    read: (v) => (typeof v === 'string' ? parse(v) : isMapping(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(scalar(x, `${k} must be a string`), k)])) : fail('must be a mapping')),
    is: isMapping,
    format: (v) => Object.entries(v).map(([k, x]) => `${k}${sep}${show(x)}`).join(','),
    merge: (a, b) => ({ ...a, ...b }),
  };
}

export const EVICTION_SIGNALS = ['memory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree', 'pid.available', 'allocatableMemory.available'];
function signal(key: string): void {
  if (!EVICTION_SIGNALS.includes(key)) fail(`unknown eviction signal ${JSON.stringify(key)} (known: ${EVICTION_SIGNALS.join(', ')})`);
}
/** A threshold: a non-negative quantity or a percentage from 0% to 100%. */
function threshold(text: string, key: string): string {
  signal(key);
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (percent) return Number(percent[1]) <= 100 ? text : fail(`${key}: a percentage must be from 0% to 100%, got ${text}`);
  const n = quantityOf(text);
  if (Number.isNaN(n)) return fail(`${key}: must be a quantity such as 100Mi or a percentage such as 10%, got ${JSON.stringify(text)}`);
  return n >= 0 ? text : fail(`${key}: must not be negative, got ${text}`);
}
const thresholds = pairs<string>('signal<threshold,...', '<', threshold, (v) => v);
const reclaims = pairs<string>('mapStringString', '=', threshold, (v) => v);
const gracePeriods = pairs<number>('mapStringString', '=', (text, key) => {
  signal(key);
  const ms = duration.parse(text);
  return ms >= 0 ? ms : fail(`${key}: the grace period must not be negative`);
}, formatDuration);

/** `--manifest-url-header 'a:hello,b:again'` (repeatable, adding values); a mapping of lists in a file. */
const urlHeaders: Kind<Record<string, string[]>> = {
  name: 'colonSeparatedMultimapStringString',
  parse: (text) => {
    const out: Record<string, string[]> = {};
    for (const pair of text.trim() === '' ? [] : csvFields(text)) {
      const at = pair.indexOf(':');
      if (at <= 0) fail(`must be name:value pairs separated by commas; ${JSON.stringify(pair)} is not name:value`);
      (out[pair.slice(0, at).trim()] ??= []).push(pair.slice(at + 1).trim());
    }
    return out;
  },
  read: (v) => (isMapping(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, Array.isArray(x) ? x.map((s) => scalar(s, `${k} must list strings`)) : fail(`${k} must be a list of values`)])) : fail('must be a mapping of header names to lists of values')),
  is: isMapping,
  format: (v) => Object.entries(v).flatMap(([k, xs]) => xs.map((x) => `${k}:${x}`)).join(','),
  merge: (a, b) => Object.fromEntries([...new Set([...Object.keys(a), ...Object.keys(b)])].map((k) => [k, [...(a[k] ?? []), ...(b[k] ?? [])]])),
};

const TAINT_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
function taint(key: string, value: string | undefined, effect: string): Taint {
  const bad = validateQualifiedKey(key, 'key')[0];
  if (bad) fail(`taint key ${JSON.stringify(key)}: ${bad.message}`);
  if (value !== undefined && (value.length > 63 || !TAINT_VALUE.test(value))) fail(`taint value ${JSON.stringify(value)} must be at most 63 alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric`);
  if (!EFFECTS.includes(effect)) fail(`taint effect ${JSON.stringify(effect)} must be one of ${EFFECTS.join(', ')}`);
  return { key, ...(value !== undefined ? { value } : {}), effect: effect as Taint['effect'] };
}
/** `key=value:Effect,key:Effect` on the command line; a list of {key, value, effect} in a file. */
const taints: Kind<Taint[]> = {
  name: '<key>=<value>:<effect>,...',
  parse: (text) => (text.trim() === '' ? [] : csvFields(text)).map((t) => {
    const m = /^([^=:]+)(?:=([^:]*))?:([^:]+)$/.exec(t.trim());
    return m ? taint(m[1], m[2], m[3]) : fail(`must be <key>=<value>:<effect> or <key>:<effect> separated by commas; ${JSON.stringify(t)} is not`);
  }),
  read: (v) => listOf(v, 'taints', (e, at) => {
    onlyKeys(e, ['key', 'value', 'effect', 'timeAdded'], at);
    if (e.timeAdded !== undefined) fail(`${at}: timeAdded must not be set`);
    return taint(scalar(e.key ?? '', `${at}: key must be a string`), e.value === undefined ? undefined : scalar(e.value, `${at}: value must be a string`), scalar(e.effect ?? '', `${at}: effect must be a string`));
  }),
  is: Array.isArray,
  format: (v) => v.map((t) => `${t.key}${t.value !== undefined ? `=${t.value}` : ''}:${t.effect}`).join(','),
  merge: (a, b) => [...a, ...b],
};

type Reservation = { numaNode: number; limits: Record<string, string> };
function reservation(numaNode: number, limits: Record<string, string>, at: string): Reservation {
  if (!Number.isInteger(numaNode) || numaNode < 0) fail(`${at}: numaNode must be an integer of at least 0`);
  if (Object.keys(limits).length === 0) fail(`${at}: limits must name at least one resource`);
  for (const [k, q] of Object.entries(limits)) {
    if (k !== 'memory' && !/^hugepages-.+/.test(k)) fail(`${at}: resource ${JSON.stringify(k)} must be memory or hugepages-<size>`);
    if (!(quantityOf(q) >= 0)) fail(`${at}: ${k} must be a non-negative quantity such as 1Gi, got ${JSON.stringify(q)}`);
  }
  return { numaNode, limits };
}
/** `--reserved-memory 0:memory=1Gi,hugepages-1M=2Gi;1:memory=2Gi` (repeatable); a list of {numaNode, limits} in a file. */
const reservedMemory: Kind<Reservation[]> = {
  name: 'reservedMemory',
  parse: (text) => (text.trim() === '' ? [] : text.split(';')).map((part) => {
    const m = /^\s*(\d+):(.+)$/.exec(part);
    if (!m) return fail(`must be <numaNode>:<resource>=<quantity>[,...] entries separated by ';'; ${JSON.stringify(part)} is not`);
    return reservation(Number(m[1]), stringMap.parse(m[2]), `NUMA node ${m[1]}`);
  }),
  read: (v) => listOf(v, 'reservedMemory', (e, at) => {
    onlyKeys(e, ['numaNode', 'limits'], at);
    return reservation(typeof e.numaNode === 'number' ? e.numaNode : -1, stringMap.read(e.limits ?? {}), at);
  }),
  is: Array.isArray,
  format: (v) => v.map((r) => `${r.numaNode}:${stringMap.format(r.limits).slice(1, -1)}`).join(';'),
  merge: (a, b) => [...a, ...b],
};

const byPodPriority: Kind<{ priority: number; shutdownGracePeriodSeconds: number }[]> = {
  name: 'shutdownGracePeriodByPodPriority',
  parse: fileOnly,
  read: (v) => listOf(v, 'shutdownGracePeriodByPodPriority', (e, at) => {
    onlyKeys(e, ['priority', 'shutdownGracePeriodSeconds'], at);
    const priority = int32.read(e.priority ?? fail(`${at}: priority is required`));
    const seconds = int.read(e.shutdownGracePeriodSeconds ?? fail(`${at}: shutdownGracePeriodSeconds is required`));
    return seconds >= 0 ? { priority, shutdownGracePeriodSeconds: seconds } : fail(`${at}: shutdownGracePeriodSeconds must not be negative`);
  }),
  is: Array.isArray,
  format: (v) => JSON.stringify(v),
};

/** `logging.flushFrequency`: nanoseconds as a number in the file (as the seed has it), or a duration string. */
const flushFrequency: Kind<number> = { ...duration, read: (v) => (typeof v === 'number' ? (Number.isInteger(v) ? v / 1e6 : fail('must be whole nanoseconds or a duration such as 5s')) : duration.read(v)) };

const range = (lo: number, hi: number, extra = '') => (v: number) => (v >= lo && v <= hi ? undefined : `must be from ${lo} to ${hi}${extra}`);
const notNegative = (v: number) => (v >= 0 ? undefined : 'must not be negative');
const positive = (v: number) => (v > 0 ? undefined : 'must be greater than 0');
/** A list rule: every entry passes `ok`, or the first that does not is named. */
const every = (ok: (entry: string) => boolean, what: string) => (v: string[]) => {
  const bad = v.find((e) => !ok(e));
  return bad === undefined ? undefined : `${JSON.stringify(bad)} is not ${what}`;
};
const cgroup = (v: string) => (v === '' || v.startsWith('/') ? undefined : 'must be an absolute cgroup name such as /system.slice, or empty');
const percentage = (v: string) => /^(\d+(\.\d+)?)%$/.test(v) && Number(v.slice(0, -1)) <= 100;
const resources = (allowed: string[]) => (v: Record<string, string>) => {
  for (const [k, q] of Object.entries(v)) {
    if (!allowed.includes(k)) return `resource ${JSON.stringify(k)} cannot be reserved (allowed: ${allowed.join(', ')})`;
    if (!(quantityOf(q) >= 0)) return `${k} must be a non-negative quantity such as 500Mi, got ${JSON.stringify(q)}`;
  }
  return undefined;
};
const previousMinor = `${VERSION_INFO.major}.${Number(VERSION_INFO.minor) - 1}`;
const SYSCTL = /^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[./])*([a-z0-9]([-_a-z0-9]*[a-z0-9])?)?$/;
const ENFORCE = ['none', 'pods', 'system-reserved', 'orch-reserved'];
const CONTENT_TYPES = ['application/json', 'application/vnd.orchestrator.protobuf', 'application/vnd.kubernetes.protobuf'];
const TLS_VERSIONS = ['', 'VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13'];
const cpuList = (v: string) => {
  if (v === '') return undefined;
  const ok = v.split(',').every((part) => {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    return m !== null && (m[2] === undefined || Number(m[2]) >= Number(m[1]));
  });
  return ok ? undefined : 'must be a CPU list such as 0-3,8 (ranges low-high)';
};

/** The deprecation the real agent gives every command-line form of a file field. */
export const CONFIG_FILE_NOTE = "This parameter should be set via the config file specified by the node agent's --config flag.";
/** The note of the log options that will leave with the logging library's own flags. */
export const LEGACY_LOG_NOTE = "will be removed in a future release, with the logging library's own flags";

const F = (field: FieldPath, kind: FieldSpec['kind'], dflt: unknown, flag: string | undefined, help: string, more: Partial<FieldSpec> = {}): FieldSpec =>
  ({ field, kind, ...(dflt !== undefined ? { default: dflt } : {}), ...(flag ? { flag } : {}), help, ...more });

export const FIELDS: readonly FieldSpec[] = [
  F('enableServer', bool, true, 'enable-server', 'serve the secured API'),
  F('staticPodPath', string, '', 'pod-manifest-path', 'a directory or file of static pods'),
  F('syncFrequency', duration, 60_000, 'sync-frequency', 'the longest period between syncs', { rule: notNegative }),
  F('fileCheckFrequency', duration, 20_000, 'file-check-frequency', 'how often static pod files are read', { rule: notNegative }),
  F('httpCheckFrequency', duration, 20_000, 'http-check-frequency', 'how often the static pod URL is read', { rule: notNegative }),
  F('staticPodURL', string, '', 'manifest-url', 'a URL of static pods'),
  F('staticPodURLHeader', urlHeaders, undefined, 'manifest-url-header', 'HTTP headers for the static pod URL'),
  F('address', ip, '0.0.0.0', 'address', 'the address served on; 0.0.0.0 or :: for every interface'),
  F('port', int32, 10250, 'port', 'the secured port', { rule: range(1, 65535) }),
  F('readOnlyPort', int32, 0, 'read-only-port', 'the unauthenticated read-only port; 0 disables it', { rule: range(0, 65535, ' (0 disables it)'), flagDefault: 10255 }),
  F('tlsCertFile', string, '', 'tls-cert-file', 'the serving certificate; without it and the key a self-signed pair is written to the cert directory'),
  F('tlsPrivateKeyFile', string, '', 'tls-private-key-file', 'the serving key'),
  F('tlsCipherSuites', strings, undefined, 'tls-cipher-suites', 'the cipher suites served', { rule: every((s) => /^TLS_[A-Z0-9_]+$/.test(s), 'a cipher suite name such as TLS_AES_128_GCM_SHA256') }),
  F('tlsMinVersion', string, '', 'tls-min-version', 'the lowest TLS version', { rule: (v: string) => (TLS_VERSIONS.includes(v) ? undefined : `must be one of ${TLS_VERSIONS.slice(1).join(', ')}, or empty`) }),
  F('rotateCertificates', bool, false, 'rotate-certificates', 'request new client certificates as they near expiry (needs an approver)'),
  F('serverTLSBootstrap', bool, false, 'rotate-server-certificates', 'request the serving certificate; needs the RotateKubeletServerCertificate gate'),
  F('authentication.anonymous.enabled', bool, false, 'anonymous-auth', 'requests no method rejects become system:anonymous in group system:unauthenticated', { flagDefault: true }),
  F('authentication.webhook.enabled', bool, true, 'authentication-token-webhook', 'check bearer tokens with the token review API', { flagDefault: false }),
  F('authentication.webhook.cacheTTL', duration, 120_000, 'authentication-token-webhook-cache-ttl', 'how long token reviews are cached', { rule: notNegative }),
  F('authentication.x509.clientCAFile', string, '', 'client-ca-file', 'client certificates it signed are users named by CommonName, in groups named by Organization'),
  F('authorization.mode', oneOf('AlwaysAllow', 'Webhook'), 'Webhook', 'authorization-mode', 'AlwaysAllow, or Webhook (subject access reviews)', { flagDefault: 'AlwaysAllow' }),
  F('authorization.webhook.cacheAuthorizedTTL', duration, 300_000, 'authorization-webhook-cache-authorized-ttl', 'how long allowed reviews are cached', { rule: notNegative }),
  F('authorization.webhook.cacheUnauthorizedTTL', duration, 30_000, 'authorization-webhook-cache-unauthorized-ttl', 'how long denied reviews are cached', { rule: notNegative }),
  F('registryPullQPS', int32, 5, 'registry-qps', 'image pulls per second; 0: no limit', { rule: notNegative }),
  F('registryBurst', int32, 10, 'registry-burst', 'image pulls in a burst, when registryPullQPS is above 0', { rule: notNegative }),
  F('eventRecordQPS', int32, 5, 'event-qps', 'events created per second; 0: no limit', { rule: notNegative }),
  F('eventBurst', int32, 10, 'event-burst', 'events created in a burst', { rule: notNegative }),
  F('enableDebuggingHandlers', bool, true, 'enable-debugging-handlers', 'serve exec, attach, logs and port-forward'),
  F('enableContentionProfiling', bool, false, 'contention-profiling', 'lock contention profiling; needs the debugging handlers'),
  F('healthzPort', int32, 10248, 'healthz-port', 'the local healthz port; 0 disables it', { rule: range(0, 65535, ' (0 disables it)') }),
  F('healthzBindAddress', ip, '127.0.0.1', 'healthz-bind-address', 'the healthz address'),
  F('oomScoreAdj', int32, -999, 'oom-score-adj', 'the agent process\'s oom_score_adj', { rule: range(-1000, 1000) }),
  F('clusterDomain', string, '', 'cluster-domain', 'the DNS search domain given to containers'),
  F('clusterDNS', strings, undefined, 'cluster-dns', 'the DNS servers given to containers', { rule: every((a) => isIP(a) !== 0, 'an IP address') }),
  F('streamingConnectionIdleTimeout', duration, 4 * 3_600_000, 'streaming-connection-idle-timeout', 'how long a streaming connection may idle; 0: no limit', { rule: notNegative }),
  F('nodeStatusUpdateFrequency', duration, 10_000, 'node-status-update-frequency', 'how often the node status is computed', { rule: positive }),
  F('nodeStatusReportFrequency', duration, 300_000, undefined, 'the longest an unchanged status goes unreported; the update frequency when that is set explicitly', { rule: positive }),
  F('nodeLeaseDurationSeconds', int32, 40, undefined, 'the node Lease\'s duration (namespace kube-node-lease)', { rule: positive }),
  F('imageMinimumGCAge', duration, 120_000, 'minimum-image-ttl-duration', 'the youngest an unused image may be collected', { rule: notNegative }),
  F('imageGCHighThresholdPercent', int32, 85, 'image-gc-high-threshold', 'disk use above which images are always collected', { rule: range(0, 100) }),
  F('imageGCLowThresholdPercent', int32, 80, 'image-gc-low-threshold', 'disk use below which images are never collected', { rule: range(0, 100) }),
  F('volumeStatsAggPeriod', duration, 60_000, 'volume-stats-agg-period', 'how often volume use is computed; negative disables it'),
  F('nodeagentCgroups', string, '', 'nodeagent-cgroups', 'the agent\'s own cgroup', { rule: cgroup }),
  F('systemCgroups', string, '', 'system-cgroups', 'the cgroup of non-kernel processes; needs cgroupRoot', { rule: cgroup }),
  F('cgroupRoot', string, '', 'cgroup-root', 'the root cgroup of pods', { rule: cgroup }),
  F('cgroupsPerQOS', bool, true, 'cgroups-per-qos', 'QoS and pod cgroups'),
  F('cgroupDriver', oneOf('cgroupfs', 'systemd'), 'cgroupfs', 'cgroup-driver', 'how cgroups are managed'),
  F('cpuManagerPolicy', oneOf('none', 'static'), 'none', 'cpu-manager-policy', 'none or static; static needs the CPUManager gate'),
  F('cpuManagerPolicyOptions', stringMap, undefined, 'cpu-manager-policy-options', 'CPU manager policy options; need the CPUManager and CPUManagerPolicyOptions gates'),
  F('cpuManagerReconcilePeriod', duration, 10_000, 'cpu-manager-reconcile-period', 'the CPU manager\'s reconcile period', { rule: notNegative }),
  F('memoryManagerPolicy', oneOf('None', 'Static'), 'None', 'memory-manager-policy', 'None or Static; Static needs the MemoryManager gate'),
  F('topologyManagerPolicy', oneOf('none', 'best-effort', 'restricted', 'single-numa-node'), 'none', 'topology-manager-policy', 'any but none needs the TopologyManager gate'),
  F('topologyManagerScope', oneOf('container', 'pod'), 'container', 'topology-manager-scope', 'what topology hints apply to'),
  F('qosReserved', stringMap, undefined, 'qos-reserved', 'memory=<percent> reserved per QoS class; needs the QOSReserved gate', {
    rule: (v: Record<string, string>) => Object.entries(v).map(([k, p]) => (k !== 'memory' ? `only memory can be reserved, not ${JSON.stringify(k)}` : percentage(p) ? undefined : `memory must be a percentage from 0% to 100%, got ${JSON.stringify(p)}`)).find(Boolean) }),
  F('runtimeRequestTimeout', duration, 120_000, 'runtime-request-timeout', 'the timeout of runtime requests but pull, logs, exec and attach', { rule: notNegative }),
  F('hairpinMode', oneOf('promiscuous-bridge', 'hairpin-veth', 'none'), 'promiscuous-bridge', 'hairpin-mode', 'how hairpin NAT is set up'),
  F('maxPods', int32, 110, 'max-pods', 'the most pods the node runs', { rule: notNegative }),
  F('podCIDR', string, '', 'pod-cidr', 'the pod range, in standalone mode only', { rule: (v: string) => (v === '' ? undefined : checkCidr(v)) }),
  F('podPidsLimit', int, -1, 'pod-max-pids', 'the most processes per pod; -1: the node\'s capacity'),
  F('resolvConf', string, '/etc/resolv.conf', 'resolv-conf', 'the resolver configuration containers start from; empty disables lookups'),
  F('runOnce', bool, false, 'runonce', 'read the pods once, run them and exit'),
  F('cpuCFSQuota', bool, true, 'cpu-cfs-quota', 'enforce CPU limits with CFS quota'),
  F('cpuCFSQuotaPeriod', duration, 100, 'cpu-cfs-quota-period', 'the CFS period; another than 100ms needs the CustomCPUCFSQuotaPeriod gate'),
  F('nodeStatusMaxImages', int32, 50, 'node-status-max-images', 'the most images in the node status; -1: no cap', { rule: (v: number) => (v >= -1 ? undefined : 'must be -1 (no cap) or more') }),
  F('maxOpenFiles', int, 1_000_000, 'max-open-files', 'the most files the agent opens', { rule: notNegative }),
  F('contentType', string, 'application/vnd.orchestrator.protobuf', 'orch-api-content-type', 'the content type of requests to the API server', { rule: (v: string) => (CONTENT_TYPES.includes(v) ? undefined : `must be one of ${CONTENT_TYPES.join(', ')}`) }),
  F('orchAPIQPS', int32, 5, 'orch-api-qps', 'requests per second to the API server', { rule: notNegative }),
  F('orchAPIBurst', int32, 10, 'orch-api-burst', 'requests in a burst to the API server', { rule: notNegative }),
  F('serializeImagePulls', bool, true, 'serialize-image-pulls', 'pull one image at a time'),
  F('evictionHard', thresholds, { 'imagefs.available': '15%', 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' }, 'eviction-hard', 'signal thresholds that evict at once'),
  F('evictionSoft', thresholds, undefined, 'eviction-soft', 'signal thresholds that evict after their grace period'),
  F('evictionSoftGracePeriod', gracePeriods, undefined, 'eviction-soft-grace-period', 'how long each soft threshold must hold'),
  F('evictionMinimumReclaim', reclaims, undefined, 'eviction-minimum-reclaim', 'the least reclaimed per signal once evicting'),
  F('evictionPressureTransitionPeriod', duration, 300_000, 'eviction-pressure-transition-period', 'how long a pressure condition outlasts the pressure', { rule: notNegative }),
  F('evictionMaxPodGracePeriod', int32, 0, 'eviction-max-pod-grace-period', 'the most grace, in seconds, a soft eviction gives'),
  F('podsPerCore', int32, 0, 'pods-per-core', 'the most pods per core; 0: no limit; never more than maxPods', { rule: notNegative }),
  F('enableControllerAttachDetach', bool, true, 'enable-controller-attach-detach', 'leave attaching volumes to the controller; must be true for CSI volumes'),
  F('protectKernelDefaults', bool, false, 'protect-kernel-defaults', 'fail when kernel tunables differ from the agent\'s defaults'),
  F('makeIPTablesUtilChains', bool, true, 'make-iptables-util-chains', 'keep the iptables utility chains'),
  F('iptablesMasqueradeBit', int32, 14, 'iptables-masquerade-bit', 'the fwmark bit for SNAT', { rule: range(0, 31) }),
  F('iptablesDropBit', int32, 15, 'iptables-drop-bit', 'the fwmark bit for dropped packets', { rule: range(0, 31) }),
  F('featureGates', boolMap, undefined, 'feature-gates', 'feature gates, Name=true|false', { rule: (v: Record<string, boolean>) => checkGates(NODE_AGENT_GATES, v) }),
  F('failSwapOn', bool, true, 'fail-swap-on', 'refuse to start with swap on'),
  F('memorySwap.swapBehavior', oneOf('', 'LimitedSwap', 'UnlimitedSwap'), undefined, undefined, 'how pods use swap; needs the NodeSwap gate'),
  F('containerLogMaxSize', quantity, '10Mi', 'container-log-max-size', 'the size at which a container log is rotated'),
  F('containerLogMaxFiles', int32, 5, 'container-log-max-files', 'the most log files per container', { rule: (v: number) => (v >= 2 ? undefined : 'must be at least 2') }),
  F('configMapAndSecretChangeDetectionStrategy', oneOf('Get', 'Cache', 'Watch'), 'Watch', undefined, 'how config maps and secrets in pods are kept current'),
  F('systemReserved', stringMap, undefined, 'system-reserved', 'resources kept for the system, Resource=quantity', { rule: resources(['cpu', 'memory', 'ephemeral-storage', 'pid']) }),
  F('orchReserved', stringMap, undefined, 'orch-reserved', 'resources kept for the cluster\'s own daemons, Resource=quantity', { rule: resources(['cpu', 'memory', 'ephemeral-storage', 'pid']) }),
  F('reservedSystemCPUs', string, '', 'reserved-cpus', 'CPUs kept for the system and the cluster\'s daemons; excludes the reserved cgroups', { rule: cpuList }),
  F('showHiddenMetricsForVersion', string, '', 'show-hidden-metrics-for-version', `the previous minor version whose hidden metrics to show (${previousMinor})`, { rule: (v: string) => (v === '' || v === previousMinor ? undefined : `must be ${previousMinor}, the minor version before this one`) }),
  F('systemReservedCgroup', string, '', 'system-reserved-cgroup', 'the cgroup of the system\'s reservation', { rule: cgroup }),
  F('orchReservedCgroup', string, '', 'orch-reserved-cgroup', 'the cgroup of the cluster daemons\' reservation', { rule: cgroup }),
  F('enforceNodeAllocatable', strings, ['pods'], 'enforce-node-allocatable', 'which reservations are enforced', { rule: every((e) => ENFORCE.includes(e), `one of ${ENFORCE.join(', ')}`) }),
  F('allowedUnsafeSysctls', strings, undefined, 'allowed-unsafe-sysctls', 'unsafe sysctls pods may set: names, or patterns ending in *', { rule: every((s) => s !== '' && SYSCTL.test(s.endsWith('*') ? s.slice(0, -1) : s) && (s.endsWith('*') || !/[./]$/.test(s)), 'a sysctl name or a pattern ending in *') }),
  F('volumePluginDir', string, '/usr/libexec/orch/nodeagent-plugins/volume/exec/', 'volume-plugin-dir', 'where third-party volume plugins are found'),
  F('providerID', string, '', 'provider-id', 'the node\'s identity in a machine database', { flagNote: false }),
  F('kernelMemcgNotification', bool, false, 'kernel-memcg-notification', 'learn of memory thresholds from the kernel instead of polling'),
  F('logging.format', oneOf('text', 'json'), 'text', 'logging-format', 'text, or json (LoggingBetaOptions gate)'),
  F('logging.flushFrequency', flushFrequency, 5_000, 'log-flush-frequency', 'the longest time between log flushes (nanoseconds in the file)', { rule: positive, flagNote: false }),
  F('logging.verbosity', int32, 0, 'v', 'log verbosity', { rule: notNegative, short: 'v', flagNote: false }),
  F('logging.vmodule', vmodule, undefined, 'vmodule', 'per-file verbosity, pattern=N (text format only)', { flagNote: false }),
  F('logging.options.json.splitStream', bool, false, 'log-json-split-stream', 'json format: errors to stderr, info to buffered stdout (LoggingAlphaOptions gate)'),
  F('logging.options.json.infoBufferSize', quantity, '0', 'log-json-info-buffer-size', 'json format with split streams: the info buffer size (LoggingAlphaOptions gate)'),
  F('enableSystemLogHandler', bool, true, undefined, 'serve /logs/'),
  F('shutdownGracePeriod', duration, 0, undefined, 'how long shutdown is delayed for pods; 0 or at least 1s', { rule: notNegative }),
  F('shutdownGracePeriodCriticalPods', duration, 0, undefined, 'the part of shutdownGracePeriod kept for critical pods; 0 or at least 1s', { rule: notNegative }),
  F('shutdownGracePeriodByPodPriority', byPodPriority, undefined, undefined, 'shutdown grace by pod priority; excludes the two fields above'),
  F('reservedMemory', reservedMemory, undefined, 'reserved-memory', 'memory kept per NUMA node'),
  F('enableProfilingHandler', bool, true, undefined, 'serve /debug/pprof/'),
  F('enableDebugFlagsHandler', bool, true, undefined, 'serve /debug/flags/v'),
  F('seccompDefault', bool, undefined, 'seccomp-default', '<alpha> the runtime\'s default seccomp profile for every workload (SeccompDefault gate)', { flagNote: false }),
  F('memoryThrottlingFactor', float, 0.8, undefined, 'the factor of the limit memory.high is set to', { rule: (v: number) => (v > 0 && v <= 1 ? undefined : 'must be above 0 and at most 1') }),
  F('registerWithTaints', taints, undefined, 'register-with-taints', 'taints the node registers with, when registerNode is true'),
  F('registerNode', bool, true, 'register-node', 'register the node with the API server'),
  F('tracing.endpoint', string, undefined, undefined, 'the trace collector (localhost:4317 when empty, insecure); needs the KubeletTracing gate'),
  F('tracing.samplingRatePerMillion', int32, undefined, undefined, 'spans sampled per million', { rule: range(0, 1_000_000) }),
  F('localStorageCapacityIsolation', bool, true, 'local-storage-capacity-isolation', 'isolate local ephemeral storage'),
];
