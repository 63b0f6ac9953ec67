// The Webhook authorizer (--authorization-mode Webhook): each decision is a SubjectAccessReview
// POSTed to a remote service (webhook-config.ts), in authorization.k8s.io/v1 or v1beta1 as
// --authorization-webhook-version says (v1beta1 names the groups `group`, v1 `groups`). Its
// status decides: allowed → allow, denied → deny (both: deny, with an evaluation error), neither
// → no opinion, with its reason. As the real authorizer:
// - answers are cached by the whole review spec (user, groups, extra, uid, attributes), allowed
//   ones for --authorization-webhook-cache-authorized-ttl and the rest for the unauthorized TTL
//   (0 caches nothing), 8192 at most, on the server's clock; a hit answers at once, without a promise;
// - when the service cannot answer (unreachable, a non-2xx answer, a body that is not a review,
//   no answer within 30 s) the answer is no opinion with the failure as its evaluation error, and
//   is not cached: the next mode decides, and if none allows the request fails with 500;
// - it cannot list a user's rules (SelfSubjectRulesReview): incomplete.
// Unlike the real one it does not retry a failed post.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Clock } from '../../api/env.ts';
import { readAnswer } from '../answer-body.ts';
import { ExpiringCache } from '../../api/expiring-cache.ts';
import { parseFieldTerms } from '../../api/selectors.ts';
import type { Answer, AuthorizationAttributes, Authorizer, Decision, RuleSet } from './authorizer.ts';
import { readWebhookConfig, type WebhookEndpoint } from './webhook-config.ts';

export type ReviewVersion = 'v1' | 'v1beta1';

export interface WebhookAuthorizerConfig {
  endpoint: WebhookEndpoint;
  version: ReviewVersion;
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  clock: Clock;
  /** How long a post may take before it counts as failed; the real client's 30 s by default. */
  timeoutMs?: number;
}

/** What a review's status says, as kept in the cache. */
interface ReviewStatus { allowed: boolean; denied: boolean; reason: string }

const CACHE_ENTRIES = 8192;
/** Requests whose own attributes are this long are not cached, as the real authorizer guards its cache. */
const MAX_CACHED_ATTRIBUTES = 10_000;
const MAX_ANSWER_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const BOTH = 'webhook subject access review returned both allow and deny response';

type Spec = Record<string, unknown>;

/** Only the fields that are set, in the order given: the real spec's omitempty. */
function present(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  return out;
}

/** A list's field selector as requirements (the real server sends them with AuthorizeWithSelectors, on by default). */
function fieldRequirements(selector: string | undefined): { requirements: { key: string; operator: string; values: string[] }[] } | undefined {
  try {
    const terms = parseFieldTerms(selector);
    return terms.length ? { requirements: terms.map((t) => ({ key: t.field, operator: t.negated ? 'NotIn' : 'In', values: [t.value] })) } : undefined;
  } catch {
    return undefined;
  }
}

/** The v1 review spec of a request, as the real authorizer builds it (and keys its cache on). */
export function reviewSpec(a: AuthorizationAttributes): Spec {
  const u = a.user;
  const attributes = a.path === undefined
    ? { resourceAttributes: present({ namespace: a.namespace, verb: a.verb, group: a.apiGroup, version: a.version, resource: a.resource,
        subresource: a.subresource, name: a.name, fieldSelector: fieldRequirements(a.fieldSelector) }) }
    : { nonResourceAttributes: present({ path: a.path, verb: a.verb }) };
  const extra = u.extra && Object.keys(u.extra).length ? u.extra : undefined;
  return { ...attributes, ...present({ user: u.username, groups: u.groups, extra, uid: u.uid }) };
}

/** The review posted: v1beta1 names the groups `group`. */
function reviewBody(spec: Spec, version: ReviewVersion): string {
  const { groups, ...rest } = spec;
  const versioned = version === 'v1' ? spec : { ...rest, ...(groups ? { group: groups } : {}) };
  return JSON.stringify({ kind: 'SubjectAccessReview', apiVersion: `authorization.k8s.io/${version}`, metadata: { creationTimestamp: null },
    spec: versioned, status: { allowed: false } });
}

