// The scenario's `clusterAutoscaler:` section: the real autoscaler's flags by name (checked by its
// option table, so a bad one is an error of this file naming the flag) and `provisioningDelay`,
// how long the simulated cloud takes to give a node it was asked for.
import { clusterAutoscalerFromScenario } from '../../actors/cluster-autoscaler/options.ts';
import { isMapping, type Field } from './field.ts';
import { durationMs } from './schema.ts';
import type { ClusterAutoscalerSettings, NodePool } from './types.ts';

/** How long the simulated cloud takes to give a node (one asked for, or one replacing a deleted node) unless told. */
export const DEFAULT_PROVISIONING_DELAY_MS = 60_000;
const PROVISIONING_DELAY_MAX_MS = 24 * 3_600_000;

export function clusterAutoscaler(f: Field, pools: readonly NodePool[]): ClusterAutoscalerSettings {
  if (!isMapping(f.value)) f.fail('must be a mapping of cluster autoscaler flags (scan-interval: 10s, expander: least-waste, ...) and provisioningDelay');
  if (!pools.some((p) => p.autoscaling)) f.error('needs a node pool with autoscaling: { min, max } to scale');
  const { provisioningDelay, ...flags } = f.value;
  const delay = f.child('provisioningDelay');
  const provisioningDelayMs = provisioningDelay === undefined || provisioningDelay === null ? DEFAULT_PROVISIONING_DELAY_MS : durationMs(delay);
  if (provisioningDelayMs < 0) delay.fail('must not be negative');
  if (provisioningDelayMs > PROVISIONING_DELAY_MAX_MS) delay.fail('must be at most 24h');
  try {
    clusterAutoscalerFromScenario(flags);
  } catch (e) {
    f.error((e as Error).message);
  }
  return { flags: structuredClone(flags), provisioningDelayMs };
}
