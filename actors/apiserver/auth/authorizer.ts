// Authorization: who may do what. Modes come from --authorization-mode, tried in order; the first
// decision that is not "no opinion" wins (seed 001). RBAC and Node modes land with the auth work.

export interface UserInfo {
  username: string;
  groups: string[];
  uid?: string;
}

export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  namespace?: string;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  /** Set for non-resource requests such as /healthz. */
  path?: string;
}

export type Decision = { decision: 'allow' | 'deny' | 'noOpinion'; reason: string };

export interface Authorizer {
  authorize(a: AuthorizationAttributes): Decision;
}

const MODES: Record<string, Authorizer> = {
  AlwaysAllow: { authorize: () => ({ decision: 'allow', reason: '' }) },
  AlwaysDeny: { authorize: () => ({ decision: 'deny', reason: 'Everything is forbidden.' }) },
};

export const AUTHORIZATION_MODES = Object.keys(MODES);

export function authorizerFor(modes: string[]): Authorizer {
  const chain = modes.map((m) => {
    const a = MODES[m];
    if (!a) throw new Error(`unknown authorization mode ${JSON.stringify(m)}: supported modes are ${AUTHORIZATION_MODES.join(', ')}`);
    return a;
  });
  return {
    authorize(attrs) {
      for (const a of chain) {
        const d = a.authorize(attrs);
        if (d.decision !== 'noOpinion') return d;
      }
      return { decision: 'noOpinion', reason: 'no authorizer had an opinion' };
    },
  };
}

export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
