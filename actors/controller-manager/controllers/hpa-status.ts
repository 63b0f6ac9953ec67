// An autoscaler's status as the real controller rebuilds it on each sync (setCondition,
// setStatus, updateStatusIfNeeded, 1.32): conditions keep their place and their
// lastTransitionTime until their status changes; the status is written only when it differs.
import { isDeepStrictEqual } from 'node:util';
import type { HorizontalPodAutoscalerCondition, HorizontalPodAutoscalerStatus, MetricStatus } from 'kubernetes-types/autoscaling/v2.js';
import { timestamp } from '../../api/env.ts';

export type ConditionType = 'AbleToScale' | 'ScalingActive' | 'ScalingLimited';

/** A status being rebuilt: what the sync found, and the conditions it sets as it goes. */
export class StatusDraft {
  conditions: HorizontalPodAutoscalerCondition[];

  constructor(readonly original: HorizontalPodAutoscalerStatus | undefined, readonly nowMs: number) {
    this.conditions = (original?.conditions ?? []).map((c) => ({ ...c }));
  }

  /** Sets `type` to `status`, added at the end if absent; its lastTransitionTime moves only when its status changes. */
  set(type: ConditionType, status: 'True' | 'False', reason: string, message: string): void {
    let c = this.conditions.find((x) => x.type === type);
    if (!c) this.conditions.push((c = { type, status: '' }));
    if (c.status !== status) c.lastTransitionTime = timestamp(this.nowMs);
    c.status = status;
    c.reason = reason;
    c.message = message;
  }

  /**
   * The status to write (setStatus): the replicas seen and wanted, the metrics' statuses (a failed
   * metric's empty, as the real one leaves it), the last scale time (now when it rescaled), the conditions.
   */
  build(currentReplicas: number, desiredReplicas: number, metrics: MetricStatus[] | undefined, rescaled: boolean): HorizontalPodAutoscalerStatus {
    const lastScaleTime = rescaled ? timestamp(this.nowMs) : this.original?.lastScaleTime;
    return {
      ...(lastScaleTime ? { lastScaleTime } : {}),
      currentReplicas,
      desiredReplicas,
      ...(metrics?.length ? { currentMetrics: metrics } : {}),
      conditions: this.conditions,
    };
  }

  /** Whether `next` says something the stored status does not. */
  changed(next: HorizontalPodAutoscalerStatus): boolean {
    return !isDeepStrictEqual(normal(this.original), normal(next));
  }
}

/** A status with absent and zero fields alike, as Go's DeepEqual sees decoded structs. */
function normal(s: HorizontalPodAutoscalerStatus | undefined) {
  return { lastScaleTime: s?.lastScaleTime ?? null, currentReplicas: s?.currentReplicas ?? 0, desiredReplicas: s?.desiredReplicas ?? 0,
    currentMetrics: s?.currentMetrics ?? [], conditions: s?.conditions ?? [] };
}
