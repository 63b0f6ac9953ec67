// `npm run bench [suite ...]`: runs the named suites (all but `cluster` by default), prints one
// table per suite and writes it to bench/results/<suite>.json. Throughput varies run to run;
// compare the ratios, which set orchsim against a baseline measured in the same run. Arguments
// after `cluster` that are not suites are its scenario files.
import { apiSuite } from './api.ts';
import { clusterSuite } from './cluster.ts';
import { fanoutSuite } from './fanout.ts';
import { tabulate, writeResult, type SuiteOutput } from './report.ts';
import { schedulerSuite } from './scheduler.ts';
import { storeSuite } from './store.ts';

const SUITES: Record<string, (seed: number, args: string[]) => Promise<SuiteOutput>> = {
  api: async (seed) => tabulate(await apiSuite(seed)),
  store: async (seed) => tabulate(await storeSuite(seed)),
  fanout: () => fanoutSuite(),
  scheduler: async (seed) => tabulate(await schedulerSuite(seed)),
  cluster: (_, scenarios) => clusterSuite(scenarios),
};
/** Whole scenarios for tens of minutes: run when named. */
const NOT_BY_DEFAULT = new Set(['cluster']);
const SEED = 20260101;
const RESULTS_DIR = new URL('./results/', import.meta.url);

async function main(args: string[]) {
  // Each suite named, with the arguments after it that are not suites (cluster's scenario files).
  const named: [string, string[]][] = [];
  for (const a of args) {
    if (a in SUITES || named.length === 0) named.push([a, []]);
    else named[named.length - 1][1].push(a);
  }
  const names = named.length > 0 ? named.map(([n]) => n) : Object.keys(SUITES).filter((n) => !NOT_BY_DEFAULT.has(n));
  const unknown = names.filter((n) => !(n in SUITES));
  if (unknown.length > 0) {
    console.error(`unknown suite ${unknown.map((n) => JSON.stringify(n)).join(', ')}; known: ${Object.keys(SUITES).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const stray = named.find(([n, a]) => n !== 'cluster' && a.length > 0);
  if (stray) {
    console.error(`suite ${stray[0]} takes no arguments, got ${stray[1].map((a) => JSON.stringify(a)).join(' ')}; only cluster takes scenario files`);
    process.exitCode = 2;
    return;
  }
  console.log(`seed ${SEED}, node ${process.version}`);
  const argsOf = new Map(named);
  for (const name of names) {
    const startMs = performance.now();
    const { json, table } = await SUITES[name](SEED, argsOf.get(name) ?? []);
    const seconds = ((performance.now() - startMs) / 1000).toFixed(1);
    console.log(`\n${name} (${seconds} s)\n${table}`);
    console.log(`written to ${writeResult(RESULTS_DIR, json)}`);
  }
}

await main(process.argv.slice(2));
