// StatefulSets (apps/v1): ordered pod management, a rolling update from partition 0, PVCs retained
// (StatefulSetAutoDeletePVC is on in 1.32; MaxUnavailableStatefulSet is off, so no maxUnavailable);
// printStatefulSet.
import type { KObject } from '../../../api/types.ts';
import { child, type FieldDefault, fill, items, nil, present, zero } from '../defaults-fields.ts';
import { defaultPodTemplateSpec } from '../defaults-pod.ts';
import { age, ageColumn, column, containersColumn, fields, imagesColumn, int, nameColumn } from '../tables-format.ts';
import { desired, HISTORY, REPLICAS, REPLICAS_SCALE, templateContainers, workloadKind } from './workload.ts';

const STATEFUL_SET: readonly FieldDefault[] = [zero('podManagementPolicy', 'OrderedReady'), REPLICAS, HISTORY];

function defaults(sts: KObject): void {
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

export const statefulSet = workloadKind({
  defaults,
  scale: REPLICAS_SCALE,
  printer: {
    columns: [nameColumn, column('Ready', 'Number of the pod with ready state'), ageColumn, containersColumn, imagesColumn],
    cells: (o, nowMs) => [o.metadata.name ?? '', `${int(fields(o.status).readyReplicas)}/${desired(o)}`, age(o, nowMs), ...templateContainers(o)],
  },
});
