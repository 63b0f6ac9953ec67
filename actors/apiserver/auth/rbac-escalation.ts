// RBAC's guard against escalation, on every write of a role or a binding (dry runs too), as the
// real server's policy-based storage: nobody grants permissions they do not hold.
// - A Role or ClusterRole is written by a user who holds all its rules (where the role applies:
//   its namespace, or the cluster), or who may `escalate` roles there. An aggregationRule needs
//   the authority of cluster-admin.
// - A binding is written by a user who holds all the rules of the role it references, or who may
//   `bind` that role. A reference to a role that does not exist is answered 404.
// Members of system:masters and the server's own writes pass. Updates that change only what the
// garbage collector changes (owner references, finalizers) pass too. The check runs at the end of
// the mutating admission phase: after every mutation, before the kind's validation, where the
// real storage checks it (before its strategy validates).
import { forbidden, goQuoted, notFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../admission/chain.ts';
import { deepEqual } from '../registry/deep-equal.ts';
import { decided, MASTERS, type Authorizer, type UserInfo } from './authorizer.ts';
import { compactString, rulesOf, uncovered, type PolicyRule } from './rbac-rules.ts';
import { RBAC_GROUP, type RbacPolicy, type RoleRef } from './rbac.ts';

const FULL_AUTHORITY: PolicyRule[] = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }];

/** What the garbage collector may change without an escalation check. */
function onlyGcFields(obj: KObject, old: KObject): boolean {
  const strip = (o: KObject) => {
    const { ownerReferences: _o, finalizers: _f, resourceVersion: _r, managedFields: _m, ...meta } = o.metadata;
    return { ...o, metadata: meta };
  };
  return deepEqual(strip(obj), strip(old));
}

export function rbacEscalationPlugin(policy: RbacPolicy, authorizer: Authorizer): AdmissionPlugin {
  /** Throws 403 naming what the user lacks, unless it holds every rule of `wanted` where `namespace` says. */
  const confirmHeld = (a: AdmissionAttributes, user: UserInfo, wanted: PolicyRule[], namespace: string | undefined) => {
    const held = policy.granting(user, namespace);
    const missing = uncovered(held.rules, wanted);
    if (missing.length === 0) return;
    const errors = held.errors.length ? `; resolution errors: [${held.errors.join(' ')}]` : '';
    throw forbidden({ group: RBAC_GROUP, resource: a.type.resource, name: a.name },
      `user "${user.username}" (groups=${goQuoted(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${missing.map(compactString).join('\n')}${errors}`);
  };
  /** Runs `check` unless the user may `verb` the role: at once, or once a mode that asked elsewhere (Webhook) has answered. */
  const unlessMay = (user: UserInfo, verb: string, resource: string, namespace: string | undefined, name: string, check: () => void) =>
    decided(authorizer.authorize({ user, verb, apiGroup: RBAC_GROUP, resource, ...(namespace ? { namespace } : {}), ...(name ? { name } : {}) }),
      (d) => (d.decision === 'allow' ? undefined : check()));

  return {
    name: 'RBACEscalation',
    mutate(a) {
      const { user, object: obj } = a;
      if (a.type.group !== RBAC_GROUP || !obj || a.subresource || a.operation === 'DELETE') return;
      if (!user || user.groups.includes(MASTERS)) return;
      if (a.old && onlyGcFields(obj, a.old)) return;
      const namespace = a.namespace;
      if (a.type.resource === 'roles' || a.type.resource === 'clusterroles') {
        // The real check names the object only when the request path does (not on create).
        return unlessMay(user, 'escalate', a.type.resource, namespace, a.operation === 'CREATE' ? '' : a.name, () => {
          const aggregation = (obj as { aggregationRule?: unknown }).aggregationRule;
          if (aggregation && !(a.old && deepEqual(aggregation, (a.old as { aggregationRule?: unknown }).aggregationRule))
            && uncovered(policy.granting(user, undefined).rules, FULL_AUTHORITY).length > 0)
            throw forbidden({ group: RBAC_GROUP, resource: a.type.resource, name: a.name }, 'must have cluster-admin privileges to use the aggregationRule');
          confirmHeld(a, user, rulesOf(obj), namespace);
        });
      }
      const ref = (obj as { roleRef?: RoleRef }).roleRef;
      if (!ref) return;
      return unlessMay(user, 'bind', ref.kind === 'ClusterRole' ? 'clusterroles' : 'roles', namespace, ref.name, () => {
        const rules = policy.roleRules(ref, namespace);
        if (!rules) throw notFound({ group: RBAC_GROUP, resource: ref.kind === 'ClusterRole' ? 'clusterroles' : 'roles', name: ref.name });
        confirmHeld(a, user, rules, namespace);
      });
    },
  };
}
