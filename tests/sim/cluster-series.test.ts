// The report's series of a cluster that breathes (sim/cluster-series.ts), from a run of a small
// scenario (helpers/breathing-scenario.ts) checked against what its models and objects say: each
// zone's and pool's use is its Running pods' modelled use, beside their requests and the nodes'
// allocatable; the autoscaled Deployment's replicas are its spec and status at each sample, and
// its autoscaler's measure is the step's fraction; the node group's nodes and cost follow its
// history. A scenario that does not breathe gets none of these series.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ScenarioRun, runScenario, type RunOutcome } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';
import { renderReportHtml } from '../../sim/report/html.ts';
import { stableJson } from '../../sim/report/write.ts';
import { milliCPU, wholeUnits } from '../../actors/api/quantity.ts';
import type { Node, Pod } from '../../actors/api/model/core.ts';
import type { Deployment } from '../../actors/api/model/apps.ts';
import type { ResourceSeries } from '../../sim/report/types.ts';
import { BREATHING, breathingScenario } from '../helpers/breathing-scenario.ts';

interface Ended {
  outcome: RunOutcome;
  nodes: Node[];
  pods: Pod[];
  /** The Deployment's spec.replicas and status.readyReplicas after each change, with its virtual ms. */
  deployment: [number, number, number][];
  /** Each node agent's summary at the end: cores and bytes its pods use (the figures the metrics server serves). */
  summaries: Map<string, { cpu: number; memory: number }>;
}

async function breathingRun(): Promise<Ended> {
  const run = await ScenarioRun.start(breathingScenario());
  const deployment: Ended['deployment'] = [];
  const stop = run.cluster.server.store.onChange((c) => {
    if (!c.key.endsWith('/deployments/default/web') || c.type === 'DELETED') return;
    const d = c.object as Deployment;
    deployment.push([run.virtualMs, d.spec?.replicas ?? 1, d.status?.readyReplicas ?? 0]);
  });
  await run.advance();
  stop();
  const prefix = run.cluster.server.options.etcdPrefix;
  const store = run.cluster.server.store;
  const nodes = (await store.list(`${prefix}/core/nodes/`)).items as Node[];
  const pods = (await store.list(`${prefix}/core/pods/`)).items as Pod[];
  const summaries = new Map([...run.cluster.agents].map(([name, agent]) => {
    const s = agent.summary(run.cluster.clock.now());
    return [name, { cpu: s.node.cpu.usageNanoCores / 1e9, memory: s.node.memory.workingSetBytes }];
  }));
  return { outcome: await run.finish(), nodes, pods, deployment, summaries };
}

const ended = breathingRun();

/** What the Running pods on `nodes` use, request and what the nodes offer, from the models and objects. */
function expected(nodes: Node[], pods: Pod[], fraction: number): ResourceSeries {
  const names = new Set(nodes.map((n) => n.metadata.name));
  const running = pods.filter((p) => names.has(p.spec?.nodeName ?? '') && p.status?.phase === 'Running').length;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    cpuUsed: [round(running * BREATHING.cpuRequest * fraction)],
    cpuRequested: [round(running * BREATHING.cpuRequest)],
    cpuAllocatable: [nodes.reduce((sum, n) => sum + milliCPU(n.status!.allocatable!.cpu!), 0) / 1000],
    memoryUsed: [running * BREATHING.memoryBytes],
    memoryRequested: [running * 512 * 1024 ** 2],
    memoryAllocatable: [nodes.reduce((sum, n) => sum + wholeUnits(n.status!.allocatable!.memory!), 0)],
  };
}

const last = (s: ResourceSeries): ResourceSeries =>
  Object.fromEntries(Object.entries(s).map(([k, v]) => [k, [v.at(-1)]])) as unknown as ResourceSeries;

test('each zone and pool uses, at the end, its Running pods times the model (90% of the CPU request, 300Mi each), beside their requests and the allocatable', async () => {
  const { outcome, nodes, pods } = await ended;
  assert.equal(outcome.errors, []);
  const usage = outcome.report.series.usage!;
  assert.equal(Object.keys(usage.perZone), ['zone-a', 'zone-b']);
  assert.equal(Object.keys(usage.perPool), ['ondemand', 'fixed']);
  for (const zone of ['zone-a', 'zone-b'])
    assert.equal(last(usage.perZone[zone]!), expected(nodes.filter((n) => n.metadata.labels?.['topology.kubernetes.io/zone'] === zone), pods, BREATHING.after), zone);
  for (const pool of ['ondemand', 'fixed'])
    assert.equal(last(usage.perPool[pool]!), expected(nodes.filter((n) => n.metadata.labels?.['orchsim.io/pool'] === pool), pods, BREATHING.after), pool);
  // Every pod Running somewhere: zones and pools each add up to all of them.
  const sum = (by: Record<string, ResourceSeries>) => Object.values(by).reduce((a, s) => a + s.memoryUsed.at(-1)!, 0);
  assert.is(sum(usage.perZone), 10 * BREATHING.memoryBytes);
  assert.is(sum(usage.perPool), 10 * BREATHING.memoryBytes);
});

