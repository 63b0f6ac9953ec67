// The API server's command-line flags (seed 001), mapped onto its typed options.
import { formatDuration } from '../../actors/api/duration.ts';
import { API_SERVER_DEFAULTS, type ApiServerOptions } from '../../actors/apiserver/options.ts';
import type { FlagSpec } from './flags.ts';

type Draft = Partial<ApiServerOptions>;
const d = API_SERVER_DEFAULTS;

export const API_SERVER_FLAGS: FlagSpec<Draft>[] = [
  { name: 'secure-port', type: 'int', help: `HTTPS port (default ${d.securePort})`, set: (o, v) => (o.securePort = v as number) },
  { name: 'bind-address', type: 'string', help: `listen address (default ${d.bindAddress})`, set: (o, v) => (o.bindAddress = v as string) },
  { name: 'cert-dir', type: 'string', help: `where the self-signed pair is written when no pair is given (default ${d.certDir})`, set: (o, v) => (o.certDir = v as string) },
  { name: 'tls-cert-file', type: 'string', help: 'serving certificate (PEM)', set: (o, v) => (o.tlsCertFile = v as string) },
  { name: 'tls-private-key-file', type: 'string', help: 'serving key (PEM)', set: (o, v) => (o.tlsPrivateKeyFile = v as string) },
  { name: 'external-hostname', type: 'string', help: 'hostname added to the self-signed certificate', set: (o, v) => (o.externalHostname = v as string) },
  { name: 'etcd-compaction-interval', type: 'duration', help: `history window of the store; 0 keeps everything (default ${formatDuration(d.etcdCompactionIntervalMs)})`,
    set: (o, v) => (o.etcdCompactionIntervalMs = v as number) },
  { name: 'min-request-timeout', type: 'int', help: 'seconds; a watch without timeoutSeconds lasts a random time between this and twice this (default 1800)',
    set: (o, v) => (o.minRequestTimeoutSeconds = v as number) },
  { name: 'etcd-prefix', type: 'string', help: `prefix of storage keys (default ${d.etcdPrefix})`, set: (o, v) => (o.etcdPrefix = v as string) },
  { name: 'authorization-mode', type: 'strings', help: `ordered authorizers: AlwaysAllow, AlwaysDeny (default ${d.authorizationMode.join(',')})`,
    set: (o, v) => (o.authorizationMode = v as string[]) },
  { name: 'anonymous-auth', type: 'bool', help: 'serve unauthenticated requests as system:anonymous (default true)', set: (o, v) => (o.anonymousAuth = v as boolean) },
  { name: 'token-auth-file', type: 'string', help: 'static bearer tokens, CSV: token,user,uid,"group1,group2"', set: (o, v) => (o.tokenAuthFile = v as string) },
  { name: 'enable-admission-plugins', type: 'strings', help: 'admission plugins on top of the defaults', set: (o, v) => (o.enableAdmissionPlugins = v as string[]) },
  { name: 'disable-admission-plugins', type: 'strings', help: 'admission plugins removed from the defaults', set: (o, v) => (o.disableAdmissionPlugins = v as string[]) },
  { name: 'default-not-ready-toleration-seconds', type: 'int', help: 'tolerationSeconds of the default not-ready toleration (default 300)',
    set: (o, v) => (o.defaultNotReadyTolerationSeconds = v as number) },
  { name: 'default-unreachable-toleration-seconds', type: 'int', help: 'tolerationSeconds of the default unreachable toleration (default 300)',
    set: (o, v) => (o.defaultUnreachableTolerationSeconds = v as number) },
];
