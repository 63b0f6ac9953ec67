// How far the heap may grow between full collections in a simulator run. V8 sizes the next limit
// from the speed of its collector against the program's: for a long run that allocates steadily,
// up to four times what the last full collection kept. The 5,000-node hour then peaked at 4.4 GiB
// of resident memory with 2 GiB or so alive. At 1.5 times, the 2,000-node run of prof/mid.yaml
// peaked at 1.1 GiB instead of 1.7, in the same wall time (about 6% more CPU, on the collector's
// own threads). `orchsim run --heap-growth` trades memory for speed the other way.
import v8 from 'node:v8';

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;
/** Growth allowed past what a full collection keeps, in percent, unless the run says otherwise. */
export const HEAP_GROWING_PERCENT = 50;

/** Whether node's own command line sets the growth (node refuses the flag in NODE_OPTIONS). */
export function heapGrowthGiven(execArgv: readonly string[]): boolean {
  return execArgv.some((a) => FLAG.test(a));
}

/**
 * Bounds this process's heap growth to `percent` (0 leaves it to V8), unless node's command line
 * chose a growth of its own.
 */
export function boundHeapGrowth(percent = HEAP_GROWING_PERCENT): void {
  if (percent > 0 && !heapGrowthGiven(process.execArgv)) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
