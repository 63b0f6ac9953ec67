// Verifying service-account tokens, the part that needs nothing stored: the real server's two JWT
// token authenticators (pkg/serviceaccount/jwt.go), legacy then bound, each claiming only tokens
// whose unverified `iss` is one of its issuers (the legacy one `kubernetes/serviceaccount`, the
// bound one every --service-account-issuer). A claimed token must be signed by one of the
// verifying keys, its audiences must meet the requested ones (--api-audiences unless a
// TokenReview names others), and a bound token must be inside its lifetime on the server's clock,
// with the real minute of leeway. What is left, whether the objects it names still exist, reads
// the store: service-account-lookup.ts does it with the StoredCheck returned here.
import { goQuoted } from '../../api/status.ts';
import type { Clock } from '../../api/env.ts';
import type { UserInfo } from './authorizer.ts';
import { parseJws, supportedAlgorithm, verifiedBy, type Jws } from './jws.ts';
import type { PublicKey } from './service-account-keys.ts';
import { serviceAccountGroups, serviceAccountUsername, type NodeRef, type ObjectRef } from './service-account-tokens.ts';

export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
/** jwt.DefaultLeeway: clocks may disagree by a minute (lifetimes, and deletions of the objects a token names). */
export const LEEWAY_MS = 60_000;

export const EXTRA_POD_NAME = 'authentication.kubernetes.io/pod-name';
export const EXTRA_POD_UID = 'authentication.kubernetes.io/pod-uid';
export const EXTRA_NODE_NAME = 'authentication.kubernetes.io/node-name';
export const EXTRA_NODE_UID = 'authentication.kubernetes.io/node-uid';
export const EXTRA_CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';

/** A user with the extra information real authenticators attach (pod, node, credential id). */
export interface AuthenticatedUser extends UserInfo {
  extra?: Record<string, string[]>;
}

/** What must still be stored for the token to stand. */
export type StoredCheck =
  | { kind: 'bound'; namespace: string; serviceAccount: ObjectRef; pod?: ObjectRef; secret?: ObjectRef; node?: ObjectRef }
  | { kind: 'legacy'; namespace: string; serviceAccount: ObjectRef; secretName: string; token: string };

export type TokenVerdict =
  /** Not a token of these authenticators: the next one (or none) may take it. */
  | { outcome: 'unhandled' }
  | { outcome: 'rejected'; error: string }
  | { outcome: 'accepted'; user: AuthenticatedUser; audiences: string[]; check?: StoredCheck };

export interface VerifierConfig {
  /** --service-account-issuer: the first issues, all are accepted. */
  issuers: readonly string[];
  keys: readonly PublicKey[];
  apiAudiences: readonly string[];
  /** --service-account-lookup: whether legacy tokens are checked against their Secret and ServiceAccount. */
  lookup: boolean;
  clock: Clock;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const record = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** Legacy then bound service-account tokens, as the real server's union tries them. */
export class ServiceAccountTokenVerifier {
  readonly #bound: Set<string>;

  constructor(readonly config: VerifierConfig) {
    this.#bound = new Set(config.issuers);
  }

