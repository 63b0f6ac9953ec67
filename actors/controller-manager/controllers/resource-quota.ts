// The resource quota controller (the real resourcequota-controller): each ResourceQuota's status
// is its spec.hard and the usage of what its namespace holds, recomputed
// - when a quota is created or its spec.hard changes (status-only changes are its own or the
//   admission plugin's charges, and are not worth a recount);
// - when an object it counts goes away or stops counting: a pod deleted or ended, a service
//   deleted or no longer a NodePort or LoadBalancer, a configmap or secret deleted (the
//   replenishment the real controller's quota monitor does, for the kinds this one follows);
// - for every quota, every --resource-quota-sync-period, which also catches what no event shows
//   (the other kinds a quota counts by `count/<resource>.<group>` are listed at each recount).
// Usage is summed with the same evaluators the ResourceQuota admission plugin charges by
// (api/quota.ts); the status is written with the quota's resourceVersion, so a recount that raced
// an admission charge fails and is tried again. Keys are reconciled from a work queue with
// --concurrent-resource-quota-syncs workers.
import { chargesCompute, evaluatorFor, scopeRequirements, type Evaluator } from '../../api/quota.ts';
import { ZERO_QUANTITY } from '../../api/quantity.ts';
import { addLists, listsEqual, mask, readResourceList, writeResourceList, type ResourceList } from '../../api/resource-lists.ts';
import { RESOURCES, type ResourceType } from '../../api/resources.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import type { Informer } from '../../client/informer.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { CONFIG_MAPS, PODS, RESOURCE_QUOTAS, type ResourceQuota, SECRETS, SERVICES, type Service } from '../../api/model/core.ts';

/** A recount that lost to an admission charge is tried again this much later, once the cache has the charge. */
const CONFLICT_RETRY_MS = 1_000;
/** The object counts with old names of their own. */
const ALIASED = ['configmaps', 'secrets', 'resourcequotas', 'replicationcontrollers'];

export interface ResourceQuotaInit extends QueuedControllerInit {
  /** --resource-quota-sync-period: every quota is recounted this often. */
  syncPeriodMs: number;
}

type Quota = KObject & { spec?: { hard?: unknown }; status?: { hard?: unknown; used?: unknown } };

/** GetQuotaServiceType: only NodePort and LoadBalancer services count beyond `services`. */
const quotaServiceType = (svc: Service) => {
  const type = svc.spec?.type;
  return type === 'NodePort' || type === 'LoadBalancer' ? type : '';
};

/** The served, stored, namespaced type a quota's resource names, of any version. */
const storedType = (group: string, resource: string): ResourceType | undefined =>
  RESOURCES.find((t) => t.group === group && t.resource === resource && t.scope === 'Namespaced' && !t.virtual);

/** The (group, resource) pairs a quota's hard names may count: pods and services always, `count/<r>.<g>` and old names as named. */
function countedResources(hardNames: string[]): [string, string][] {
  const pairs = new Map<string, [string, string]>([['/pods', ['', 'pods']], ['/services', ['', 'services']]]);
  for (const name of hardNames) {
    let group = '';
    let resource = name;
    if (name.startsWith('count/')) {
      const dot = name.indexOf('.', 6);
      [resource, group] = dot < 0 ? [name.slice(6), ''] : [name.slice(6, dot), name.slice(dot + 1)];
    } else if (!ALIASED.includes(name)) continue;
    pairs.set(`${group}/${resource}`, [group, resource]);
  }
  return [...pairs.values()];
}

export class ResourceQuotaController extends QueuedController {
  readonly #quotas: Informer<ResourceQuota>;
  /** The counted kinds followed by informers, by `group/resource`. */
  readonly #followed = new Map<string, Informer>();

