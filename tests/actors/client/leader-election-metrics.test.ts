// leader_election_master_status{name}: 1 in the registry of the replica leading the lock, 0 in the
// others' (candidates report 0 from the start), and it flips when the leader crashes and another
// takes over, or when the leader stops and releases the lock.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRegistry, type Registry } from '../../../actors/api/metrics.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { LeaderElector } from '../../../actors/client/leader-election.ts';
import { seededRandom } from '../../../sim/random.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';
import { sample } from './metric-values.ts';

async function world(replicas: number) {
  const { clock, bus, server, run } = await virtualWorld({ seed: 1 });
  const random = seededRandom(2);
  const registries: Registry[] = [];
  const electors = Array.from({ length: replicas }, (_, i) => {
    const registry = newRegistry();
    registries.push(registry);
    return new LeaderElector({
      client: new ApiClient(bus, `r${i}`), clock, random: random.fork(`r${i}`), registry,
      config: { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, resourceName: 'orch-scheduler', resourceNamespace: 'orch-system', identity: `r${i}` },
      onStartedLeading: () => {}, onStoppedLeading: () => {},
    });
  });
  const status = () => Promise.all(registries.map((r) => sample(r, 'leader_election_master_status', { name: 'orch-scheduler' })));
  return { electors, status, run, stop: () => { for (const e of electors) e.halt(); server.stop(); } };
}

test('the leader reports 1 and the candidates 0', async () => {
  const w = await world(3);
  for (const e of w.electors) e.start();
  assert.equal(await w.status(), [0, 0, 0], 'every replica starts as a candidate');
  await w.run(5_000);
  const leader = w.electors.findIndex((e) => e.isLeader);
  assert.ok(leader >= 0);
  assert.equal(await w.status(), [0, 1, 2].map((i) => (i === leader ? 1 : 0)));
  assert.ok(w.electors.every((e) => e.healthy()), 'a leader renewing on time and the candidates are healthy');
  w.stop();
});

test('the status flips on failover: the crashed leader reports 0, its successor 1', async () => {
  const w = await world(2);
  for (const e of w.electors) e.start();
  await w.run(5_000);
  const first = w.electors.findIndex((e) => e.isLeader);
  const second = 1 - first;
  w.electors[first]!.halt();
  assert.is((await w.status())[first], 0);
  await w.run(40_000);
  assert.ok(w.electors[second]!.isLeader, 'the other replica took over');
  const after = await w.status();
  assert.is(after[first], 0);
  assert.is(after[second], 1);
  w.stop();
});

test('a leader that stops reports 0', async () => {
  const w = await world(1);
  w.electors[0]!.start();
  await w.run(1_000);
  assert.equal(await w.status(), [1]);
  await w.electors[0]!.stop();
  assert.equal(await w.status(), [0]);
  w.stop();
});

test.run();