test('each zone\'s use at the end is what its node agents\' summaries say, the figures the metrics server serves', async () => {
  const { outcome, nodes, summaries } = await ended;
  for (const [zone, z] of Object.entries(outcome.report.series.usage!.perZone)) {
    const names = nodes.filter((n) => n.metadata.labels?.['topology.kubernetes.io/zone'] === zone).map((n) => n.metadata.name!);
    const cpu = names.reduce((sum, n) => sum + summaries.get(n)!.cpu, 0);
    const memory = names.reduce((sum, n) => sum + summaries.get(n)!.memory, 0);
    assert.ok(cpu > 0, zone);
    assert.is(z.cpuUsed.at(-1), Math.round(cpu * 1000) / 1000, zone);
    assert.is(z.memoryUsed.at(-1), memory, zone);
  }
});

test('before the step every zone uses 40% of the CPU its Running pods request, and 300Mi of memory a pod', async () => {
  const { outcome } = await ended;
  const s = outcome.report.series;
  const at = s.tMs.indexOf(180_000); // three minutes in: the three first pods long Running, the step a minute away
  assert.ok(at >= 0);
  let pods = 0;
  for (const [zone, z] of Object.entries(s.usage!.perZone)) {
    const running = z.cpuRequested[at]! / BREATHING.cpuRequest;
    pods += running;
    assert.is(z.cpuUsed[at], Math.round(running * BREATHING.cpuRequest * BREATHING.before * 1000) / 1000, zone);
    assert.is(z.memoryUsed[at], running * BREATHING.memoryBytes, zone);
  }
  assert.is(Math.round(pods), 3);
});

test('the autoscaled Deployment\'s desired and Ready replicas are its spec and status at each sample, and its autoscaler measured the step', async () => {
  const { outcome, deployment } = await ended;
  const s = outcome.report.series;
  const web = s.deployments!['default/web']!;
  assert.equal(Object.keys(s.deployments!), ['default/web']);
  assert.equal([web.autoscaler, web.minReplicas, web.maxReplicas, web.targetCPUUtilization], ['default/web', 2, BREATHING.maxReplicas, BREATHING.target]);
  s.tMs.forEach((t, i) => {
    // A change at the sample's own instant may land either side of it: such samples are not judged.
    if (deployment.some(([ms]) => ms === t)) return;
    const now = deployment.filter(([ms]) => ms < t).at(-1);
    assert.is(web.desired[i], now ? now[1] : null, `desired at ${t}`);
    assert.is(web.ready[i], now ? now[2] : null, `ready at ${t}`);
  });
  assert.is(web.desired.at(-1), BREATHING.maxReplicas);
  assert.is(web.ready.at(-1), BREATHING.maxReplicas);
  // Measured on the metrics grid: 40% up to the step, 90% from the first sync that reads past it.
  s.tMs.forEach((t, i) => {
    const u = web.cpuUtilization[i];
    if (t <= BREATHING.stepMs) assert.ok(u === null || u === BREATHING.before * 100, `${u} at ${t}`);
    if (t >= BREATHING.stepMs + 60_000) assert.is(u, BREATHING.after * 100, `at ${t}`);
  });
  assert.ok(web.cpuUtilization.includes(BREATHING.before * 100));
});

test('the node group\'s nodes at each sample follow its history, and its cost so far adds up to the report\'s cost at the end', async () => {
  const { outcome } = await ended;
  const r = outcome.report;
  const [group] = r.autoscaling!.groups;
  const s = r.series.nodeGroups!.ondemand!;
  r.series.tMs.forEach((t, i) => assert.is(s.nodes[i], group!.nodes.filter(([ms]) => ms <= t).at(-1)![1], `at ${t}`));
  assert.ok(Math.max(...s.nodes) > 2, 'the group grew for the pods the step added');
  assert.is(r.series.tMs.at(-1), r.scenario.durationMs);
  assert.ok(Math.abs(s.cost!.at(-1)! - group!.cost!) < 1e-4, `${s.cost!.at(-1)} against ${group!.cost}`);
  // Between two samples with no change, the cost grows by the nodes' time at the group's price.
  const i = s.nodes.findIndex((n, k) => k > 0 && n === s.nodes[k - 1]);
  assert.ok(Math.abs(s.cost![i]! - s.cost![i - 1]! - (s.nodes[i]! * r.series.intervalMs / 3_600_000) * BREATHING.costPerHour) < 2e-4);
});

test('the same scenario and seed give byte-identical report.json and report.html', async () => {
  const { outcome } = await ended;
  const again = await runScenario(breathingScenario());
  assert.is(stableJson(again.report), stableJson(outcome.report));
  assert.is(renderReportHtml(again.report), renderReportHtml(outcome.report));
});

test('a scenario without usage models or autoscaling has none of these series', async () => {
  const plain = parseScenario(`
duration: 1m
nodePools: [{ name: general, count: 1, capacity: { cpu: "4", memory: 16Gi } }]
workloads: [{ name: web, controller: Deployment, count: 2, requests: { cpu: 500m, memory: 1Gi } }]
`, { name: 'plain', dir: '.' });
  const { report } = await runScenario(plain);
  assert.equal(['usage', 'deployments', 'nodeGroups'].filter((k) => k in report.series), []);
  assert.not.match(renderReportHtml(report), /id="usage"|id="replicas"/);
});

test.run();
