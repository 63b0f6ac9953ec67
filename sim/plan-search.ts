// How `orchsim plan` walks its candidates, assuming a larger cluster never does worse (more nodes
// in any pool never turns a pass into a miss):
// - together: the varied pools grow in step from their min to their max; bisection finds the
//   smallest step that passes, and the step below it shows the margin;
// - independent: each pool's count is chosen on its own. For two pools, the frontier walk: for each
//   count of the first, the fewest of the second that pass (bisection for the first count that
//   passes at all, then stepping down, since more of the first never needs more of the second).
//   Further pools are fixed in turn over their counts, the walk run for each. The frontier is every
//   passing mix that no other passing mix undercuts in every pool; the answer is its cheapest.
// Candidates the assumption already decides (below a miss, or above a pass) are not run.
import type { Plan } from './scenario/plan.ts';

export type Counts = Record<string, number>;

/** Runs the candidate at `counts` (once: asking again answers from memory); whether it passed. */
export type Evaluate = (counts: Counts) => Promise<boolean>;

/** Each varied pool's counts, from min to max by step (max included). */
function countsOf(v: Plan['vary'][number]): number[] {
  const out: number[] = [];
  for (let n = v.min; n < v.max; n += v.step) out.push(n);
  out.push(v.max);
  return out;
}

/** The pools grown together: the smallest passing counts, or undefined when even the largest misses. */
export async function searchTogether(plan: Plan, evaluate: Evaluate): Promise<Counts | undefined> {
  const steps = Math.max(...plan.vary.map((v) => countsOf(v).length - 1));
  const at = (step: number): Counts => Object.fromEntries(plan.vary.map((v) => {
    const values = countsOf(v);
    return [v.pool, values[steps === 0 ? 0 : Math.round(((values.length - 1) * step) / steps)]!];
  }));
  if (!(await evaluate(at(steps)))) return undefined;
  let lo = 0;
  let hi = steps;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (await evaluate(at(mid))) hi = mid;
    else lo = mid + 1;
  }
  // The margin: the step just below the answer, and what it missed.
  if (hi > 0) await evaluate(at(hi - 1));
  return at(hi);
}

/** The pools chosen independently: the frontier of passing mixes (none when even the largest misses). */
export async function searchFrontier(plan: Plan, evaluate: Evaluate): Promise<Counts[]> {
  const [a, b, ...fixed] = plan.vary;
  if (!a || !b) throw new Error('a frontier needs two varied pools');
  const frontier: Counts[] = [];
  for (const base of combinations(fixed)) frontier.push(...await walk(base, a, b, evaluate));
  // Fixing further pools in turn can leave mixes another one undercuts in every pool.
  const dominated = (c: Counts) => frontier.some((o) => o !== c && Object.keys(c).every((k) => o[k]! <= c[k]!) && Object.keys(c).some((k) => o[k]! < c[k]!));
  return frontier.filter((c) => !dominated(c));
}

function combinations(vary: Plan['vary']): Counts[] {
  let out: Counts[] = [{}];
  for (const v of vary) out = out.flatMap((c) => countsOf(v).map((n) => ({ ...c, [v.pool]: n })));
  return out;
}

/** The two-pool frontier walk with the other pools at `base`. */
async function walk(base: Counts, a: Plan['vary'][number], b: Plan['vary'][number], evaluate: Evaluate): Promise<Counts[]> {
  const as = countsOf(a);
  const bs = countsOf(b);
  const at = (i: number, j: number): Counts => ({ ...base, [a.pool]: as[i]!, [b.pool]: bs[j]! });
  const out: Counts[] = [];
  let j = -1;
  for (let i = 0; i < as.length; i++) {
    if (j < 0) {
      if (!(await evaluate(at(i, bs.length - 1)))) continue;
      let lo = 0;
      let hi = bs.length - 1;
      while (lo < hi) {
        const mid = Math.floor((lo + hi) / 2);
        if (await evaluate(at(i, mid))) hi = mid;
        else lo = mid + 1;
      }
      j = hi;
      out.push(at(i, j));
    } else {
      const before = j;
      while (j > 0 && (await evaluate(at(i, j - 1)))) j--;
      // The same count of b with more of a: undercut by the mix before it.
      if (j < before) out.push(at(i, j));
    }
    if (j === 0) break;
  }
  return out;
}
