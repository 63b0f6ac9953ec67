// Each autoscaled Deployment's replicas at each sample of a run whose scenario asks for usage
// (sim/cluster-series.ts decides): its desired and Ready replicas and its autoscaler's measured
// CPU use. Read from the store's committed changes (the stream watchers get), keeping only the
// last version of each Deployment and HorizontalPodAutoscaler; a Deployment counts as autoscaled
// once an HPA targets it.
import type { ChangeRecord } from '../actors/apiserver/storage/store.ts';
import type { Deployment } from '../actors/api/model/apps.ts';
import type { HorizontalPodAutoscaler } from '../actors/api/model/autoscaling.ts';
import type { ReplicaSeries } from './report/types.ts';

const DEPLOYMENTS = '/apps/deployments/';
const AUTOSCALERS = '/autoscaling/horizontalpodautoscalers/';

export class ReplicaSeriesRecorder {
  /** By `namespace/name` of the Deployment, in the order their autoscalers appeared. */
  readonly series: Record<string, ReplicaSeries> = {};
  readonly #deployments = new Map<string, Deployment>();
  readonly #autoscalers = new Map<string, HorizontalPodAutoscaler>();
  #samples = 0;

  constructor(readonly keyPrefix: string) {}

  observe(c: ChangeRecord): void {
    const key = c.key.slice(this.keyPrefix.length);
    const [map, name] = key.startsWith(DEPLOYMENTS) ? [this.#deployments, key.slice(DEPLOYMENTS.length)]
      : key.startsWith(AUTOSCALERS) ? [this.#autoscalers, key.slice(AUTOSCALERS.length)] : [undefined, ''];
    if (!map) return;
    if (c.type === 'DELETED') map.delete(name);
    else (map as Map<string, unknown>).set(name, c.object);
  }

  /** Appends one sample; a Deployment first targeted now gets nulls for the samples before. */
  sample(): void {
    this.#samples++;
    const seen = new Set<string>();
    for (const [key, hpa] of this.#autoscalers) {
      const ref = hpa.spec?.scaleTargetRef;
      if (ref?.kind !== 'Deployment') continue;
      const target = `${hpa.metadata.namespace}/${ref.name}`;
      if (seen.has(target)) continue;
      seen.add(target);
      const s = (this.series[target] ??= this.#open(key));
      s.autoscaler = key;
      s.minReplicas = hpa.spec?.minReplicas ?? 1;
      s.maxReplicas = hpa.spec?.maxReplicas ?? 0;
      const wanted = cpuTarget(hpa);
      if (wanted === undefined) delete s.targetCPUUtilization;
      else s.targetCPUUtilization = wanted;
      const d = this.#deployments.get(target);
      s.desired.push(d ? (d.spec?.replicas ?? 1) : null);
      s.ready.push(d ? (d.status?.readyReplicas ?? 0) : null);
      s.cpuUtilization.push(cpuNow(hpa) ?? null);
    }
    for (const s of Object.values(this.series))
      for (const values of [s.desired, s.ready, s.cpuUtilization]) if (values.length < this.#samples) values.push(null);
  }

  #open(autoscaler: string): ReplicaSeries {
    const before = () => new Array<number | null>(this.#samples - 1).fill(null);
    return { autoscaler, minReplicas: 1, maxReplicas: 0, desired: before(), ready: before(), cpuUtilization: before() };
  }
}

/** The autoscaler's CPU utilization target, percent of the pods' requests. */
function cpuTarget(hpa: HorizontalPodAutoscaler): number | undefined {
  const m = hpa.spec?.metrics?.find((x) => x.type === 'Resource' && x.resource?.name === 'cpu');
  return m?.resource?.target.averageUtilization;
}

/** The CPU utilization the autoscaler measured at its last sync. */
function cpuNow(hpa: HorizontalPodAutoscaler): number | undefined {
  const m = hpa.status?.currentMetrics?.find((x) => x.type === 'Resource' && x.resource?.name === 'cpu');
  return m?.resource?.current.averageUtilization;
}
