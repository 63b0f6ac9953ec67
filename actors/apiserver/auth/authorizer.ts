// Authorization: who may do what. Members of system:masters may do anything; for everyone else
// the modes of --authorization-mode are tried in order, and the first decision that is not "no
// opinion" wins (seed 001); when none has one, the request is forbidden with their reasons.
//
// A mode answers at once, or with a promise when it must ask elsewhere (Webhook). The chain stays
// synchronous while its modes do: every request passes here, and a promise per request would
// cost the simulated cluster's hot path for nothing when no mode does I/O.
import { ANONYMOUS_USER, UNAUTHENTICATED } from './users.ts';
import type { NodeAuthorizer } from './node-authorizer.ts';
import type { RbacPolicy } from './rbac.ts';
import type { PolicyRule } from './rbac-rules.ts';

export interface UserInfo {
  username: string;
  groups: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  namespace?: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  /** A list's or watch's field selector, as sent: the Node authorizer reads it. */
  fieldSelector?: string;
  /** Set for non-resource requests such as /healthz. */
  path?: string;
  /** The version of the resource asked for, when the request names one (a webhook is told it). */
  version?: string;
}

/**
 * A mode's answer. `evaluationError` says the mode could not decide (a webhook unreachable): as
 * the real server does, a request no mode allows then fails with 500 rather than 403, and an
 * access review reports it as its status.evaluationError.
 */
export type Decision = { decision: 'allow' | 'deny' | 'noOpinion'; reason: string; evaluationError?: string };

/** A decision now, or a promise of one from a mode that does I/O. */
export type Answer = Decision | Promise<Decision>;

/** `then` applied to the decision: at once when it is there, after it settles when it is a promise. */
export function decided<T>(answer: Answer, then: (d: Decision) => T): T | Promise<T> {
  return answer instanceof Promise ? answer.then(then) : then(answer);
}

export interface Authorizer {
  authorize(a: AuthorizationAttributes): Answer;
  /** What the user may do in `namespace` (SelfSubjectRulesReview); `incomplete` when this mode cannot list it all. */
  rulesFor?(user: UserInfo, namespace: string): RuleSet;
}

export interface RuleSet {
  resourceRules: PolicyRule[];
  nonResourceRules: PolicyRule[];
  incomplete: boolean;
  errors: string[];
}

/** The modes built outside this file: from the cluster's state (RBAC, Node) or from files (ABAC, Webhook). */
export interface AuthorizerSources {
  rbac?: RbacPolicy;
  node?: NodeAuthorizer;
  abac?: Authorizer;
  webhook?: Authorizer;
}

export const MASTERS = 'system:masters';
/** Every mode, in the real server's order of choices. */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'];

function mode(name: string, sources: AuthorizerSources): Authorizer {
  switch (name) {
    case 'AlwaysAllow': return {
      authorize: () => ({ decision: 'allow', reason: '' }),
      rulesFor: () => ({ resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false, errors: [] }),
    };
    case 'AlwaysDeny': return { authorize: () => ({ decision: 'deny', reason: 'Everything is forbidden.' }), rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] }) };
    case 'RBAC': if (sources.rbac) return sources.rbac; break;
    case 'Node': if (sources.node) return sources.node; break;
    case 'ABAC': if (sources.abac) return sources.abac; break;
    case 'Webhook': if (sources.webhook) return sources.webhook; break;
    default: throw new Error(`unknown authorization mode ${JSON.stringify(name)}: supported modes are ${AUTHORIZATION_MODES.join(', ')}`);
  }
  throw new Error(name === 'ABAC' || name === 'Webhook' ? `authorization mode ${name} needs its configuration file` : `authorization mode ${name} needs the cluster's state`);
}

/** The reasons and evaluation errors of the modes that had no opinion, gathered as the chain goes. */
interface Pending { reasons: string[]; errors: string[] }

/** The real union's aggregate of errors: one as it is, several distinct ones in brackets. */
function aggregate(errors: string[]): string {
  const distinct = [...new Set(errors)];
  return distinct.length === 1 ? distinct[0]! : `[${distinct.join(', ')}]`;
}

/** The decision when it decides; else undefined, its reason and error kept in `pending` for the end. */
function settle(d: Decision, pending: Pending): Decision | undefined {
  if (d.decision !== 'noOpinion') return d;
  if (d.reason) pending.reasons.push(d.reason);
  if (d.evaluationError) pending.errors.push(d.evaluationError);
  return undefined;
}

const NONE_YET: Pending = { reasons: [], errors: [] };

/**
 * Asks `chain` from mode `from` on; synchronous until a mode answers with a promise. `pending` is
 * made only once a mode passes with something to say, so a chain whose first mode decides (most
 * requests) allocates nothing.
 */
function ask(chain: readonly Authorizer[], from: number, attrs: AuthorizationAttributes, pending: Pending): Answer {
  for (let i = from; i < chain.length; i++) {
    const answer = chain[i]!.authorize(attrs);
    if (answer instanceof Promise) {
      const kept = pending === NONE_YET ? { reasons: [], errors: [] } : pending;
      return answer.then((d) => settle(d, kept) ?? ask(chain, i + 1, attrs, kept));
    }
    if (answer.decision !== 'noOpinion') return answer;
    if (!answer.reason && !answer.evaluationError) continue;
    if (pending === NONE_YET) pending = { reasons: [], errors: [] };
    settle(answer, pending);
  }
  const d: Decision = { decision: 'noOpinion', reason: pending.reasons.join('\n') };
  if (pending.errors.length) d.evaluationError = aggregate(pending.errors);
  return d;
}

export function authorizerFor(modes: readonly string[], sources: AuthorizerSources = {}): Authorizer {
  const chain = modes.map((m) => mode(m, sources));
  return {
    authorize(attrs) {
      if (attrs.user.groups.includes(MASTERS)) return { decision: 'allow', reason: '' };
      return ask(chain, 0, attrs, NONE_YET);
    },
    rulesFor(user, namespace) {
      const all: RuleSet = { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };
      for (const a of chain) {
        const r = a.rulesFor?.(user, namespace) ?? { resourceRules: [], nonResourceRules: [], incomplete: true, errors: [] };
        all.resourceRules.push(...r.resourceRules);
        all.nonResourceRules.push(...r.nonResourceRules);
        all.incomplete ||= r.incomplete;
        all.errors.push(...r.errors);
      }
      return all;
    },
  };
}

export const ANONYMOUS: UserInfo = { username: ANONYMOUS_USER, groups: [UNAUTHENTICATED] };
