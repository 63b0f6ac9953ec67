// Who may use the node agent's secure server (/metrics, /healthz), as its configuration's
// `authentication` and `authorization` say and as the real agent decides:
// - authentication, in order: a client certificate signed by `x509.clientCAFile` (its CommonName
//   the user, Organizations the groups); a bearer token, checked with a TokenReview sent to the
//   API server when `webhook.enabled` (answers cached for `webhook.cacheTTL`); no credentials at
//   all, system:anonymous when `anonymous.enabled`. Anything else is 401 Unauthorized.
// - authorization: `AlwaysAllow`, or `Webhook`: a SubjectAccessReview for the node, resource
//   `nodes` and a subresource by path (stats, metrics, log, spec, checkpoint, else proxy), with the
//   HTTP method's verb; allowed answers cached for `cacheAuthorizedTTL`, refusals for
//   `cacheUnauthorizedTTL`. A refusal is 403 `Forbidden (user=…, verb=…, resource=nodes, subresource=…)`.
// The reviews go over the agent's own bus client, with its own credentials (the system:node role
// may create both). Time comes from the agent's clock.
import type { Clock } from '../api/env.ts';
import { ExpiringCache } from '../api/expiring-cache.ts';
import { ANONYMOUS, type UserInfo } from '../apiserver/auth/authorizer.ts';
import { withAuthenticated } from '../apiserver/auth/users.ts';
import type { ApiClient } from '../client/client.ts';
import type { NodeAgentConfiguration } from './config-fields.ts';

/** What the server read of a request: its method, path, Authorization header and verified client certificate. */
export interface GuardedRequest {
  method: string;
  path: string;
  authorization?: string;
  /** A certificate the client CA signed, or why the one presented is not trusted. */
  clientCert?: { user: string; groups: string[] } | { error: string };
}

/** The answer refusing a request, or undefined to serve it. */
export type Guard = (req: GuardedRequest) => Promise<{ status: number; body: string } | undefined>;

const UNAUTHORIZED = { status: 401, body: 'Unauthorized' };
/** Reviews remembered, each kind: bounded, so random tokens cannot grow the agent without end. */
const CACHE_ENTRIES = 4096;
const VERBS: Record<string, string> = { GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
const SUBRESOURCES: [string, string][] = [['/stats', 'stats'], ['/metrics', 'metrics'], ['/logs', 'log'], ['/spec', 'spec'], ['/checkpoint', 'checkpoint']];

/** The subresource of `nodes` a path of the agent's API stands for. */
export function subresourceOf(path: string): string {
  return SUBRESOURCES.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[1] ?? 'proxy';
}

interface Review {
  status?: { authenticated?: boolean; user?: UserInfo; allowed?: boolean; denied?: boolean };
}

export function nodeAgentGuard(o: { config: Pick<NodeAgentConfiguration, 'authentication' | 'authorization'>; nodeName: string; client: ApiClient; clock: Clock }): Guard {
  const { authentication, authorization } = o.config;
  const tokens = new ExpiringCache<UserInfo | null>(o.clock, CACHE_ENTRIES);
  const decisions = new ExpiringCache<boolean>(o.clock, CACHE_ENTRIES);

  async function authenticate(req: GuardedRequest): Promise<UserInfo | undefined> {
    if (req.clientCert && 'user' in req.clientCert) return { username: req.clientCert.user, groups: withAuthenticated([...req.clientCert.groups]) };
    if (req.clientCert) return undefined;
    if (req.authorization !== undefined) {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(req.authorization)?.[1];
      if (!token || !authentication.webhook.enabled) return undefined;
      const known = tokens.get(token);
      if (known !== undefined) return known ?? undefined;
      const review = await o.client.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews',
        { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } }) as Review;
      const user = review.status?.authenticated ? review.status.user ?? null : null;
      tokens.set(token, user, authentication.webhook.cacheTTL);
      return user ?? undefined;
    }
    return authentication.anonymous.enabled ? ANONYMOUS : undefined;
  }

  async function allowed(user: UserInfo, verb: string, subresource: string): Promise<boolean> {
    if (authorization.mode === 'AlwaysAllow') return true;
    const attributes = { verb, resource: 'nodes', subresource, name: o.nodeName };
    const key = JSON.stringify([user, attributes]);
    const known = decisions.get(key);
    if (known !== undefined) return known;
    const review = await o.client.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: { user: user.username, groups: user.groups, ...(user.uid ? { uid: user.uid } : {}), ...(user.extra ? { extra: user.extra } : {}), resourceAttributes: attributes },
    }) as Review;
    const yes = review.status?.allowed === true;
    decisions.set(key, yes, yes ? authorization.webhook.cacheAuthorizedTTL : authorization.webhook.cacheUnauthorizedTTL);
    return yes;
  }

  return async (req) => {
    const user = await authenticate(req);
    if (!user) return UNAUTHORIZED;
    const verb = VERBS[req.method] ?? req.method.toLowerCase();
    const subresource = subresourceOf(req.path);
    if (await allowed(user, verb, subresource)) return undefined;
    return { status: 403, body: `Forbidden (user=${user.username}, verb=${verb}, resource=nodes, subresource=${subresource})` };
  };
}
