// The pod a workload creates, from one of three forms: the short form (`requests:` and a few
// fields beside it), a Pod manifest (`pod:`), or a pod template (`template:`, bare or as a whole
// PodTemplate). Every form ends as a complete `v1` Pod carrying the `orchsim.io/workload` label,
// without a namespace (the workload's) or fields only the server sets.
import type { KObject } from '../../actors/api/types.ts';
import { parseQuantity } from '../../actors/api/quantity.ts';
import { isMapping, type Field } from './field.ts';
import { tolerations } from './constraints.ts';
import { manifest } from './manifest-schema.ts';
import { dnsLabel, integer, isLabelKey, labels, nonEmptyString, optional, quantity } from './schema.ts';

export const WORKLOAD_LABEL = 'orchsim.io/workload';
export const DEFAULT_IMAGE = 'registry.k8s.io/pause:3.9';
/** The fields beside `requests:` that make up the short form. */
export const SHORT_FORM_FIELDS = ['requests', 'limits', 'priority', 'labels', 'image', 'tolerations', 'nodeSelector'];

const INT32_MIN = -(2 ** 31);
/** Higher priorities are the system's (scheduling.k8s.io HighestUserDefinablePriority). */
const HIGHEST_USER_PRIORITY = 1_000_000_000;
const PRIORITY_CLASS_PREFIX = 'orchsim-priority-';

/**
 * The PriorityClass a short form's `priority:` names: the Priority admission plugin refuses a pod
 * that states its own priority, so the workloads make one class per value (startWorkloads).
 */
export const priorityClassFor = (priority: number) => `${PRIORITY_CLASS_PREFIX}${priority}`;

/** The value of a class priorityClassFor named, or undefined for any other class. */
export function priorityOfClass(name: unknown): number | undefined {
  if (typeof name !== 'string' || !name.startsWith(PRIORITY_CLASS_PREFIX)) return undefined;
  const value = Number(name.slice(PRIORITY_CLASS_PREFIX.length));
  return Number.isInteger(value) ? value : undefined;
}
const STANDARD_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const RESOURCE_NAMES = [...STANDARD_RESOURCES, 'hugepages-<size>', 'extended resources with a domain (example.com/gpu)'];
/** Set by the server or by controllers: a manifest exported from a cluster carries them, a create must not. */
const SERVER_SET_METADATA = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'managedFields', 'ownerReferences'];

/** A pod and the namespace its manifest names, if any. */
export interface BuiltPod {
  pod: KObject;
  namespace?: string;
}

/** The short form: the workload's mapping `f` holds `requests:` and the optional fields beside it. */
export function shortFormPod(f: Field, workload: string): KObject {
  const requests = resourceList(f.child('requests'));
  const container: Record<string, unknown> = { name: 'main', image: optional(f.child('image'), nonEmptyString, DEFAULT_IMAGE), resources: { requests } };
  if (f.child('limits').present) {
    const limits = resourceList(f.child('limits'));
    for (const [name, limit] of Object.entries(limits))
      if (requests[name] !== undefined && parseQuantity(requests[name]) > parseQuantity(limit))
        f.child('requests').child(name).fail(`must not exceed the limit ${limit}`);
    container.resources = { requests, limits };
  }
  const spec: Record<string, unknown> = { containers: [container] };
  if (f.child('priority').present)
    spec.priorityClassName = priorityClassFor(integer(f.child('priority'), INT32_MIN, HIGHEST_USER_PRIORITY, 'an integer'));
  if (f.child('tolerations').present) spec.tolerations = tolerations(f.child('tolerations'));
  if (f.child('nodeSelector').present) spec.nodeSelector = labels(f.child('nodeSelector'));
  const metadata = { labels: { [WORKLOAD_LABEL]: workload, ...podLabels(f.child('labels'), workload) } };
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

/** `pod:` — a Pod manifest. */
export function manifestPod(f: Field, workload: string): BuiltPod {
  return finish(f, manifest(f, 'Pod'), workload, f.child('metadata').child('namespace'));
}

/** `template:` — `{ metadata, spec }`, or a PodTemplate manifest whose `.template` is that. */
export function templatePod(f: Field, workload: string): BuiltPod {
  if (!f.child('kind').present) {
    f.mapping(['metadata', 'spec'], 'a pod template: { metadata, spec }, or a PodTemplate manifest');
    return finish(f, manifest(f, 'Pod'), workload, f.child('metadata').child('namespace'));
  }
  const object = manifest(f, 'PodTemplate');
  const template = f.child('template');
  if (!isMapping(object.template)) template.fail('must be the pod template: { metadata, spec }');
  const { metadata, spec } = object.template as { metadata?: KObject['metadata']; spec?: unknown };
  if (spec === undefined) template.child('spec').fail('must be the pod spec');
  const body = { apiVersion: 'v1', kind: 'Pod', metadata: { ...metadata }, spec };
  // The PodTemplate object's namespace is where its pods go; the template's own is not used.
  return finish(template, body, workload, f.child('metadata').child('namespace'));
}

/**
 * Checks what every pod needs (containers with names and images, valid labels), adds the workload
 * label, and drops the namespace and the server-set fields. `f` is where `body` was written.
 */
function finish(f: Field, body: Record<string, unknown>, workload: string, namespaceField: Field): BuiltPod {
  const containers = f.child('spec').child('containers');
  if (!Array.isArray(containers.value) || containers.value.length === 0)
    containers.error(`workload ${workload}: the pod needs at least one container with a name and an image`);
  for (const list of [containers, f.child('spec').child('initContainers')]) {
    if (!list.present) continue;
    for (const container of list.list('containers'))
      for (const field of ['name', 'image']) {
        const value = container.child(field).value;
        if (typeof value !== 'string' || value.trim() === '') container.child(field).fail(`workload ${workload}: every container needs a${field === 'image' ? 'n' : ''} ${field}`);
      }
  }
  const meta = { ...(body.metadata as KObject['metadata']) };
  for (const field of SERVER_SET_METADATA) delete (meta as Record<string, unknown>)[field];
  delete meta.namespace;
  meta.labels = { ...podLabels(f.child('metadata').child('labels'), workload), [WORKLOAD_LABEL]: workload };
  const pod: KObject = { ...body, metadata: meta };
  delete pod.status;
  const out: BuiltPod = { pod };
  if (namespaceField.present) out.namespace = dnsLabel(namespaceField);
  return out;
}

/** A pod's labels: valid, and the workload label, if given, naming this workload. */
function podLabels(f: Field, workload: string): Record<string, string> {
  const out = labels(f);
  if (out[WORKLOAD_LABEL] !== undefined && out[WORKLOAD_LABEL] !== workload)
    f.child(WORKLOAD_LABEL).fail(`is set by the simulator to the workload's name (${workload}); leave it out`);
  return out;
}

/** `requests:` or `limits:`: resource names to quantities ≥ 0, as text. */
function resourceList(f: Field): Record<string, string> {
  if (!f.present) return {};
  if (!isMapping(f.value)) f.fail('must be a mapping of resource names to quantities, e.g. { cpu: 100m, memory: 128Mi }');
  const out: Record<string, string> = {};
  for (const name of Object.keys(f.value)) {
    const at = f.child(name);
    const valid = STANDARD_RESOURCES.has(name) || /^hugepages-.+/.test(name) || (name.includes('/') && isLabelKey(name));
    if (!valid) f.rejectKey(name, RESOURCE_NAMES, 'unknown resource', 'resources are');
    out[name] = quantity(at, { positive: false });
  }
  return out;
}
