// Fresh service-account keys for a test, as PEM files in a temporary directory: the options that
// turn tokens on, and a few ready-made token bodies.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiServerOptions } from '../../actors/apiserver/options.ts';

export const ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface KeyFiles {
  dir: string;
  /** An RSA private key (PKCS#1 PEM) and its public key (SPKI PEM). */
  rsaKey: string;
  rsaPublic: string;
  rsaPrivateKey: KeyObject;
  /** A P-256 private key (SEC1 PEM). */
  ecKey: string;
  ecPrivateKey: KeyObject;
  /** Another RSA key nobody configured. */
  strangerKey: KeyObject;
  /** The options of a server issuing with the RSA key as ISSUER. */
  options(extra?: Partial<ApiServerOptions>): Partial<ApiServerOptions>;
}

export function keyFiles(): KeyFiles {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-sa-'));
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rsaKey = join(dir, 'sa-rsa.key');
  const rsaPublic = join(dir, 'sa-rsa.pub');
  const ecKey = join(dir, 'sa-ec.key');
  writeFileSync(rsaKey, rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }));
  writeFileSync(rsaPublic, rsa.publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(ecKey, ec.privateKey.export({ type: 'sec1', format: 'pem' }));
  return {
    dir, rsaKey, rsaPublic, ecKey, rsaPrivateKey: rsa.privateKey, ecPrivateKey: ec.privateKey,
    strangerKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
    options: (extra = {}) => ({ serviceAccountIssuer: [ISSUER], serviceAccountSigningKeyFile: rsaKey, ...extra }),
  };
}

/** A token's claims, read without verifying anything. */
export function claimsOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

export function headerOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));
}

export const tokenRequestPath = (sa: string, ns = 'default') => `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`;
export const TOKEN_REVIEWS = '/apis/authentication.k8s.io/v1/tokenreviews';
export const serviceAccount = (name: string) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
