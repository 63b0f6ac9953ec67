// Service-account tokens as the options configure them: on when --service-account-issuer and
// --service-account-signing-key-file are given (options.ts refuses one without the other), off
// otherwise, as on a real server without them (no token subresource, no issuer documents, no
// service-account authentication). Keys are read once, at construction: a file that cannot be
// read or holds no usable key stops the server with the flag's name.
import { isIP } from 'node:net';
import type { Clock, Random } from '../../api/env.ts';
import type { ApiServerOptions } from '../options.ts';
import { loadSigningKey, loadVerifyingKeys, publicKeySet, tlsKeyIfUsable, type PublicKey } from './service-account-keys.ts';
import { TokenIssuer } from './service-account-tokens.ts';
import { ServiceAccountTokenVerifier } from './service-account-verify.ts';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

/** The documents relying parties read to verify tokens without calling the API (OIDC discovery). */
export interface IssuerDiscovery {
  configuration: {
    issuer: string;
    jwks_uri: string;
    response_types_supported: string[];
    subject_types_supported: string[];
    id_token_signing_alg_values_supported: string[];
  };
  keySet(): Promise<{ keys: unknown[] }>;
}

export interface ServiceAccountTokens {
  issuer: TokenIssuer;
  verifier: ServiceAccountTokenVerifier;
  /** --api-audiences, or every issuer. */
  apiAudiences: string[];
  /** 0: no cap. */
  maxExpirationSeconds: number;
  extendExpiration: boolean;
  /** Undefined when the issuer is not an https URL without query or fragment: the real server then serves no documents. */
  discovery: IssuerDiscovery | undefined;
  /** Token ids (jti). */
  random: Random;
}

export function serviceAccountTokens(o: ApiServerOptions, clock: Clock, random: Random): ServiceAccountTokens | undefined {
  const issuers = o.serviceAccountIssuer ?? [];
  if (issuers.length === 0 || o.serviceAccountSigningKeyFile === undefined) return undefined;
  const signing = loadSigningKey(o.serviceAccountSigningKeyFile);
  const keys = o.serviceAccountKeyFile?.length ? loadVerifyingKeys(o.serviceAccountKeyFile) : [signing, ...tlsKeyIfUsable(o.tlsPrivateKeyFile)];
  const apiAudiences = o.apiAudiences?.length ? o.apiAudiences : [...issuers];
  return {
    issuer: new TokenIssuer(issuers[0], signing),
    verifier: new ServiceAccountTokenVerifier({ issuers, keys, apiAudiences, lookup: o.serviceAccountLookup, clock }),
    apiAudiences,
    maxExpirationSeconds: Math.floor((o.serviceAccountMaxTokenExpirationMs ?? 0) / 1000),
    extendExpiration: o.serviceAccountExtendTokenExpiration,
    discovery: issuerDiscovery(issuers[0], o.serviceAccountJwksUri ?? defaultJwksUri(o), keys),
    random,
  };
}

/** https://<external address>/openid/v1/jwks: --external-hostname, else the bind address (this machine's when it is every interface). */
function defaultJwksUri(o: ApiServerOptions): string {
  const unspecified = o.bindAddress === '' || o.bindAddress === '0.0.0.0' || o.bindAddress === '::';
  const host = o.externalHostname ?? (unspecified ? 'localhost' : o.bindAddress);
  return `https://${isIP(host) === 6 ? `[${host}]` : host}:${o.securePort}${JWKS_PATH}`;
}

function issuerDiscovery(issuer: string, jwksUri: string, keys: readonly PublicKey[]): IssuerDiscovery | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || url.search !== '' || url.hash !== '' || issuer.includes('#') || issuer.includes('?')) return undefined;
  let keySet: Promise<{ keys: unknown[] }> | undefined;
  return {
    configuration: {
      issuer,
      jwks_uri: jwksUri,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [...new Set(keys.map((k) => k.alg))].sort(),
    },
    keySet: () => (keySet ??= publicKeySet(keys)),
  };
}