/** The status of the service's answer; throws why the body is not a review. */
function statusOf(body: string): ReviewStatus {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new Error('the answer is not JSON');
  }
  const status = (doc as { status?: unknown } | null)?.status;
  if (status === null || typeof status !== 'object' || Array.isArray(status)) throw new Error('the answer is not a SubjectAccessReview with a status');
  const { allowed = false, denied = false, reason = '' } = status as Record<string, unknown>;
  if (typeof allowed !== 'boolean' || typeof denied !== 'boolean' || typeof reason !== 'string')
    throw new Error('the answer\'s status.allowed and status.denied must be booleans, status.reason a string');
  return { allowed, denied, reason };
}

function decisionOf(s: ReviewStatus): Decision {
  if (s.denied && s.allowed) return { decision: 'deny', reason: s.reason, evaluationError: BOTH };
  return { decision: s.denied ? 'deny' : s.allowed ? 'allow' : 'noOpinion', reason: s.reason };
}

const attributesLength = (a: AuthorizationAttributes) => [a.namespace, a.verb, a.apiGroup, a.version, a.resource, a.subresource, a.name, a.path]
  .reduce((n, s) => n + (s?.length ?? 0), 0);

export class WebhookAuthorizer implements Authorizer {
  readonly #cache: ExpiringCache<ReviewStatus>;
  readonly #agent: HttpAgent;
  readonly #timeoutMs: number;

  constructor(readonly config: WebhookAuthorizerConfig) {
    const e = config.endpoint;
    this.#agent = e.url.protocol === 'https:'
      ? new HttpsAgent({ keepAlive: true, ...(e.ca ? { ca: e.ca } : {}), ...(e.cert ? { cert: e.cert, key: e.key } : {}), rejectUnauthorized: !e.insecureSkipTlsVerify })
      : new HttpAgent({ keepAlive: true });
    this.#timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#cache = new ExpiringCache(config.clock, CACHE_ENTRIES);
  }

  authorize(a: AuthorizationAttributes): Answer {
    const spec = reviewSpec(a);
    const key = JSON.stringify(spec);
    const hit = this.#cache.get(key);
    if (hit) return decisionOf(hit);
    return this.#post(reviewBody(spec, this.config.version)).then((status) => {
      const ttl = status.allowed ? this.config.authorizedTtlMs : this.config.unauthorizedTtlMs;
      if (attributesLength(a) < MAX_CACHED_ATTRIBUTES) this.#cache.set(key, status, ttl);
      return decisionOf(status);
    }, (e: Error): Decision => ({ decision: 'noOpinion', reason: '', evaluationError: `Post "${this.config.endpoint.url.href}": ${e.message}` }));
  }

  rulesFor(): RuleSet {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['webhook authorizer does not support user rule resolution'] };
  }

  /** The status the service answers `body` with; rejects with why it did not. */
  #post(body: string): Promise<ReviewStatus> {
    const { url, token } = this.config.endpoint;
    const { clock } = this.config;
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', 'content-length': String(Buffer.byteLength(body)) };
      if (token) headers.authorization = `Bearer ${token}`;
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, { method: 'POST', agent: this.#agent, headers }, (res) => readAnswer(res, MAX_ANSWER_BYTES).then((text) => {
        const code = res.statusCode ?? 0;
        if (code < 200 || code > 299) throw new Error(`the webhook answered ${code}${text ? `: ${text.slice(0, 200)}` : ''}`);
        return statusOf(text);
      }).then(resolve, reject));
      const timer = clock.setTimeout(() => req.destroy(new Error(`no answer within ${this.#timeoutMs / 1000}s`)), this.#timeoutMs);
      req.on('close', () => clock.clearTimeout(timer));
      req.on('error', reject);
      req.end(body);
    });
  }
}

/** The authorizer --authorization-webhook-config-file and its companions describe; throws when the file does not read. */
export function webhookAuthorizer(o: { authorizationWebhookConfigFile?: string; authorizationWebhookVersion: ReviewVersion;
  authorizationWebhookCacheAuthorizedTtlMs: number; authorizationWebhookCacheUnauthorizedTtlMs: number }, clock: Clock): WebhookAuthorizer {
  if (!o.authorizationWebhookConfigFile) throw new Error('authorization-mode Webhook\'s authorization config file not passed: give --authorization-webhook-config-file');
  return new WebhookAuthorizer({ endpoint: readWebhookConfig(o.authorizationWebhookConfigFile), version: o.authorizationWebhookVersion,
    authorizedTtlMs: o.authorizationWebhookCacheAuthorizedTtlMs, unauthorizedTtlMs: o.authorizationWebhookCacheUnauthorizedTtlMs, clock });
}
