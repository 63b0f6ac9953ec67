// Authentication: who is asking, in the real server's order. A front proxy's headers, from a
// connection whose certificate the --requestheader-client-ca-file CA signed (front-proxy.ts);
// else a client certificate signed by the --client-ca-file CA names a user (its CommonName) and
// groups (its Organizations); else a bearer token: from the static token file (--token-auth-file, CSV `token,user,uid,"group1,group2"`),
// else a service-account token (legacy, then bound: service-account-verify.ts); a request with
// no credentials is system:anonymous when --anonymous-auth allows it. Credentials presented but
// not trusted (an unknown token, a certificate from another CA) are rejected with 401 even then,
// as real servers do: they never fall back to anonymous.
//
// `authenticate` is synchronous: it runs when a request arrives, to count it in the in-flight
// limits by its user before its body is read (ApiServer.arrive). So it does everything that needs
// no I/O, signatures included (node:crypto). What needs the store, that the objects a
// service-account token names still exist, is `confirm`, awaited before the request is routed:
// a token that fails it has only held an in-flight place until its 401.
import { readFileSync } from 'node:fs';
import type { Clock } from '../../api/env.ts';
import { unauthorized } from '../../api/status.ts';
import type { ClientCertificate } from '../request.ts';
import { ANONYMOUS, type UserInfo } from './authorizer.ts';
import type { FrontProxy } from './front-proxy.ts';
import { storedCheckFails, type ObjectReader } from './service-account-lookup.ts';
import type { AuthenticatedUser, ServiceAccountTokenVerifier, StoredCheck } from './service-account-verify.ts';
import { withAuthenticated } from './users.ts';

/** What a request brings to be known by: its headers, and the client certificate its connection presented. */
export interface Credentials {
  headers: Record<string, string | undefined>;
  clientCert?: ClientCertificate;
}

export interface Authenticator {
  /** Who the credentials name; throws a 401 when they name nobody. */
  authenticate(credentials: Credentials): UserInfo;
  /**
   * For a user `authenticate` returned from a service-account token: rejects with a 401 when the
   * objects the token names are gone. Undefined (nothing to wait for) for every other user.
   */
  confirm(user: UserInfo): Promise<void> | undefined;
  /** A bearer token alone, as a TokenReview asks, for these audiences (--api-audiences when absent). Never rejects. */
  review(token: string, audiences?: readonly string[]): Promise<TokenOutcome>;
}

/** A token's authentication, as TokenReview's status reports it. */
export interface TokenOutcome {
  user?: AuthenticatedUser;
  /** The audiences the token is good for among those asked; absent when none were asked. */
  audiences?: readonly string[];
  /** Why it did not authenticate. */
  error?: string;
}

/** The service-account half, when tokens are configured: the verifier, and how to read the objects tokens name. */
export interface ServiceAccountAuthentication {
  verifier: ServiceAccountTokenVerifier;
  read: ObjectReader;
  clock: Clock;
}

/** Parses the static token file's CSV; errors name the line. */
export function parseTokenFile(text: string, source = 'token file'): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = splitCsv(line);
    if (fields.length < 3 || !fields[0] || !fields[1]) throw new Error(`${source} line ${i + 1}: want token,user,uid[,"group1,group2"]`);
    const groups = fields[3] ? fields[3].split(',').map((g) => g.trim()).filter(Boolean) : [];
    tokens.set(fields[0], { username: fields[1], uid: fields[2], groups: withAuthenticated(groups) });
  });
  return tokens;
}

function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((f) => f.trim());
}

export function loadTokenFile(path: string): Map<string, UserInfo> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`--token-auth-file ${path}: ${(e as Error).message}`);
  }
  return parseTokenFile(text, `--token-auth-file ${path}`);
}

/** The real bearer-token wrapper's answer when no token authenticator had an error of its own. */
const INVALID_BEARER_TOKEN = 'invalid bearer token';

type Verdict = { user: AuthenticatedUser; audiences?: readonly string[]; check?: StoredCheck } | { error: string };

export function authenticator(tokens: { get(token: string): UserInfo | undefined }, anonymousAuth: boolean, serviceAccounts?: ServiceAccountAuthentication,
  frontProxy?: FrontProxy): Authenticator {
  const pending = new WeakMap<UserInfo, StoredCheck>();
  const implicit = serviceAccounts?.verifier.config.apiAudiences ?? [];

  /**
   * Static tokens, then service-account tokens. Static tokens know no audiences: as the real
   * server wraps them, they stand for the API audiences only (when audiences are asked at all).
   */
  function bearer(token: string, audiences: readonly string[] | undefined): Verdict {
    const wanted = audiences ?? (implicit.length ? implicit : undefined);
    const fixed = tokens.get(token);
    if (fixed) {
      const met = audiences ? implicit.filter((a) => audiences.includes(a)) : implicit;
      if (met.length) return { user: fixed, audiences: met };
      if (!wanted) return { user: fixed };
    }
    const v = serviceAccounts?.verifier.verify(token, wanted);
    if (!v || v.outcome === 'unhandled') return { error: INVALID_BEARER_TOKEN };
    if (v.outcome === 'rejected') return { error: v.error };
    return { user: v.user, audiences: v.audiences, ...(v.check ? { check: v.check } : {}) };
  }

  const stale = (check: StoredCheck) => storedCheckFails(check, serviceAccounts!.read, serviceAccounts!.clock.now());

  return {
    authenticate({ headers, clientCert }) {
      const cert = clientCert && 'user' in clientCert ? clientCert : undefined;
      if (frontProxy && cert?.signers.includes('front-proxy')) {
        const proxied = frontProxy.user(cert.user, headers);
        if (proxied) return proxied;
      }
      if (cert?.signers.includes('client')) return { username: cert.user, groups: withAuthenticated([...cert.groups]) };
      const auth = headers.authorization;
      if (auth !== undefined) {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
        const v = m ? bearer(m[1], undefined) : undefined;
        if (!v || 'error' in v) throw unauthorized();
        if (v.check) pending.set(v.user, v.check);
        return v.user;
      }
      if (!anonymousAuth || clientCert) throw unauthorized();
      return ANONYMOUS;
    },
    confirm(user) {
      const check = pending.get(user);
      if (!check) return undefined;
      return stale(check).then((why) => {
        if (why !== undefined) throw unauthorized();
      });
    },
    async review(token, audiences) {
      const v = bearer(token, audiences?.length ? audiences : undefined);
      if ('error' in v) return { error: v.error };
      const why = v.check ? await stale(v.check) : undefined;
      if (why !== undefined) return { error: why };
      return { user: v.user, ...(v.audiences ? { audiences: v.audiences } : {}) };
    },
  };
}
