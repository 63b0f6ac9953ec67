// The Node authorizer: a node agent (user system:node:<name> in group system:nodes) reaches its
// own Node and Lease, the pods bound to it, and only the Secrets, ConfigMaps, claims and service
// account tokens those pods use (node-graph.ts); other kinds follow the real system:node rules.
// As the real one with AuthorizeNodeWithSelectors: lists and watches of pods must select
// spec.nodeName=<node>, of nodes metadata.name=<node>. Users that are not nodes get no opinion,
// and so does a node asking for what it may not have, with the real authorizer's reason.
import { requiredFieldValue } from '../../api/selectors.ts';
import { NODE_LEASE_NAMESPACE } from '../../api/namespaces.ts';
import type { AuthorizationAttributes, Authorizer, Decision, RuleSet, UserInfo } from './authorizer.ts';
import type { NodeGraph } from './node-graph.ts';
import { ruleAllows, type PolicyRule } from './rbac-rules.ts';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';

/** The node a user is, or undefined for other users. */
function nodeOfUser(user: UserInfo): string | undefined {
  if (!user.username.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}

const READ = ['get', 'list', 'watch'];
/** What nodes may do on the kinds the graph does not divide (the real system:node rules, cut to the kinds served here). */
const NODE_RULES: PolicyRule[] = [
  { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'] },
  { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews', 'localsubjectaccessreviews'] },
  { verbs: READ, apiGroups: [''], resources: ['services'] },
  { verbs: ['create', 'update', 'patch'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] },
  { verbs: ['get'], apiGroups: [''], resources: ['endpoints'] },
];

const allow: Decision = { decision: 'allow', reason: '' };
const noOpinion = (reason: string): Decision => ({ decision: 'noOpinion', reason });
const NO_RELATIONSHIP = (node: string) => noOpinion(`no relationship found between node '${node}' and this object`);

export class NodeAuthorizer implements Authorizer {
  constructor(readonly graph: NodeGraph) {}

  /** Nodes' permissions are not listed, as the real authorizer's. */
  rulesFor(user: UserInfo): RuleSet {
    const node = nodeOfUser(user) !== undefined;
    return { resourceRules: [], nonResourceRules: [], incomplete: node, errors: node ? ['node authorizer does not support user rule resolution'] : [] };
  }

  authorize(a: AuthorizationAttributes): Decision {
    const node = nodeOfUser(a.user);
    if (node === undefined) return noOpinion('');
    if (!node) return noOpinion(`unknown node for user "${a.user.username}"`);
    if (a.path === undefined && a.apiGroup === '') {
      switch (a.resource) {
        case 'secrets':
        case 'configmaps':
          return this.#readReferenced(node, a);
        case 'persistentvolumeclaims':
          return a.verb === 'get' ? this.#referenced(node, a) : noOpinion(`can only get individual resources of this type`);
        case 'serviceaccounts':
          if (a.subresource !== 'token') break;
          return a.verb === 'create' ? this.#referenced(node, a) : noOpinion('can only create tokens for individual service accounts');
        case 'nodes':
          return this.#node(node, a);
        case 'pods':
          return this.#pod(node, a);
      }
    }
    if (a.path === undefined && a.apiGroup === 'coordination.k8s.io' && a.resource === 'leases') return this.#lease(node, a);
    return NODE_RULES.some((r) => ruleAllows(r, a)) ? allow : noOpinion('');
  }

  #readReferenced(node: string, a: AuthorizationAttributes): Decision {
    if (!READ.includes(a.verb)) return noOpinion('can only read resources of this type');
    // A list or watch names its object by a metadata.name field selector.
    const name = a.verb === 'get' ? a.name : requiredFieldValue(a.fieldSelector, 'metadata.name');
    return this.#referenced(node, { ...a, ...(name ? { name } : {}) });
  }

  #referenced(node: string, a: AuthorizationAttributes): Decision {
    if (!a.name) return noOpinion('No Object name found, expected name of the object');
    if (a.subresource && a.resource !== 'serviceaccounts') return noOpinion(`cannot ${a.verb} subresource ${a.subresource}`);
    const kind = a.resource as 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'serviceaccounts';
    return this.graph.uses(node, kind, a.namespace ?? '', a.name) ? allow : NO_RELATIONSHIP(node);
  }

  #lease(node: string, a: AuthorizationAttributes): Decision {
    if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
    if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the ${NODE_LEASE_NAMESPACE} namespace`);
    // A create names its object in the body only; the name it asks for is checked when it renews.
    if (a.verb !== 'create' && a.name !== node) return noOpinion('can only access node lease with the same name as the requesting node');
    return allow;
  }

  #node(node: string, a: AuthorizationAttributes): Decision {
    if (a.subresource && a.subresource !== 'status') return noOpinion(`cannot ${a.verb} nodes/${a.subresource}`);
    if (a.verb === 'create' && !a.subresource) return allow;
    if (a.verb === 'list' || a.verb === 'watch')
      return requiredFieldValue(a.fieldSelector, 'metadata.name') === node ? allow : noOpinion(`can only ${a.verb} its own node: a fieldSelector metadata.name=${node} is required`);
    if (!['get', 'update', 'patch'].includes(a.verb)) return noOpinion(`can only get, update or patch its own node`);
    return a.name === node ? allow : noOpinion(`can only access its own node`);
  }

  #pod(node: string, a: AuthorizationAttributes): Decision {
    if (a.verb === 'list' || a.verb === 'watch') {
      if (a.subresource) return noOpinion('');
      return requiredFieldValue(a.fieldSelector, 'spec.nodeName') === node ? allow : noOpinion(`can only ${a.verb} pods with spec.nodeName field selector`);
    }
    const allowedVerb = a.subresource === undefined ? ['get', 'delete', 'create'].includes(a.verb)
      : a.subresource === 'status' ? ['get', 'update', 'patch'].includes(a.verb)
      : a.subresource === 'eviction' && a.verb === 'create';
    if (!allowedVerb) return noOpinion('');
    // Mirror pods are created bound to the node; the body names the node and admission checks it.
    if (a.verb === 'create' && a.subresource === undefined) return allow;
    if (!a.name) return noOpinion('No Object name found, expected name of the object');
    return this.graph.podNode(a.namespace ?? '', a.name) === node ? allow : NO_RELATIONSHIP(node);
  }
}
