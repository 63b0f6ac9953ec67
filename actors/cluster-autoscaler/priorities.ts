// The priority expander's configuration, as the real one reads it (expander/priority): the
// ConfigMap `cluster-autoscaler-priority-expander` in the autoscaler's namespace, whose
// `priorities` key holds a YAML mapping of integer priority -> list of node group name regexes.
// It is read afresh at each choice; a ConfigMap that is missing or bad filters nothing (the
// expanders after it decide), and a bad one is told on the ConfigMap as a Warning Event.
import { parse } from 'yaml';
import { CONFIG_MAPS, type ConfigMap } from '../api/model/core.ts';
import { KUBE_SYSTEM_NAMESPACE } from '../api/namespaces.ts';
import { isNotFound } from '../api/status.ts';
import type { ApiClient } from '../client/client.ts';
import { referenceTo, type EventRecorder } from '../client/events/index.ts';
import type { PriorityConfig } from './expander.ts';

export const PRIORITY_CONFIG_MAP_NAME = 'cluster-autoscaler-priority-expander';
export const PRIORITIES_KEY = 'priorities';

/** Each priority with its name patterns. */
export type Priorities = ReadonlyMap<number, readonly RegExp[]>;

/** The priorities a ConfigMap holds, or why it is ignored (the real PriorityConfigMapInvalid text). */
export type PrioritiesRead = { priorities: Priorities } | { invalid: string };

/** Reads the ConfigMap's `priorities`; a wrong one is named as the real expander names it. */
export function readPriorities(map: ConfigMap): PrioritiesRead {
  const text = map.data?.[PRIORITIES_KEY];
  if (text === undefined) return { invalid: `Wrong configmap for priority expander, doesn't contain ${PRIORITIES_KEY} key. Ignoring update.` };
  try {
    return { priorities: parsePriorities(text) };
  } catch (e) {
    return { invalid: `Wrong configuration for priority expander: ${(e as Error).message}. Ignoring update.` };
  }
}

/** Parses the YAML text; throws with the real expander's reason when it is not a mapping of integers to lists of regexes. */
export function parsePriorities(text: string): Priorities {
  if (text === '') throw new Error(`priority configuration in ${PRIORITY_CONFIG_MAP_NAME} configmap is empty; please provide valid configuration`);
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new Error(`Can't parse YAML with priorities in the configmap: ${(e as Error).message.split('\n')[0]}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new Error("Can't parse YAML with priorities in the configmap: not a mapping of priority to a list of node group name patterns");
  const out = new Map<number, RegExp[]>();
  for (const [key, list] of Object.entries(doc)) {
    if (!/^-?\d+$/.test(key)) throw new Error(`Can't parse YAML with priorities in the configmap: cannot unmarshal ${JSON.stringify(key)} into int`);
    if (!Array.isArray(list) || list.some((r) => typeof r !== 'string')) throw new Error(`Can't parse YAML with priorities in the configmap: priority ${key} must list node group name patterns`);
    const priority = Number(key);
    out.set(priority, (list as string[]).map((rule) => {
      try {
        return new RegExp(rule);
      } catch (e) {
        throw new Error(`Can't compile regexp rule for priority ${priority} and rule ${rule}: ${(e as Error).message}`);
      }
    }));
  }
  return out;
}

/** The highest priority one of whose patterns matches the group's name anywhere, or undefined. */
export function priorityOf(priorities: Priorities, groupId: string): number | undefined {
  let best: number | undefined;
  for (const [priority, patterns] of priorities) if ((best === undefined || priority > best) && patterns.some((re) => re.test(groupId))) best = priority;
  return best;
}

/** What the priority expander reads now: the ConfigMap in the autoscaler's namespace (kube-system), its warnings recorded on it. */
export async function loadPriorityConfig(client: ApiClient, events: EventRecorder): Promise<PriorityConfig> {
  let map: ConfigMap;
  try {
    map = await client.get(CONFIG_MAPS, KUBE_SYSTEM_NAMESPACE, PRIORITY_CONFIG_MAP_NAME);
  } catch (e) {
    if (!isNotFound(e)) throw e;
    return { priorities: undefined, warn: () => {} };
  }
  const ref = referenceTo(CONFIG_MAPS, map);
  const warn = (reason: string, message: string) => events.event(ref, 'Warning', reason, message);
  const read = readPriorities(map);
  return 'invalid' in read ? { priorities: undefined, invalid: read.invalid, warn } : { priorities: read.priorities, warn };
}
