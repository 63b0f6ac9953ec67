// A whole run: the same scenario and seed give a byte-identical report.json; every checker holds;
// the figures agree with what the scenario asked for.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../sim/run.ts';
import { stableJson } from '../../sim/report/write.ts';
import { parseScenario } from '../../sim/scenario/load.ts';

const SCENARIO = `
name: small
duration: 6m
sampleInterval: 30s
nodePools:
  - name: a
    count: 4
    zones: [z1, z2]
    capacity: { cpu: "4", memory: 16Gi, pods: 30 }
workloads:
  - name: web
    count: 60
    arrival: { kind: uniform, interval: 500ms }
    requests: { cpu: 100m, memory: 128Mi }
  - name: job
    count: 40
    start: 30s
    arrival: { kind: poisson, ratePerSecond: 2 }
    requests: { cpu: 200m, memory: 256Mi }
    runDuration: 1m
  - name: huge
    count: 2
    start: 10s
    requests: { cpu: "64", memory: 1Gi }
faults:
  - kind: nodeCrash
    at: 3m
    count: 1
    recoverAfter: 2m
`;

const scenario = () => parseScenario(SCENARIO, { name: 'small', dir: '.' });

test('the same scenario and seed give a byte-identical report; another seed gives another run', async () => {
  const a = await runScenario(scenario(), { seed: 5 });
  const b = await runScenario(scenario(), { seed: 5 });
  const c = await runScenario(scenario(), { seed: 6 });
  assert.is(stableJson(a.report), stableJson(b.report));
  assert.is(a.report.traceHash, b.report.traceHash);
  assert.is.not(a.report.traceHash, c.report.traceHash);
});

test('with the request-time model: still byte-identical per seed, every checker holds, and scheduling takes time', async () => {
  const timed = () => parseScenario(`${SCENARIO}requestTime: { network: 1ms, read: 2ms, write: 5ms }\n`, { name: 'small', dir: '.' });
  const a = await runScenario(timed(), { seed: 5 });
  const b = await runScenario(timed(), { seed: 5 });
  assert.is(stableJson(a.report), stableJson(b.report));
  for (const c of a.checks) assert.is(c.violations, 0, `${c.name}: ${c.examples.join('; ')}`);
  assert.equal(a.errors, []);
  // A binding is a write: at least the network both ways, so no pod is scheduled in 0 ms.
  assert.ok(a.report.summary.schedulingLatencyMs.p50 >= 2, `p50 ${a.report.summary.schedulingLatencyMs.p50} ms`);
  const t = a.report.requestTime!;
  assert.ok(t.requests > 1_000 && t.networkMs === 1 && t.serviceMs.p50 > 0, JSON.stringify(t));
  assert.is((await runScenario(scenario(), { seed: 5 })).report.requestTime, undefined, 'off unless asked for');
});

test('every checker holds and the figures match the scenario', async () => {
  const { report, checks, errors } = await runScenario(scenario(), { seed: 5 });
  for (const c of checks) assert.is(c.violations, 0, `${c.name}: ${c.examples.join('; ')}`);
  assert.equal(errors, []);
  const s = report.summary;
  assert.is(s.nodes, 4);
  assert.is(s.pods.created, 102);
  // The two huge pods fit nowhere; everything else is scheduled.
  assert.is(s.pods.scheduled, 100);
  assert.equal(report.unschedulable, { 'Insufficient cpu': 2 });
  assert.is(s.pods.succeeded, 40);
  assert.ok(s.schedulingLatencyMs.count === 100 && s.schedulingLatencyMs.max < 5_000, JSON.stringify(s.schedulingLatencyMs));
  assert.ok(s.podStartupMs.p50 > 0);
  assert.is(report.series.tMs.length, 12);
  assert.is(report.series.tMs.at(-1), 360_000);
  assert.equal(report.zones, ['z1', 'z2']);
  // The crashed node is not Ready for a while, then back.
  assert.is(report.faults.length, 1);
  assert.is(report.faults[0]!.recoveredAtMs, 300_000);
  const ready = report.series.nodesReady;
  assert.ok(Math.min(...ready) === 3 && ready.at(-1) === 4, `nodes ready: ${ready}`);
});

test.run();
