// Which kinds the API server speaks as Protobuf, and the message of each: every built-in kind it
// serves that has a Protobuf form (the ones kubectl 1.32's typed commands send as Protobuf bodies
// among them), their lists, the reviews and token requests, and meta/v1 Status.
import { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from './protobuf-messages-admissionregistration.ts';
import { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from './protobuf-messages-apps.ts';
import { SelfSubjectReview, TokenRequest, TokenReview } from './protobuf-messages-authentication.ts';
import { HorizontalPodAutoscaler } from './protobuf-messages-autoscaling.ts';
import { CronJob, Job } from './protobuf-messages-batch.ts';
import {
  LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview,
} from './protobuf-messages-authorization.ts';
import { Lease } from './protobuf-messages-coordination.ts';
import { EndpointSlice } from './protobuf-messages-discovery.ts';
import { ConfigMap, Namespace, Node, Pod, PodTemplate, Secret, ServiceAccount } from './protobuf-messages-core.ts';
import { Event } from './protobuf-messages-event.ts';
import { FlowSchema, PriorityLevelConfiguration } from './protobuf-messages-flowcontrol.ts';
import { ListMeta, Status } from './protobuf-messages-meta.ts';
import { Eviction, PodDisruptionBudget } from './protobuf-messages-policy.ts';
import { LimitRange, ResourceQuota } from './protobuf-messages-quota.ts';
import { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from './protobuf-messages-rbac.ts';
import { PriorityClass } from './protobuf-messages-scheduling.ts';
import { Endpoints, Service } from './protobuf-messages-service.ts';
import { listOf, type Message } from './protobuf-schema.ts';

const byKind = new Map<string, Message>();
const lossyKinds = new Set<string>();
const key = (apiVersion: string, kind: string) => `${apiVersion} ${kind}`;

/** `lossy`: the messages do not hold every field of the kind yet (pod specs, in pods and templates). */
function serve(apiVersion: string, messages: readonly Message[], { lists, lossy = false }: { lists: boolean; lossy?: boolean }): void {
  for (const m of messages) {
    const kinds = lists ? [m.name, `${m.name}List`] : [m.name];
    byKind.set(key(apiVersion, m.name), m);
    if (lists) byKind.set(key(apiVersion, `${m.name}List`), listOf(m, ListMeta));
    if (lossy) for (const kind of kinds) lossyKinds.add(key(apiVersion, kind));
  }
}

serve('v1', [Namespace, ConfigMap, Secret, ServiceAccount], { lists: true });
serve('v1', [Pod, Node, PodTemplate], { lists: true, lossy: true });
serve('v1', [Service, Endpoints, Event], { lists: true });
serve('v1', [Status], { lists: false });
serve('apps/v1', [ControllerRevision], { lists: true });
serve('apps/v1', [Deployment, ReplicaSet, DaemonSet, StatefulSet], { lists: true, lossy: true });
serve('coordination.k8s.io/v1', [Lease], { lists: true });
serve('discovery.k8s.io/v1', [EndpointSlice], { lists: true });
serve('policy/v1', [PodDisruptionBudget], { lists: true });
serve('flowcontrol.apiserver.k8s.io/v1', [FlowSchema, PriorityLevelConfiguration], { lists: true });
serve('batch/v1', [Job, CronJob], { lists: true });
serve('rbac.authorization.k8s.io/v1', [Role, ClusterRole, RoleBinding, ClusterRoleBinding], { lists: true });
serve('authentication.k8s.io/v1', [TokenRequest, TokenReview, SelfSubjectReview], { lists: false });
serve('authorization.k8s.io/v1', [SelfSubjectAccessReview, SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectRulesReview],
  { lists: false });
serve('policy/v1', [Eviction], { lists: false });
serve('v1', [ResourceQuota, LimitRange], { lists: true });
serve('scheduling.k8s.io/v1', [PriorityClass], { lists: true });
serve('admissionregistration.k8s.io/v1', [MutatingWebhookConfiguration, ValidatingWebhookConfiguration], { lists: true });
serve('autoscaling/v1', [HorizontalPodAutoscaler], { lists: true });

/** Whether the kind's Protobuf form loses fields it may hold: answered in JSON whenever the client accepts it. */
export function isLossyAsProtobuf(apiVersion: string, kind: string): boolean {
  return lossyKinds.has(key(apiVersion, kind));
}

/** The message of a kind, or undefined when the kind is not served as Protobuf. */
export function messageFor(apiVersion: string, kind: string): Message | undefined {
  return byKind.get(key(apiVersion, kind));
}

