// Watch fan-out: in process, through orchsim over NATS and through the NATS client alone, for
// 1 to 10,000 watchers, and 5,000 node agents. The measuring code is sim/bench/ (shared with
// `orchsim bench fanout`); this suite runs it with the defaults against a private nats-server.
import { FANOUT_DEFAULTS, runFanout } from '../sim/bench/fanout.ts';
import { formatFanoutTable } from '../sim/bench/fanout-report.ts';
import { natsTarget } from '../sim/bench/nats-target.ts';
import type { SuiteOutput } from './report.ts';

export async function fanoutSuite(): Promise<SuiteOutput> {
  const nats = await natsTarget(undefined);
  const progress = process.stderr.isTTY ? (line: string) => process.stderr.write(`  ${line}\n`) : undefined;
  try {
    if (nats.advice) console.error(`fanout: no NATS half: ${nats.advice}`);
    const report = await runFanout({ ...FANOUT_DEFAULTS, ...(nats.url ? { natsUrl: nats.url } : {}), ...(progress ? { progress } : {}) }, nats.description);
    return { json: report, table: formatFanoutTable(report) };
  } finally {
    await nats.stop();
  }
}
