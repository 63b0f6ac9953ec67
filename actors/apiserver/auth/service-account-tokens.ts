// Issuing service-account tokens as the real server does (pkg/serviceaccount/claims.go): a JWT
// signed with the --service-account-signing-key-file key, its header naming the key's id, and
// its claims in the real layout, keys sorted as Go writes them:
//
//   aud, exp, iat, iss, jti,
//   kubernetes.io: { namespace, node?: {name, uid?}, pod?: {name, uid}, secret?: {name, uid},
//                    serviceaccount: {name, uid}, warnafter? },
//   nbf, sub: system:serviceaccount:<namespace>:<name>
//
// Times are whole seconds of the server's clock; the token id (jti) is a UUID from the server's
// seeded randomness, so a run with the same seed issues the same ids.
import { SignJWT } from 'jose';
import { validateName } from '../validation/names.ts';
import type { SigningKey } from './service-account-keys.ts';

/** The name and uid of an object a token names. */
export interface ObjectRef {
  name: string;
  uid: string;
}

/** A node may be named without a uid: a pod-bound token names its pod's node even when that Node object is gone. */
export interface NodeRef {
  name: string;
  uid?: string;
}

export interface TokenSpec {
  namespace: string;
  serviceAccount: ObjectRef;
  /** At most one of pod and secret; a pod-bound token may name its node too, and a node-bound one names only its node. */
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: NodeRef;
  audiences: readonly string[];
  expirationSeconds: number;
  /** For tokens whose lifetime was extended: when clients should be warned they hold a stale one. */
  warnAfterSeconds?: number;
  nowMs: number;
  jti: string;
}

export const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

export const serviceAccountUsername = (namespace: string, name: string) => `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`;

/** The namespace and name of a service account's user name, or undefined when it is not one (serviceaccount.SplitUsername). */
export function splitServiceAccountUsername(username: string): [string, string] | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  return validateName(namespace, 'label').length || validateName(name, 'subdomain').length ? undefined : [namespace, name];
}

/** The groups of every service account, before system:authenticated is added. */
export const serviceAccountGroups = (namespace: string) => [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${namespace}`];

/** The claims of a token, as the real server lays them out. */
export function serviceAccountClaims(issuer: string, s: TokenSpec): Record<string, unknown> {
  const now = Math.floor(s.nowMs / 1000);
  const k8s: Record<string, unknown> = { namespace: s.namespace };
  if (s.node) k8s.node = s.node.uid ? { name: s.node.name, uid: s.node.uid } : { name: s.node.name };
  if (s.pod) k8s.pod = { name: s.pod.name, uid: s.pod.uid };
  if (s.secret) k8s.secret = { name: s.secret.name, uid: s.secret.uid };
  k8s.serviceaccount = { name: s.serviceAccount.name, uid: s.serviceAccount.uid };
  if (s.warnAfterSeconds !== undefined) k8s.warnafter = now + s.warnAfterSeconds;
  return {
    aud: [...s.audiences],
    exp: now + s.expirationSeconds,
    iat: now,
    iss: issuer,
    jti: s.jti,
    'kubernetes.io': k8s,
    nbf: now,
    sub: serviceAccountUsername(s.namespace, s.serviceAccount.name),
  };
}

/** Signs tokens as the first --service-account-issuer. */
export class TokenIssuer {
  constructor(readonly issuer: string, readonly key: SigningKey) {}

  /** The compact JWT; its header is `{alg, kid}`, as the real one. */
  sign(spec: TokenSpec): Promise<string> {
    return new SignJWT(serviceAccountClaims(this.issuer, spec)).setProtectedHeader({ alg: this.key.alg, kid: this.key.kid }).sign(this.key.privateKey);
  }
}
