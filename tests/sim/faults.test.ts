// The node and link faults in a whole run: a flapping node goes Unknown in each down spell longer
// than the grace period and Ready in each up spell; a node whose every message is lost goes
// Unknown; extra latency on the controller manager's link delays its writes but breaks nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../actors/api/types.ts';
import { runScenario } from '../../sim/run.ts';
import { members } from '../../sim/scenario/fault-sets.ts';
import { parseScenario } from '../../sim/scenario/load.ts';

const SCENARIO = `
name: faults
duration: 10m
sampleInterval: 30s
nodePools:
  - { name: a, count: 4, capacity: { cpu: "4", memory: 16Gi, pods: 30 } }
faults:
  - { kind: nodeFlap, at: 1m, nodes: [a-0], downFor: 90s, upFor: 90s, recoverAfter: 6m }
  - { kind: messageLoss, at: 2m, nodes: [a-1], probability: 1, recoverAfter: 3m }
  - { kind: latency, at: 0s, component: controllerManager, latency: 500ms }
`;

test('flapping, lossy and slow links: Ready and Unknown in turn, every checker holds', async () => {
  const ready = new Map<string, string[]>();
  const { report, checks, errors } = await runScenario(parseScenario(SCENARIO, { name: 'faults', dir: '.' }), {
    onStarted: (live) => live.cluster.server.store.onChange((c) => {
      if (!c.key.includes('/core/nodes/')) return;
      const status = (o: KObject | undefined) => ((o?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).find((x) => x.type === 'Ready')?.status;
      if (status(c.object) === status(c.prev)) return;
      const name = c.object.metadata.name!;
      ready.set(name, [...(ready.get(name) ?? []), status(c.object) ?? '-']);
    }),
  });
  assert.equal(errors, []);
  for (const c of checks) assert.is(c.violations, 0, `${c.name}: ${c.examples.join('; ')}`);
  // Down 1:00-2:30, up to 4:00, down to 5:30, up to 7:00 (the fault's end): two Unknown spells.
  // (Changes seen from the start of virtual time: every node registered Ready before.)
  assert.equal(ready.get('a-0'), ['Unknown', 'True', 'Unknown', 'True']);
  assert.equal(ready.get('a-1'), ['Unknown', 'True']);
  assert.is(ready.get('a-2'), undefined, 'a healthy node never changes');
  assert.equal(report.faults.map((f) => [f.kind, f.targets]), [['latency', ['controller-manager-0']], ['nodeFlap', ['a-0']], ['messageLoss', ['a-1']]]);
});

const RESTART = `
name: restart
duration: 8m
sampleInterval: 30s
nodePools:
  - { name: a, count: 3, capacity: { cpu: "4", memory: 16Gi, pods: 30 } }
workloads:
  - { name: web, count: 20, controller: ReplicaSet, requests: { cpu: 100m } }
  - { name: late, count: 10, start: 2m, arrival: { kind: uniform, interval: 2s }, requests: { cpu: 100m } }
faults:
  - { kind: apiServerRestart, at: 2m, recoverAfter: 20s }
`;

test('an API server restart loses nothing: creates refused meanwhile are sent again, leaders re-elected, every cache agrees with the store', async () => {
  const { report, checks, errors } = await runScenario(parseScenario(RESTART, { name: 'restart', dir: '.' }));
  for (const c of checks) assert.is(c.violations, 0, `${c.name}: ${c.examples.join('; ')}`);
  assert.equal(report.faults, [{ kind: 'apiServerRestart', atMs: 120_000, targets: ['apiserver'], recoveredAtMs: 140_000 }]);
  assert.equal(errors, []);
  assert.equal([report.summary.pods.created, report.summary.pods.running], [30, 30], 'the creates refused during the outage were sent again');
  // Both leaders lost their Lease with the server (a 20 s outage outlasts the 10 s renew deadline) and took it again.
  assert.ok(report.leadership.filter((t) => t.lock === 'orch-controller-manager').length >= 2, JSON.stringify(report.leadership));
});

test('the k largest nodes: most CPU, then memory, then name; with zone any, each zone\'s largest in turn', async () => {
  const text = (fault: string) => `
duration: 2m
nodePools:
  - { name: small, count: 4, zones: [z1, z2], capacity: { cpu: "4", memory: 16Gi } }
  - { name: big, count: 2, zones: [z1, z2], capacity: { cpu: "16", memory: 32Gi } }
  - { name: fat, count: 2, zones: [z1, z2], capacity: { cpu: "16", memory: 64Gi } }
faults: [${fault}]
`;
  const targets = async (fault: string) => (await runScenario(parseScenario(text(fault), { name: 'largest', dir: '.' }))).report.faults.map((f) => f.targets);
  assert.equal(await targets('{ kind: nodeCrash, at: 30s, count: 3, largest: true }'), [['fat-0', 'fat-1', 'big-0']]);
  assert.equal(await targets('{ kind: nodeCrash, at: 30s, count: 1, largest: true, pool: small }'), [['small-0']], 'equal nodes: by name');
  const sets = members(parseScenario(text('{ kind: nodeCrash, at: 30s, count: 1, largest: true, zone: any }'), { name: 'largest', dir: '.' }));
  const picked = await Promise.all(sets.map(async (m) => [m.label, ...(await runScenario(m.scenario)).report.faults.map((f) => f.targets)]));
  assert.equal(picked, [['z1', ['fat-0']], ['z2', ['fat-1']]]);
  assert.throws(() => parseScenario(text('{ kind: nodeCrash, at: 30s, nodes: [big-0], largest: true }'), { name: 'largest', dir: '.' }),
    (e: Error) => e.message === 'largest.yaml: faults[0].largest: cannot be given with nodes: it chooses among the nodes count draws from');
});

test.run();
