// NodeName: a pod that names its node (spec.nodeName) fits that node only.
import type { FilterPlugin, PodInfo } from '../framework.ts';

const wantedNode = (pod: PodInfo) => pod.pod.spec?.nodeName;

export const nodeName: FilterPlugin = {
  name: 'NodeName',
  preFilter(_state, pod) {
    return wantedNode(pod) ? undefined : { skip: true };
  },
  filter(_state, pod, node) {
    const wanted = wantedNode(pod);
    return !wanted || wanted === node.name ? undefined : "node(s) didn't match the requested node name";
  },
};
