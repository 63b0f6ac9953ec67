// The authentication and transport-security options of the controller manager and the scheduler
// (seed 001, "Authentication > Controller manager and scheduler"): how their secure port would
// check callers by delegating to the API server. orchsim's components accept and check them; the
// delegation itself is not simulated.
import { bool, duration, namedCertKeys, oneOf, string, strings } from './kinds.ts';
import type { OptionSpec } from './table.ts';

export const AUTH_GROUP = 'Authentication options';
const GROUP = AUTH_GROUP;
const DELEGATION = 'delegated authentication and authorization are not simulated';
const positive = (v: number) => (v > 0 ? undefined : 'must be a duration greater than 0');

/** The TLS serving options every component with a secure port takes. */
export function tlsSpecs<T>(group = GROUP, inert = 'the certificate is self-signed unless given'): OptionSpec<T>[] {
  return [
    { name: 'tls-cert-file', kind: string, group, help: 'the serving certificate (PEM); self-signed into --cert-dir when absent' },
    { name: 'tls-private-key-file', kind: string, group, help: 'the key of --tls-cert-file (PEM)' },
    { name: 'tls-sni-cert-key', kind: namedCertKeys, group, help: 'a certificate and key, optionally with the domain patterns they serve; repeatable', inert },
    { name: 'tls-min-version', kind: oneOf('VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13'), group, help: 'the lowest TLS version served: VersionTLS10 to VersionTLS13', inert },
    { name: 'tls-cipher-suites', kind: strings, group, help: 'cipher suites served; the runtime\'s defaults when empty', inert },
  ] as OptionSpec<T>[];
}

/** The delegated-authentication options; their defaults differ between the two components. */
export function delegatedAuthSpecs<T>(component: 'controller-manager' | 'scheduler'): OptionSpec<T>[] {
  return [
    { name: 'authentication-kubeconfig', kind: string, group: GROUP, help: 'credentials allowed to create token reviews; when empty, every token request is anonymous', inert: DELEGATION },
    { name: 'authentication-skip-lookup', kind: bool, default: false, group: GROUP, help: 'skip looking up the authentication configuration in the cluster', inert: DELEGATION },
    { name: 'authentication-tolerate-lookup-failure', kind: bool, default: component === 'scheduler', group: GROUP, help: 'a failed lookup is not fatal (it may leave every request anonymous)', inert: DELEGATION },
    { name: 'authentication-token-webhook-cache-ttl', kind: duration, default: 10_000, group: GROUP, help: 'how long token review answers are cached', rule: positive, inert: DELEGATION },
    { name: 'authorization-kubeconfig', kind: string, group: GROUP, help: 'credentials allowed to create subject access reviews; when empty, requests not skipped are forbidden', inert: DELEGATION },
    { name: 'authorization-always-allow-paths', kind: strings, default: ['/healthz', '/readyz', '/livez'], group: GROUP, help: 'paths served without authorization',
      rule: (v: string[]) => { const bad = v.find((p) => !p.startsWith('/')); return bad === undefined ? undefined : `each path must start with /; ${JSON.stringify(bad)} does not`; } },
    { name: 'authorization-webhook-cache-authorized-ttl', kind: duration, default: 10_000, group: GROUP, help: 'how long allowed answers are cached', rule: positive, inert: DELEGATION },
    { name: 'authorization-webhook-cache-unauthorized-ttl', kind: duration, default: 10_000, group: GROUP, help: 'how long denied answers are cached', rule: positive, inert: DELEGATION },
    { name: 'client-ca-file', kind: string, group: GROUP, help: 'a CA bundle: a client certificate it signed authenticates as its CommonName', inert: DELEGATION },
    { name: 'requestheader-client-ca-file', kind: string, group: GROUP, help: 'the CA that signs the front proxies whose header usernames are trusted', inert: DELEGATION },
    { name: 'requestheader-allowed-names', kind: strings, group: GROUP, help: 'front-proxy certificate common names allowed; any when empty', inert: DELEGATION },
    { name: 'requestheader-extra-headers-prefix', kind: strings, default: ['x-remote-extra-'], group: GROUP, help: 'header prefixes of extra user information', inert: DELEGATION },
    { name: 'requestheader-group-headers', kind: strings, default: ['x-remote-group'], group: GROUP, help: 'headers carrying group names', inert: DELEGATION },
    { name: 'requestheader-username-headers', kind: strings, default: ['x-remote-user'], group: GROUP, help: 'headers carrying the user name', inert: DELEGATION },
    ...tlsSpecs<T>(),
  ] as OptionSpec<T>[];
}
