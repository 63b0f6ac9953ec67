// The API server's options (seed 001) that orchsim implements, with their defaults, in one typed
// object. The command line fills them in (sim/cli); validation happens once, here.
import { AUTHORIZATION_MODES } from './auth/authorizer.ts';
import { DEFAULT_PLUGINS, makePlugin } from './admission/plugins.ts';

export interface ApiServerOptions {
  securePort: number;
  bindAddress: string;
  certDir: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** How often the store forgets history older than the previous interval; 0 disables compaction. */
  etcdCompactionIntervalMs: number;
  etcdPrefix: string;
  authorizationMode: string[];
  anonymousAuth: boolean;
  tokenAuthFile?: string;
  /** Tokens known besides the file's (serve registers the token its kubeconfig carries). */
  tokens?: Map<string, { username: string; groups: string[]; uid?: string }>;
  enableAdmissionPlugins: string[];
  disableAdmissionPlugins: string[];
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
  /** A watch without timeoutSeconds lasts a random time between this and twice this. */
  minRequestTimeoutSeconds: number;
  /** How often an idle watch that asked for bookmarks gets one (at least once a minute). */
  watchBookmarkIntervalMs: number;
  /** Events a watcher may fall behind its client before it is cut off with a 410. */
  watcherCapacity: number;
  /** Largest request body accepted; real servers take 3 MiB of JSON. */
  maxRequestBodyBytes: number;
  externalHostname?: string;
}

export const API_SERVER_DEFAULTS: ApiServerOptions = {
  securePort: 6443,
  bindAddress: '0.0.0.0',
  certDir: '/var/run/orch',
  etcdCompactionIntervalMs: 5 * 60 * 1000,
  etcdPrefix: '/registry',
  authorizationMode: ['AlwaysAllow'],
  anonymousAuth: true,
  enableAdmissionPlugins: [],
  disableAdmissionPlugins: [],
  defaultNotReadyTolerationSeconds: 300,
  defaultUnreachableTolerationSeconds: 300,
  maxRequestBodyBytes: 3 * 1024 * 1024,
  minRequestTimeoutSeconds: 1800,
  watchBookmarkIntervalMs: 60_000,
  watcherCapacity: 10_000,
};

/** Merges over the defaults and validates; throws a RangeError naming the option at fault. */
export function apiServerOptions(given: Partial<ApiServerOptions> = {}): ApiServerOptions {
  const o: ApiServerOptions = { ...API_SERVER_DEFAULTS, ...given };
  if (!Number.isInteger(o.securePort) || o.securePort < 1 || o.securePort > 65535)
    throw new RangeError(`--secure-port ${o.securePort} must be between 1 and 65535 (it cannot be switched off with 0)`);
  if (!(o.etcdCompactionIntervalMs >= 0)) throw new RangeError('--etcd-compaction-interval must not be negative');
  if (!o.etcdPrefix.startsWith('/')) throw new RangeError(`--etcd-prefix ${JSON.stringify(o.etcdPrefix)} must start with /`);
  if (o.authorizationMode.length === 0) throw new RangeError('--authorization-mode must name at least one mode');
  for (const m of o.authorizationMode)
    if (!AUTHORIZATION_MODES.includes(m)) throw new RangeError(`--authorization-mode: ${JSON.stringify(m)} is not supported; use one of ${AUTHORIZATION_MODES.join(', ')}`);
  const pluginOpts = { defaultNotReadyTolerationSeconds: o.defaultNotReadyTolerationSeconds, defaultUnreachableTolerationSeconds: o.defaultUnreachableTolerationSeconds };
  for (const p of [...o.enableAdmissionPlugins, ...o.disableAdmissionPlugins])
    if (!makePlugin(p, pluginOpts)) throw new RangeError(`admission plugin ${JSON.stringify(p)} is not known to orchsim; known: ${[...DEFAULT_PLUGINS, 'AlwaysAdmit', 'AlwaysDeny'].join(', ')}`);
  if (!(o.minRequestTimeoutSeconds > 0)) throw new RangeError('--min-request-timeout must be positive');
  if (!(o.watchBookmarkIntervalMs > 0 && o.watchBookmarkIntervalMs <= 60_000)) throw new RangeError('the bookmark interval must be positive and at most a minute');
  if (!(o.watcherCapacity > 0)) throw new RangeError('the watcher capacity must be positive');
  if (!(o.maxRequestBodyBytes > 0)) throw new RangeError('the request body limit must be positive');
  return o;
}

/** Enabled plugins in order: the defaults less the disabled ones, then the extra enabled ones. */
export function admissionPluginNames(o: ApiServerOptions): string[] {
  const names = DEFAULT_PLUGINS.filter((p) => !o.disableAdmissionPlugins.includes(p));
  for (const p of o.enableAdmissionPlugins) if (!names.includes(p) && !o.disableAdmissionPlugins.includes(p)) names.push(p);
  return names;
}
