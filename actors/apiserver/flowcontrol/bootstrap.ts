// The priority levels and flow schemas a server with priority and fairness keeps in its store, as
// the real server's bootstrap configuration (apiserver pkg/apis/flowcontrol/bootstrap/default.go,
// current): the mandatory `exempt` and `catch-all`, which the server restores whatever happens to
// them, and the suggested ones, which an operator may edit or delete. The real objects' kube-system
// namespace is this cluster's orch-system. Every object carries the autoupdate annotation, written
// already defaulted, so that what is stored equals what is here.
import { AUTHENTICATED, UNAUTHENTICATED } from '../auth/users.ts';
import { SYSTEM_NAMESPACE } from '../../api/namespaces.ts';
import type { KObject } from '../../api/types.ts';
import { MASTERS } from '../auth/authorizer.ts';
import { NODES_GROUP } from '../auth/node-authorizer.ts';
import { ALL_SERVICE_ACCOUNTS_GROUP } from '../auth/service-account-tokens.ts';

export const FLOWCONTROL_GROUP = 'flowcontrol.apiserver.k8s.io';
const API_VERSION = `${FLOWCONTROL_GROUP}/v1`;
/** "true": the server keeps the object's spec as here; "false": an operator owns it. */
export const AUTOUPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
export const EXEMPT = 'exempt';
export const CATCH_ALL = 'catch-all';

const CONTROLLER_MANAGER = 'system:kube-controller-manager';
const SCHEDULER = 'system:kube-scheduler';

type Subject = Record<string, unknown>;
const group = (name: string): Subject => ({ kind: 'Group', group: { name } });
const user = (name: string): Subject => ({ kind: 'User', user: { name } });
const systemServiceAccounts: Subject = { kind: 'ServiceAccount', serviceAccount: { namespace: SYSTEM_NAMESPACE, name: '*' } };

const everything = { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true };
const everyPath = { verbs: ['*'], nonResourceURLs: ['*'] };

/** Rules matching every request of these subjects. */
const all = (...subjects: Subject[]) => ({ subjects, resourceRules: [everything], nonResourceRules: [everyPath] });

function flowSchema(name: string, level: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | undefined,
  rules: Record<string, unknown>): KObject {
  return {
    apiVersion: API_VERSION, kind: 'FlowSchema',
    metadata: { name, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } },
    spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence, ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [rules] },
  } as KObject;
}

function priorityLevel(name: string, spec: Record<string, unknown>): KObject {
  return { apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: { name, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } }, spec } as KObject;
}

function queuing(shares: number, lendablePercent: number, queues: number, handSize: number): Record<string, unknown> {
  return { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent,
    limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } } };
}

export const MANDATORY_PRIORITY_LEVELS: readonly KObject[] = [
  priorityLevel(EXEMPT, { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
  priorityLevel(CATCH_ALL, { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } }),
];

export const MANDATORY_FLOW_SCHEMAS: readonly KObject[] = [
  flowSchema(EXEMPT, EXEMPT, 1, undefined, all(group(MASTERS))),
  flowSchema(CATCH_ALL, CATCH_ALL, 10000, 'ByUser', all(group(UNAUTHENTICATED), group(AUTHENTICATED))),
];

export const SUGGESTED_PRIORITY_LEVELS: readonly KObject[] = [
  priorityLevel('system', queuing(30, 33, 64, 6)),
  // Node health (status and leases) apart from the rest of the nodes' traffic.
  priorityLevel('node-high', queuing(40, 25, 64, 6)),
  priorityLevel('leader-election', queuing(10, 0, 16, 4)),
  priorityLevel('workload-high', queuing(40, 50, 128, 6)),
  priorityLevel('workload-low', queuing(100, 90, 128, 6)),
  priorityLevel('global-default', queuing(20, 50, 128, 6)),
];

export const SUGGESTED_FLOW_SCHEMAS: readonly KObject[] = [
  flowSchema('system-nodes', 'system', 500, 'ByUser', all(group(NODES_GROUP))),
  flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
    subjects: [group(NODES_GROUP)],
    resourceRules: [
      { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], namespaces: ['*'], clusterScope: true },
      { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] },
    ],
  }),
  // Health probes from anyone are exempt.
  flowSchema('probes', EXEMPT, 2, undefined, {
    subjects: [group(UNAUTHENTICATED), group(AUTHENTICATED)],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
    subjects: [user(CONTROLLER_MANAGER), user(SCHEDULER), systemServiceAccounts],
    resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }],
  }),
  flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', all(user(CONTROLLER_MANAGER))),
  flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', all(user(SCHEDULER))),
  flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', all(systemServiceAccounts)),
  flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', all(group(ALL_SERVICE_ACCOUNTS_GROUP))),
  flowSchema('global-default', 'global-default', 9900, 'ByUser', all(group(UNAUTHENTICATED), group(AUTHENTICATED))),
];

/** The mandatory object of that kind and name, if it is one. */
export function mandatoryObject(kind: 'FlowSchema' | 'PriorityLevelConfiguration', name: string | undefined): KObject | undefined {
  const list = kind === 'FlowSchema' ? MANDATORY_FLOW_SCHEMAS : MANDATORY_PRIORITY_LEVELS;
  return list.find((o) => o.metadata.name === name);
}
