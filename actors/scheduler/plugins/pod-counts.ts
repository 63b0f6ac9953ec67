// How many of a node's pods match a selector, memoised per node under a key naming the selector
// until the node's pods change. The spreading and affinity plugins count matching pods on every
// node for every pod they place; pods of one workload share their selectors, so after the first
// such pod a count costs a lookup instead of a pass over the node's pods.
import type { NodeInfo, PodInfo } from '../framework.ts';
import { nodeGeneration } from '../pod-info.ts';

/** Per node, at most this many memoised counts (then the memo starts over). */
const MAX_KEYS_PER_NODE = 256;

interface Memo {
  generation: number;
  counts: Map<string, number>;
}

const memos = new WeakMap<NodeInfo, Memo>();

/**
 * The number of the node's pods for which `matches` holds. With a `key`, the count is memoised:
 * the same key must always come with the same predicate. Without one, the pods are counted.
 */
export function countPods(node: NodeInfo, key: string | undefined, matches: (pod: PodInfo) => boolean): number {
  if (key === undefined) return countNow(node.pods, matches);
  const generation = nodeGeneration(node);
  let memo = memos.get(node);
  if (!memo) memos.set(node, (memo = { generation, counts: new Map() }));
  else if (memo.generation !== generation || memo.counts.size >= MAX_KEYS_PER_NODE) {
    memo.generation = generation;
    memo.counts.clear();
  }
  let count = memo.counts.get(key);
  if (count === undefined) memo.counts.set(key, (count = countNow(node.pods, matches)));
  return count;
}

function countNow(pods: readonly PodInfo[], matches: (pod: PodInfo) => boolean): number {
  let n = 0;
  for (let i = 0; i < pods.length; i++) if (matches(pods[i]!)) n++;
  return n;
}
