// The RBAC authorizer: Roles and ClusterRoles grant rules; RoleBindings (in their namespace) and
// ClusterRoleBindings (everywhere) grant them to users, groups and service accounts. It reads the
// four kinds from the store as they change and indexes the bindings by subject, so a decision
// looks only at the bindings that name the user or one of its groups. Like the real one it never
// denies: what no rule allows is "no opinion", left to the next authorizer in the chain.
import { serviceAccountUsername } from './service-account-tokens.ts';
import type { KObject } from '../../api/types.ts';
import { lookupResource, type ResourceType } from '../../api/resources.ts';
import type { Store } from '../storage/store.ts';
import { collectionKey } from '../registry/keys.ts';
import type { AuthorizationAttributes, Authorizer, Decision, RuleSet, UserInfo } from './authorizer.ts';
import { ruleAllows, rulesOf, type PolicyRule } from './rbac-rules.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
const type = (resource: string) => lookupResource(RBAC_GROUP, 'v1', resource)!;
export const ROLES = type('roles');
export const CLUSTER_ROLES = type('clusterroles');
export const ROLE_BINDINGS = type('rolebindings');
export const CLUSTER_ROLE_BINDINGS = type('clusterrolebindings');

export interface Subject { kind: string; name: string; namespace?: string; apiGroup?: string }
export interface RoleRef { kind: string; name: string; apiGroup?: string }
interface Binding { namespace?: string; name: string; roleRef: RoleRef }

/** Index keys of a subject: a User or ServiceAccount by its user name, a Group by its name. */
function subjectKey(s: Subject, bindingNamespace: string | undefined): string | undefined {
  switch (s.kind) {
    case 'User': return `u ${s.name}`;
    case 'Group': return `g ${s.name}`;
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns ? `u ${serviceAccountUsername(ns, s.name)}` : undefined;
    }
  }
  return undefined;
}

function userKeys(user: UserInfo): string[] {
  return [`u ${user.username}`, ...user.groups.map((g) => `g ${g}`)];
}

/** Bindings by subject key; a binding sits under each of its subjects. */
class BindingIndex {
  readonly #bySubject = new Map<string, Map<string, Binding>>();
  readonly #keysOf = new Map<string, string[]>();

