// The `requestTime:` section: how long API requests take (sim/request-time.ts). Absent, requests
// are answered at the instant they are sent; present, each field has a default taken from what
// real clusters show at low load:
//
//   requestTime:
//     network: 1ms      # one way, between a component and the API server (0 .. 10s)
//     read: 2ms         # mean service time of a read (GET, LIST, a watch's backlog)
//     write: 5ms        # mean service time of a write (the store's commit included)
//     inflight: 600     # requests served at once (the API server's --max-requests-inflight
//                       # and --max-mutating-requests-inflight together); more wait their turn
import type { RequestTimeModel } from '../request-time.ts';
import type { Field } from './field.ts';
import { durationMs, integer, optional } from './schema.ts';

export const REQUEST_TIME_DEFAULTS: RequestTimeModel = { networkMs: 1, readMs: 2, writeMs: 5, inflight: 600 };
const MAX_MS = 10_000;

export function requestTime(f: Field): RequestTimeModel {
  if (f.value === null) return { ...REQUEST_TIME_DEFAULTS };
  f.mapping(['network', 'read', 'write', 'inflight']);
  const ms = (name: string, fallback: number, positive: boolean) => optional(f.child(name), (x) => {
    const v = durationMs(x);
    if (v > MAX_MS || (positive ? !(v > 0) : v < 0) || !Number.isInteger(v)) x.fail(`must be whole milliseconds, ${positive ? 'greater than 0' : 'at least 0'} and at most 10s`);
    return v;
  }, fallback);
  return {
    networkMs: ms('network', REQUEST_TIME_DEFAULTS.networkMs, false),
    readMs: ms('read', REQUEST_TIME_DEFAULTS.readMs, true),
    writeMs: ms('write', REQUEST_TIME_DEFAULTS.writeMs, true),
    inflight: optional(f.child('inflight'), (x) => integer(x, 1, 100_000, 'an integer from 1 to 100000'), REQUEST_TIME_DEFAULTS.inflight),
  };
}
