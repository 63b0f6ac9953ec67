// The admission plugins orchsim implements, by the names of the components' options (seed 001).
import { DEFAULT_NAMESPACE, KUBE_SYSTEM_NAMESPACE, PUBLIC_NAMESPACE, SYSTEM_NAMESPACE } from '../../api/namespaces.ts';
import { StatusError } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { defaultTolerations } from '../registry/defaults-pod.ts';
import type { AdmissionPlugin } from './chain.ts';
import { limitRangerPlugin } from './limit-ranger.ts';
import { priorityPlugin } from './priority.ts';
import { resourceQuotaPlugin, type QuotaStorage } from './resource-quota.ts';
import type { CallDeps } from './webhooks/call.ts';
import type { Equivalents } from './webhooks/matching.ts';
import { mutatingWebhookPlugin } from './webhooks/mutating.ts';
import type { WebhookSource } from './webhooks/source.ts';
import { validatingWebhookPlugin } from './webhooks/validating.ts';
import { serviceAccountPlugin, type ServiceAccountPluginOptions } from './service-account.ts';

/** Namespaces that exist from the start and may not be deleted (the real plugin's immortal ones, and orchsim's own system namespace). */
const UNDELETABLE = new Set([DEFAULT_NAMESPACE, KUBE_SYSTEM_NAMESPACE, PUBLIC_NAMESPACE, SYSTEM_NAMESPACE]);

// A mutating plugin, as the real one: a missing namespace is a 404 before the object is validated.
const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  async mutate(a, lookup) {
    if (a.type.resource === 'namespaces' && a.type.group === '' && a.operation === 'DELETE' && UNDELETABLE.has(a.name))
      throw new StatusError(403, 'Forbidden', `namespaces "${a.name}" is forbidden: this namespace may not be deleted`, { name: a.name, kind: 'namespaces' });
    if (a.operation !== 'CREATE' || a.namespace === undefined || a.type.scope !== 'Namespaced') return;
    const ns = await lookup.getNamespace(a.namespace);
    if (!ns) throw new StatusError(404, 'NotFound', `namespaces "${a.namespace}" not found`, { name: a.namespace, kind: 'namespaces' });
    if (ns.metadata.deletionTimestamp && a.type.resource !== 'events')
      throw new StatusError(403, 'Forbidden', `${a.type.resource} "${a.name}" is forbidden: unable to create new content in namespace ${a.namespace} because it is being terminated`,
        { name: a.name, group: a.type.group, kind: a.type.resource, causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }] });
  },
};

const isPodCreate = (a: Parameters<NonNullable<AdmissionPlugin['mutate']>>[0]) =>
  a.operation === 'CREATE' && a.type.group === '' && a.type.resource === 'pods' && !a.subresource && a.object;

type Spec = Record<string, unknown>;
const specOf = (o: KObject) => (o.spec ??= {}) as Spec;

export function defaultTolerationSeconds(notReadySeconds = 300, unreachableSeconds = 300): AdmissionPlugin {
  return {
    name: 'DefaultTolerationSeconds',
    mutate(a) {
      if (isPodCreate(a)) defaultTolerations(a.object!, notReadySeconds, unreachableSeconds);
    },
  };
}

const taintNodesByCondition: AdmissionPlugin = {
  name: 'TaintNodesByCondition',
  mutate(a) {
    if (a.operation !== 'CREATE' || a.type.group !== '' || a.type.resource !== 'nodes' || !a.object) return;
    const spec = specOf(a.object);
    const taints = (spec.taints as Spec[] | undefined) ?? [];
    if (!taints.some((t) => t.key === 'node.kubernetes.io/not-ready'))
      taints.push({ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' });
    spec.taints = taints;
  },
};

const alwaysDeny: AdmissionPlugin = {
  name: 'AlwaysDeny',
  mutate(a) {
    throw new StatusError(403, 'Forbidden', `${a.type.resource} "${a.name}" is forbidden: admission control is denying all modifications`, { name: a.name, group: a.type.group, kind: a.type.resource });
  },
};

const alwaysAdmit: AdmissionPlugin = { name: 'AlwaysAdmit' };

/**
 * Enabled unless disabled, in this order (seed 001's defaults that orchsim implements): the
 * webhooks last but ResourceQuota, as the real server orders them.
 */
export const DEFAULT_PLUGINS = ['NamespaceLifecycle', 'LimitRanger', 'ServiceAccount', 'TaintNodesByCondition', 'Priority', 'DefaultTolerationSeconds',
  'MutatingAdmissionWebhook', 'ValidatingAdmissionWebhook', 'ResourceQuota'];

/** Every plugin makePlugin makes. */
export const PLUGIN_NAMES: ReadonlySet<string> = new Set([...DEFAULT_PLUGINS, 'AlwaysDeny', 'AlwaysAdmit']);

export interface PluginOptions extends ServiceAccountPluginOptions {
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
  /** What Priority, LimitRanger and ResourceQuota read (and ResourceQuota writes): the PriorityClasses, quotas and limit ranges. */
  policy: QuotaStorage;
  /** The webhook configurations, what calling their webhooks needs, and which served resources are one (matchPolicy Equivalent). */
  webhooks: { source: WebhookSource; call: CallDeps; equivalents: Equivalents };
}

export function makePlugin(name: string, o: PluginOptions): AdmissionPlugin | undefined {
  switch (name) {
    case 'NamespaceLifecycle': return namespaceLifecycle;
    case 'LimitRanger': return limitRangerPlugin(o.policy.objects);
    case 'ServiceAccount': return serviceAccountPlugin(o);
    case 'TaintNodesByCondition': return taintNodesByCondition;
    case 'Priority': return priorityPlugin(o.policy.objects);
    case 'ResourceQuota': return resourceQuotaPlugin(o.policy);
    case 'DefaultTolerationSeconds': return defaultTolerationSeconds(o.defaultNotReadyTolerationSeconds, o.defaultUnreachableTolerationSeconds);
    case 'AlwaysDeny': return alwaysDeny;
    case 'AlwaysAdmit': return alwaysAdmit;
    case 'MutatingAdmissionWebhook': return mutatingWebhookPlugin(o.webhooks.source, o.webhooks.call, o.webhooks.equivalents);
    case 'ValidatingAdmissionWebhook': return validatingWebhookPlugin(o.webhooks.source, o.webhooks.call, o.webhooks.equivalents);
    default: return undefined;
  }
}
