// Autoscaled Deployments under `orchsim run`: the scenario's `autoscale:` makes an HPA, the run
// installs the metrics server because pods have a usage model, and the Deployments' replica
// changes land where the real autoscaler's rules put them. Two workloads whose CPU use steps at
// 10m (a step on the 15s metric grid): `up` from 50% to 90% of its request (target 50%), `down`
// from 50% to 10%. Expected times come from the rules: syncs every 15s from one period after the
// HPA appears; the metric read at a sync is of the grid instant at or before it; a scale-up
// happens at the first sync whose metric is past the step; a scale-down waits until no high
// recommendation is left in the downscale window (5m: those not before now - 5m).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ScenarioRun, runScenario } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';
import type { Deployment } from '../../actors/api/model/apps.ts';

const STEP_MS = 600_000;
const SYNC_MS = 15_000;
const WINDOW_MS = 300_000;
const CPU_50 = '{ minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 50 }';
/** A 17m run on three nodes of `cpu` CPUs whose Deployments (pods of 500m) step from using 50% of it to `after` at 10m. */
const stepScenario = (cpu: string, deployments: [name: string, count: number, after: number, autoscale: string][]) => `
duration: 17m
nodePools: [{ name: general, count: 3, capacity: { cpu: "${cpu}", memory: 16Gi } }]
workloads:
${deployments.map(([name, count, after, autoscale]) => `  - name: ${name}
    controller: Deployment
    count: ${count}
    requests: { cpu: 500m, memory: 128Mi }
    usage: { cpu: { kind: step, before: 0.5, after: ${after}, at: 10m } }
    autoscale: ${autoscale}`).join('\n')}
`;
const SCENARIO = stepScenario('4', [['up', 3, 0.9, CPU_50], ['down', 6, 0.1, CPU_50]]);
const scenario = () => parseScenario(SCENARIO, { name: 'hpa', dir: '.' });

interface Seen {
  /** When each HPA was created, ms from the run's start. */
  hpaAt: Map<string, number>;
  /** Each Deployment's spec.replicas changes after its creation: [ms, replicas]. */
  replicas: Map<string, [number, number][]>;
}

async function watchedRun(yaml = SCENARIO): Promise<Seen & { errors: string[] }> {
  const run = await ScenarioRun.start(parseScenario(yaml, { name: 'hpa', dir: '.' }));
  const seen: Seen = { hpaAt: new Map(), replicas: new Map() };
  const at = () => run.virtualMs;
  const stop = run.cluster.server.store.onChange((c) => {
    const name = c.object.metadata.name!;
    if (c.key.includes('/horizontalpodautoscalers/') && c.type === 'ADDED') seen.hpaAt.set(name, at());
    if (!c.key.includes('/deployments/') || c.type === 'DELETED') return;
    const now = (c.object as Deployment).spec!.replicas!, before = (c.prev as Deployment | undefined)?.spec?.replicas;
    if (before !== undefined && before !== now) seen.replicas.set(name, [...(seen.replicas.get(name) ?? []), [at(), now]]);
  });
  await run.advance();
  stop();
  const outcome = await run.finish();
  return { ...seen, errors: outcome.errors };
}

/** The first sync of an autoscaler created at `createdMs` at or after `ms`. */
const firstSyncFrom = (createdMs: number, ms: number) => createdMs + SYNC_MS * Math.ceil((ms - createdMs) / SYNC_MS);

test('an autoscaled Deployment scales up at the first sync past a step in load, and down only once the downscale window lets go', async () => {
  const seen = await watchedRun();
  assert.equal(seen.errors, []);
  const up = seen.replicas.get('up') ?? [], down = seen.replicas.get('down') ?? [];
  // The metric crosses the target at the step; the first sync that reads it scales up.
  const upSync = firstSyncFrom(seen.hpaAt.get('up')! + SYNC_MS, STEP_MS);
  // 3 pods at 90% against 50%: ratio 1.8, ceil(5.4) = 6, within the scale-up limit max(2 × 3, 4).
  assert.is(up[0]?.[1], 6, `first scale-up to the rule's count (${JSON.stringify(up)})`);
  assert.ok(up[0]![0] >= upSync && up[0]![0] < upSync + 1_000, `scaled up at the sync at ${upSync} (${up[0]![0]})`);
  assert.ok(up.every(([, n], i) => n > (i === 0 ? 3 : up[i - 1]![1]) && n <= 10), `only up, within maxReplicas (${JSON.stringify(up)})`);
  // 6 pods at 10% against 50%: ratio 0.2, ceil(1.2) = 2 (minReplicas). The last high
  // recommendation, a sync before the first low one, stays in the window through
  // lowSync - 15s + 5m; the next sync lets go of it.
  const lowSync = firstSyncFrom(seen.hpaAt.get('down')! + SYNC_MS, STEP_MS);
  const downSync = lowSync + WINDOW_MS;
  assert.is(down.length, 1, `one scale-down (${JSON.stringify(down)})`);
  assert.is(down[0]![1], 2);
  assert.ok(down[0]![0] >= downSync && down[0]![0] < downSync + 1_000, `scaled down at the sync at ${downSync} (${down[0]![0]})`);
});

