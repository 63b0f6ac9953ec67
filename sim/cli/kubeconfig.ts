// A kubeconfig that trusts the server's certificate and carries its user's credentials, so
// `kubectl --kubeconfig FILE` needs no other flag; or, for a component in multi-process mode, one
// whose server is the bus, with the component's NATS user and password and its API token
// (`orchsim credentials`). Written readable by its owner only.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

/** Who serve's kubeconfig speaks for: the cluster's administrator (its client certificate's CommonName and Organization). */
export const ADMIN = { user: 'orchsim-admin', groups: ['system:masters'] };

/**
 * A kubeconfig user's credentials: a client certificate and its key, a bearer token, or (on the
 * bus) a NATS user and password with the API bearer token, if any, beside them.
 */
export type KubeCredentials = { clientCert: { cert: string; key: string } } | { token: string } | { username: string; password: string; token?: string };

/** Writes the kubeconfig; `caPem`, the server's CA, for an HTTPS server (a bus has none). */
export function writeKubeconfig(file: string, server: string, caPem: string | undefined, credentials: KubeCredentials): void {
  const b64 = (pem: string) => Buffer.from(pem).toString('base64');
  const user = 'clientCert' in credentials ? { 'client-certificate-data': b64(credentials.clientCert.cert), 'client-key-data': b64(credentials.clientCert.key) }
    : credentials;
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'orchsim', cluster: { server, ...(caPem !== undefined ? { 'certificate-authority-data': b64(caPem) } : {}) } }],
    users: [{ name: 'orchsim', user }],
    contexts: [{ name: 'orchsim', context: { cluster: 'orchsim', user: 'orchsim', namespace: 'default' } }],
    'current-context': 'orchsim',
    preferences: {},
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, stringify(doc), { mode: 0o600 });
}
