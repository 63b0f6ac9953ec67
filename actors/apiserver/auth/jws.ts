// Compact JSON Web Signatures, read and verified with node:crypto. Synchronous on purpose:
// authentication runs when a request arrives (ApiServer.arrive), before its body is read, so that
// it takes its in-flight place at once; jose's jwtVerify is asynchronous (WebCrypto) and would
// let requests queue unaccounted while it runs. Signing, which happens inside a handler, uses jose.
import { constants, verify, type KeyObject } from 'node:crypto';

export interface Jws {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** `header.payload`, the bytes the signature covers. */
  signingInput: string;
  signature: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function json(part: string): Record<string, unknown> | undefined {
  if (!BASE64URL.test(part)) return undefined;
  try {
    const v: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The token as a compact JWS (three base64url parts, a JSON header and a JSON claims set), or undefined. */
export function parseJws(token: string): Jws | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !BASE64URL.test(parts[2])) return undefined;
  const header = json(parts[0]);
  const claims = json(parts[1]);
  if (!header || !claims) return undefined;
  return { header, claims, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2], 'base64url') };
}

interface Scheme {
  hash: string;
  family: 'rsa' | 'rsa-pss' | 'ec';
  /** For ES*: the curve the key must be on. */
  curve?: string;
}

const SCHEMES: Record<string, Scheme> = {
  RS256: { hash: 'sha256', family: 'rsa' }, RS384: { hash: 'sha384', family: 'rsa' }, RS512: { hash: 'sha512', family: 'rsa' },
  PS256: { hash: 'sha256', family: 'rsa-pss' }, PS384: { hash: 'sha384', family: 'rsa-pss' }, PS512: { hash: 'sha512', family: 'rsa-pss' },
  ES256: { hash: 'sha256', family: 'ec', curve: 'prime256v1' }, ES384: { hash: 'sha384', family: 'ec', curve: 'secp384r1' },
  ES512: { hash: 'sha512', family: 'ec', curve: 'secp521r1' },
};

/** Whether the header names an asymmetric algorithm the server verifies (never `none`, never HMAC). */
export function supportedAlgorithm(jws: Jws): boolean {
  return typeof jws.header.alg === 'string' && Object.hasOwn(SCHEMES, jws.header.alg);
}

/** Whether `key` (a public key) signed the token under the algorithm its header names. */
export function verifiedBy(jws: Jws, key: KeyObject): boolean {
  const scheme = SCHEMES[String(jws.header.alg)];
  if (!scheme) return false;
  try {
    return verifiedUnder(scheme, jws, key);
  } catch {
    return false; // a signature of the wrong length for the key
  }
}

function verifiedUnder(scheme: Scheme, jws: Jws, key: KeyObject): boolean {
  const data = Buffer.from(jws.signingInput, 'ascii');
  if (scheme.family === 'ec') {
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== scheme.curve) return false;
    return verify(scheme.hash, data, { key, dsaEncoding: 'ieee-p1363' }, jws.signature);
  }
  if (key.asymmetricKeyType !== 'rsa') return false;
  if (scheme.family === 'rsa') return verify(scheme.hash, data, key, jws.signature);
  return verify(scheme.hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }, jws.signature);
}
