// NodeUnschedulable: a cordoned node (spec.unschedulable) takes only pods that tolerate the
// node.kubernetes.io/unschedulable:NoSchedule taint, as the real plugin decides.
import type { FilterPlugin, Taint } from '../framework.ts';
import { podTolerations, tolerationsTolerate } from './taint-toleration.ts';

const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

export const nodeUnschedulable: FilterPlugin = {
  name: 'NodeUnschedulable',
  filter(_state, pod, node) {
    if (!node.unschedulable || tolerationsTolerate(podTolerations(pod), UNSCHEDULABLE_TAINT)) return undefined;
    return 'node(s) were unschedulable';
  },
};
