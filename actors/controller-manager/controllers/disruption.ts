// The disruption controller keeps each PodDisruptionBudget's status, as the real one (1.32) does, so
// that the API server's eviction subresource spends a budget that says how things stand:
//
// - Keys are budgets. A pod's add, change or removal wakes the budgets of its namespace whose
//   selector matches its labels (a pod without labels wakes none); a workload whose replicas
//   change, or that goes, wakes the budgets of its namespace; a budget's own changes wake it.
//   Budgets are indexed by namespace with their selectors compiled, so a pod no budget selects
//   costs one map lookup.
// - A sync selects the budget's pods (no selector selects none, `{}` every pod of the namespace),
//   counts them (disruption-status.ts; their controllers' replicas through disruption-scale.ts)
//   and writes the status through the status subresource when it changed. A disruption the
//   eviction subresource approved is looked at again when its DeletionTimeout runs out.
// - A sync that fails (a pod whose controller cannot be found, say) writes
//   disruptionsAllowed 0 with the condition SyncFailed and the error (failSafe); a write that
//   conflicts waits for the budget's next event.
// - A pod whose DisruptionTarget condition is still True two minutes after it was set, while the
//   pod is not being deleted, gets it set back to False (the stale_pod_disruption queue), unless
//   the kubelet set it or the pod has finished.
// - Events as the real controller records them: NoPods, CalculateExpectedPodCountFailed and
//   UnmanagedPods on the budget, MultiplePodDisruptionBudgets and NotDeleted on the pod.
// One worker, as the real controller runs.
import { type PodDisruptionBudgetSpec, budgetSpec, budgetStatus } from '../../api/disruption-budget.ts';
import { timestamp } from '../../api/env.ts';
import { lookupResource } from '../../api/resources.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { WorkQueue } from '../../client/work-queue.ts';
import { compileLabelSelector, type CompiledSelector, type LabelSelector } from '../../scheduler/label-selector.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { ControllerScales } from './disruption-scale.ts';
import { awaitedDisruptions, computedStatus, countHealthy, expectedCounts, failSafeStatus } from './disruption-status.ts';
import { PODS, type Pod } from '../../api/model/core.ts';
import { PDBS, type PodDisruptionBudget } from '../../api/model/policy.ts';
import type { Deployment, ReplicaSet, StatefulSet } from '../../api/model/apps.ts';

const WORKLOADS = [lookupResource('apps', 'v1', 'replicasets')!, lookupResource('apps', 'v1', 'deployments')!, lookupResource('apps', 'v1', 'statefulsets')!];
/** How long a DisruptionTarget condition may stay True on a pod nobody deletes (stalePodDisruptionTimeout). */
export const STALE_DISRUPTION_MS = 2 * 60_000;


const hasLabels = (labels: Record<string, string> | undefined): labels is Record<string, string> => {
  for (const _ in labels) return true;
  return false;
};
const specReplicas = (o: ReplicaSet | Deployment | StatefulSet) => o.spec?.replicas;

/** How long until `pod`'s DisruptionTarget condition is stale, or undefined when it has none that can be (nonTerminatingPodHasStaleDisruptionCondition). */
export function staleDisruptionInMs(pod: Pod, nowMs: number): number | undefined {
  if (pod.metadata.deletionTimestamp) return undefined;
  const status = pod.status;
  const c = status?.conditions?.find((x) => x.type === 'DisruptionTarget');
  if (!c || c.status !== 'True' || c.reason === 'TerminationByKubelet' || status!.phase === 'Succeeded' || status!.phase === 'Failed') return undefined;
  return Math.max(0, STALE_DISRUPTION_MS - (nowMs - (Date.parse(c.lastTransitionTime ?? '') || 0)));
}

