// The eviction subresource, as the real EvictionREST (1.32): a delete of a pod that respects the
// PodDisruptionBudget selecting it, spending the budget through the status the disruption
// controller keeps (controller-manager/controllers/disruption.ts).
//
// - A pod that can disrupt nothing more (Succeeded, Failed, Pending, or already being deleted) is
//   deleted at once; a Pending one only at the version read, unless the caller named a version
//   (a conflict reads it again, up to 20 times).
// - Otherwise the budgets are those of its namespace whose selector matches its labels (here an
//   absent or empty selector matches nothing). More than one answers 500; none, the pod goes.
// - A pod that is not Ready goes without spending its budget when the budget lets unhealthy pods
//   go (unhealthyPodEvictionPolicy AlwaysAllow, or the budget is met: currentHealthy >=
//   desiredHealthy > 0), at the version read, so a pod that turned Ready meanwhile is refused
//   (429) rather than deleted.
// - Else the budget is spent with a compare-and-swap on its status (read again and checked again
//   on a conflict): 429 while the controller has not observed its generation (Retry-After 10) or
//   when no disruption is allowed; 403 when disruptedPods holds more than 2000 pods (a negative
//   disruptionsAllowed, the real server's other 403, cannot be written through policy/v1).
//   Spending decrements disruptionsAllowed (the condition turns InsufficientPods at 0) and
//   records the pod in disruptedPods, so the controller does not count it healthy while it goes.
//   A dry run spends nothing, and neither does an eviction whose preconditions fail (the real
//   server spends, then fails the delete).
// - The pod is marked with the DisruptionTarget condition (EvictionByEvictionAPI), then deleted
//   with the eviction's delete options (so the caller's preconditions hold). 201 Success.
import { budgetSpec, budgetStatus, withDisruptionAllowedCondition, ALWAYS_ALLOW, type PodDisruptionBudgetStatus } from '../../api/disruption-budget.ts';
import { timestamp } from '../../api/env.ts';
import { isFinished, isReady } from '../../api/fields.ts';
import { badRequest, conflict, forbidden, isConflict, StatusError, success, tooManyRequests } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { compileLabelSelector, type LabelSelector } from '../../scheduler/label-selector.ts';
import type { DeleteOptions, Registry } from '../registry/registry.ts';
import type { ApiRequest, ResourceRequest } from '../request.ts';
import { checkObject, dryRun, parseBody } from './decode.ts';
import { deleteOptionsFrom } from './delete.ts';
import { encodeStatus, type EncodeContext } from './encode.ts';
import type { ApiResponse } from './response.ts';
import { PDBS } from '../../api/model/policy.ts';
import type { Pod, PodStatus } from '../../api/model/core.ts';

const EVICTION = { apiVersion: 'policy/v1', kind: 'Eviction', group: 'policy', version: 'v1' };
/** EvictionsRetry's steps: how often a conflicting delete is tried again. */
const CONFLICT_ATTEMPTS = 20;
/** MaxDisruptedPodSize: approved evictions the controller has not yet seen through. */
const MAX_DISRUPTED_PODS = 2000;
const VIOLATES = "Cannot evict pod as it would violate the pod's disruption budget.";


