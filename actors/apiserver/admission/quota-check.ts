// One write checked against its namespace's quotas (the quota admission's CheckRequest): each
// quota that governs the object must know its usage and have room for the object's usage (on an
// update, only what it adds); the answer is each such quota's usage with the object charged, or a
// 403 with the real message. Pure: the plugin (resource-quota.ts) writes the charges.
import { evaluatorFor, quotaMatches, type Evaluator } from '../../api/quota.ts';
import { addLists, exceeding, listsEqual, mask, negativeNames, prettyPrint, readResourceList, removeZeros, subtractNonNegative,
  type ResourceList } from '../../api/resource-lists.ts';
import { forbidden } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { targetOf, type AdmissionAttributes } from './chain.ts';

export interface Charge {
  quota: KObject;
  /** status.used with the object charged. */
  used: ResourceList;
}

const statusOf = (quota: KObject) => (quota.status ?? {}) as { hard?: unknown; used?: unknown };

/** The evaluator that charges this write, or undefined when quotas do not count it. */
export function chargingEvaluator(a: AdmissionAttributes): Evaluator | undefined {
  const e = evaluatorFor(a.type.group, a.type.resource);
  return e?.handles(a.operation, a.subresource) && a.object ? e : undefined;
}

/** The charges of a write; [] when no quota governs it or it adds nothing. */
export function chargeRequest(quotas: readonly KObject[], a: AdmissionAttributes, e: Evaluator, nowMs: number): Charge[] {
  const obj = a.object!;
  const governing: { quota: KObject; hard: ResourceList; used: ResourceList }[] = [];
  for (const quota of quotas) {
    const hard = readResourceList(statusOf(quota).hard);
    if (!quotaMatches(e, quota, hard.keys(), obj)) continue;
    const restricted = e.matching(hard.keys());
    const unmet = e.constraints(restricted, obj);
    if (unmet) throw forbidden(targetOf(a), `failed quota: ${quota.metadata.name}: ${unmet}`);
    const used = readResourceList(statusOf(quota).used);
    if (restricted.some((name) => !used.has(name)))
      throw forbidden(targetOf(a), `status unknown for quota: ${quota.metadata.name}, resources: ${[...restricted].sort().join(',')}`);
    governing.push({ quota, hard, used });
  }
  let delta = e.usage(obj, nowMs);
  const negative = negativeNames(delta);
  if (negative.length) throw forbidden(targetOf(a), `quota usage is negative for resource(s): ${negative.sort().join(',')}`);
  if (a.operation === 'UPDATE' && a.old?.metadata.resourceVersion) delta = subtractNonNegative(delta, e.usage(a.old, nowMs));
  delta = removeZeros(delta);
  if (delta.size === 0) return [];
  return governing.map(({ quota, hard, used }) => {
    const requested = mask(delta, hard.keys());
    const next = addLists(used, requested);
    const over = exceeding(mask(next, requested.keys()), hard);
    if (over.length)
      throw forbidden(targetOf(a), `exceeded quota: ${quota.metadata.name}, requested: ${prettyPrint(mask(requested, over))}, `
        + `used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`);
    return { quota, used: next };
  }).filter((c) => !listsEqual(c.used, readResourceList(statusOf(c.quota).used)));
}
