// ReplicaSets (apps/v1): one replica by default; printReplicaSet.
import type { KObject } from '../../../api/types.ts';
import { child, fill } from '../defaults-fields.ts';
import { defaultPodTemplateSpec } from '../defaults-pod.ts';
import { age, ageColumn, column, containersColumn, fields, formatLabelSelector, imagesColumn, int, integer, nameColumn } from '../tables-format.ts';
import { desired, REPLICAS, selectorColumn, REPLICAS_SCALE, templateContainers, workloadKind } from './workload.ts';

function defaults(rs: KObject): void {
  const spec = child(rs, 'spec');
  fill(spec, [REPLICAS]);
  defaultPodTemplateSpec(child(spec, 'template'));
}

export const replicaSet = workloadKind({
  defaults,
  scale: REPLICAS_SCALE,
  printer: {
    columns: [
      nameColumn,
      column('Desired', 'Replicas is the number of desired replicas.', integer),
      column('Current', 'Replicas is the most recently observed number of replicas.', integer),
      column('Ready', 'The number of ready replicas for this replica set.', integer),
      ageColumn, containersColumn, imagesColumn, selectorColumn,
    ],
    cells(o, nowMs) {
      const status = fields(o.status);
      return [o.metadata.name ?? '', desired(o), int(status.replicas), int(status.readyReplicas), age(o, nowMs),
        ...templateContainers(o), formatLabelSelector(fields(o.spec).selector)];
    },
  },
});
