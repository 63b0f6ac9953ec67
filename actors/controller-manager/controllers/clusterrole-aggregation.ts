// The ClusterRole aggregation controller: a ClusterRole with an aggregationRule holds the rules of
// every other ClusterRole its selectors pick, in name order, each rule once. Any ClusterRole's
// change may change what an aggregated role should hold, so every aggregated role is looked at
// again; a role that already holds the right rules is not written.
import { CLUSTER_ROLES } from '../../apiserver/auth/rbac.ts';
import { rulesOf, type PolicyRule } from '../../apiserver/auth/rbac-rules.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { compileLabelSelector, type LabelSelector } from '../../scheduler/label-selector.ts';
import { deepEqual } from '../../apiserver/registry/deep-equal.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';

const selectorsOf = (role: KObject) => ((role as { aggregationRule?: { clusterRoleSelectors?: LabelSelector[] } }).aggregationRule?.clusterRoleSelectors);

export class ClusterRoleAggregationController extends QueuedController {
  constructor(init: QueuedControllerInit) {
    super('clusterrole-aggregation-controller', init);
    const informer = init.informers.get(CLUSTER_ROLES);
    const enqueueAggregated = () => {
      for (const role of informer.cache.list()) if (selectorsOf(role)) this.queue.add(role.metadata.name!);
    };
    informer.on({ add: enqueueAggregated, update: enqueueAggregated, delete: enqueueAggregated });
  }

  protected async sync(name: string): Promise<void> {
    const cache = this.informers.get(CLUSTER_ROLES).cache;
    const role = cache.get(undefined, name);
    const selectors = role && selectorsOf(role);
    if (!role || !selectors) return;
    const rules: PolicyRule[] = [];
    const all = [...cache.list()].sort((a, b) => (a.metadata.name! < b.metadata.name! ? -1 : 1));
    for (const s of selectors) {
      const selector = compileLabelSelector(s);
      for (const other of all) {
        if (other.metadata.name === name || !selector.matches(other.metadata.labels ?? {})) continue;
        for (const rule of rulesOf(other)) if (!rules.some((r) => deepEqual(r, rule))) rules.push(rule);
      }
    }
    if (deepEqual(rules, rulesOf(role))) return;
    try {
      await this.client.update(CLUSTER_ROLES, { ...role, rules } as KObject);
    } catch (e) {
      // Changed meanwhile: its event brings it back; gone: nothing to do.
      if (!(isNotFound(e) || isConflict(e))) throw e;
    }
  }
}
