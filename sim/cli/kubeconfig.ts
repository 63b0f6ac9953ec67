// A kubeconfig that trusts the server's certificate and carries its user's credentials, so
// `kubectl --kubeconfig FILE` needs no other flag. Written readable by its owner only.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

/** Who serve's kubeconfig speaks for: the cluster's administrator (its client certificate's CommonName and Organization). */
export const ADMIN = { user: 'orchsim-admin', groups: ['system:masters'] };

/** A kubeconfig user's credentials: a client certificate and its key, or a bearer token. */
export type KubeCredentials = { clientCert: { cert: string; key: string } } | { token: string };

export function writeKubeconfig(file: string, server: string, caPem: string, credentials: KubeCredentials): void {
  const b64 = (pem: string) => Buffer.from(pem).toString('base64');
  const user = 'token' in credentials ? { token: credentials.token }
    : { 'client-certificate-data': b64(credentials.clientCert.cert), 'client-key-data': b64(credentials.clientCert.key) };
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'orchsim', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    users: [{ name: 'orchsim', user }],
    contexts: [{ name: 'orchsim', context: { cluster: 'orchsim', user: 'orchsim', namespace: 'default' } }],
    'current-context': 'orchsim',
    preferences: {},
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, stringify(doc), { mode: 0o600 });
}
