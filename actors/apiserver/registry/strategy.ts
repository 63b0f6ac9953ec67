// Per-kind rules the generic registry applies: name format, whether writes to the main resource
// and to `status` split the object, generation, immutability, and graceful deletion.
import type { ResourceType } from '../../api/resources.ts';
import type { StatusCause } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { NameRule } from '../validation/names.ts';
import { deepEqual } from './deep-equal.ts';
import {
  validateBindingUpdate, validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding,
} from './rbac-validation.ts';
import { validateFlowSchema, validatePriorityLevel } from './flowcontrol-validation.ts';

export interface Strategy {
  nameRule: NameRule;
  /** The main resource ignores status changes and the status subresource ignores everything else. */
  hasStatus: boolean;
  /** metadata.generation starts at 1 and grows whenever the spec (or deletionTimestamp) changes. */
  hasGeneration: boolean;
  validate?(obj: KObject): StatusCause[];
  validateUpdate?(obj: KObject, old: KObject): StatusCause[];
  /** Seconds before a delete removes the object; 0 removes it at once (when no finalizer holds it). */
  gracePeriodSeconds?(obj: KObject, requested: number | undefined): number;
  /** Deletion waits while this holds, besides metadata.finalizers (a namespace's spec.finalizers). */
  blocksRemoval?(obj: KObject): boolean;
}

const forbidden = (field: string, message: string): StatusCause => ({ reason: 'FieldValueForbidden', message: `Forbidden: ${message}`, field });
const immutable = (field: string, value: unknown): StatusCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: field is immutable`,
  field,
});

const plain: Strategy = { nameRule: 'subdomain', hasStatus: false, hasGeneration: false };
const withStatus: Strategy = { nameRule: 'subdomain', hasStatus: true, hasGeneration: false };
/** Every container of a pod spec names an image (apps templates and pods alike). */
function containerImages(spec: Spec | undefined, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const list of ['initContainers', 'containers'] as const) {
    const cs = spec?.[list];
    if (!Array.isArray(cs)) continue;
    cs.forEach((c, i) => {
      const image = (c as Spec | null)?.image;
      if (typeof image !== 'string' || image.trim() === '')
        causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${path}.${list}[${i}].image` });
    });
  }
  return causes;
}

/** Deployments, ReplicaSets, StatefulSets, DaemonSets: replicas not negative, and the selector selects the template. */
function validateWorkload(obj: KObject): StatusCause[] {
  const spec = specOf(obj);
  const causes: StatusCause[] = [];
  if (typeof spec.replicas === 'number' && spec.replicas < 0)
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${spec.replicas}: must be greater than or equal to 0`, field: 'spec.replicas' });
  const template = spec.template as Spec | undefined;
  const matchLabels = (spec.selector as { matchLabels?: Record<string, string> } | undefined)?.matchLabels ?? {};
  const labels = ((template?.metadata as { labels?: Record<string, string> } | undefined)?.labels) ?? {};
  const selects = Object.entries(matchLabels).every(([k, v]) => labels[k] === v);
  if (template && !selects)
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(labels)}: \`selector\` does not match template \`labels\``, field: 'spec.template.metadata.labels' });
  causes.push(...containerImages(template?.spec as Spec | undefined, 'spec.template.spec'));
  return causes;
}

const workload: Strategy = { nameRule: 'subdomain', hasStatus: true, hasGeneration: true, validate: validateWorkload };

type Spec = Record<string, unknown>;
const specOf = (o: KObject) => (o.spec ?? {}) as Spec;

/** Pod updates may change only images, activeDeadlineSeconds, tolerations (additions) and the grace period. */
function podSpecWithoutMutable(spec: Spec): Spec {
  const strip = (cs: unknown) => (Array.isArray(cs) ? cs.map((c) => ({ ...(c as Spec), image: undefined })) : cs);
  return { ...spec, containers: strip(spec.containers), initContainers: strip(spec.initContainers), activeDeadlineSeconds: undefined,
    tolerations: undefined, terminationGracePeriodSeconds: undefined, schedulingGates: undefined };
}

