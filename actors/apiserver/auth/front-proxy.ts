// The front-proxy (request-header) authenticator: a proxy in front of the server authenticates
// users itself and names them in headers, and the server believes those headers only from a
// connection whose client certificate the --requestheader-client-ca-file CA signed, with a
// CommonName in --requestheader-allowed-names (any when that is empty). The user is the first
// non-empty --requestheader-username-headers header; groups are every value of every
// --requestheader-group-headers header; extras are the headers under each
// --requestheader-extra-headers-prefix, keyed by the rest of their name lower-cased and
// %-decoded. It comes first, before client certificates and tokens, as in the real server; a
// certificate it does not accept, or headers naming nobody, fall through to the rest.
import { headerValues } from '../request.ts';
import type { UserInfo } from './authorizer.ts';
import { unescapeExtraKey, withAuthenticated } from './users.ts';

export interface FrontProxyOptions {
  allowedNames: readonly string[];
  usernameHeaders: readonly string[];
  groupHeaders: readonly string[];
  extraHeadersPrefixes: readonly string[];
}

export class FrontProxy {
  readonly #allowed: ReadonlySet<string>;
  readonly #users: readonly string[];
  readonly #groups: readonly string[];
  readonly #prefixes: readonly string[];

  constructor(o: FrontProxyOptions) {
    this.#allowed = new Set(o.allowedNames);
    this.#users = o.usernameHeaders.map((h) => h.toLowerCase());
    this.#groups = o.groupHeaders.map((h) => h.toLowerCase());
    this.#prefixes = o.extraHeadersPrefixes.map((h) => h.toLowerCase());
  }

  /** Whether a header's repeats must be kept apart (groups and extras may repeat). */
  keepsApart(header: string): boolean {
    return this.#groups.includes(header) || this.#prefixes.some((p) => header.startsWith(p));
  }

  /** The user the headers name, for a proxy whose certificate names `commonName`; undefined when they name nobody or the proxy is not allowed. */
  user(commonName: string, headers: Record<string, string | undefined>): UserInfo | undefined {
    if (this.#allowed.size && !this.#allowed.has(commonName)) return undefined;
    const username = this.#users.map((h) => headerValues(headers[h]).find((v) => v !== '')).find((v) => v !== undefined);
    if (!username) return undefined;
    const groups = this.#groups.flatMap((h) => headerValues(headers[h]));
    const extra: Record<string, string[]> = {};
    for (const [h, raw] of Object.entries(headers)) {
      const prefix = this.#prefixes.find((p) => h.startsWith(p));
      if (prefix) (extra[unescapeExtraKey(h.slice(prefix.length))] ??= []).push(...headerValues(raw));
    }
    return { username, groups: withAuthenticated(groups), ...(Object.keys(extra).length ? { extra } : {}) };
  }
}
