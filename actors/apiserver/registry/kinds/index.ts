// Every built-in kind's rules, by group and resource, and the lookup the registry, the Table
// encoder and the handlers use for any type, built-in or defined at run time.
import type { ResourceType } from '../../../api/resources.ts';
import { PLAIN, type Kind } from '../kind.ts';
import { configMap } from './configmap.ts';
import { controllerRevision } from './controller-revision.ts';
import { customResourceDefinition } from './custom-resource-definition.ts';
import { cronJob } from './cronjob.ts';
import { daemonSet } from './daemonset.ts';
import { deployment } from './deployment.ts';
import { endpointSlice } from './endpoint-slice.ts';
import { endpoints } from './endpoints.ts';
import { event } from './event.ts';
import { eventV1 } from './event-v1.ts';
import { horizontalPodAutoscalerV1 } from './horizontal-pod-autoscaler-v1.ts';
import { flowSchema } from './flow-schema.ts';
import { horizontalPodAutoscaler } from './horizontal-pod-autoscaler.ts';
import { job } from './job.ts';
import { lease } from './lease.ts';
import { limitRange } from './limit-range.ts';
import { namespace } from './namespace.ts';
import { node } from './node.ts';
import { podDisruptionBudget } from './pod-disruption-budget.ts';
import { podTemplate } from './pod-template.ts';
import { pod } from './pod.ts';
import { priorityClass } from './priority-class.ts';
import { priorityLevel } from './priority-level.ts';
import { clusterRole, clusterRoleBinding, role, roleBinding } from './rbac.ts';
import { replicaSet } from './replicaset.ts';
import { resourceQuota } from './resource-quota.ts';
import { secret } from './secret.ts';
import { serviceAccount } from './service-account.ts';
import { service } from './service.ts';
import { statefulSet } from './statefulset.ts';
import { mutatingWebhookConfiguration, validatingWebhookConfiguration } from './webhook-configuration.ts';

const BUILTIN: ReadonlyMap<string, Kind> = new Map([
  ['/namespaces', namespace],
  ['/pods', pod],
  ['/nodes', node],
  ['/services', service],
  ['/configmaps', configMap],
  ['/secrets', secret],
  ['/serviceaccounts', serviceAccount],
  ['/events', event],
  ['/podtemplates', podTemplate],
  ['/resourcequotas', resourceQuota],
  ['/limitranges', limitRange],
  ['scheduling.k8s.io/priorityclasses', priorityClass],
  ['/endpoints', endpoints],
  ['apps/controllerrevisions', controllerRevision],
  ['apps/replicasets', replicaSet],
  ['apps/deployments', deployment],
  ['apps/daemonsets', daemonSet],
  ['apps/statefulsets', statefulSet],
  ['batch/jobs', job],
  ['batch/cronjobs', cronJob],
  ['coordination.k8s.io/leases', lease],
  ['events.k8s.io/events', eventV1],
  // A version of its own: autoscaling/v1 shows the autoscaling/v2 objects.
  ['autoscaling/v1/horizontalpodautoscalers', horizontalPodAutoscalerV1],
  ['autoscaling/horizontalpodautoscalers', horizontalPodAutoscaler],
  ['discovery.k8s.io/endpointslices', endpointSlice],
  ['policy/poddisruptionbudgets', podDisruptionBudget],
  ['rbac.authorization.k8s.io/roles', role],
  ['rbac.authorization.k8s.io/clusterroles', clusterRole],
  ['rbac.authorization.k8s.io/rolebindings', roleBinding],
  ['rbac.authorization.k8s.io/clusterrolebindings', clusterRoleBinding],
  ['apiextensions.k8s.io/customresourcedefinitions', customResourceDefinition],
  ['flowcontrol.apiserver.k8s.io/flowschemas', flowSchema],
  ['flowcontrol.apiserver.k8s.io/prioritylevelconfigurations', priorityLevel],
  ['admissionregistration.k8s.io/mutatingwebhookconfigurations', mutatingWebhookConfiguration],
  ['admissionregistration.k8s.io/validatingwebhookconfigurations', validatingWebhookConfiguration],
]);

/**
 * Each type's kind, by the type: those defined while a server runs (custom resources; each
 * server's types are its own objects), and each built-in one as it is first asked for, so that the
 * answer to every request's many asks is one lookup.
 */
const kinds = new WeakMap<ResourceType, Kind>();

/** Gives a type defined at run time its rules; they go when the type does. */
export function defineKindOf(type: ResourceType, kind: Kind): void {
  kinds.set(type, kind);
}

/** The type a type's objects are stored as: itself, or what a view kind shows another way. */
export const storedTypeOf = (type: ResourceType): ResourceType => kindOf(type).view?.of ?? type;

export function kindOf(type: ResourceType): Kind {
  let kind = kinds.get(type);
  if (kind === undefined) {
    kind = BUILTIN.get(`${type.group}/${type.version}/${type.resource}`) ?? BUILTIN.get(`${type.group}/${type.resource}`) ?? PLAIN;
    kinds.set(type, kind);
  }
  return kind;
}
