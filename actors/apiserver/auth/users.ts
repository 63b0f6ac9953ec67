// The user and group names every authenticator shares, and the rules that finish a user.
export const AUTHENTICATED = 'system:authenticated';
export const UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS_USER = 'system:anonymous';

/**
 * The groups of an authenticated user: system:authenticated joins them unless they already name
 * system:authenticated or system:unauthenticated (the real server's authenticated-group adder).
 */
export function withAuthenticated(groups: string[]): string[] {
  if (!groups.includes(AUTHENTICATED) && !groups.includes(UNAUTHENTICATED)) groups.push(AUTHENTICATED);
  return groups;
}

/** An extra's key is %-encoded where a header name carries it; one that does not decode is kept as sent. */
export function unescapeExtraKey(key: string): string {
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}
