// `spread` of a usage model: the pods of a workload share its load, as the replicas behind a
// Service do. `{ group: "default/web", replicas: 10 }` says the model's curves are what each pod
// uses when 10 of them are Ready; with n Ready, each uses replicas / n times that. Who is Ready
// comes from the load balancer (actors/load-balancer/); where none runs (no one has said), the
// curves apply as written.
import { USAGE_MODEL, UsageModelError, type Curve } from './usage-model.ts';
import type { Pod } from '../api/model/core.ts';

export interface Spread {
  /** `namespace/workload`: the pods sharing one load. */
  group: string;
  /** How many Ready pods the curves are written for. */
  replicas: number;
}

const REPLICAS_MAX = 1_000_000;

export function checkSpread(v: unknown, path: string): Spread {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new UsageModelError(path, 'must be a mapping { group: namespace/workload, replicas: N }');
  const { group, replicas, ...rest } = v as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new UsageModelError(`${path}.${extra}`, 'unknown field; allowed fields: group, replicas');
  if (typeof group !== 'string' || !/^[^/]+\/[^/]+$/.test(group)) throw new UsageModelError(`${path}.group`, `must be namespace/workload, got ${JSON.stringify(group)}`);
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 1 || replicas > REPLICAS_MAX)
    throw new UsageModelError(`${path}.replicas`, `must be a whole number of pods from 1 to ${REPLICAS_MAX}, got ${JSON.stringify(replicas)}`);
  return { group, replicas };
}

/** The spread a pod's usage annotation gives, if any (a broken annotation gives none, as for the rest of the model). */
export function spreadOf(pod: Pod): Spread | undefined {
  const text = pod.metadata.annotations?.[USAGE_MODEL];
  if (text === undefined || !text.includes('"spread"')) return undefined;
  try {
    return checkSpread((JSON.parse(text) as { spread?: unknown }).spread, 'spread');
  } catch {
    return undefined;
  }
}

/** How many Ready pods share a group's load now; undefined while nobody has said (actors/load-balancer/traffic.ts). */
export interface LoadShares {
  readyPods(group: string): number | undefined;
}

/** `c` as one pod of the spread's group uses it: scaled by replicas over the Ready pods now. */
export function spreadCurve(c: Curve, spread: Spread, shares: LoadShares): Curve {
  const { group, replicas } = spread;
  return { of: c.of, at: (t) => (c.at(t) * replicas) / Math.max(1, shares.readyPods(group) ?? replicas), max: c.max * replicas };
}
