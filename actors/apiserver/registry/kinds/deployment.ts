// Deployments (apps/v1): one replica, a 25%/25% rolling update, ten old ReplicaSets kept and a
// ten-minute progress deadline by default (pkg/apis/apps/v1 defaults.go); printDeployment.
import type { KObject } from '../../../api/types.ts';
import { child, fill, nil, zero } from '../defaults-fields.ts';
import { defaultPodTemplateSpec } from '../defaults-pod.ts';
import { age, ageColumn, column, containersColumn, fields, imagesColumn, int, labelSelectorString, nameColumn } from '../tables-format.ts';
import { desired, HISTORY, REPLICAS, selectorColumn, REPLICAS_SCALE, templateContainers, workloadKind } from './workload.ts';

function defaults(d: KObject): void {
  const spec = child(d, 'spec');
  fill(spec, [REPLICAS]);
  const strategy = child(spec, 'strategy');
  fill(strategy, [zero('type', 'RollingUpdate')]);
  if (strategy.type === 'RollingUpdate') fill(child(strategy, 'rollingUpdate'), [nil('maxUnavailable', '25%'), nil('maxSurge', '25%')]);
  fill(spec, [HISTORY, nil('progressDeadlineSeconds', 600)]);
  defaultPodTemplateSpec(child(spec, 'template'));
}

export const deployment = workloadKind({
  defaults,
  scale: REPLICAS_SCALE,
  printer: {
    columns: [
      nameColumn,
      column('Ready', 'Number of the pod with ready state'),
      column('Up-to-date', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
      column('Available', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
      ageColumn, containersColumn, imagesColumn, selectorColumn,
    ],
    cells(o, nowMs) {
      const status = fields(o.status);
      // Unlike the other workloads, an empty selector prints as "" and a broken one as "<invalid>".
      const selector = labelSelectorString(fields(o.spec).selector) ?? '<invalid>';
      return [o.metadata.name ?? '', `${int(status.readyReplicas)}/${desired(o)}`, int(status.updatedReplicas), int(status.availableReplicas),
        age(o, nowMs), ...templateContainers(o), selector];
    },
  },
});
