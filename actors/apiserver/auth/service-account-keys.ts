// The keys of service-account tokens, read from PEM files as the real server reads them: the
// signing key is the first RSA or ECDSA private key of --service-account-signing-key-file; the
// verifying keys are every RSA or ECDSA key of the --service-account-key-file files (public keys,
// certificates, or private keys whose public part is taken). A key is named by its key id, the
// real one: base64url of the SHA-256 of its DER public key, so a token's `kid` header and the
// published key set match what a real cluster's would.
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { exportJWK, type JWK } from 'jose';

/** The algorithms the real server signs with: RS256 for any RSA key; ES256, ES384 or ES512 by the EC curve. */
export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface PublicKey {
  key: KeyObject;
  kid: string;
  alg: SigningAlgorithm;
}

export interface SigningKey extends PublicKey {
  /** The private key; `key` is its public part. */
  privateKey: KeyObject;
}

const EC_ALGORITHMS: Record<string, SigningAlgorithm> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

function algorithmOf(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return EC_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
  return undefined;
}

export function keyId(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

function publicKey(key: KeyObject): PublicKey | undefined {
  const alg = algorithmOf(key);
  return alg ? { key, kid: keyId(key), alg } : undefined;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

function pemBlocks(text: string): { type: string; pem: string }[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ type: m[1], pem: m[0] }));
}

function privateKeyOf(pem: string): KeyObject | undefined {
  try {
    return createPrivateKey(pem);
  } catch {
    return undefined;
  }
}

/** A block's public key: a private key's public part, a public key, or a certificate's key; undefined for anything else. */
function publicKeyOf(block: { type: string; pem: string }): KeyObject | undefined {
  try {
    if (block.type === 'CERTIFICATE') return new X509Certificate(block.pem).publicKey;
    if (block.type.endsWith('PRIVATE KEY')) return createPublicKey(createPrivateKey(block.pem));
    return createPublicKey(block.pem);
  } catch {
    return undefined;
  }
}

function read(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`--${flag} ${path}: ${(e as Error).message}`);
  }
}

/** The signing key of a PEM text: its first RSA or ECDSA (P-256, P-384, P-521) private key. */
export function parseSigningKey(text: string, source: string): SigningKey {
  for (const block of pemBlocks(text)) {
    if (!block.type.endsWith('PRIVATE KEY')) continue;
    const privateKey = privateKeyOf(block.pem);
    const pub = privateKey && publicKey(createPublicKey(privateKey));
    if (privateKey && pub) return { ...pub, privateKey };
  }
  throw new Error(`${source}: data does not contain a valid RSA or ECDSA private key`);
}

/** Every RSA or ECDSA key of a PEM text; other blocks (EC PARAMETERS, say) are passed over, as the real server does. */
export function parseVerifyingKeys(text: string, source: string): PublicKey[] {
  const keys = pemBlocks(text).map(publicKeyOf).map((k) => (k ? publicKey(k) : undefined)).filter((k) => k !== undefined);
  if (keys.length === 0) throw new Error(`${source}: data does not contain any valid RSA or ECDSA public keys`);
  return keys;
}

export function loadSigningKey(path: string): SigningKey {
  return parseSigningKey(read(path, 'service-account-signing-key-file'), `--service-account-signing-key-file ${path}`);
}

export function loadVerifyingKeys(paths: readonly string[]): PublicKey[] {
  return paths.flatMap((p) => parseVerifyingKeys(read(p, 'service-account-key-file'), `--service-account-key-file ${p}`));
}

/**
 * The TLS private key as a verifying key, when it is one (the seed's default for
 * --service-account-key-file); a file that holds no RSA or ECDSA key gives none, as the real
 * server then only warns.
 */
export function tlsKeyIfUsable(path: string | undefined): PublicKey[] {
  if (path === undefined) return [];
  try {
    return parseVerifyingKeys(readFileSync(path, 'utf8'), path);
  } catch {
    return [];
  }
}

/**
 * The key set served at /openid/v1/jwks, each key as the real server writes it: use, kty, kid,
 * crv (EC), alg, then the key's numbers. Keys listed twice are listed once.
 */
export async function publicKeySet(keys: readonly PublicKey[]): Promise<{ keys: JWK[] }> {
  const seen = new Set<string>();
  const out: JWK[] = [];
  for (const k of keys) {
    if (seen.has(k.kid)) continue;
    seen.add(k.kid);
    const { kty, crv, x, y, n, e } = await exportJWK(k.key);
    out.push(kty === 'EC' ? { use: 'sig', kty, kid: k.kid, crv, alg: k.alg, x, y } : { use: 'sig', kty, kid: k.kid, alg: k.alg, n, e });
  }
  return { keys: out };
}
