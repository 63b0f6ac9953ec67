// DaemonSets (apps/v1): a rolling update of one node at a time and ten revisions kept by
// default; printDaemonSet.
import type { KObject } from '../../../api/types.ts';
import { child, fill, nil, zero } from '../defaults-fields.ts';
import { defaultPodTemplateSpec } from '../defaults-pod.ts';
import { age, ageColumn, column, containersColumn, fields, formatLabels, formatLabelSelector, imagesColumn, int, integer, nameColumn } from '../tables-format.ts';
import { HISTORY, selectorColumn, templateContainers, workloadKind } from './workload.ts';

function defaults(ds: KObject): void {
  const spec = child(ds, 'spec');
  const strategy = child(spec, 'updateStrategy');
  fill(strategy, [zero('type', 'RollingUpdate')]);
  if (strategy.type === 'RollingUpdate') fill(child(strategy, 'rollingUpdate'), [nil('maxUnavailable', 1), nil('maxSurge', 0)]);
  fill(spec, [HISTORY]);
  defaultPodTemplateSpec(child(spec, 'template'));
}

export const daemonSet = workloadKind({
  defaults,
  printer: {
    columns: [
      nameColumn,
      column('Desired', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).', integer),
      column('Current', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.', integer),
      column('Ready', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.', integer),
      column('Up-to-date', 'The total number of nodes that are running updated daemon pod', integer),
      column('Available', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available.', integer),
      column('Node Selector', 'NodeSelector is a selector which must be true for the pod to fit on a node.'),
      ageColumn, containersColumn, imagesColumn, selectorColumn,
    ],
    cells(o, nowMs) {
      const status = fields(o.status);
      return [o.metadata.name ?? '', int(status.desiredNumberScheduled), int(status.currentNumberScheduled), int(status.numberReady),
        int(status.updatedNumberScheduled), int(status.numberAvailable), formatLabels(fields(o.spec, 'template', 'spec').nodeSelector),
        age(o, nowMs), ...templateContainers(o), formatLabelSelector(fields(o.spec).selector)];
    },
  },
});
