// How the API server sets priority and fairness up: the controller reading the two kinds from its
// store and writing FlowSchema conditions through its registry as the real config consumer does
// (field manager api-priority-and-fairness-config-consumer-v1), and what classification reads of
// a request.
import { timestamp, type Clock } from '../../api/env.ts';
import { lookupResource } from '../../api/resources.ts';
import type { KObject } from '../../api/types.ts';
import type { UserInfo } from '../auth/authorizer.ts';
import { collectionKey } from '../registry/keys.ts';
import type { Registry } from '../registry/registry.ts';
import type { RequestInfo } from '../request-info.ts';
import type { ExecutingNote } from './admission.ts';
import { FLOWCONTROL_GROUP } from './bootstrap.ts';
import { FlowControl, type DanglingCondition, type FlowControlMetrics } from './controller.ts';
import type { RequestDigest } from './rules.ts';

const CONSUMER = 'api-priority-and-fairness-config-consumer-v1';
/** The longest a request waits in a queue, whatever its deadline (the real filter's hard limit). */
const MAX_WAIT_MS = 60_000;

export function flowControlFor(registry: Registry, clock: Clock, serverConcurrencyLimit: number, metrics: FlowControlMetrics,
  executing: ExecutingNote): FlowControl {
  const flowSchemas = lookupResource(FLOWCONTROL_GROUP, 'v1', 'flowschemas')!;
  const priorityLevels = lookupResource(FLOWCONTROL_GROUP, 'v1', 'prioritylevelconfigurations')!;
  const prefix = registry.env.keyPrefix;
  return new FlowControl({
    clock, store: registry.env.store, serverConcurrencyLimit, metrics, executing,
    prefixes: { flowSchemas: collectionKey(prefix, flowSchemas, undefined), priorityLevels: collectionKey(prefix, priorityLevels, undefined) },
    async writeCondition(name: string, condition: DanglingCondition, atMs: number) {
      await registry.update(flowSchemas, undefined, name, (current) => withCondition(current, condition, atMs),
        { dryRun: false, fieldManager: CONSUMER, subresource: 'status' });
    },
  });
}

/** The schema with its Dangling condition replaced, stamped now; its other conditions kept. */
function withCondition(fs: KObject | undefined, condition: DanglingCondition, atMs: number): KObject {
  if (!fs) throw new Error('a FlowSchema to write a condition to');
  const status = (fs.status ?? {}) as { conditions?: { type?: string }[] };
  const others = (status.conditions ?? []).filter((c) => c.type !== condition.type);
  return { ...fs, status: { ...status, conditions: [...others, { ...condition, lastTransitionTime: timestamp(atMs) }] } };
}

/**
 * What classification reads: the user, the verb, and the resource's group, resource (with
 * "/subresource") and namespace, or the path. A namespace object's own namespace is its name, as
 * the real RequestInfo has it.
 */
export function requestDigest(info: RequestInfo, user: UserInfo): RequestDigest {
  const r = info.resource;
  if (!r) return { user, verb: info.verb, path: info.path };
  const t = r.type;
  const namespace = r.namespace ?? (t.group === '' && t.resource === 'namespaces' ? r.name ?? '' : '');
  return { user, verb: r.verb, path: info.path,
    resource: { apiGroup: t.group, resource: r.subresource ? `${t.resource}/${r.subresource}` : t.resource, namespace } };
}

/** A quarter of the request's deadline, at most a minute: how long it may wait in a queue. */
export function queueWaitLimitMs(deadlineMs: number): number {
  return Math.min(deadlineMs / 4, MAX_WAIT_MS);
}
