// Workload defaults (kubernetes pkg/apis/apps/v1 defaults.go, zz_generated.defaults.go): replica
// counts, update strategies and history limits, then the pod template's spec defaults.
import type { KObject } from '../../api/types.ts';
import { child, type FieldDefault, fill, items, nil, present, zero } from './defaults-fields.ts';
import { defaultPodTemplateSpec } from './defaults-pod.ts';

const REPLICAS = nil('replicas', 1);
const HISTORY = nil('revisionHistoryLimit', 10);

export function defaultDeployment(d: KObject): void {
  const spec = child(d, 'spec');
  fill(spec, [REPLICAS]);
  const strategy = child(spec, 'strategy');
  fill(strategy, [zero('type', 'RollingUpdate')]);
  if (strategy.type === 'RollingUpdate') fill(child(strategy, 'rollingUpdate'), [nil('maxUnavailable', '25%'), nil('maxSurge', '25%')]);
  fill(spec, [HISTORY, nil('progressDeadlineSeconds', 600)]);
  defaultPodTemplateSpec(child(spec, 'template'));
}

export function defaultReplicaSet(rs: KObject): void {
  const spec = child(rs, 'spec');
  fill(spec, [REPLICAS]);
  defaultPodTemplateSpec(child(spec, 'template'));
}

export function defaultDaemonSet(ds: KObject): void {
  const spec = child(ds, 'spec');
  const strategy = child(spec, 'updateStrategy');
  fill(strategy, [zero('type', 'RollingUpdate')]);
  if (strategy.type === 'RollingUpdate') fill(child(strategy, 'rollingUpdate'), [nil('maxUnavailable', 1), nil('maxSurge', 0)]);
  fill(spec, [HISTORY]);
  defaultPodTemplateSpec(child(spec, 'template'));
}

/** PVC retention (StatefulSetAutoDeletePVC is on in 1.32); MaxUnavailableStatefulSet is off, so no maxUnavailable. */
const STATEFUL_SET: readonly FieldDefault[] = [zero('podManagementPolicy', 'OrderedReady'), REPLICAS, HISTORY];

export function defaultStatefulSet(sts: KObject): void {
  const spec = child(sts, 'spec');
  fill(spec, STATEFUL_SET);
  const strategy = child(spec, 'updateStrategy');
  // Only an unset strategy gets a rollingUpdate block; an explicit RollingUpdate without one stays without.
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    child(strategy, 'rollingUpdate');
  }
  const rollingUpdate = present(strategy, 'rollingUpdate');
  if (strategy.type === 'RollingUpdate' && rollingUpdate) fill(rollingUpdate, [nil('partition', 0)]);
  fill(child(spec, 'persistentVolumeClaimRetentionPolicy'), [zero('whenDeleted', 'Retain'), zero('whenScaled', 'Retain')]);
  defaultPodTemplateSpec(child(spec, 'template'));
  for (const claim of items(spec, 'volumeClaimTemplates')) {
    fill(child(claim, 'spec'), [nil('volumeMode', 'Filesystem')]);
    fill(child(claim, 'status'), [zero('phase', 'Pending')]);
  }
}
