// The 403 a refused request gets, worded as the real server's responsewriters.Forbidden: the
// target (`pods "p" is forbidden: ...`), then who cannot do what where, then the authorizers' reasons.
import { forbidden } from '../../api/status.ts';
import type { AuthorizationAttributes } from './authorizer.ts';

export function forbiddenFor(a: AuthorizationAttributes, reason: string) {
  const resource = `${a.resource ?? ''}${a.subresource ? `/${a.subresource}` : ''}`;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return forbidden({ group: a.apiGroup ?? '', resource: a.resource ?? '', ...(a.name ? { name: a.name } : {}) },
    `User "${a.user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup ?? ''}" ${scope}${reason ? `: ${reason}` : ''}`);
}
