// A NATS outage in virtual time: for 30 s every component is cut off the bus both ways, while
// the API server and its store carry on. Per the rules: the controller-manager leader cannot renew
// and steps down by its renew deadline; nobody can take over until the bus is back, when one
// replica is elected; its new term gives every node a fresh grace period, and the node agents
// renew again within it, so no node is tainted and no pod is evicted; every informer relists or
// resumes and ends equal to the store.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';

const SCENARIO = `
name: nats-outage
duration: 8m
sampleInterval: 10s
replicas: { controllerManager: 2, scheduler: 2 }
nodePools:
  - { name: a, count: 6, region: r, zones: [z1, z2], capacity: { cpu: "4", memory: 16Gi, pods: 30 } }
workloads:
  - { name: web, count: 12, controller: ReplicaSet, requests: { cpu: 100m, memory: 128Mi } }
faults:
  - { kind: natsOutage, at: 2m, recoverAfter: 30s }
`;

test('a 30 s NATS outage: leaders step down and are elected again, no node is tainted, no pod evicted', async () => {
  const { report, checks, errors } = await runScenario(parseScenario(SCENARIO, { name: 'nats-outage', dir: '.' }));
  assert.equal(errors, []);
  for (const c of checks) assert.is(c.violations, 0, `${c.name}: ${c.examples.join('; ')}`);
  const outage = report.faults.find((f) => f.kind === 'natsOutage')!;
  assert.ok(outage.targets.length === 6 + 2 + 2, `every component's link: ${outage.targets.join(', ')}`);
  const cm = report.failovers.filter((f) => f.lock === 'orch-controller-manager');
  assert.is(cm.length, 1, JSON.stringify(report.failovers));
  // Without a leader from its renew deadline after the outage began until the bus came back.
  assert.ok(cm[0]!.gapMs >= 30_000 - 10_000 && cm[0]!.gapMs <= 30_000 + 2.2 * 2_000, `the controller manager led nobody for ${cm[0]!.gapMs} ms`);
  assert.is(report.summary.taints, 0);
  assert.is(report.summary.taintEvictions, 0);
  assert.is(report.summary.pods.created, 12, 'no pod replaced');
});

test.run();
