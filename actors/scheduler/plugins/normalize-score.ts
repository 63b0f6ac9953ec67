// The framework's shared score normalisation (helper.DefaultNormalizeScore): scale raw scores so
// the highest becomes MAX_NODE_SCORE, with integer division as the real scheduler does; `reverse`
// makes fewer better (the highest raw score becomes 0).
import { MAX_NODE_SCORE } from '../framework.ts';

export function defaultNormalizeScore(scores: number[], reverse: boolean): void {
  let max = 0;
  for (const s of scores) if (s > max) max = s;
  if (max === 0) {
    if (reverse) scores.fill(MAX_NODE_SCORE);
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    const scaled = ((MAX_NODE_SCORE * scores[i]!) / max) | 0;
    scores[i] = reverse ? MAX_NODE_SCORE - scaled : scaled;
  }
}
