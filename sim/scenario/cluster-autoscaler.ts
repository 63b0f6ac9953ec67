// The scenario's `clusterAutoscaler:` section: the real autoscaler's flags by name (checked by its
// option table, so a bad one is an error of this file naming the flag), `provisioningDelay`,
// how long the simulated cloud takes to give a node it was asked for, and `priorities`, the
// priority expander's configuration (`{10: [spot.*], 1: [ondemand]}`), which the run writes as
// the ConfigMap the real expander reads.
import { clusterAutoscalerFromScenario } from '../../actors/cluster-autoscaler/options.ts';
import { parsePriorities } from '../../actors/cluster-autoscaler/priorities.ts';
import { isMapping, type Field } from './field.ts';
import { durationMs } from './schema.ts';
import type { ClusterAutoscalerSettings, NodePool } from './types.ts';

/** How long the simulated cloud takes to give a node (one asked for, or one replacing a deleted node) unless told. */
export const DEFAULT_PROVISIONING_DELAY_MS = 60_000;
const PROVISIONING_DELAY_MAX_MS = 24 * 3_600_000;

export function clusterAutoscaler(f: Field, pools: readonly NodePool[]): ClusterAutoscalerSettings {
  if (!isMapping(f.value)) f.fail('must be a mapping of cluster autoscaler flags (scan-interval: 10s, expander: least-waste, ...) and provisioningDelay');
  if (!pools.some((p) => p.autoscaling)) f.error('needs a node pool with autoscaling: { min, max } to scale');
  const { provisioningDelay, priorities, ...flags } = f.value;
  const delay = f.child('provisioningDelay');
  const provisioningDelayMs = provisioningDelay === undefined || provisioningDelay === null ? DEFAULT_PROVISIONING_DELAY_MS : durationMs(delay);
  if (provisioningDelayMs < 0) delay.fail('must not be negative');
  if (provisioningDelayMs > PROVISIONING_DELAY_MAX_MS) delay.fail('must be at most 24h');
  try {
    clusterAutoscalerFromScenario(flags);
  } catch (e) {
    f.error((e as Error).message);
  }
  const settings: ClusterAutoscalerSettings = { flags: structuredClone(flags), provisioningDelayMs };
  if (priorities !== undefined && priorities !== null) settings.priorities = priorityLists(f.child('priorities'));
  return settings;
}

/** `priorities:` a mapping of integer priority to a list of node group name regexes, checked as the expander reads them. */
function priorityLists(f: Field): Record<string, string[]> {
  if (!isMapping(f.value)) f.fail('must be a mapping of priority to a list of node group name patterns ({10: [spot.*], 1: [ondemand]})');
  const out: Record<string, string[]> = {};
  for (const key of Object.keys(f.value)) {
    const entry = f.child(key);
    if (!/^-?\d+$/.test(key) || !Number.isSafeInteger(Number(key))) entry.error('must be keyed by an integer priority');
    out[key] = entry.list('node group name patterns', { nonEmpty: true }).map((item) => (typeof item.value === 'string' ? item.value : item.fail('must be a regular expression')));
  }
  try {
    parsePriorities(prioritiesYaml(out));
  } catch (e) {
    f.error((e as Error).message);
  }
  return out;
}

/** The ConfigMap's `priorities` text for the lists: one YAML mapping, each pattern double-quoted. */
export function prioritiesYaml(lists: Record<string, string[]>): string {
  return Object.entries(lists).map(([priority, patterns]) => `${priority}:\n${patterns.map((p) => `  - ${JSON.stringify(p)}\n`).join('')}`).join('');
}
