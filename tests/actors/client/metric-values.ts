// Reading one series of a registry in tests: by its sample name (a histogram's `_count`, `_sum`
// or `_bucket` included) and the labels it must carry; undefined when no series matches.
import type { Registry } from '../../../actors/api/metrics.ts';

export async function sample(registry: Registry, name: string, labels: Record<string, string | number> = {}): Promise<number | undefined> {
  for (const family of await registry.getMetricsAsJSON())
    for (const v of family.values as { value: number; labels: Record<string, string | number>; metricName?: string }[]) {
      if ((v.metricName ?? family.name) !== name) continue;
      if (Object.entries(labels).every(([k, want]) => String(v.labels[k]) === String(want))) return v.value;
    }
  return undefined;
}
