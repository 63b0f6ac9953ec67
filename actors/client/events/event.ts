// The core v1 Event as the components write it, and the references it carries (client-go's
// tools/reference): what every recorder in this folder builds on.
import { uuid, type Random } from '../../api/env.ts';
import { apiVersionOf, lookupResource, type ResourceType } from '../../api/resources.ts';
import type { KObject, ObjectMeta } from '../../api/types.ts';

export const EVENTS = lookupResource('', 'v1', 'events')!;

/** Events of cluster-scoped objects (nodes) live here, as the real recorders put them. */
export const EVENT_DEFAULT_NAMESPACE = 'default';

export type EventType = 'Normal' | 'Warning';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** Who records: `source.component` and `source.host` of core v1 events. */
export interface EventSource {
  component: string;
  host?: string;
}

export interface EventSeries {
  count: number;
  lastObservedTime: string;
}

/** A core v1 Event, with the fields the real recorders send (`eventTime` null for the legacy kind). */
export interface CoreEvent extends KObject {
  metadata: ObjectMeta & { name: string; namespace: string };
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: { component?: string; host?: string };
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  count?: number;
  type: EventType;
  eventTime: string | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  reportingComponent: string;
  reportingInstance: string;
}

/**
 * The reference to `obj` of `type`, as GetReference makes it: its kind and group version, name,
 * namespace, uid and resourceVersion; `fieldPath` names a part (`spec.containers{web}`).
 */
export function referenceTo(type: ResourceType, obj: KObject, fieldPath?: string): ObjectReference {
  const m = obj.metadata;
  return {
    kind: type.kind, ...(m.namespace ? { namespace: m.namespace } : {}), name: m.name!, ...(m.uid ? { uid: m.uid } : {}),
    apiVersion: apiVersionOf(type), ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}), ...(fieldPath ? { fieldPath } : {}),
  };
}

/** The reference to `obj` by the kind and group version it carries (GetReference with the object's TypeMeta set). */
export function referenceOf(obj: KObject, fieldPath?: string): ObjectReference {
  const m = obj.metadata;
  return {
    kind: obj.kind, ...(m.namespace ? { namespace: m.namespace } : {}), name: m.name!, ...(m.uid ? { uid: m.uid } : {}),
    apiVersion: obj.apiVersion, ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}), ...(fieldPath ? { fieldPath } : {}),
  };
}

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The real GenerateEventName: `<object name>.<nanoseconds since the epoch in hex>`, or a uuid when
 * that is no valid name (an object name with a colon). The clock's whole milliseconds count; the
 * digits below them are drawn from `random`, so two events of one object in one millisecond differ.
 */
export function eventName(objectName: string, ms: number, random: Random): string {
  const nanos = BigInt(Math.floor(ms)) * 1_000_000n + BigInt(Math.floor(random.next() * 1_000_000));
  const name = `${objectName}.${nanos.toString(16)}`;
  return name.length <= 253 && SUBDOMAIN.test(name) ? name : uuid(random);
}

/** The namespace an event about `ref` lives in. */
export const eventNamespace = (ref: ObjectReference): string => ref.namespace || EVENT_DEFAULT_NAMESPACE;

/** The message cut to the events API's 1024-character limit, as the scheduler's truncateMessage does. */
export function truncateMessage(message: string, max = 1024): string {
  return message.length <= max ? message : `${message.slice(0, max - 4)} ...`;
}
