// /healthz, /livez and /readyz as the real server answers them: each runs its named checks; all
// passing is 200 `ok` (with `?verbose`, one `[+]name ok` line per check, then `<name> check
// passed`); any failing is 500 listing every check, the failed ones as `[-]name failed: reason
// withheld`, then `<name> check failed`. `?exclude=name` skips a check. `/readyz/<check>` runs one
// check alone. /readyz carries the `shutdown` check, failing from the moment termination begins.
import { pathNotFound, type Query } from './request.ts';
import { textResponse, type ApiResponse } from './handlers/response.ts';

/** A named check: undefined when it passes, else why it fails (kept out of the public body). */
export interface HealthCheck {
  name: string;
  check(): string | undefined;
}

export const HEALTH_PATHS = ['/healthz', '/livez', '/readyz'] as const;

/** The answer of `path` (a health path, or one of its checks), or undefined for any other path. */
export function healthAnswer(path: string, query: Query, checks: Record<(typeof HEALTH_PATHS)[number], HealthCheck[]>): ApiResponse | undefined {
  const root = HEALTH_PATHS.find((p) => path === p || path.startsWith(`${p}/`));
  if (!root) return undefined;
  const list = checks[root];
  if (path !== root) {
    const one = list.find((c) => `${root}/${c.name}` === path);
    if (!one) throw pathNotFound(path);
    const why = one.check();
    return why === undefined ? textResponse(200, 'ok') : plainError(`internal server error: ${why}`);
  }
  const name = root.slice(1);
  const excluded = new Set(query.params.getAll('exclude'));
  let lines = '';
  let failed = false;
  for (const c of list) {
    if (excluded.delete(c.name)) {
      lines += `[+]${c.name} excluded: ok\n`;
      continue;
    }
    const why = c.check();
    if (why !== undefined) failed = true;
    lines += why === undefined ? `[+]${c.name} ok\n` : `[-]${c.name} failed: reason withheld\n`;
  }
  if (excluded.size > 0) lines += `warn: some health checks cannot be excluded: no matches for ${[...excluded].map((n) => JSON.stringify(n)).join(',')}\n`;
  if (failed) return plainError(`${lines}${name} check failed`);
  return textResponse(200, query.has('verbose') ? `${lines}${name} check passed\n` : 'ok');
}

/** Go's http.Error: the text and a newline, as text/plain, with status 500. */
function plainError(text: string): ApiResponse {
  return textResponse(500, `${text}\n`);
}