export async function handleEviction(req: ApiRequest, r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const options = evictionOptions(req, r);
  const pod = await deleteUnguarded(registry, r, options);
  if (!pod) return encodeStatus(ctx, success(undefined, 201), 201);
  const budgets = (await registry.list(PDBS, pod.metadata.namespace, {})).items.filter((b) => selects(b, pod));
  if (budgets.length > 1)
    return encodeStatus(ctx, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.' }, 500);
  const budget = budgets[0];
  // An unhealthy pod the budget lets go is deleted only as read: Ready meanwhile, it counts again.
  const asRead = budget !== undefined && !isReady(pod) && letsUnhealthyGo(budget);
  if (budget && !asRead) await spend(registry, budget, pod, options);
  try {
    await markAndDelete(registry, r, asRead ? atVersion(options, pod) : options);
  } catch (e) {
    if (isConflict(e) && asRead && !options.preconditions?.resourceVersion) throw stillProcessing(budget.metadata.name!);
    throw e;
  }
  return encodeStatus(ctx, success(undefined, 201), 201);
}

/** The eviction's delete options, its dry run agreeing with the request's (propagateDryRun). */
function evictionOptions(req: ApiRequest, r: ResourceRequest): DeleteOptions {
  const { object } = checkObject(parseBody(req), EVICTION, 'Ignore', ['policy/v1', 'policy/v1beta1']);
  if ((object.metadata.name ?? '') !== r.name) throw badRequest('name in URL does not match name in Eviction object');
  if (object.metadata.namespace && object.metadata.namespace !== r.namespace)
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const body = isPlainObject(object.deleteOptions) ? object.deleteOptions : {};
  const requested = r.query.params.getAll('dryRun');
  dryRun(requested, 'CreateOptions');
  const content = Array.isArray(body.dryRun) ? body.dryRun.map(String) : [];
  if (requested.length > 0 && content.length > 0 && requested.join('\n') !== content.join('\n'))
    throw new StatusError(500, 'Unknown', `Non-matching dry-run options in request and content: [${requested.join(' ')}] and [${content.join(' ')}]`);
  return deleteOptionsFrom({ ...body, dryRun: content.length > 0 ? content : requested });
}

const phaseOf = (pod: Pod) => pod.status?.phase;
const atVersion = (o: DeleteOptions, pod: KObject): DeleteOptions => ({ ...o, preconditions: { ...o.preconditions, resourceVersion: pod.metadata.resourceVersion! } });

/** Deletes the pod at once when it cannot count against a budget (canIgnorePDB); else returns it as read. */
async function deleteUnguarded(registry: Registry, r: ResourceRequest, options: DeleteOptions): Promise<KObject | undefined> {
  const callerVersion = options.preconditions?.resourceVersion !== undefined;
  for (let attempt = 1; ; attempt++) {
    const pod = await registry.get(r.type, r.namespace, r.name!);
    const deleting = Boolean(pod.metadata.deletionTimestamp);
    if (!deleting && !isFinished(pod) && phaseOf(pod) !== 'Pending') return pod;
    // A Pending pod may start meanwhile: it goes only as read (shouldEnforceResourceVersion).
    const opts = !deleting && !isFinished(pod) && !callerVersion ? atVersion(options, pod) : options;
    try {
      await markAndDelete(registry, r, opts);
      return undefined;
    } catch (e) {
      if (callerVersion || !isConflict(e) || attempt >= CONFLICT_ATTEMPTS) throw e;
    }
  }
}

/** Whether `budget` covers `pod` (getPodDisruptionBudgets: an absent, empty or invalid selector covers nothing). */
function selects(budget: KObject, pod: KObject): boolean {
  try {
    const selector = compileLabelSelector(budgetSpec(budget).selector as LabelSelector | undefined);
    return !selector.nothing && !selector.everything && selector.matches(pod.metadata.labels ?? {});
  } catch {
    return false;
  }
}

/** Whether an unhealthy pod may go without spending the budget. */
function letsUnhealthyGo(budget: KObject): boolean {
  if (budgetSpec(budget).unhealthyPodEvictionPolicy === ALWAYS_ALLOW) return true;
  const { currentHealthy, desiredHealthy } = budgetStatus(budget);
  return currentHealthy >= desiredHealthy && desiredHealthy > 0;
}

const stillProcessing = (name: string) =>
  tooManyRequests(VIOLATES, 10, [{ reason: 'DisruptionBudget', message: `The disruption budget ${name} is still being processed by the server.` }]);

/** The budget's status with one disruption spent on `pod` (checkAndDecrement), or the refusal. */
function spent(budget: KObject, pod: string, now: string): PodDisruptionBudgetStatus {
  const name = budget.metadata.name!;
  const status = budgetStatus(budget);
  const refused = (why: string) => forbidden({ group: 'policy', resource: 'poddisruptionbudget', name }, why);
  if ((status.observedGeneration ?? 0) < (budget.metadata.generation ?? 0)) throw stillProcessing(name);
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS)
    throw refused('DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (status.disruptionsAllowed === 0)
    throw new StatusError(429, 'TooManyRequests', VIOLATES, { causes: [{ reason: 'DisruptionBudget',
      message: `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently` }] });
  let next: PodDisruptionBudgetStatus = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 };
  if (next.disruptionsAllowed === 0) next = withDisruptionAllowedCondition(next, now);
  return { ...next, disruptedPods: { ...next.disruptedPods, [pod]: now } };
}

