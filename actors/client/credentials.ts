// A component's credentials on the bus: each API request it sends, and each request for a watch's
// backlog (orch.api.changes), carries its bearer token, as a client-go client's transport adds
// the Authorization header, so the API server authenticates and authorizes bus requests like
// HTTPS ones. `Identity` names who a component is: the scheduler,
// the controller manager or one of its controllers' service accounts, a node.
import { NODE_USER_PREFIX, NODES_GROUP } from '../apiserver/auth/node-authorizer.ts';
import { serviceAccountGroups, serviceAccountUsername } from '../apiserver/auth/service-account-tokens.ts';
import { AUTHENTICATED } from '../apiserver/auth/users.ts';
import { randomBytes } from 'node:crypto';
import { Deferred, type Body, type Bus, type Message } from '../../transport/bus.ts';
import { ForwardingBus } from '../../transport/forwarding-bus.ts';
import { CHANGES_SUBJECT, REQUEST_SUBJECT, type ChangesRequest } from '../apiserver/bus-endpoint.ts';
import type { ApiRequest } from '../apiserver/request.ts';

export interface Identity {
  username: string;
  groups: string[];
}

/** Gives a bus the credentials of an identity; the cluster that assembles components provides it. */
export type AsIdentity = (bus: Bus, identity: Identity) => Bus;

export const SYSTEM_AUTHENTICATED = AUTHENTICATED;
export const SCHEDULER: Identity = { username: 'system:kube-scheduler', groups: [SYSTEM_AUTHENTICATED] };
export const CONTROLLER_MANAGER: Identity = { username: 'system:kube-controller-manager', groups: [SYSTEM_AUTHENTICATED] };
export const nodeIdentity = (node: string): Identity => ({ username: `${NODE_USER_PREFIX}${node}`, groups: [NODES_GROUP, SYSTEM_AUTHENTICATED] });
export const serviceAccountIdentity = (namespace: string, name: string): Identity => ({
  username: serviceAccountUsername(namespace, name), groups: [...serviceAccountGroups(namespace), SYSTEM_AUTHENTICATED],
});

/**
 * The tokens of the components one process runs beside its API server (serve, the simulated
 * cluster): each identity gets a fresh token on first use, which the API server reads through
 * `ApiServerEnv.componentTokens` (and a restarted server still knows). Tokens are secrets, so they
 * come from the system's random source, not the run's seeded one; none appears in a report.
 */
export class ComponentTokens {
  readonly #users = new Map<string, Identity>();

  get(token: string): Identity | undefined {
    return this.#users.get(token);
  }

  /** A bus whose API requests authenticate as `identity`. */
  readonly asIdentity: AsIdentity = (bus, identity) => {
    const token = randomBytes(24).toString('base64url');
    this.#users.set(token, { username: identity.username, groups: [...identity.groups] });
    return new CredentialedBus(bus, token);
  };
}

/** A token that changes over time (a service account's, renewed): the current one, or a promise while a new one is fetched. */
export interface TokenSource {
  token(): string | Promise<string>;
}

/**
 * A bus whose API requests carry a bearer token. Wrapped around another credentialed bus, the
 * outer credentials win: a request keeps the Authorization it already has.
 */
export class CredentialedBus extends ForwardingBus {
  readonly #token: string | TokenSource;

  constructor(inner: Bus, token: string | TokenSource) {
    super(inner);
    this.#token = token;
  }

  /**
   * Sets the header on the request in place: each request's headers are its own (client.ts), and
   * a copy of the request would read its body, which stays unencoded while it stays in process.
   */
  override request(subject: string, data: Body, timeoutMs: number): Promise<Message> {
    if (!(data instanceof Deferred) || (subject !== REQUEST_SUBJECT && subject !== CHANGES_SUBJECT)) return super.request(subject, data, timeoutMs);
    const token = typeof this.#token === 'string' ? this.#token : this.#token.token();
    if (typeof token === 'string') return this.#send(subject, data, timeoutMs, token);
    return token.then((t) => this.#send(subject, data, timeoutMs, t));
  }

  #send(subject: string, data: Deferred<unknown>, timeoutMs: number, token: string): Promise<Message> {
    const authorization = `Bearer ${token}`;
    if (subject === REQUEST_SUBJECT) (data.value as ApiRequest).headers.authorization ??= authorization;
    else (data.value as ChangesRequest).authorization ??= authorization;
    return super.request(subject, data, timeoutMs);
  }
}
