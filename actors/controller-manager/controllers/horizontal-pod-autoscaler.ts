// The horizontal pod autoscaler (`horizontal-pod-autoscaler-controller`, kubernetes
// pkg/controller/podautoscaler/horizontal.go, 1.32). Every --horizontal-pod-autoscaler-sync-period
// each autoscaler (autoscaling/v2, as stored) is synced, its first sync one period after it appears:
//
// - Its target's `/scale` subresource is read (FailedGetScale otherwise). A target at 0 replicas
//   with minReplicas above 0 is left alone (ScalingDisabled); one above maxReplicas or below
//   minReplicas is brought within them; else each metric proposes a count (hpa-metrics.ts: the
//   target's pods, by its Scale's selector, and their PodMetrics from metrics.k8s.io) and the
//   largest is normalized (hpa-normalize.ts: stabilization, limits, a behavior's policies).
// - A new count is written through the scale subresource with the SuccessfulRescale Event
//   (`New size: 3; reason: cpu resource utilization (percentage of request) above target`);
//   the status (replicas, metrics, lastScaleTime, the AbleToScale, ScalingActive and
//   ScalingLimited conditions) is written when it changed.
// - Without metrics (no metrics server, as under `orchsim run`) each metric records its Failed…
//   Event and ScalingActive turns False; the target is not touched.
// Each autoscaler's recommendations and scale events live here between syncs, as in the real
// controller's maps, on the injected clock. An autoscaler whose pods another one also selects is
// AmbiguousSelector. No autoscaler, no work: one informer, no pod handlers.
import type { MetricStatus } from 'kubernetes-types/autoscaling/v2.js';
import { HPAS, type HorizontalPodAutoscaler, type Scale } from '../../api/model/autoscaling.ts';
import { PODS, type Pod } from '../../api/model/core.ts';
import { RESOURCES } from '../../api/resources.ts';
import { parseLabelSelector, type Matcher } from '../../api/selectors.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { parseGroupVersion } from './disruption-scale.ts';
import { MetricError } from './hpa-metric-error.ts';
import { proposeForMetric } from './hpa-metrics.ts';
import { newMemory, normalize, normalizeWithBehavior, recordInitialRecommendation, storeScaleEvent, type ScalingMemory } from './hpa-normalize.ts';
import type { ReplicaRules } from './hpa-replicas.ts';
import { StatusDraft } from './hpa-status.ts';

export interface AutoscalerOptions {
  syncPeriodMs: number;
  downscaleStabilizationMs: number;
  rules: ReplicaRules;
}

/** What the metrics decided: a count and its metric's name, or nothing (the status says why). */
type MetricsOutcome = { replicas: number; metric: string; statuses: MetricStatus[] } | { failed: string; statuses?: MetricStatus[] };

/** The path of the target's scale subresource, or the RESTMapper's error (the mapping is by group and kind, any version). */
function scalePath(namespace: string, ref: { apiVersion?: string; kind: string; name: string }): string {
  const { group } = parseGroupVersion(ref.apiVersion ?? '');
  const type = RESOURCES.find((t) => t.group === group && t.kind === ref.kind && t.subresources.some((s) => s.name === 'scale'))
    ?? RESOURCES.find((t) => t.group === group && t.kind === ref.kind);
  if (!type) throw new Error(`no matches for kind ${JSON.stringify(ref.kind)} in group ${JSON.stringify(group)}`);
  const root = group ? `/apis/${group}/${type.version}` : `/api/${type.version}`;
  return `${root}/namespaces/${encodeURIComponent(namespace)}/${type.resource}/${encodeURIComponent(ref.name)}/scale`;
}

export class HorizontalPodAutoscalerController extends QueuedController {
  readonly #hpas: Informer<HorizontalPodAutoscaler>;
  readonly #pods: Informer<Pod>;
  readonly #options: AutoscalerOptions;
  readonly #memory = new Map<string, ScalingMemory>();
  /** Autoscalers waiting for their next sync: one timer each, however often they change. */
  readonly #due = new Set<string>();
  /** Each autoscaler's selector as its last sync read it, to find pods two of them select. */
  readonly #selectors = new Map<string, Matcher>();