/**
 * Spends one disruption of `budget` on `pod`: checked on the budget as read, then again on every
 * version the write meets. The caller's preconditions are checked on the pod as read before
 * anything is spent (the real server would spend, then refuse the delete: no half-writes here).
 */
async function spend(registry: Registry, budget: KObject, pod: KObject, options: DeleteOptions): Promise<void> {
  const now = timestamp(registry.env.clock.now());
  const name = pod.metadata.name!;
  spent(budget, name, now);
  checkPreconditions(pod, options.preconditions);
  if (options.dryRun) return;
  await registry.update(PDBS, budget.metadata.namespace, budget.metadata.name!, (current) => ({ ...current!, status: spent(current!, name, now) }),
    { dryRun: false, fieldManager: 'orch-apiserver', subresource: 'status' });
}

/** The caller's preconditions against `pod`, refused with the eviction's own words. */
function checkPreconditions(pod: KObject, pre: DeleteOptions['preconditions']): void {
  const refuse = (why: string) => conflict({ group: '', resource: 'Pod', name: pod.metadata.name }, why);
  if (pre?.uid && pre.uid !== pod.metadata.uid)
    throw refuse(`the UID in the precondition (${pre.uid}) does not match the UID in record (${pod.metadata.uid}). The object might have been deleted and then recreated`);
  if (pre?.resourceVersion && pre.resourceVersion !== pod.metadata.resourceVersion)
    throw refuse(`the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${pod.metadata.resourceVersion}). The object might have been modified`);
}

/** The pod with its DisruptionTarget condition, as UpdatePodCondition sets it. */
function withDisruptionTarget(pod: Pod, now: string): KObject {
  const status: PodStatus = pod.status ?? {};
  const conditions = status.conditions ?? [];
  const at = conditions.findIndex((c) => c.type === 'DisruptionTarget');
  const old = conditions[at];
  const condition = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null,
    lastTransitionTime: old?.status === 'True' ? old.lastTransitionTime : now, reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
  return { ...pod, status: { ...status, conditions: at < 0 ? [...conditions, condition] : conditions.map((c, i) => (i === at ? condition : c)) } };
}

/**
 * Marks the pod a disruption target, then deletes it (addConditionAndDeletePod). The caller's
 * preconditions are checked on the pod marked; a version precondition then names the marked pod.
 */
async function markAndDelete(registry: Registry, r: ResourceRequest, options: DeleteOptions): Promise<void> {
  let opts = options;
  if (!opts.dryRun) {
    const pre = opts.preconditions;
    const marked = await registry.guaranteedUpdate(r.type, r.namespace, r.name!, (pod) => {
      checkPreconditions(pod, pre);
      return withDisruptionTarget(pod, timestamp(registry.env.clock.now()));
    }, { dryRun: false });
    if (pre?.resourceVersion) opts = { ...opts, preconditions: { ...pre, resourceVersion: marked.metadata.resourceVersion! } };
  }
  await registry.delete(r.type, r.namespace, r.name!, opts);
}
