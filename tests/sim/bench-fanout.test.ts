// The fan-out benchmark measures what it says: every watcher gets every event once, the raw NATS
// baseline sits beside the NATS path, and a node agent gets only its own node's pod events.
// Figures are not asserted (they depend on the machine); counts and shapes are.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runFanout } from '../../sim/bench/fanout.ts';
import { formatFanoutTable } from '../../sim/bench/fanout-report.ts';
import { runBench } from '../../sim/cli/bench.ts';
import { OptionError } from '../../actors/api/options/table.ts';
import { startNatsServer } from '../../sim/nats-server.ts';

const SMALL = { watchers: [1, 7], events: 40, sizeBytes: 1300, repeats: 1, nodeAgents: 25 };

test('in process only, each watcher count gets one case with every delivery, and the node agents one delivery per pod event', async () => {
  const report = await runFanout(SMALL, 'none');
  assert.equal(report.cases.map((c) => `${c.path} ${c.watchers} ${c.deliveries}`), ['in-process 1 40', 'in-process 7 280']);
  assert.ok(Math.abs(report.eventBytes - 1300) < 40, `events of ${report.eventBytes} bytes`);
  assert.is(report.nodeAgents.length, 1);
  const [agents] = report.nodeAgents;
  assert.is(agents.deliveriesPerEvent, 1);
  assert.is(agents.busMessagesPerEvent, 1);
  assert.ok(agents.p50Ms > 0 && agents.p99Ms >= agents.p50Ms);
  assert.equal(report.ratios, [{ watchers: 1 }, { watchers: 7 }]);
});

test('with NATS, the orchsim and raw client paths run beside the in-process one and the table gives their ratios', async () => {
  const server = await startNatsServer();
  try {
    const report = await runFanout({ ...SMALL, natsUrl: server.url }, `test server at ${server.url}`);
    assert.equal(report.cases.map((c) => `${c.path} ${c.watchers}`), ['in-process 1', 'nats 1', 'raw-nats 1', 'in-process 7', 'nats 7', 'raw-nats 7']);
    for (const r of report.ratios) assert.ok(r.natsOverRaw! > 0 && r.inProcessOverNats! > 0);
    assert.equal(report.nodeAgents.map((a) => `${a.path} ${a.deliveriesPerEvent} ${a.busMessagesPerEvent}`), ['in-process 1 1', 'nats 1 1']);
    const table = formatFanoutTable(report);
    assert.match(table, /orchsim over NATS\s+7\s+40/);
    assert.match(table, /x raw\s+>= 0\.8/);
  } finally {
    await server.stop();
  }
});

test('the command refuses flags it cannot honour, saying which', async () => {
  const refused = async (argv: string[]): Promise<string> => {
    try {
      await runBench(argv, () => {});
    } catch (e) {
      assert.instance(e, OptionError);
      return (e as Error).message;
    }
    throw new Error(`${argv.join(' ')} was accepted`);
  };
  assert.match(await refused(['fanout', '--watchers', '0,10']), /watchers/);
  assert.match(await refused(['fanout', '--watchers', 'ten']), /watchers/);
  assert.match(await refused(['fanout', '--events', '-3']), /events/);
  assert.match(await refused(['latency']), /unknown benchmark "latency"/);
});

test.run();
