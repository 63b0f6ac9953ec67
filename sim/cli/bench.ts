// `orchsim bench fanout`: the watch fan-out benchmark on the user's machine and NATS, printing
// the table and writing it as JSON. Without --nats it starts a private nats-server when one is
// on the PATH; without one it measures the in-process half and says how to get the other.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkFanoutOptions, FANOUT_DEFAULTS, runFanout, type FanoutOptions } from '../bench/fanout.ts';
import { formatFanoutTable } from '../bench/fanout-report.ts';
import { natsTarget } from '../bench/nats-target.ts';
import { helpText } from '../../actors/api/options/help.ts';
import { bool, int, string, strings } from '../../actors/api/options/kinds.ts';
import { OptionError, OptionTable, type OptionSpec } from '../../actors/api/options/table.ts';

interface BenchOptions {
  watchers: string[];
  events: number;
  sizeBytes: number;
  repeats: number;
  nodeAgents: number;
  nats?: string;
  out: string;
}

const d = FANOUT_DEFAULTS;
const GROUP = 'Options';
const BENCH_TABLE = new OptionTable<BenchOptions>('orchsim bench', [
  { name: 'watchers', kind: strings, key: 'watchers', default: d.watchers.map(String), group: GROUP, help: 'watcher counts, one case each' },
  { name: 'nats', kind: string, key: 'nats', defaultText: 'a private nats-server from the PATH', group: GROUP, help: 'a NATS server to measure, nats://HOST:PORT' },
  { name: 'events', kind: int, key: 'events', default: d.events, group: GROUP, help: 'timed events per case, fewer where a case would pass 1,000,000 deliveries' },
  { name: 'size', kind: int, key: 'sizeBytes', default: d.sizeBytes, group: GROUP, help: 'bytes of one pod event on the wire' },
  { name: 'repeat', kind: int, key: 'repeats', default: d.repeats, group: GROUP, help: 'runs of each case, interleaved; the fastest is reported' },
  { name: 'node-agents', kind: int, key: 'nodeAgents', default: d.nodeAgents, group: GROUP, help: 'watchers of the node-agent case, one per node; 0 skips it' },
  { name: 'out', kind: string, key: 'out', default: 'orchsim-bench-fanout.json', group: GROUP, help: 'where the JSON goes' },
  { name: 'help', short: 'h', kind: bool, default: false, group: GROUP, help: 'this help' },
] as OptionSpec<BenchOptions>[]);

export function benchHelp(): string {
  return helpText('orchsim bench fanout', 'Watch fan-out: events delivered per second and delivery latency for each number of watchers, in process, through orchsim over NATS '
    + 'and through the NATS client alone, and one pod event among node agents each watching its own node.', BENCH_TABLE);
}

/** Runs `orchsim bench <suite> [flags]`; returns the exit code. */
export async function runBench(argv: string[], log: (line: string) => void = console.log): Promise<number> {
  const { options: draft, positional: [suite, ...extra] } = BENCH_TABLE.parse(argv);
  if (suite !== 'fanout') throw new OptionError(suite === undefined ? `which benchmark? the one there is: fanout\n\n${benchHelp()}` : `unknown benchmark ${JSON.stringify(suite)}: the one there is: fanout`);
  if (extra.length > 0) throw new OptionError(`unexpected argument ${JSON.stringify(extra[0])}`);
  const watchers = draft.watchers.map((w) => (/^\d+$/.test(w) ? Number(w) : NaN));
  const options: FanoutOptions = { watchers, events: draft.events, sizeBytes: draft.sizeBytes, repeats: draft.repeats, nodeAgents: draft.nodeAgents };
  try {
    checkFanoutOptions(options);
  } catch (e) {
    throw new OptionError((e as Error).message);
  }
  const nats = await natsTarget(draft.nats);
  log(`NATS: ${nats.description}`);
  // One line per finished case on a terminal: a full run takes a minute or more.
  const progress = process.stderr.isTTY ? (line: string) => process.stderr.write(`  ${line}\n`) : undefined;
  try {
    const report = await runFanout({ ...options, ...(nats.url ? { natsUrl: nats.url } : {}), ...(progress ? { progress } : {}) }, nats.description);
    const out = resolve(draft.out);
    writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
    log(`\n${formatFanoutTable(report)}\n\nwritten to ${out}`);
    if (nats.advice) log(`\nTo measure the NATS half: ${nats.advice}.`);
    return 0;
  } finally {
    await nats.stop();
  }
}
