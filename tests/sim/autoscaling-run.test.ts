// sim/scenarios/autoscaling.yaml run end to end: the spot group (cheaper per pod) takes the batch
// that does not fit, its nodes go again after the batch and the unneeded time, the on-demand group
// never goes below its minimum, and the report says so the same way on every run.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderReportHtml } from '../../sim/report/html.ts';
import { renderSummary } from '../../sim/report/summary.ts';
import { runScenario } from '../../sim/run.ts';
import { loadScenario } from '../../sim/scenario/load.ts';

test('the autoscaling scenario grows the cheaper group for the batch, shrinks it after, and reports the same every run', async () => {
  const scenario = await loadScenario('sim/scenarios/autoscaling.yaml');
  const a = await runScenario(scenario);
  const b = await runScenario(scenario);
  assert.equal(a.errors, []);
  assert.equal(a.checks.filter((c) => c.violations > 0), [], 'every invariant holds');
  assert.is(JSON.stringify(a.report), JSON.stringify(b.report), 'byte-identical reports');
  assert.is(renderReportHtml(a.report), renderReportHtml(b.report), 'byte-identical pages');
  const [ondemand, spot] = a.report.autoscaling!.groups;
  assert.is(spot!.name, 'spot');
  const spotCounts = spot!.nodes.map(([, n]) => n);
  // 40 one-CPU pods on 8-CPU nodes: five nodes, each asked for at a scan (every 10s), joining a minute later.
  assert.is(Math.max(...spotCounts), 5);
  assert.ok(spot!.nodes.every(([ms]) => ms % 5_000 === 0), 'changes happen at scans and their delays');
  assert.is(spotCounts.at(-1), 0, 'the spot nodes go once the batch is done');
  const firstJoin = spot!.nodes[1]![0];
  assert.ok(firstJoin > 5 * 60_000 + 60_000 && firstJoin <= 5 * 60_000 + 10_000 + 60_000 + 10_000, `first spot node joins within a scan and the delay of the batch (${firstJoin})`);
  assert.ok(Math.min(...ondemand!.nodes.map(([, n]) => n)) >= 1, 'never below the minimum');
  assert.ok(Math.abs(spot!.cost! - spot!.nodeHours * 0.3) < 1e-9);
  assert.match(renderSummary(a.report), /autoscaling +ondemand \(1\.\.6\): 2 at the start, 1 to 2 nodes/);
  assert.match(renderReportHtml(a.report), /<section id="autoscaling"><h2>Node groups \(cluster autoscaler\)<\/h2>/);
});

test.run();
