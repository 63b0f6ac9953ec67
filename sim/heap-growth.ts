// How far the heap may grow between full collections in a simulator run. V8 sizes the next limit
// from the speed of its collector against the program's: for a long run that allocates steadily,
// up to four times what the last full collection kept. The 5,000-node hour then peaked at 4.4 GiB
// of resident memory with 2 GiB or so alive. At 1.5 times, the 2,000-node run of prof/mid.yaml
// peaked at 1.1 GiB instead of 1.7, in the same wall time (about 6% more CPU, on the collector's
// own threads).
import v8 from 'node:v8';

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;
/** Growth allowed past what a full collection keeps, in percent. */
export const HEAP_GROWING_PERCENT = 50;

/** Whether the user set the growth themselves, on the command line or in NODE_OPTIONS. */
export function heapGrowthGiven(execArgv: readonly string[], nodeOptions = ''): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((a) => FLAG.test(a));
}

/** Bounds this process's heap growth, unless the user chose a growth of their own. */
export function boundHeapGrowth(): void {
  if (!heapGrowthGiven(process.execArgv, process.env.NODE_OPTIONS)) v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