/** A LabelSelector as the real one prints in messages (its generated String()). */
function goSelector(s: unknown): string {
  if (!s) return 'nil';
  const { matchLabels = {}, matchExpressions = [] } = s as LabelSelector;
  const labels = Object.keys(matchLabels).sort().map((k) => `${k}: ${matchLabels[k]},`).join('');
  const exprs = matchExpressions.map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

export class DisruptionController extends QueuedController {
  readonly #budgets: Informer<PodDisruptionBudget>;
  readonly #pods: Informer<Pod>;
  readonly #scales: ControllerScales;
  /** Namespace → budget key → its selector, compiled as pods are matched against it. */
  readonly #selectors = new Map<string, Map<string, CompiledSelector>>();
  readonly #stalePods: WorkQueue;
  /** Pods whose DisruptionTarget condition is due to be looked at: one timer each, however often they change. */
  readonly #staleDue = new Set<string>();

  constructor(init: Omit<QueuedControllerInit, 'workers'>) {
    super('disruption-controller', { ...init, workers: 1 });
    this.#budgets = init.informers.get(PDBS);
    this.#pods = init.informers.get(PODS);
    const [sets, deployments, statefulSets] = WORKLOADS.map((t) => init.informers.get(t)) as [Informer, Informer, Informer];
    this.#scales = new ControllerScales(this.client, sets, deployments, statefulSets);
    this.#stalePods = new WorkQueue(init.clock, 1, (key) => this.#syncStalePod(key), (_key, e) => this.report(e),
      init.registry ? { registry: init.registry, name: 'stale_pod_disruption' } : undefined);
    this.#budgets.on({ add: (b) => this.#index(b), update: (_old, b) => this.#index(b), delete: (b) => this.#unindex(b) });
    this.#pods.on({ add: (p) => this.#podChanged(p), update: (old, p) => this.#podChanged(p, old), delete: (p) => this.#wakeBudgetsOf(p) });
    for (const w of [sets, deployments, statefulSets])
      w.on({
        update: (old, o) => (specReplicas(old) !== specReplicas(o) ? this.#wakeNamespace(o.metadata.namespace ?? '') : undefined),
        delete: (o) => this.#wakeNamespace(o.metadata.namespace ?? ''),
      });
  }

  override async start(): Promise<void> {
    await super.start();
    this.#stalePods.run();
  }

  override stop(): void {
    super.stop();
    this.#stalePods.stop();
  }

  // ---- Events -------------------------------------------------------------------------------------

  #index(budget: KObject): void {
    const namespace = budget.metadata.namespace ?? '';
    let budgets = this.#selectors.get(namespace);
    if (!budgets) this.#selectors.set(namespace, (budgets = new Map()));
    let selector: CompiledSelector;
    try {
      selector = compileLabelSelector(budgetSpec(budget).selector as LabelSelector | undefined);
    } catch {
      selector = compileLabelSelector(undefined); // an invalid selector matches no pod
    }
    const key = cacheKey(budget);
    budgets.set(key, selector);
    this.queue.add(key);
  }

  #unindex(budget: KObject): void {
    const namespace = budget.metadata.namespace ?? '';
    const budgets = this.#selectors.get(namespace);
    budgets?.delete(cacheKey(budget));
    if (budgets?.size === 0) this.#selectors.delete(namespace);
  }

  #podChanged(pod: KObject, old?: KObject): void {
    this.#wakeBudgetsOf(pod);
    // Labels changed away from a budget: it loses a pod.
    if (old && old.metadata.labels !== pod.metadata.labels) this.#wakeBudgetsOf(old);
    const staleInMs = staleDisruptionInMs(pod, this.clock.now());
    if (staleInMs === undefined) return;
    const key = cacheKey(pod);
    if (this.#staleDue.has(key)) return;
    this.#staleDue.add(key);
    this.#stalePods.addAfter(key, staleInMs);
  }

  #wakeBudgetsOf(pod: KObject): void {
    const budgets = this.#selectors.get(pod.metadata.namespace ?? '');
    const labels = pod.metadata.labels;
    if (!budgets || !hasLabels(labels)) return;
    let chosen: string | undefined;
    let several = false;
    for (const [key, selector] of budgets) {
      if (!selector.matches(labels)) continue;
      if (chosen === undefined) chosen = key;
      else several = true;
      this.queue.add(key);
    }
    if (several) this.event(pod, 'Warning', 'MultiplePodDisruptionBudgets',
      `Pod ${JSON.stringify(pod.metadata.namespace)}/${JSON.stringify(pod.metadata.name)} matches multiple PodDisruptionBudgets.  Chose ${JSON.stringify(chosen!.split('/')[1])} arbitrarily.`);
  }

  #wakeNamespace(namespace: string): void {
    for (const key of this.#selectors.get(namespace)?.keys() ?? []) this.queue.add(key);
  }

  // ---- Sync ---------------------------------------------------------------------------------------

  protected async sync(key: string): Promise<void> {
    const budget = this.#budgets.cache.byKey(key);
    if (!budget) return;
    try {
      await this.#trySync(key, budget);
    } catch (e) {
      // A budget changed or gone meanwhile comes back with its own event.
      if (isConflict(e) || isNotFound(e)) return;
      await this.#failSafe(budget, e as Error);
    }
  }

  async #trySync(key: string, budget: KObject): Promise<void> {
    const spec = budgetSpec(budget);
    const pods = this.#selectedPods(budget, spec);
    if (pods.length === 0) this.event(budget, 'Normal', 'NoPods', 'No matching pods found');
    const counts = await expectedCounts(spec, pods, () => this.#scales.expectedScale(pods)).catch((e: Error) => {
      this.event(budget, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${e.message}`);
      throw e;
    });
    if (counts.unmanaged.length > 0) this.event(budget, 'Warning', 'UnmanagedPods', `Pods selected by this PodDisruptionBudget (selector: ${goSelector(spec.selector)}) were found `
      + 'to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. '
      + 'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.');
    const now = this.clock.now();
    const { awaited, notDeleted, recheckAtMs } = awaitedDisruptions(pods, budgetStatus(budget).disruptedPods, now);
    const namespace = budget.metadata.namespace;
    // The real message names the namespace twice.
    for (const pod of notDeleted) this.event(pod, 'Warning', 'NotDeleted', `Pod was expected by PDB ${namespace}/${namespace} to be deleted but it wasn't`);
    const status = computedStatus(budget, counts, countHealthy(pods, awaited), awaited, now);
    if (status) await this.client.update(PDBS, { ...budget, status }, 'status');
    if (recheckAtMs !== undefined) this.queue.addAfter(key, recheckAtMs - now);
  }

  #selectedPods(budget: KObject, spec: PodDisruptionBudgetSpec): KObject[] {
    let selector: CompiledSelector;
    try {
      selector = compileLabelSelector(spec.selector as LabelSelector | undefined);
    } catch (e) {
      this.event(budget, 'Warning', 'NoPods', `Failed to get pods: ${(e as Error).message}`);
      throw e;
    }
    if (selector.nothing) return [];
    return this.#pods.cache.inNamespace(budget.metadata.namespace ?? '').filter((p) => selector.matches(p.metadata.labels ?? {}));
  }

  /** Nothing may be disrupted while the budget cannot be computed. */
  async #failSafe(budget: KObject, e: Error): Promise<void> {
    try {
      await this.client.update(PDBS, { ...budget, status: failSafeStatus(budget, e.message, this.clock.now()) }, 'status');
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }

  async #syncStalePod(key: string): Promise<void> {
    this.#staleDue.delete(key);
    const pod = this.#pods.cache.byKey(key);
    const staleInMs = pod && staleDisruptionInMs(pod, this.clock.now());
    if (staleInMs === undefined) return;
    if (staleInMs > 0) {
      // Set again since it was looked at: due later.
      this.#staleDue.add(key);
      return this.#stalePods.addAfter(key, staleInMs);
    }
    const status = pod!.status!;
    const conditions = status.conditions!.map((c) => (c.type === 'DisruptionTarget'
      ? { type: c.type, status: 'False', lastProbeTime: null, lastTransitionTime: timestamp(this.clock.now()) } : c));
    try {
      await this.client.update(PODS, { ...pod!, status: { ...status, conditions } }, 'status');
    } catch (e) {
      // The pod changed or went: its own event decides again.
      if (!isConflict(e) && !isNotFound(e)) throw e;
    }
  }
}
