// `--balance-similar-node-groups`, as the real one (processors/nodegroupset): once the expanders
// chose a group, the groups similar to it that could take the same pods share the new nodes, each
// next node going to the group whose new size is smallest, so similar groups (the same machine in
// other zones) stay the same size. Two groups are similar when their template nodes have the same
// capacity (memory within 1.5%), allocatable within 5%, and the same labels but for the ones that
// differ by zone, host or group (the basic ignored labels, the cloud's group labels and
// `--balancing-ignore-label`). Taints are not compared, as the real comparator does not.
import { parseQuantity } from '../api/quantity.ts';
import type { Node } from '../api/model/core.ts';
import type { NodeGroup } from './cloud-provider.ts';

const BASIC_IGNORED_LABELS = ['kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone', 'failure-domain.beta.kubernetes.io/region', 'beta.kubernetes.io/fluentd-ds-ready', 'kops.k8s.io/instancegroup'];
const MAX_ALLOCATABLE_DIFFERENCE_RATIO = 0.05;
const MAX_CAPACITY_MEMORY_DIFFERENCE_RATIO = 0.015;

/** The labels a similarity check leaves out: the basic ones and `extra` (the cloud's and the flag's). */
export const ignoredLabels = (extra: readonly string[]): ReadonlySet<string> => new Set([...BASIC_IGNORED_LABELS, ...extra]);

/** Both quantities present, and the larger at most `ratio` of itself above the smaller. */
function withinTolerance(a: string | undefined, b: string | undefined, ratio: number): boolean {
  if (a === undefined || b === undefined) return false;
  const x = parseQuantity(a);
  const y = parseQuantity(b);
  const larger = Math.max(x, y);
  return larger - Math.min(x, y) <= larger * ratio;
}

function sameKeys(a: Record<string, string>, b: Record<string, string>): string[] | undefined {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (a[k] === undefined || b[k] === undefined) return undefined;
  return [...keys];
}

/** Whether two groups' template nodes are similar enough for their groups to be balanced. */
export function similarTemplates(n1: Node, n2: Node, ignored: ReadonlySet<string>): boolean {
  const cap1 = n1.status?.capacity ?? {};
  const cap2 = n2.status?.capacity ?? {};
  const capacity = sameKeys(cap1, cap2);
  if (!capacity) return false;
  for (const r of capacity) {
    if (r === 'memory' ? !withinTolerance(cap1[r], cap2[r], MAX_CAPACITY_MEMORY_DIFFERENCE_RATIO) : parseQuantity(cap1[r]!) !== parseQuantity(cap2[r]!)) return false;
  }
  const al1 = n1.status?.allocatable ?? {};
  const al2 = n2.status?.allocatable ?? {};
  const allocatable = sameKeys(al1, al2);
  if (!allocatable || allocatable.some((r) => !withinTolerance(al1[r], al2[r], MAX_ALLOCATABLE_DIFFERENCE_RATIO))) return false;
  const labels = (n: Node) => Object.entries(n.metadata.labels ?? {}).filter(([k]) => !ignored.has(k));
  const l1 = labels(n1);
  const l2 = new Map(labels(n2));
  return l1.length === l2.size && l1.every(([k, v]) => l2.get(k) === v);
}

/** One group's part of a scale-up: from its target size to newSize. */
export interface Increase {
  group: NodeGroup;
  currentSize: number;
  newSize: number;
}

/**
 * Splits `nodes` new nodes among the groups (the chosen one first, then the similar ones): groups
 * at their maximum take none; each next node goes to the group with the smallest new size, the
 * smaller current size first on a tie. Answers the groups that grow, smallest current size first.
 */
export function balanceScaleUp(groups: readonly NodeGroup[], nodes: number): Increase[] {
  const infos = groups.map((group) => ({ group, currentSize: group.targetSize(), newSize: group.targetSize() }))
    .filter((i) => i.currentSize < i.group.maxSize)
    .sort((a, b) => a.currentSize - b.currentSize);
  for (let left = nodes; left > 0; left--) {
    let next: Increase | undefined;
    for (const i of infos) if (i.newSize < i.group.maxSize && (!next || i.newSize < next.newSize)) next = i;
    if (!next) break;
    next.newSize++;
  }
  return infos.filter((i) => i.newSize > i.currentSize);
}
