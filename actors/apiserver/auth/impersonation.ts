// Impersonation: a request may act as someone else through the Impersonate-User,
// Impersonate-Group (repeated), Impersonate-Uid and Impersonate-Extra-<key> headers, as the real
// server's impersonation filter reads them, after authentication and before the request is
// authorized. Each thing asked for is authorized for the requester with the verb `impersonate`:
// users (core group), groups (core), serviceaccounts (core, namespaced: a user name of the form
// system:serviceaccount:<ns>:<name>), uids and userextras/<key> (authentication.k8s.io). The
// first one refused answers 403; groups, uid or extras without a user answer 400.
//
// The new user's groups are those asked for; without any, a service account's fixed groups. A
// user other than system:anonymous is in system:authenticated unless system:authenticated or
// system:unauthenticated was asked for; system:anonymous is always in system:unauthenticated.
import { badRequest } from '../../api/status.ts';
import { headerValues } from '../request.ts';
import type { AuthorizationAttributes, Authorizer, UserInfo } from './authorizer.ts';
import { forbiddenFor } from './forbidden.ts';
import { serviceAccountGroups, serviceAccountUsername, splitServiceAccountUsername } from './service-account-tokens.ts';
import { ANONYMOUS_USER, UNAUTHENTICATED, unescapeExtraKey, withAuthenticated } from './users.ts';

export const IMPERSONATE_USER = 'impersonate-user';
export const IMPERSONATE_GROUP = 'impersonate-group';
export const IMPERSONATE_UID = 'impersonate-uid';
export const IMPERSONATE_EXTRA_PREFIX = 'impersonate-extra-';

const AUTHENTICATION_GROUP = 'authentication.k8s.io';

/** Whether a header takes part in impersonation, so its repeats are kept apart. */
export const isImpersonationHeader = (name: string) =>
  name === IMPERSONATE_GROUP || name.startsWith(IMPERSONATE_EXTRA_PREFIX) || name === IMPERSONATE_USER || name === IMPERSONATE_UID;

/** One thing asked for: what is authorized (without its user), and what it adds to the new user. */
type Ask = Omit<AuthorizationAttributes, 'user' | 'verb'> & { kind: 'user' | 'serviceaccount' | 'group' | 'uid' | 'extra'; value: string; key?: string };

function asks(headers: Record<string, string | undefined>): Ask[] {
  const out: Ask[] = [];
  const user = headerValues(headers[IMPERSONATE_USER])[0];
  if (user) {
    const sa = splitServiceAccountUsername(user);
    out.push(sa
      ? { kind: 'serviceaccount', value: user, apiGroup: '', resource: 'serviceaccounts', namespace: sa[0], name: sa[1] }
      : { kind: 'user', value: user, apiGroup: '', resource: 'users', name: user });
  }
  for (const group of headerValues(headers[IMPERSONATE_GROUP])) out.push({ kind: 'group', value: group, apiGroup: '', resource: 'groups', name: group });
  for (const [header, raw] of Object.entries(headers)) {
    if (!header.startsWith(IMPERSONATE_EXTRA_PREFIX)) continue;
    const key = unescapeExtraKey(header.slice(IMPERSONATE_EXTRA_PREFIX.length).toLowerCase());
    for (const value of headerValues(raw)) out.push({ kind: 'extra', value, key, apiGroup: AUTHENTICATION_GROUP, resource: 'userextras', subresource: key, name: value });
  }
  const uid = headerValues(headers[IMPERSONATE_UID])[0];
  if (uid) out.push({ kind: 'uid', value: uid, apiGroup: AUTHENTICATION_GROUP, resource: 'uids', name: uid });
  if (!user && out.length) throw badRequest(`requested ${describe(out)} without impersonating a user`);
  return out;
}

const describe = (list: Ask[]) => `[${list.map((a) => `${a.kind} ${JSON.stringify(a.value)}`).join(', ')}]`;

/** Whether any impersonation header is present (the common case, none, costs a few lookups). */
export function impersonates(headers: Record<string, string | undefined>): boolean {
  if (headers[IMPERSONATE_USER] !== undefined || headers[IMPERSONATE_GROUP] !== undefined || headers[IMPERSONATE_UID] !== undefined) return true;
  for (const h in headers) if (h.startsWith(IMPERSONATE_EXTRA_PREFIX)) return true;
  return false;
}

/**
 * The user `requester` acts as: each thing asked for authorized with the verb impersonate, then
 * the new user built from them. Throws 400 for groups, uid or extras without a user, 403 for the
 * first thing refused.
 */
export async function impersonate(requester: UserInfo, headers: Record<string, string | undefined>, authorizer: Authorizer): Promise<UserInfo> {
  const list = asks(headers);
  if (!list.length) return requester;
  for (const ask of list) {
    const attrs = attributesOf(requester, ask);
    const d = await authorizer.authorize(attrs);
    if (d.decision !== 'allow') throw forbiddenFor(attrs, d.reason);
  }
  return userOf(list);
}

/**
 * The user a request impersonates when the chain allows every ask at once, else undefined: for
 * priority and fairness, which classifies a request on arrival by the user it acts as (the real
 * filter runs after impersonation), without waiting on a webhook or trusting what was refused.
 */
export function impersonatedAtOnce(requester: UserInfo, headers: Record<string, string | undefined>, authorizer: Authorizer): UserInfo | undefined {
  let list: Ask[];
  try {
    list = asks(headers);
  } catch {
    return undefined;
  }
  for (const ask of list) {
    const d = authorizer.authorize(attributesOf(requester, ask));
    if (d instanceof Promise || d.decision !== 'allow') return undefined;
  }
  return list.length ? userOf(list) : undefined;
}

function attributesOf(requester: UserInfo, ask: Ask): AuthorizationAttributes {
  const { kind: _kind, value: _value, key: _key, ...target } = ask;
  return { user: requester, verb: 'impersonate', ...target };
}

/** The new user the asks make (each already allowed). */
function userOf(list: Ask[]): UserInfo {
  const groupsAsked = list.some((a) => a.kind === 'group');
  let username = '';
  let uid: string | undefined;
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const { kind, value, key, namespace, name } of list) {
    if (kind === 'user') username = value;
    else if (kind === 'serviceaccount') {
      username = serviceAccountUsername(namespace!, name!);
      if (!groupsAsked) groups = serviceAccountGroups(namespace!);
    } else if (kind === 'group') groups.push(value);
    else if (kind === 'uid') uid = value;
    else (extra[key!] ??= []).push(value);
  }
  if (username !== ANONYMOUS_USER) withAuthenticated(groups);
  else if (!groups.includes(UNAUTHENTICATED)) groups.push(UNAUTHENTICATED);
  return { username, groups, ...(uid !== undefined ? { uid } : {}), ...(Object.keys(extra).length ? { extra } : {}) };
}