  set(id: string, obj: KObject | undefined): void {
    for (const k of this.#keysOf.get(id) ?? []) this.#bySubject.get(k)?.delete(id);
    this.#keysOf.delete(id);
    const roleRef = (obj as { roleRef?: RoleRef } | undefined)?.roleRef;
    if (!obj || !roleRef) return;
    const ns = obj.metadata.namespace;
    const binding: Binding = { ...(ns ? { namespace: ns } : {}), name: obj.metadata.name!, roleRef };
    const subjects = (obj as { subjects?: Subject[] }).subjects;
    const keys = [...new Set((Array.isArray(subjects) ? subjects : []).map((s) => subjectKey(s, ns)).filter((k) => k !== undefined))];
    for (const k of keys) {
      let m = this.#bySubject.get(k);
      if (!m) this.#bySubject.set(k, (m = new Map()));
      m.set(id, binding);
    }
    this.#keysOf.set(id, keys);
  }

  /** Each binding naming the user once. */
  *of(keys: readonly string[]): Iterable<Binding> {
    if (keys.length === 1) {
      yield* this.#bySubject.get(keys[0]!)?.values() ?? [];
      return;
    }
    const seen = new Set<Binding>();
    for (const k of keys)
      for (const b of this.#bySubject.get(k)?.values() ?? [])
        if (!seen.has(b)) {
          seen.add(b);
          yield b;
        }
  }
}

/** A binding's rules, or why they could not be read (a missing role). */
export interface GrantedRules { binding: Binding; rules: PolicyRule[]; error?: string }

export class RbacPolicy implements Authorizer {
  readonly #roles = new Map<string, KObject>();
  readonly #clusterRoles = new Map<string, KObject>();
  readonly #clusterBindings = new BindingIndex();
  /** Per namespace. */
  readonly #bindings = new Map<string, BindingIndex>();
  readonly #prefixes: [ResourceType, string][];

  constructor(readonly store: Store, keyPrefix: string) {
    this.#prefixes = [ROLES, CLUSTER_ROLES, ROLE_BINDINGS, CLUSTER_ROLE_BINDINGS].map((t) => [t, collectionKey(keyPrefix, t, undefined)]);
    store.onChange((c) => {
      for (const [t, prefix] of this.#prefixes)
        if (c.key.startsWith(prefix)) return this.#put(t, c.object, c.type === 'DELETED');
    });
  }

  /** Reads what the store holds; changes after come through onChange. */
  async load(): Promise<void> {
    for (const [t, prefix] of this.#prefixes)
      for (const obj of (await this.store.list(prefix)).items) this.#put(t, obj, false);
  }

  #put(t: ResourceType, obj: KObject, deleted: boolean): void {
    const { namespace, name } = obj.metadata;
    const id = `${namespace ?? ''}/${name}`;
    if (t === ROLES) deleted ? this.#roles.delete(id) : this.#roles.set(id, obj);
    else if (t === CLUSTER_ROLES) deleted ? this.#clusterRoles.delete(name!) : this.#clusterRoles.set(name!, obj);
    else if (t === CLUSTER_ROLE_BINDINGS) this.#clusterBindings.set(id, deleted ? undefined : obj);
    else {
      let index = this.#bindings.get(namespace!);
      if (!index) this.#bindings.set(namespace!, (index = new BindingIndex()));
      index.set(id, deleted ? undefined : obj);
    }
  }

  /** The rules a role reference names, or undefined when that role does not exist. */
  roleRules(ref: RoleRef, namespace: string | undefined): PolicyRule[] | undefined {
    if (ref.kind === 'ClusterRole') {
      const r = this.#clusterRoles.get(ref.name);
      return r && rulesOf(r);
    }
    if (ref.kind === 'Role' && namespace) {
      const r = this.#roles.get(`${namespace}/${ref.name}`);
      return r && rulesOf(r);
    }
    return undefined;
  }

  clusterRole(name: string): KObject | undefined {
    return this.#clusterRoles.get(name);
  }

  clusterRoles(): Iterable<KObject> {
    return this.#clusterRoles.values();
  }

  /** Every binding that applies to the user where `namespace` is (cluster-wide ones first), with its rules. */
  *granted(user: UserInfo, namespace: string | undefined): Iterable<GrantedRules> {
    const keys = userKeys(user);
    const index = namespace ? this.#bindings.get(namespace) : undefined;
    for (const bindings of index ? [this.#clusterBindings, index] : [this.#clusterBindings])
      for (const binding of bindings.of(keys)) {
        const rules = this.roleRules(binding.roleRef, binding.namespace);
        if (rules) yield { binding, rules };
        else yield { binding, rules: [], error: missingRole(binding) };
      }
  }

  /** Every rule that applies to the user in `namespace` (or cluster-wide), and the bindings whose roles are missing. */
  granting(user: UserInfo, namespace: string | undefined): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    for (const g of this.granted(user, namespace)) {
      rules.push(...g.rules);
      if (g.error) errors.push(g.error);
    }
    return { rules, errors };
  }

  /** The rules granted where `namespace` is (cluster-wide ones too), split as SelfSubjectRulesReview answers them. */
  rulesFor(user: UserInfo, namespace: string): RuleSet {
    const { rules, errors } = this.granting(user, namespace || undefined);
    return {
      resourceRules: rules.filter((r) => r.resources?.length),
      nonResourceRules: rules.filter((r) => r.nonResourceURLs?.length),
      incomplete: errors.length > 0,
      errors,
    };
  }

  authorize(a: AuthorizationAttributes): Decision {
    // A non-resource URL is granted only cluster-wide.
    const ns = a.path === undefined ? a.namespace : undefined;
    const errors: string[] = [];
    for (const g of this.granted(a.user, ns)) {
      for (const rule of g.rules) if (ruleAllows(rule, a)) return { decision: 'allow', reason: allowedBy(g.binding) };
      if (g.error) errors.push(g.error);
    }
    return { decision: 'noOpinion', reason: errors.length ? `RBAC: ${errors.join(', ')}` : '' };
  }
}

function missingRole(b: Binding): string {
  const what = b.roleRef.kind === 'ClusterRole' ? 'clusterrole' : 'role';
  return `${what}.rbac.authorization.k8s.io "${b.roleRef.name}" not found`;
}

/** The reason of an allowed request, worded as the real authorizer's: which binding granted it. */
function allowedBy(b: Binding): string {
  return b.namespace
    ? `RBAC: allowed by RoleBinding "${b.name}/${b.namespace}" of ${b.roleRef.kind} "${b.roleRef.name}"`
    : `RBAC: allowed by ClusterRoleBinding "${b.name}" of ${b.roleRef.kind} "${b.roleRef.name}"`;
}
