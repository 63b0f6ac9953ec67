// A kubeconfig that trusts the server's certificate, so `kubectl --kubeconfig FILE` needs no other flag.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

/** The bearer token serve's kubeconfig carries, and the user it stands for. */
export const ADMIN_TOKEN = 'orchsim-admin';
export const ADMIN_USER = { username: 'orchsim-admin', groups: ['system:masters', 'system:authenticated'] };

export function writeKubeconfig(file: string, server: string, caPem: string, token = ADMIN_TOKEN): void {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'orchsim', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    // kubectl prompts for a password when a user has no credentials at all; the token names the admin.
    users: [{ name: 'orchsim', user: { token } }],
    contexts: [{ name: 'orchsim', context: { cluster: 'orchsim', user: 'orchsim', namespace: 'default' } }],
    'current-context': 'orchsim',
    preferences: {},
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, stringify(doc), { mode: 0o600 });
}
