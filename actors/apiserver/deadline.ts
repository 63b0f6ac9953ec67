// --request-timeout (seed 001, Limits; 1m0s by default): a request that is not long-running gets an
// answer within it, on the server's clock. A `timeout` query parameter shortens the deadline but
// never lengthens it (0 or more than the maximum means the maximum), and a malformed one is a 400,
// as the real WithRequestDeadline filter has it. When the deadline passes first the client gets
// the real 504; the handler is not interrupted and finishes in the background, still holding its
// in-flight place until it does, as in the real server.
import type { Clock } from '../api/env.ts';
import { badRequest, StatusError } from '../api/status.ts';
import { statusResponse, type ApiResponse } from './handlers/response.ts';
import type { Query } from './request.ts';

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.ParseDuration in milliseconds, with its error texts. */
function goDuration(text: string): number {
  const quoted = JSON.stringify(text);
  let s = text;
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    sign = s[0] === '-' ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new Error(`time: invalid duration ${quoted}`);
  const part = /^(\d+\.?\d*|\.\d+)([^\d.]*)/;
  let total = 0;
  while (s !== '') {
    const m = part.exec(s);
    if (!m) throw new Error(`time: invalid duration ${quoted}`);
    if (m[2] === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const unit = UNIT_MS[m[2]];
    if (unit === undefined) throw new Error(`time: unknown unit ${JSON.stringify(m[2])} in duration ${quoted}`);
    total += Number(m[1]) * unit;
    s = s.slice(m[0].length);
  }
  return sign * total;
}

/** The deadline of a request in milliseconds: the maximum, or a shorter `timeout` it asks for. Throws a 400. */
export function deadlineMs(query: Query, maximumMs: number): number {
  const value = query.string('timeout');
  if (value === undefined || value === '') return maximumMs;
  let asked: number;
  try {
    asked = goDuration(value);
  } catch (e) {
    throw badRequest(`invalid timeout specified in the request URL - ${(e as Error).message}`);
  }
  return asked > 0 && asked < maximumMs ? asked : maximumMs;
}

/** The real 504 of a request past its deadline (apiserver's finisher, with the context's error). */
export const requestTimedOut = () =>
  new StatusError(504, 'Timeout', 'Timeout: request did not complete within requested timeout - context deadline exceeded', {});

/**
 * `work`'s answer, or the 504 when `ms` pass first on `clock`; `onTimeout` is told when that
 * happens. The timer is cleared as soon as either settles.
 */
export function withDeadline(work: Promise<ApiResponse>, ms: number, clock: Clock, onTimeout: () => void): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = clock.setTimeout(() => {
      if (settled) return;
      settled = true;
      onTimeout();
      resolve(statusResponse(requestTimedOut().status));
    }, ms);
    work.then((r) => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      resolve(r);
    }, (e: unknown) => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      reject(e);
    });
  });
}
