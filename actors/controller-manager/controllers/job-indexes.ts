// An Indexed Job's completion indexes as status.completedIndexes writes them (kubernetes
// pkg/controller/job indexed_job_utils.go): increasing, a run of three or more as "first-last", so
// 1, 3, 4, 5 and 7 read "1,3-5,7" and 1, 2 read "1,2".

/** The indexes below `completions` that `text` names, increasing; what does not parse is skipped. */
export function parseIndexes(text: string | undefined, completions: number): number[] {
  const out = new Set<number>();
  for (const part of (text ?? '').split(',')) {
    if (part === '') continue;
    const [a, b] = part.split('-');
    const first = Number(a);
    if (!/^\d+$/.test(a ?? '')) continue;
    if (first >= completions) break;
    const last = b === undefined ? first : /^\d+$/.test(b) ? Math.min(Number(b), completions - 1) : undefined;
    if (last === undefined) continue;
    for (let i = first; i <= last; i++) out.add(i);
  }
  return [...out].sort((x, y) => x - y);
}

/** `indexes` increasing and without repeats, as text. */
export function formatIndexes(indexes: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < indexes.length; ) {
    let j = i;
    while (j + 1 < indexes.length && indexes[j + 1] === indexes[j]! + 1) j++;
    const first = indexes[i]!, last = indexes[j]!;
    parts.push(last === first ? `${first}` : last === first + 1 ? `${first},${last}` : `${first}-${last}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The lowest `count` indexes below `completions` that are neither done nor running (firstPendingIndexes). */
export function firstPendingIndexes(count: number, completions: number, taken: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!taken.has(i)) out.push(i);
  return out;
}