  constructor(init: Omit<QueuedControllerInit, 'workers'> & { workers?: number; options: AutoscalerOptions }) {
    super('horizontal-pod-autoscaler', { ...init, workers: init.workers ?? 5 });
    this.#options = init.options;
    this.#hpas = init.informers.get(HPAS);
    this.#pods = init.informers.get(PODS);
    this.#hpas.on({ add: (h) => this.#later(cacheKey(h)), update: (_old, h) => this.#later(cacheKey(h)), delete: (h) => this.#forget(cacheKey(h)) });
  }

  #later(key: string): void {
    if (this.#due.has(key)) return;
    this.#due.add(key);
    this.queue.addAfter(key, this.#options.syncPeriodMs);
  }

  #forget(key: string): void {
    this.#memory.delete(key);
    this.#selectors.delete(key);
  }

  protected async sync(key: string): Promise<void> {
    this.#due.delete(key);
    const hpa = this.#hpas.cache.byKey(key);
    if (!hpa) return this.#forget(key);
    this.#later(key);
    await this.#reconcile(key, hpa);
  }

  async #reconcile(key: string, hpa: HorizontalPodAutoscaler): Promise<void> {
    const now = this.clock.now();
    const draft = new StatusDraft(hpa.status, now);
    const namespace = hpa.metadata.namespace!;
    const ref = hpa.spec!.scaleTargetRef;
    let scale: Scale;
    try {
      scale = (await this.client.request('GET', scalePath(namespace, ref))) as Scale;
    } catch (e) {
      const message = (e as Error).message;
      this.event(hpa, 'Warning', 'FailedGetScale', message);
      draft.set('AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${message}`);
      return this.#write(hpa, draft, draft.build(hpa.status?.currentReplicas ?? 0, hpa.status?.desiredReplicas ?? 0, hpa.status?.currentMetrics, false));
    }
    draft.set('AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
    const current = scale.spec?.replicas ?? 0;
    const memory = this.#memory.get(key) ?? this.#memory.set(key, newMemory()).get(key)!;
    recordInitialRecommendation(memory, current, now);
    const min = hpa.spec!.minReplicas ?? 1, max = hpa.spec!.maxReplicas;
    let desired = 0, reason = '', statuses: MetricStatus[] | undefined;
    if (current === 0 && min !== 0) {
      draft.set('ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
    } else if (current > max) {
      [desired, reason] = [max, 'Current number of replicas above Spec.MaxReplicas'];
    } else if (current < min) {
      [desired, reason] = [min, 'Current number of replicas below Spec.MinReplicas'];
    } else {
      const outcome = await this.#fromMetrics(key, hpa, scale, draft);
      statuses = outcome.statuses;
      if ('failed' in outcome) {
        await this.#write(hpa, draft, draft.build(current, hpa.status?.desiredReplicas ?? 0, statuses, false));
        return this.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', outcome.failed);
      }
      desired = outcome.replicas;
      if (desired > current) reason = `${outcome.metric} above target`;
      if (desired < current) reason = 'All metrics below target';
      const bounds = { current, desired, min, max };
      const behavior = hpa.spec!.behavior;
      const n = behavior ? normalizeWithBehavior(memory, now, behavior, this.#options.downscaleStabilizationMs, bounds)
        : normalize(memory, now, this.#options.downscaleStabilizationMs, bounds);
      draft.set('AbleToScale', n.ableToScale.status, n.ableToScale.reason, n.ableToScale.message);
      draft.set('ScalingLimited', n.scalingLimited.status, n.scalingLimited.reason, n.scalingLimited.message);
      desired = n.replicas;
    }
    const rescale = desired !== current;
    if (rescale) {
      try {
        await this.client.request('PUT', scalePath(namespace, ref), { ...scale, spec: { ...scale.spec, replicas: desired } });
      } catch (e) {
        const message = (e as Error).message;
        this.event(hpa, 'Warning', 'FailedRescale', `New size: ${desired}; reason: ${reason}; error: ${message}`);
        draft.set('AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${message}`);
        return this.#write(hpa, draft, draft.build(current, hpa.status?.desiredReplicas ?? 0, statuses, false));
      }
      draft.set('AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desired}`);
      this.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desired}; reason: ${reason}`);
      storeScaleEvent(memory, hpa.spec!.behavior, current, desired, now);
    }
    await this.#write(hpa, draft, draft.build(current, rescale ? desired : current, statuses, rescale));
  }

  /** computeReplicasForMetrics: the selector checked, then every metric; ScalingActive says how it went. */
  async #fromMetrics(key: string, hpa: HorizontalPodAutoscaler, scale: Scale, draft: StatusDraft): Promise<MetricsOutcome> {
    const pods = this.#selectedPods(key, hpa, scale.status?.selector ?? '', draft);
    if (typeof pods === 'string') return { failed: pods };
    const specs = hpa.spec!.metrics ?? [];
    const statuses: MetricStatus[] = specs.map(() => ({ type: '' }));
    let replicas = 0, metric = '', invalid = 0, first: MetricError | undefined;
    for (const [i, spec] of specs.entries()) {
      try {
        const p = await proposeForMetric(this.client, hpa.metadata.namespace!, scale.status!.selector!, pods, spec, scale.spec?.replicas ?? 0, this.#options.rules, this.clock.now());
        statuses[i] = p.status;
        if (replicas === 0 || p.replicas > replicas) [replicas, metric] = [p.replicas, p.name];
      } catch (e) {
        const error = e instanceof MetricError ? e : new MetricError('FailedGetResourceMetric', (e as Error).message, 'failed to get metric value');
        this.event(hpa, 'Warning', error.reason, error.detail);
        first ??= error;
        invalid++;
      }
    }
    if (first && (invalid >= specs.length || replicas < (scale.spec?.replicas ?? 0))) {
      draft.set('ScalingActive', 'False', first.reason, `the HPA was unable to compute the replica count: ${first.detail}`);
      return { failed: `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${first.message}`, statuses };
    }
    draft.set('ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`);
    return { replicas, metric, statuses };
  }

  /** The pods the target's selector selects (validateAndParseSelector), or why they cannot be used. */
  #selectedPods(key: string, hpa: HorizontalPodAutoscaler, selector: string, draft: StatusDraft): Pod[] | string {
    const refuse = (event: string, reason: string, message: string, condition = message) => {
      this.event(hpa, 'Warning', event, message);
      draft.set('ScalingActive', 'False', reason, condition);
      return message;
    };
    if (selector === '') return refuse('SelectorRequired', 'InvalidSelector', 'selector is required', "the HPA target's scale is missing a selector");
    let matches: Matcher;
    try {
      matches = parseLabelSelector(selector) ?? (() => true);
    } catch (e) {
      const message = `couldn't convert selector into a corresponding internal selector object: ${(e as Error).message}`;
      return refuse('InvalidSelector', 'InvalidSelector', message);
    }
    this.#selectors.set(key, matches);
    const namespace = hpa.metadata.namespace!;
    const pods = this.#pods.cache.inNamespace(namespace).filter((p) => matches(p));
    const others = [...this.#selectors].filter(([k, m]) => k.startsWith(`${namespace}/`) && pods.some((p) => m(p))).map(([k]) => k).sort();
    if (others.length > 1) return refuse('AmbiguousSelector', 'AmbiguousSelector', `pods by selector ${selector} are controlled by multiple HPAs: [${others.join(' ')}]`);
    return pods;
  }

  async #write(hpa: HorizontalPodAutoscaler, draft: StatusDraft, status: HorizontalPodAutoscaler['status']): Promise<void> {
    if (!draft.changed(status!)) return;
    try {
      await this.client.update(HPAS, { ...hpa, status }, 'status');
    } catch (e) {
      this.event(hpa, 'Warning', 'FailedUpdateStatus', (e as Error).message);
    }
  }
}
