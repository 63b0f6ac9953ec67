// --use-service-account-credentials in a controller manager of its own (multi-process mode), as the
// real one's dynamic client builder does it: with its own credentials the manager makes sure each
// controller's service account exists in the system namespace, asks for its token (a
// TokenRequest), and gives the controller a bus that carries that token. A token is renewed on
// the first request after 80% of its life; a renewal that fails leaves the old token in use while
// it lasts. (In one process, ComponentTokens gives each identity a token directly.)
import type { Clock } from '../api/env.ts';
import { SYSTEM_NAMESPACE } from '../api/namespaces.ts';
import { isAlreadyExists, isConflict, isNotFound } from '../api/status.ts';
import { splitServiceAccountUsername } from '../apiserver/auth/service-account-tokens.ts';
import type { ApiClient } from '../client/client.ts';
import { CONTROLLER_MANAGER, CredentialedBus, type AsIdentity, type TokenSource } from '../client/credentials.ts';
import { SERVICE_ACCOUNTS } from '../api/model/core.ts';

/** What the real builder asks for. */
export const TOKEN_EXPIRATION_SECONDS = 3600;
const RENEW_AT = 0.8;

interface TokenRequestStatus {
  status?: { token?: string; expirationTimestamp?: string };
}

/** One service account's token, fetched when first needed and renewed as it ages. */
class RenewedToken implements TokenSource {
  #token: string | undefined;
  #renewAtMs = 0;
  #expiresAtMs = 0;
  #pending: Promise<string> | undefined;

  constructor(readonly name: string, readonly client: ApiClient, readonly clock: Clock) {}

  token(): string | Promise<string> {
    if (this.#token !== undefined && this.clock.now() < this.#renewAtMs) return this.#token;
    return (this.#pending ??= this.#renew().finally(() => (this.#pending = undefined)));
  }

  async #renew(): Promise<string> {
    try {
      return await this.#fetch();
    } catch (e) {
      if (this.#token !== undefined && this.clock.now() < this.#expiresAtMs) return this.#token;
      throw e;
    }
  }

  async #fetch(): Promise<string> {
    const path = `/api/v1/namespaces/${SYSTEM_NAMESPACE}/serviceaccounts/${this.name}/token`;
    const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: TOKEN_EXPIRATION_SECONDS } };
    const issuedAtMs = this.clock.now();
    let answer: TokenRequestStatus;
    try {
      answer = (await this.client.request('POST', path, body)) as TokenRequestStatus;
    } catch (e) {
      if (!(isNotFound(e) && e.status.details?.kind === 'serviceaccounts')) throw e;
      await this.#ensureAccount();
      answer = (await this.client.request('POST', path, body)) as TokenRequestStatus;
    }
    const token = answer.status?.token;
    const expiresAtMs = Date.parse(answer.status?.expirationTimestamp ?? '');
    if (!token || Number.isNaN(expiresAtMs)) throw new Error(`the API server's TokenRequest answer for service account ${SYSTEM_NAMESPACE}/${this.name} has no token or expiry`);
    this.#token = token;
    this.#expiresAtMs = expiresAtMs;
    this.#renewAtMs = issuedAtMs + RENEW_AT * (expiresAtMs - issuedAtMs);
    return token;
  }

  async #ensureAccount(): Promise<void> {
    try {
      await this.client.create(SERVICE_ACCOUNTS, { metadata: { name: this.name, namespace: SYSTEM_NAMESPACE } });
    } catch (e) {
      if (!(isAlreadyExists(e) || isConflict(e))) throw e;
    }
  }
}

export class ServiceAccountCredentials {
  readonly #tokens = new Map<string, RenewedToken>();

  /** `client` is the manager's own, which may create service accounts and their tokens in the system namespace. */
  constructor(readonly client: ApiClient, readonly clock: Clock) {}

  /** The manager keeps its own bus; a controller's service account gets its token on the bus given. */
  readonly asIdentity: AsIdentity = (bus, identity) => {
    if (identity.username === CONTROLLER_MANAGER.username) return bus;
    return new CredentialedBus(bus, this.#source(serviceAccountName(identity.username)));
  };

  /**
   * Fetches each account's first token, so a server that cannot issue them is found at start, with
   * a message that says what to give it, rather than by each controller's first request.
   */
  async prepare(names: readonly string[]): Promise<void> {
    for (const name of names) {
      try {
        await this.#source(name).token();
      } catch (e) {
        const why = (e as Error).message;
        const hint = isNotFound(e)
          ? ': the API server issues no service-account tokens (give it --service-account-issuer and --service-account-signing-key-file), or run without --use-service-account-credentials'
          : '';
        throw new Error(`--use-service-account-credentials: no token for service account ${SYSTEM_NAMESPACE}/${name}: ${why}${hint}`, { cause: e });
      }
    }
  }

  #source(name: string): RenewedToken {
    let source = this.#tokens.get(name);
    if (!source) this.#tokens.set(name, (source = new RenewedToken(name, this.client, this.clock)));
    return source;
  }
}

function serviceAccountName(username: string): string {
  const [namespace, name] = splitServiceAccountUsername(username) ?? [];
  if (namespace !== SYSTEM_NAMESPACE || !name) throw new Error(`${username} is not a controller's service account in ${SYSTEM_NAMESPACE}`);
  return name;
}
