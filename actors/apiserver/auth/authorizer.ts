// Authorization: who may do what. Members of system:masters may do anything; for everyone else
// the modes of --authorization-mode are tried in order, and the first decision that is not "no
// opinion" wins (seed 001); when none has one, the request is forbidden with their reasons.
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
}

export type Decision = { decision: 'allow' | 'deny' | 'noOpinion'; reason: string };

export interface Authorizer {
  authorize(a: AuthorizationAttributes): Decision;
  /** What the user may do in `namespace` (SelfSubjectRulesReview); `incomplete` when this mode cannot list it all. */
  rulesFor?(user: UserInfo, namespace: string): RuleSet;
}

export interface RuleSet {
  resourceRules: PolicyRule[];
  nonResourceRules: PolicyRule[];
  incomplete: boolean;
  errors: string[];
}

/** What the modes that read cluster state read it from. */
export interface AuthorizerSources {
  rbac?: RbacPolicy;
  node?: NodeAuthorizer;
}

export const MASTERS = 'system:masters';
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC'];

function mode(name: string, sources: AuthorizerSources): Authorizer {
  switch (name) {
    case 'AlwaysAllow': return {
      authorize: () => ({ decision: 'allow', reason: '' }),
      rulesFor: () => ({ resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false, errors: [] }),
    };
    case 'AlwaysDeny': return { authorize: () => ({ decision: 'deny', reason: 'Everything is forbidden.' }), rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] }) };
    case 'RBAC': if (sources.rbac) return sources.rbac; break;
    case 'Node': if (sources.node) return sources.node; break;
    default: throw new Error(`unknown authorization mode ${JSON.stringify(name)}: supported modes are ${AUTHORIZATION_MODES.join(', ')}`);
  }
  throw new Error(`authorization mode ${name} needs the cluster's state`);
}

export function authorizerFor(modes: readonly string[], sources: AuthorizerSources = {}): Authorizer {
  const chain = modes.map((m) => mode(m, sources));
  return {
    authorize(attrs) {
      if (attrs.user.groups.includes(MASTERS)) return { decision: 'allow', reason: '' };
      const reasons: string[] = [];
      for (const a of chain) {
        const d = a.authorize(attrs);
        if (d.decision !== 'noOpinion') return d;
        if (d.reason) reasons.push(d.reason);
      }
      return { decision: 'noOpinion', reason: reasons.join('\n') };
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

export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
