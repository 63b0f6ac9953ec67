// A workload whose pods share its load (`usage.spread`) under an autoscaler: the load balancer
// counts the Ready pods, each pod uses the load over that count, and so the HPA's replica count
// follows the load instead of running to its maximum. The load is that of 4 pods at 60% of a
// 1-CPU request (2.4 cores, the target's level: 4 replicas hold), stepping at 5m to 4 pods at 150%
// (6 cores): by the rule ceil(replicas x usage / target) the autoscaler wants 10, reached through
// the scale-up limit, and holds there, as 6 cores over 10 pods is 60% again.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ScenarioRun } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';
import type { Deployment } from '../../actors/api/model/apps.ts';

const SCENARIO = (spread: string) => `
duration: 14m
nodePools: [{ name: general, count: 3, capacity: { cpu: "8", memory: 32Gi } }]
workloads:
  - name: web
    controller: Deployment
    count: 4
    requests: { cpu: "1", memory: 128Mi }
    usage: { cpu: { kind: step, before: 0.6, after: 1.5, at: 5m }${spread} }
    autoscale: { minReplicas: 2, maxReplicas: 20, targetCPUUtilizationPercentage: 60 }
`;

async function replicaChanges(spread: string): Promise<{ changes: [number, number][]; errors: string[]; balanced: number | undefined }> {
  const run = await ScenarioRun.start(parseScenario(SCENARIO(spread), { name: 'spread', dir: '.' }));
  const changes: [number, number][] = [];
  const stop = run.cluster.server.store.onChange((c) => {
    if (!c.key.includes('/deployments/') || c.type === 'DELETED') return;
    const now = (c.object as Deployment).spec!.replicas!, before = (c.prev as Deployment | undefined)?.spec?.replicas;
    if (before !== undefined && before !== now) changes.push([run.virtualMs, now]);
  });
  await run.advance();
  stop();
  const balanced = run.cluster.balancer?.count('default/web');
  const outcome = await run.finish();
  return { changes, errors: outcome.errors, balanced };
}

test('an autoscaler over pods that share a load settles where the load over the replicas meets its target', async () => {
  const { changes, errors, balanced } = await replicaChanges(', spread: 4');
  assert.equal(errors, []);
  assert.ok(changes.length > 0 && changes.every(([ms]) => ms >= 300_000), `no change before the step (${JSON.stringify(changes)})`);
  // 4 replicas at 150% against 60%: ratio 2.5 wants 10, held to max(2 x 4, 4) = 8 by the scale-up limit.
  assert.is(changes[0]![1], 8, `first step to the scale-up limit (${JSON.stringify(changes)})`);
  assert.is(changes.at(-1)![1], 10, `settles at 6 cores / 60% of 1 CPU = 10 replicas (${JSON.stringify(changes)})`);
  assert.is(balanced, 10, 'the balancer counts the 10 Ready pods');
});

test('without spread each pod keeps its own use, and the same autoscaler runs to its maximum', async () => {
  const { changes, errors, balanced } = await replicaChanges('');
  assert.equal(errors, []);
  assert.is(balanced, undefined, 'no balancer runs when no workload spreads its load');
  assert.is(changes.at(-1)![1], 20, JSON.stringify(changes));
});

test.run();
