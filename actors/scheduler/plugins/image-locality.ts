// ImageLocality: prefers nodes that already hold the pod's images (init containers included),
// weighting each image's size by the share of nodes that hold it, so a popular image does not pull
// every pod to the few nodes that happen to have it. Sums under 23 MiB score 0; the scale tops out
// at 1000 MiB per container.
import { MAX_NODE_SCORE, type CycleState, type PodInfo, type ScorePlugin, type Snapshot } from '../framework.ts';

const NAME = 'ImageLocality';
const PRE_SCORE = `PreScore${NAME}`;
const MB = 1024 * 1024;
const MIN_THRESHOLD = 23 * MB;
const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/**
 * How many of the snapshot's nodes report each image name, counted on first use. A snapshot's
 * nodes (and so their images) are fixed for its life, so the counts stay right.
 */
const nodeCounts = new WeakMap<Snapshot, Map<string, number>>();

export function imageNodeCount(snapshot: Snapshot, image: string): number {
  let counts = nodeCounts.get(snapshot);
  if (!counts) nodeCounts.set(snapshot, (counts = new Map()));
  let count = counts.get(image);
  if (count === undefined) {
    count = 0;
    for (const node of snapshot.nodes) if (node.imageSizes.has(image)) count++;
    counts.set(image, count);
  }
  return count;
}

/** For each of the pod's images, the share of all nodes holding it. */
function spreads(state: CycleState, pod: PodInfo, snapshot: Snapshot): number[] {
  let spread = state.get(PRE_SCORE) as number[] | undefined;
  if (!spread) {
    const total = snapshot.nodes.length;
    spread = pod.images.map((image) => (total === 0 ? 0 : imageNodeCount(snapshot, image) / total));
    state.set(PRE_SCORE, spread);
  }
  return spread;
}

export function imageScore(sumScores: number, containers: number): number {
  if (containers === 0) return 0;
  const maxThreshold = MAX_CONTAINER_THRESHOLD * containers;
  const clamped = Math.min(Math.max(sumScores, MIN_THRESHOLD), maxThreshold);
  return ((MAX_NODE_SCORE * (clamped - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD)) | 0;
}

export const imageLocality: ScorePlugin = {
  name: NAME,
  weight: 1,
  preScore(state, pod, _nodes, snapshot) {
    state.delete(PRE_SCORE);
    // No node holds any of the pod's images: every node would score 0.
    if (spreads(state, pod, snapshot).every((s) => s === 0)) return 'skip';
  },
  score(state, pod, nodes, snapshot, out) {
    const spread = spreads(state, pod, snapshot);
    for (let k = 0; k < nodes.length; k++) {
      const sizes = nodes[k]!.imageSizes;
      let sum = 0;
      for (let i = 0; i < pod.images.length; i++) {
        const size = sizes.get(pod.images[i]!);
        if (size !== undefined) sum += Math.trunc(size * spread[i]!);
      }
      out[k] = imageScore(sum, pod.images.length);
    }
  },
};
