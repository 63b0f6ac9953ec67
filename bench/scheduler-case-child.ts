// One in-process scheduler case in a process of its own (bench/json-child.ts): a discarded round
// of WARM_UP_PODS first, so the timing does not pay for the JIT's warm-up, then the timed round.
// Prints `{"opsPerSec": N}`.
import { CASES, runCase, WARM_UP_PODS, type SchedulerCase } from './scheduler-cases.ts';

const [which, pods, seed] = [process.argv[2] as SchedulerCase, Number(process.argv[3]), Number(process.argv[4])];
if (!CASES.includes(which) || !(pods > 0) || !Number.isInteger(seed)) throw new Error(`usage: scheduler-case-child.ts ${CASES.join('|')} PODS SEED`);
await runCase(which, WARM_UP_PODS, seed);
console.log(JSON.stringify({ opsPerSec: await runCase(which, pods, seed) }));