const pod: Strategy = {
  ...withStatus,
  validate: (obj) => containerImages(specOf(obj), 'spec'),
  validateUpdate(obj, old) {
    const causes: StatusCause[] = [];
    if (!deepEqual(podSpecWithoutMutable(specOf(obj)), podSpecWithoutMutable(specOf(old))))
      causes.push(forbidden('spec', 'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'));
    return causes;
  },
  gracePeriodSeconds(obj, requested) {
    const spec = specOf(obj);
    const phase = (obj.status as Spec | undefined)?.phase;
    // An unscheduled or finished pod has no node agent to wait for.
    if (!spec.nodeName || phase === 'Succeeded' || phase === 'Failed') return 0;
    const fallback = typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30;
    const g = requested ?? fallback;
    return g < 0 ? 1 : g;
  },
};

const controllerRevision: Strategy = {
  ...plain,
  hasGeneration: false,
  validate(obj) {
    const r = obj.revision;
    return typeof r === 'number' && r < 0 ? [{ reason: 'FieldValueInvalid', message: `Invalid value: ${r}: must be greater than or equal to 0`, field: 'revision' }] : [];
  },
  validateUpdate(obj, old) {
    // Seed 000: once created, data cannot be changed by any request.
    return deepEqual(obj.data, old.data) ? [] : [immutable('data', obj.data ?? null)];
  },
};

function immutableData(obj: KObject, old: KObject): StatusCause[] {
  if (old.immutable !== true) return [];
  const causes: StatusCause[] = [];
  if (obj.immutable !== true) causes.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  if (!deepEqual(obj.data, old.data)) causes.push(forbidden('data', 'field is immutable when `immutable` is set'));
  if (!deepEqual(obj.binaryData, old.binaryData) && old.kind === 'ConfigMap') causes.push(forbidden('binaryData', 'field is immutable when `immutable` is set'));
  return causes;
}

const namespace: Strategy = {
  nameRule: 'label',
  hasStatus: true,
  hasGeneration: false,
  blocksRemoval: (obj) => ((specOf(obj).finalizers as unknown[] | undefined)?.length ?? 0) > 0,
};

/** RBAC objects are named by path segment names, not DNS subdomains. */
const rbac = (validate: Strategy['validate'], validateUpdate?: Strategy['validateUpdate']): Strategy =>
  ({ nameRule: 'path', hasStatus: false, hasGeneration: false, validate, validateUpdate });

const STRATEGIES: Record<string, Strategy> = {
  '/namespaces': namespace,
  '/pods': pod,
  '/nodes': withStatus,
  '/services': { ...withStatus, nameRule: 'label' },
  '/configmaps': { ...plain, validateUpdate: immutableData },
  '/secrets': { ...plain, validateUpdate: immutableData },
  '/serviceaccounts': plain,
  '/events': plain,
  '/podtemplates': plain,
  'apps/controllerrevisions': controllerRevision,
  'apps/replicasets': workload,
  'apps/deployments': workload,
  'apps/daemonsets': workload,
  'apps/statefulsets': workload,
  'coordination.k8s.io/leases': plain,
  'policy/poddisruptionbudgets': { nameRule: 'subdomain', hasStatus: true, hasGeneration: true },
  'rbac.authorization.k8s.io/roles': rbac(validateRole),
  'rbac.authorization.k8s.io/clusterroles': rbac(validateClusterRole),
  'rbac.authorization.k8s.io/rolebindings': rbac(validateRoleBinding, validateBindingUpdate),
  'rbac.authorization.k8s.io/clusterrolebindings': rbac(validateClusterRoleBinding, validateBindingUpdate),
  'flowcontrol.apiserver.k8s.io/flowschemas': { nameRule: 'subdomain', hasStatus: true, hasGeneration: true, validate: validateFlowSchema },
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': { nameRule: 'subdomain', hasStatus: true, hasGeneration: true, validate: validatePriorityLevel },
};

export function strategyFor(type: ResourceType): Strategy {
  return STRATEGIES[`${type.group}/${type.resource}`] ?? plain;
}
