// The options seed 001 gives the API server, the controller manager and the scheduler alike
// ("Options common to ..."), with the defaults that differ per component.
import { isIP } from 'node:net';
import { VERSION_INFO } from '../version.ts';
import { checkGates, CONTROL_PLANE_GATES, gatesHelp } from './feature-gates.ts';
import { bool, boolMap, duration, int, int32, string, stringMap, strings, versionFlag, vmodule } from './kinds.ts';
import type { OptionSpec } from './table.ts';

export type ControlPlaneComponent = 'apiserver' | 'controller-manager' | 'scheduler';

export const COMMON_GROUP = 'Common options';
/** Why the verbosity options change nothing. */
const QUIET = 'orchsim components log their state changes, warnings and errors at every verbosity';
const GROUP = COMMON_GROUP;


const METRIC_LABEL_KEY = /^[a-zA-Z_:][a-zA-Z0-9_:]*,[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Blank, or an address; blank, 0.0.0.0 and :: mean every interface. */
export const blankOrIp = (v: string) => (v === '' || isIP(v) ? undefined : 'must be an IPv4 or IPv6 address, or blank for every interface');
const badMetricLabel = (v: Record<string, string>) => Object.keys(v).find((k) => !METRIC_LABEL_KEY.test(k));

/**
 * The common options of `component`; `keys` names the typed fields some of them set (the API
 * server keeps its bind address and certificate directory, for instance).
 */
export function commonOptions<T>(component: ControlPlaneComponent, keys: Partial<Record<'bind-address' | 'cert-dir' | 'feature-gates', keyof T & string>> = {}): OptionSpec<T>[] {
  const previousMinor = `${VERSION_INFO.major}.${Number(VERSION_INFO.minor) - 1}`;
  const key = (name: keyof typeof keys) => (keys[name] ? { key: keys[name] } : {});
  return [
    { name: 'allow-metric-labels', kind: stringMap, default: {}, group: GROUP, help: 'allow-list of label values per metric: keys <MetricName>,<LabelName>, values the allowed values separated by commas',
      rule: (v: Record<string, string>) => { const bad = badMetricLabel(v); return bad === undefined ? undefined : `keys must be <MetricName>,<LabelName>; ${JSON.stringify(bad)} is not`; } },
    { name: 'disabled-metrics', kind: strings, group: GROUP, help: 'fully qualified metric names to disable; this wins over showing hidden metrics' },
    { name: 'show-hidden-metrics-for-version', kind: string, group: GROUP, help: `the previous minor version for which to show hidden metrics, as <major>.<minor> (${previousMinor})`,
      rule: (v: string) => (v === '' || v === previousMinor ? undefined : `must be ${previousMinor}, the minor version before this one (${VERSION_INFO.major}.${VERSION_INFO.minor}), as <major>.<minor>`) },
    { name: 'feature-gates', kind: boolMap, default: {}, ...key('feature-gates'), group: GROUP, help: `key=value pairs of feature gates: ${gatesHelp(CONTROL_PLANE_GATES)}`,
      rule: (v: Record<string, boolean>) => checkGates(CONTROL_PLANE_GATES, v), inert: 'gates are checked, but orchsim behaves as each gate\'s default says' },
    { name: 'bind-address', kind: string, default: '0.0.0.0', ...key('bind-address'), group: GROUP, help: 'the address the secure port listens on; blank, 0.0.0.0 or :: mean every interface', rule: blankOrIp },
    { name: 'cert-dir', kind: string, ...key('cert-dir'), ...(component === 'apiserver' ? { default: '/var/run/orch' } : {}), group: GROUP,
      help: 'the directory of the TLS certificates; ignored when --tls-cert-file and --tls-private-key-file are given' },
    { name: 'permit-address-sharing', kind: bool, default: false, group: GROUP, help: 'bind with SO_REUSEADDR', inert: 'the socket option changes nothing the simulator observes' },
    { name: 'permit-port-sharing', kind: bool, default: false, group: GROUP, help: 'bind with SO_REUSEPORT', inert: 'the socket option changes nothing the simulator observes' },
    { name: 'profiling', kind: bool, default: true, group: GROUP, help: 'serve profiling at /debug/pprof/', inert: 'there is no Go runtime to profile' },
    { name: 'contention-profiling', kind: bool, default: component === 'scheduler', group: GROUP, help: 'lock contention profiling when profiling is on', inert: 'there are no locks to profile',
      ...(component === 'scheduler' ? { deprecated: 'this flag will be removed in a future release; use the scheduler\'s configuration file' } : {}) },
    { name: 'http2-max-streams-per-connection', kind: int, default: 0, group: GROUP, help: 'the stream limit the server gives HTTP/2 clients; 0 uses the runtime default',
      rule: (v: number) => (v >= 0 ? undefined : 'must not be negative'), inert: 'orchsim serves HTTP/1.1' },
    { name: 'log-flush-frequency', kind: duration, default: 5_000, group: GROUP, help: 'the longest time between log flushes', rule: (v: number) => (v > 0 ? undefined : 'must be a duration greater than 0'), inert: 'orchsim writes each log line at once' },
    { name: 'logging-format', kind: string, default: 'text', group: GROUP, help: 'the log format; only text is permitted', rule: (v: string) => (v === 'text' ? undefined : 'must be "text", the only format permitted') },
    { name: 'v', short: 'v', kind: int32, default: 0, group: GROUP, help: 'log verbosity', rule: (v: number) => (v >= 0 ? undefined : 'must be a non-negative integer'), inert: QUIET },
    { name: 'vmodule', kind: vmodule, group: GROUP, help: 'per-file log verbosity, pattern=N separated by commas (text format only)', inert: QUIET },
    { name: 'version', kind: versionFlag, default: 'false', group: GROUP, help: 'print the version and exit; --version=raw prints it in full' },
    { name: 'help', short: 'h', kind: bool, default: false, group: GROUP, help: 'this help' },
    { name: 'azure-container-registry-config', kind: string, group: GROUP, help: 'path to the container registry configuration', inert: 'no cloud provider is simulated' },
  ] as OptionSpec<T>[];
}

/** `--version` output. */
export function versionText(mode: string): string | undefined {
  if (mode === 'true') return VERSION_INFO.gitVersion;
  if (mode === 'raw') return JSON.stringify(VERSION_INFO, null, 2);
  return undefined;
}