  /** `audiences`: what the caller asks the token be for; --api-audiences when absent. */
  verify(token: string, audiences?: readonly string[]): TokenVerdict {
    const jws = token.trimStart().startsWith('{') ? undefined : parseJws(token);
    if (!jws || !supportedAlgorithm(jws)) return { outcome: 'unhandled' };
    const iss = str(jws.claims.iss);
    const legacy = iss === LEGACY_ISSUER;
    if (!legacy && !this.#bound.has(iss)) return { outcome: 'unhandled' };
    if (!this.#signed(jws)) return { outcome: 'rejected', error: 'go-jose/go-jose: error in cryptographic primitive' };
    const implicit = this.config.apiAudiences;
    // Legacy tokens carry no audience: they are for this API server alone.
    const tokenAudiences = audiencesOf(jws.claims.aud);
    const own = tokenAudiences.length ? tokenAudiences : [...implicit];
    const requested = audiences ?? implicit;
    const met = own.filter((a) => requested.includes(a));
    if (met.length === 0 && implicit.length !== 0)
      return { outcome: 'rejected', error: `token audiences ${goQuoted(own)} is invalid for the target audiences ${goQuoted(requested)}` };
    const verdict = legacy ? this.#legacy(jws, token) : this.#boundToken(jws);
    return verdict.outcome === 'accepted' ? { ...verdict, audiences: met } : verdict;
  }

  /** The key the header names when it is one of ours, else every key in turn. */
  #signed(jws: Jws): boolean {
    const named = this.config.keys.filter((k) => k.kid === jws.header.kid);
    return (named.length ? named : this.config.keys).some((k) => verifiedBy(jws, k.key));
  }

  #boundToken(jws: Jws): TokenVerdict {
    const c = jws.claims;
    const now = this.config.clock.now();
    const at = (claim: unknown) => (typeof claim === 'number' ? claim * 1000 : undefined);
    for (const name of ['exp', 'nbf', 'iat'])
      if (c[name] !== undefined && typeof c[name] !== 'number')
        return { outcome: 'rejected', error: `json: cannot unmarshal ${typeof c[name]} into Go struct field Claims.${name} of type jwt.NumericDate` };
    const nbf = at(c.nbf);
    const exp = at(c.exp);
    const iat = at(c.iat);
    if (nbf !== undefined && now + LEEWAY_MS < nbf) return { outcome: 'rejected', error: 'service account token is not valid yet' };
    if (exp !== undefined && now - LEEWAY_MS > exp) return { outcome: 'rejected', error: 'service account token has expired' };
    if (iat !== undefined && now + LEEWAY_MS < iat) return { outcome: 'rejected', error: 'service account token is issued in the future' };
    const k8s = record(c['kubernetes.io']);
    const namespace = str(k8s.namespace);
    const ref = (v: unknown): ObjectRef | undefined => (v === undefined ? undefined : { name: str(record(v).name), uid: str(record(v).uid) });
    const sa = ref(k8s.serviceaccount) ?? { name: '', uid: '' };
    const pod = ref(k8s.pod);
    const secret = ref(k8s.secret);
    const node: NodeRef | undefined = ref(k8s.node);
    const extra: Record<string, string[]> = {};
    if (pod && pod.name && pod.uid) Object.assign(extra, { [EXTRA_POD_NAME]: [pod.name], [EXTRA_POD_UID]: [pod.uid] });
    const jti = str(c.jti);
    if (jti) extra[EXTRA_CREDENTIAL_ID] = [`JTI=${jti}`];
    if (node?.name) {
      extra[EXTRA_NODE_NAME] = [node.name];
      if (node.uid) extra[EXTRA_NODE_UID] = [node.uid];
    }
    // A pod-bound token names its pod's node for information; only a token bound to the node alone is checked against it.
    const check: StoredCheck = { kind: 'bound', namespace, serviceAccount: sa, ...(pod ? { pod } : {}), ...(secret ? { secret } : {}),
      ...(node && !pod ? { node: { name: node.name, uid: node.uid ?? '' } } : {}) };
    return { outcome: 'accepted', user: this.#user(namespace, sa, extra), audiences: [], check };
  }

  #legacy(jws: Jws, token: string): TokenVerdict {
    const c = jws.claims;
    const claim = (name: string) => str(c[`kubernetes.io/serviceaccount/${name}`]);
    const sub = str(c.sub);
    const namespace = claim('namespace');
    const secretName = claim('secret.name');
    const sa = { name: claim('service-account.name'), uid: claim('service-account.uid') };
    const missing = !sub ? 'sub' : !namespace ? 'namespace' : !secretName ? 'secretName' : !sa.name ? 'serviceAccountName' : !sa.uid ? 'serviceAccountUID' : undefined;
    if (missing) return { outcome: 'rejected', error: `${missing} claim is missing` };
    if (sub !== serviceAccountUsername(namespace, sa.name)) return { outcome: 'rejected', error: 'sub claim is invalid' };
    const check: StoredCheck | undefined = this.config.lookup ? { kind: 'legacy', namespace, serviceAccount: sa, secretName, token } : undefined;
    return { outcome: 'accepted', user: this.#user(namespace, sa, {}), audiences: [], ...(check ? { check } : {}) };
  }

  #user(namespace: string, sa: ObjectRef, extra: Record<string, string[]>): AuthenticatedUser {
    return { username: serviceAccountUsername(namespace, sa.name), uid: sa.uid, groups: [...serviceAccountGroups(namespace), 'system:authenticated'],
      ...(Object.keys(extra).length ? { extra } : {}) };
  }
}
