// `orchsim bench fanout`: the watch fan-out benchmark on the user's machine and NATS, printing
// the table and writing it as JSON. Without --nats it starts a private nats-server when one is
// on the PATH; without one it measures the in-process half and says how to get the other.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkFanoutOptions, FANOUT_DEFAULTS, runFanout, type FanoutOptions } from '../bench/fanout.ts';
import { formatFanoutTable } from '../bench/fanout-report.ts';
import { natsTarget } from '../bench/nats-target.ts';
import { flagHelp, parseFlags, UsageError, type FlagSpec } from './flags.ts';

interface BenchDraft {
  watchers: number[];
  events: number;
  sizeBytes: number;
  repeats: number;
  nodeAgents: number;
  nats?: string;
  out: string;
}

const d = FANOUT_DEFAULTS;

const BENCH_FLAGS: FlagSpec<BenchDraft>[] = [
  { name: 'watchers', type: 'strings', help: `watcher counts, one case each (default ${d.watchers.join(',')})`,
    set: (o, v) => (o.watchers = (v as string[]).map((s) => (/^\d+$/.test(s) ? Number(s) : NaN))) },
  { name: 'nats', type: 'string', help: 'a NATS server to measure, nats://HOST:PORT (default: a private nats-server from the PATH)', set: (o, v) => (o.nats = v as string) },
  { name: 'events', type: 'int', help: `timed events per case, fewer where a case would pass 1,000,000 deliveries (default ${d.events})`, set: (o, v) => (o.events = v as number) },
  { name: 'size', type: 'int', help: `bytes of one pod event on the wire (default ${d.sizeBytes})`, set: (o, v) => (o.sizeBytes = v as number) },
  { name: 'repeat', type: 'int', help: `runs of each case, interleaved; the fastest is reported (default ${d.repeats})`, set: (o, v) => (o.repeats = v as number) },
  { name: 'node-agents', type: 'int', help: `watchers of the node-agent case, one per node; 0 skips it (default ${d.nodeAgents})`, set: (o, v) => (o.nodeAgents = v as number) },
  { name: 'out', type: 'string', help: 'where the JSON goes (default ./orchsim-bench-fanout.json)', set: (o, v) => (o.out = v as string) },
];

export function benchHelp(): string {
  return `usage: orchsim bench fanout [flags]

Watch fan-out: events delivered per second and delivery latency for each number of watchers, in
process, through orchsim over NATS and through the NATS client alone, and one pod event among
node agents each watching its own node.

${flagHelp(BENCH_FLAGS as FlagSpec<unknown>[])}`;
}

/** Runs `orchsim bench <suite> [flags]`; returns the exit code. */
export async function runBench(argv: string[], log: (line: string) => void = console.log): Promise<number> {
  const draft: BenchDraft = { ...d, out: 'orchsim-bench-fanout.json' };
  const [suite, ...extra] = parseFlags(argv, BENCH_FLAGS, draft);
  if (suite !== 'fanout') throw new UsageError(suite === undefined ? `which benchmark? the one there is: fanout\n\n${benchHelp()}` : `unknown benchmark ${JSON.stringify(suite)}: the one there is: fanout`);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  const options: FanoutOptions = { watchers: draft.watchers, events: draft.events, sizeBytes: draft.sizeBytes, repeats: draft.repeats, nodeAgents: draft.nodeAgents };
  try {
    checkFanoutOptions(options);
  } catch (e) {
    throw new UsageError((e as Error).message);
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
