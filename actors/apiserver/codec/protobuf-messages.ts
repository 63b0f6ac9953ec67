// Which kinds the API server speaks as Protobuf, and the message of each: the kinds kubectl 1.32's
// typed commands send as Protobuf bodies (the RBAC kinds, service accounts and their tokens, and the
// reviews among them), ControllerRevision, their lists, and meta/v1 Status.
import { ControllerRevision, Deployment } from './protobuf-messages-apps.ts';
import { SelfSubjectReview, TokenRequest, TokenReview } from './protobuf-messages-authentication.ts';
import {
  LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview,
} from './protobuf-messages-authorization.ts';
import { ConfigMap, Namespace, Node, Pod, Secret, ServiceAccount } from './protobuf-messages-core.ts';
import { ListMeta, Status } from './protobuf-messages-meta.ts';
import { Eviction } from './protobuf-messages-policy.ts';
import { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from './protobuf-messages-rbac.ts';
import { listOf, type Message } from './protobuf-schema.ts';

const byKind = new Map<string, Message>();
const key = (apiVersion: string, kind: string) => `${apiVersion} ${kind}`;

function serve(apiVersion: string, messages: readonly Message[], { lists }: { lists: boolean }): void {
  for (const m of messages) {
    byKind.set(key(apiVersion, m.name), m);
    if (lists) byKind.set(key(apiVersion, `${m.name}List`), listOf(m, ListMeta));
  }
}

serve('v1', [Namespace, ConfigMap, Secret, ServiceAccount, Pod, Node], { lists: true });
serve('v1', [Status], { lists: false });
serve('apps/v1', [Deployment, ControllerRevision], { lists: true });
serve('rbac.authorization.k8s.io/v1', [Role, ClusterRole, RoleBinding, ClusterRoleBinding], { lists: true });
serve('authentication.k8s.io/v1', [TokenRequest, TokenReview, SelfSubjectReview], { lists: false });
serve('authorization.k8s.io/v1', [SelfSubjectAccessReview, SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectRulesReview],
  { lists: false });
serve('policy/v1', [Eviction], { lists: false });

/** The message of a kind, or undefined when the kind is not served as Protobuf. */
export function messageFor(apiVersion: string, kind: string): Message | undefined {
  return byKind.get(key(apiVersion, kind));
}

