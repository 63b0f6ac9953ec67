// A kubeconfig that trusts the server's certificate, so `kubectl --kubeconfig FILE` needs no other flag.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export function writeKubeconfig(file: string, server: string, caPem: string): void {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'orchsim', cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    // kubectl prompts for a password when a user has no credentials at all; the token identifies the admin.
    users: [{ name: 'orchsim', user: { token: 'orchsim-admin' } }],
    contexts: [{ name: 'orchsim', context: { cluster: 'orchsim', user: 'orchsim', namespace: 'default' } }],
    'current-context': 'orchsim',
    preferences: {},
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, stringify(doc), { mode: 0o600 });
}
