// `orchsim serve` issues service-account tokens out of the box, so `kubectl create token` works
// without flags: unless the command line configures service-account tokens itself, serve signs
// them with a key of the cluster's own, an RSA key generated with node:crypto into --cert-dir
// (service-account.key, readable by its owner only) on the first start and reused after, as the
// serving certificate and client CA are, so a cluster kept in etcd keeps its tokens across
// restarts; a new --cert-dir is a new cluster with a new key. The issuer is the in-cluster name
// real clusters use.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiServerOptions } from '../../actors/apiserver/options.ts';

export const SERVE_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const SERVE_KEY_FILE = 'service-account.key';

/** The key's path in `certDir`, generated there when absent. */
export function serveSigningKeyFile(certDir: string): string {
  const file = join(certDir, SERVE_KEY_FILE);
  if (existsSync(file)) return file;
  try {
    mkdirSync(certDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new Error(`cannot create --cert-dir ${certDir}: ${(e as Error).message}; pass a writable --cert-dir`);
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(file, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  return file;
}

/** The options with serve's issuer and key, when none of the service-account options was given (they then stand as given). */
export function withServeTokens(o: ApiServerOptions): ApiServerOptions {
  const configured = [o.serviceAccountIssuer, o.serviceAccountSigningKeyFile, o.serviceAccountKeyFile, o.apiAudiences, o.serviceAccountJwksUri,
    o.serviceAccountMaxTokenExpirationMs].some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));
  if (configured) return o;
  return { ...o, serviceAccountIssuer: [SERVE_ISSUER], serviceAccountSigningKeyFile: serveSigningKeyFile(o.certDir) };
}
