// NodeName: a pod that names its node (spec.nodeName) fits that node only.
import type { FilterPlugin } from '../framework.ts';

export const nodeName: FilterPlugin = {
  name: 'NodeName',
  filter(_state, pod, node) {
    const wanted = (pod.pod.spec as { nodeName?: string } | undefined)?.nodeName;
    return !wanted || wanted === node.name ? undefined : "node(s) didn't match the requested node name";
  },
};