  constructor(init: ResourceQuotaInit) {
    super('resourcequota-controller', init, { periodMs: init.syncPeriodMs, pass: async () => this.#enqueueAll() });
    this.#quotas = init.informers.get(RESOURCE_QUOTAS);
    const enqueue = (q: KObject) => this.queue.add(cacheKey(q));
    this.#quotas.on({
      add: enqueue,
      update: (old, q) => {
        if (!listsEqual(readResourceList((old as Quota).spec?.hard), readResourceList((q as Quota).spec?.hard))) enqueue(q);
      },
      delete: enqueue,
    });
    const follow = (type: ResourceType, changed?: (old: KObject, obj: KObject) => boolean) => {
      const informer = init.informers.get(type);
      this.#followed.set(`/${type.resource}`, informer);
      informer.on({ delete: (o) => this.#replenish(type, o), ...(changed ? { update: (old, o) => changed(old, o) && this.#replenish(type, o) } : {}) });
    };
    follow(PODS, (old, pod) => chargesCompute(old, this.clock.now()) && !chargesCompute(pod, this.clock.now()));
    follow(SERVICES, (old, svc) => quotaServiceType(old) !== quotaServiceType(svc));
    follow(CONFIG_MAPS);
    follow(SECRETS);
  }

  /** The full recount: every quota, every sync period. */
  #enqueueAll(): void {
    for (const key of this.#quotas.cache.keys()) this.queue.add(key);
  }

  /** Queues the quotas of the object's namespace that limit something of its kind. */
  #replenish(type: ResourceType, obj: KObject): void {
    const e = evaluatorFor(type.group, type.resource);
    if (!e) return;
    for (const quota of this.#quotas.cache.inNamespace(obj.metadata.namespace ?? ''))
      if (e.matching(readResourceList((quota as Quota).status?.hard).keys()).length) this.queue.add(cacheKey(quota));
  }

  protected async sync(key: string): Promise<void> {
    const quota = this.#quotas.cache.byKey(key) as Quota | undefined;
    if (!quota) return;
    const hard = readResourceList(quota.spec?.hard);
    const [statusHard, statusUsed] = [readResourceList(quota.status?.hard), readResourceList(quota.status?.used)];
    const counted = await this.#usage(quota, [...hard.keys()]);
    const used = mask(new Map([...statusUsed, ...counted]), hard.keys());
    const dirty = quota.status?.hard === undefined || quota.status?.used === undefined || !listsEqual(hard, statusHard) || !listsEqual(used, statusUsed);
    if (!dirty) return;
    const { name, namespace, resourceVersion, labels, annotations } = quota.metadata;
    try {
      await this.client.update(RESOURCE_QUOTAS, { apiVersion: 'v1', kind: 'ResourceQuota',
        metadata: { name, namespace, resourceVersion, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) },
        status: { hard: writeResourceList(hard), used: writeResourceList(used) } }, 'status');
    } catch (e) {
      // Gone: nothing to count. Changed meanwhile (a charge; its status-only change queues nothing): count again.
      if (isConflict(e)) this.queue.addAfter(key, CONFLICT_RETRY_MS);
      else if (!isNotFound(e)) throw e;
    }
  }

  /** CalculateUsage: each evaluator's sum over the namespace's objects in the quota's scopes, for the hard names it measures. */
  async #usage(quota: Quota, hardNames: string[]): Promise<ResourceList> {
    const namespace = quota.metadata.namespace ?? '';
    const scopes = scopeRequirements(quota);
    const now = this.clock.now();
    let usage: ResourceList = new Map();
    const measured = new Set<string>();
    for (const [group, resource] of countedResources(hardNames)) {
      const type = storedType(group, resource);
      const e: Evaluator | undefined = type && evaluatorFor(group, resource);
      const names = e ? e.matching(hardNames) : [];
      if (!type || !e || names.length === 0) continue;
      let sum: ResourceList = new Map(names.map((n) => [n, ZERO_QUANTITY]));
      for (const obj of await this.#objects(type, namespace))
        if (scopes.every((req) => e.matchesScope(req, obj))) sum = addLists(sum, e.usage(obj, now));
      usage = addLists(usage, sum);
      for (const n of names) measured.add(n);
    }
    return mask(usage, measured);
  }

  /** What the namespace holds of a kind: from its informer when followed, else listed now. */
  async #objects(type: ResourceType, namespace: string): Promise<KObject[]> {
    const informer = type.group === '' ? this.#followed.get(`/${type.resource}`) : undefined;
    return informer ? informer.cache.inNamespace(namespace) : (await this.client.listAll(type, namespace)).items;
  }
}
