// The fields each kind lets clients select on (fieldSelector), beyond metadata.name and
// metadata.namespace, which every kind has.
import type { FieldGetter } from './selectors.ts';
import type { Node, Pod } from './model/core.ts';
import type { KObject } from './types.ts';

const at = (obj: KObject, path: string[]): string => {
  let v: unknown = obj;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
  return v === undefined || v === null ? '' : String(v);
};
const field = (path: string): FieldGetter => (o) => at(o, path.split('.'));

/** Whether a pod's or a node's Ready condition (the first of that type, as the real helpers read it) is True. */
export function isReady(obj: Pod | Node): boolean {
  return obj.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
}

/** Whether a pod has finished: Succeeded or Failed, phases it never leaves. */
export function isFinished(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** The node a pod is bound to ('' when unbound): what per-node watch subjects and indexes key on. */
export function nodeNameOf(obj: KObject | undefined): string {
  // Objects of every kind come here: read as a pod's, and made a string whatever another kind holds there.
  return String((obj as Pod | undefined)?.spec?.nodeName ?? '');
}

const BY_KIND: Record<string, string[]> = {
  '/pods': ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork', 'status.phase',
    'status.podIP', 'status.nominatedNodeName'],
  '/nodes': ['spec.unschedulable'],
  '/namespaces': ['status.phase'],
  '/secrets': ['type'],
  '/events': ['involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid', 'involvedObject.apiVersion',
    'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'reportingComponent', 'source', 'type'],
  // The same objects (stored as core Events), under the events API's names for their fields.
  'events.k8s.io/events': ['regarding.kind', 'regarding.namespace', 'regarding.name', 'regarding.uid', 'regarding.apiVersion',
    'regarding.resourceVersion', 'regarding.fieldPath', 'reason', 'reportingController', 'deprecatedSource', 'type'],
  'apps/replicasets': ['status.replicas'],
  'batch/jobs': ['status.successful'],
};

/** Selectable fields that are not the path they name. */
const DERIVED: Record<string, FieldGetter> = {
  'spec.hostNetwork': (o) => at(o, ['spec', 'hostNetwork']) || 'false',
  /** A Job's succeeded pods, 0 when none (JobToSelectableFields). */
  'status.successful': (o) => at(o, ['status', 'succeeded']) || '0',
  /** An event's source component, else its reporting component (events of the events API have no source). */
  source: (o) => at(o, ['source', 'component']) || at(o, ['reportingComponent']),
  /** The events API's names, read on the core Events its objects are stored as. */
  'regarding.kind': field('involvedObject.kind'),
  'regarding.namespace': field('involvedObject.namespace'),
  'regarding.name': field('involvedObject.name'),
  'regarding.uid': field('involvedObject.uid'),
  'regarding.apiVersion': field('involvedObject.apiVersion'),
  'regarding.resourceVersion': field('involvedObject.resourceVersion'),
  'regarding.fieldPath': field('involvedObject.fieldPath'),
  reportingController: field('reportingComponent'),
  deprecatedSource: (o) => at(o, ['source', 'component']) || at(o, ['reportingComponent']),
};

const cache = new Map<string, Record<string, FieldGetter>>();

export function selectableFields(group: string, resource: string): Record<string, FieldGetter> {
  const key = `${group}/${resource}`;
  let fields = cache.get(key);
  if (!fields) {
    fields = { 'metadata.name': field('metadata.name'), 'metadata.namespace': field('metadata.namespace') };
    for (const f of BY_KIND[key] ?? []) fields[f] = DERIVED[f] ?? field(f);
    if (key === '/pods') fields['spec.nodeName'] = field('spec.nodeName');
    cache.set(key, fields);
  }
  return fields;
}
