// A pod's priority comes from its PriorityClass: the Priority admission plugin refuses a pod that
// states one outright. Tests that want pods of given priorities name the class this makes (once
// per value), `p<value>`.
import { lookupResource } from '../../actors/api/resources.ts';
import type { KObject } from '../../actors/api/types.ts';
import type { ApiClient } from '../../actors/client/client.ts';

const PRIORITY_CLASSES = lookupResource('scheduling.k8s.io', 'v1', 'priorityclasses')!;

/** `(priority) => the name of a class of that value`, creating the class the first time. */
export function priorityClasses(client: ApiClient): (priority: number) => Promise<string> {
  const made = new Set<number>();
  return async (priority) => {
    if (!made.has(priority)) {
      made.add(priority);
      await client.create(PRIORITY_CLASSES, { metadata: { name: `p${priority}` }, value: priority } as KObject);
    }
    return `p${priority}`;
  };
}
