// The serving certificate: the given pair, or a self-signed one generated into --cert-dir and
// reused on later starts (seed 001). Clients trust it directly (the kubeconfig carries it).
// And, for `orchsim serve`, a client CA of the cluster's own (kept in --cert-dir beside it) and the
// client certificates it signs: a certificate's CommonName is its user, its Organizations its groups.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import type { Clock } from '../api/env.ts';

export interface ServingCert {
  cert: string;
  key: string;
  certFile: string;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;

export async function servingCert(o: { certDir: string; tlsCertFile?: string; tlsPrivateKeyFile?: string; externalHostname?: string }, clock: Clock): Promise<ServingCert> {
  if (o.tlsCertFile || o.tlsPrivateKeyFile) {
    if (!o.tlsCertFile || !o.tlsPrivateKeyFile) throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
    return { cert: readFileSync(o.tlsCertFile, 'utf8'), key: readFileSync(o.tlsPrivateKeyFile, 'utf8'), certFile: o.tlsCertFile };
  }
  const certFile = join(o.certDir, 'apiserver.crt');
  const keyFile = join(o.certDir, 'apiserver.key');
  if (existsSync(certFile) && existsSync(keyFile)) return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
  try {
    mkdirSync(o.certDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new Error(`cannot create --cert-dir ${o.certDir}: ${(e as Error).message}; pass a writable --cert-dir`);
  }
  const names = ['localhost', hostname(), 'orchsim', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', ...(o.externalHostname ? [o.externalHostname] : [])];
  const now = clock.now();
  const pems = await generate([{ name: 'commonName', value: 'orchsim-apiserver' }, { name: 'organizationName', value: 'orchsim' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + YEAR_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [...new Set(names)].map((value) => ({ type: 2 as const, value })).concat([{ type: 7 as const, ip: '127.0.0.1' } as never, { type: 7 as const, ip: '::1' } as never]) },
    ],
  });
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  writeFileSync(certFile, pems.cert, { mode: 0o644 });
  return { cert: pems.cert, key: pems.private, certFile };
}

export interface KeyPair {
  cert: string;
  key: string;
}

/**
 * The cluster's client CA in `certDir` (client-ca.crt and .key), made on first need and reused
 * after. CAs a server trusts side by side need names of their own: OpenSSL looks an issuer up by
 * name, and these certificates carry no key identifiers to tell two of one name apart.
 */
export async function clientCa(certDir: string, clock: Clock, commonName = 'orchsim-client-ca'): Promise<KeyPair & { certFile: string }> {
  const certFile = join(certDir, 'client-ca.crt');
  const keyFile = join(certDir, 'client-ca.key');
  if (existsSync(certFile) && existsSync(keyFile)) return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
  mkdirSync(certDir, { recursive: true, mode: 0o700 });
  const now = clock.now();
  const pems = await generate([{ name: 'commonName', value: commonName }, { name: 'organizationName', value: 'orchsim' }], {
    keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate: new Date(now - 60_000), notAfterDate: new Date(now + YEAR_MS),
    extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true }],
  });
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  writeFileSync(certFile, pems.cert, { mode: 0o644 });
  return { cert: pems.cert, key: pems.private, certFile };
}

/** A client certificate `ca` signs for `user` (CommonName) in `groups` (Organizations), with a fresh key. */
export async function clientCertificate(ca: KeyPair, user: string, groups: readonly string[], clock: Clock): Promise<KeyPair> {
  const now = clock.now();
  const pems = await generate([{ name: 'commonName', value: user }, ...groups.map((value) => ({ name: 'organizationName', value }))], {
    keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate: new Date(now - 60_000), notAfterDate: new Date(now + YEAR_MS), ca,
    extensions: [{ name: 'basicConstraints', cA: false, critical: true }, { name: 'keyUsage', digitalSignature: true, critical: true }, { name: 'extKeyUsage', clientAuth: true }],
  });
  return { cert: pems.cert, key: pems.private };
}
