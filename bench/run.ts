// `npm run bench [suite ...]`: runs the named suites (all by default), prints one table per
// suite and writes it to bench/results/<suite>.json. Throughput varies run to run; compare the
// ratios, which set orchsim against a baseline measured in the same run.
import { apiSuite } from './api.ts';
import { fanoutSuite } from './fanout.ts';
import { tabulate, writeResult, type SuiteOutput } from './report.ts';
import { schedulerSuite } from './scheduler.ts';
import { storeSuite } from './store.ts';

const SUITES: Record<string, (seed: number) => Promise<SuiteOutput>> = {
  api: async (seed) => tabulate(await apiSuite(seed)),
  store: async (seed) => tabulate(await storeSuite(seed)),
  fanout: () => fanoutSuite(),
  scheduler: async (seed) => tabulate(await schedulerSuite(seed)),
};
const SEED = 20260101;
const RESULTS_DIR = new URL('./results/', import.meta.url);

async function main(args: string[]) {
  const names = args.length > 0 ? args : Object.keys(SUITES);
  const unknown = names.filter((n) => !(n in SUITES));
  if (unknown.length > 0) {
    console.error(`unknown suite ${unknown.map((n) => JSON.stringify(n)).join(', ')}; known: ${Object.keys(SUITES).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  console.log(`seed ${SEED}, node ${process.version}`);
  for (const name of names) {
    const startMs = performance.now();
    const { json, table } = await SUITES[name](SEED);
    const seconds = ((performance.now() - startMs) / 1000).toFixed(1);
    console.log(`\n${name} (${seconds} s)\n${table}`);
    console.log(`written to ${writeResult(RESULTS_DIR, json)}`);
  }
}

await main(process.argv.slice(2));