// Two Deployments alike under the same step (50% to 90% of a 500m request at 10m, target 50%):
// `plain` has the default behavior, `paced` the policy scaleUp Pods 1 per 60s, through metrics:.
// Without spread each pod keeps using 90%, so the metric asks for more at every sync until maxReplicas.
const PACED = stepScenario('8', [['plain', 3, 0.9, CPU_50], ['paced', 3, 0.9, '{ minReplicas: 2, maxReplicas: 10, '
  + 'metrics: [{ type: Resource, resource: { name: cpu, target: { type: Utilization, averageUtilization: 50 } } }], '
  + 'behavior: { scaleUp: { policies: [{ type: Pods, value: 1, periodSeconds: 60 }] } } }']]);

test('a scaleUp policy of one pod per 60s paces the replicas the default behavior would add at once', async () => {
  const seen = await watchedRun(PACED);
  assert.equal(seen.errors, []);
  const plain = seen.replicas.get('plain') ?? [], paced = seen.replicas.get('paced') ?? [];
  const near = (ms: number, expected: number) => ms >= expected && ms < expected + 1_000;
  // Default: 3 pods at 90% against 50% want ceil(1.8 × 3) = 6, within max(2 × 3, 4): 6 at once.
  const plainSync = firstSyncFrom(seen.hpaAt.get('plain')! + SYNC_MS, STEP_MS);
  assert.is(plain[0]?.[1], 6, `the default adds three at once (${JSON.stringify(plain)})`);
  assert.ok(near(plain[0]![0], plainSync), `at the first sync past the step, ${plainSync} (${plain[0]![0]})`);
  // The policy: one more than the replicas of 60s ago, each time a sync finds the last scale-up
  // no longer after now - 60s: every fourth sync from the first past the step, 4, 5, ... up to 10.
  const pacedSync = firstSyncFrom(seen.hpaAt.get('paced')! + SYNC_MS, STEP_MS);
  const expected = [4, 5, 6, 7, 8, 9, 10].map((n, i) => [pacedSync + i * 60_000, n]);
  assert.equal(paced.map(([, n]) => n), expected.map(([, n]) => n), `one at a time (${JSON.stringify(paced)})`);
  paced.forEach(([ms], i) => assert.ok(near(ms, expected[i]![0]!), `step ${i} at ${expected[i]![0]} (${ms})`));
});

test('an autoscaler the API server refuses is a run error naming it and the real cause; the Deployment runs unscaled', async () => {
  // The shape is right (the loader passes it); the value is the API server's to refuse.
  const yaml = `
duration: 1m
nodePools: [{ name: general, count: 1 }]
workloads:
  - name: web
    controller: Deployment
    count: 2
    requests: { cpu: 100m, memory: 128Mi }
    autoscale:
      maxReplicas: 4
      targetCPUUtilizationPercentage: 50
      behavior: { scaleUp: { policies: [{ type: Pods, value: 0, periodSeconds: 60 }] } }
`;
  const outcome = await runScenario(parseScenario(yaml, { name: 'refused', dir: '.' }));
  assert.equal(outcome.errors, ['workloads: HorizontalPodAutoscaler default/web: HorizontalPodAutoscaler.autoscaling "web" is invalid: '
    + 'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero']);
  assert.is(outcome.report.summary.pods.running, 2, JSON.stringify(outcome.report.summary.pods));
});

test('a run with autoscalers reports the same on every run', async () => {
  const [a, b] = [await runScenario(scenario()), await runScenario(scenario())];
  assert.equal(a.errors, []);
  assert.is(JSON.stringify(a.report), JSON.stringify(b.report));
});

test.run();
