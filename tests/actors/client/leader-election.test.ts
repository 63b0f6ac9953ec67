// Leader election on a Lease against a real API server on virtual time, with client-go's rules:
// a crashed leader's successor takes over no sooner than leaseDuration after the last renewal and
// within retryPeriod × 2.2 of a full leaseDuration after it saw that renewal (so within
// leaseDuration + 4.4 × retryPeriod of the renewal itself); a frozen leader steps down before
// anyone takes over; a leader that stops releases the Lease; never two leaders at once.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { LeaderElector, type LeaderElectionConfig } from '../../../actors/client/leader-election.ts';
import { Link } from '../../../sim/link.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const LEASES = lookupResource('coordination.k8s.io', 'v1', 'leases')!;
const LD = 15_000, RD = 10_000, RP = 2_000;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function world(replicas: number, seed: number) {
  const { clock, kernel, bus, random, server, client } = await virtualWorld({ seed });
  const t0 = clock.now();
  /** Leading intervals, in ms from the start: [replica, from, to]. */
  const terms: [string, number, number][] = [];
  const open = new Map<string, number>();
  const renewals: { at: number; holder: string }[] = [];
  server.store.onChange((c) => {
    if (c.key.endsWith('/leases/orch-system/lock')) renewals.push({ at: clock.now() - t0, holder: (c.object.spec as Rec).holderIdentity });
  });
  const config = (identity: string): LeaderElectionConfig =>
    ({ leaseDurationMs: LD, renewDeadlineMs: RD, retryPeriodMs: RP, resourceName: 'lock', resourceNamespace: 'orch-system', identity });
  const links: Link[] = [];
  const electors = Array.from({ length: replicas }, (_, i) => {
    const id = `r${i}`;
    const link = new Link(bus, clock, random.fork(`link/${id}`));
    links.push(link);
    return new LeaderElector({
      client: new ApiClient(link, id), clock, random: random.fork(id), config: config(id),
      onStartedLeading: () => {
        for (const [other, from] of open) if (other !== id) terms.push([`overlap ${other}`, from, clock.now() - t0]);
        open.set(id, clock.now() - t0);
      },
      onStoppedLeading: () => {
        terms.push([id, open.get(id)!, clock.now() - t0]);
        open.delete(id);
      },
    });
  });
  return {
    clock, electors, links, terms, renewals, open,
    until: (ms: number) => kernel.run({ until: t0 + ms }),
    leader: () => electors.findIndex((e) => e.isLeader),
    lease: async () => (await client.get(LEASES, 'orch-system', 'lock')).spec as Rec,
    stop: () => { for (const e of electors) e.halt(); server.stop(); },
  };
}

test('the first candidate creates the Lease and renews it every retryPeriod', async () => {
  const w = await world(1, 1);
  w.electors[0]!.start();
  await w.until(10_000);
  assert.ok(w.electors[0]!.isLeader);
  const lease = await w.lease();
  assert.equal([lease.holderIdentity, lease.leaseDurationSeconds, lease.leaseTransitions], ['r0', 15, 0]);
  assert.equal(w.renewals.map((r) => r.at), [0, 2_000, 4_000, 6_000, 8_000, 10_000]);
  w.stop();
});

test('after a crash the successor takes over between leaseDuration and leaseDuration + 4.4 × retryPeriod after the last renewal, across seeds', async () => {
  const gaps: number[] = [];
  for (let seed = 1; seed <= 25; seed++) {
    const w = await world(3, seed);
    for (const e of w.electors) e.start();
    await w.until(20_000);
    const old = w.leader();
    assert.ok(old >= 0, 'someone leads');
    w.electors[old]!.halt();
    w.open.delete(`r${old}`);
    const last = w.renewals.filter((r) => r.holder === `r${old}`).at(-1)!.at;
    await w.until(60_000);
    const next = w.renewals.find((r) => r.at > last && r.holder !== `r${old}`);
    assert.ok(next, `seed ${seed}: a successor took over`);
    gaps.push(next.at - last);
    assert.equal(w.terms.filter(([t]) => t.startsWith('overlap')), [], `seed ${seed}: never two leaders`);
    assert.is((await w.lease()).leaseTransitions, 1);
    w.stop();
  }
  for (const gap of gaps) assert.ok(gap >= LD && gap <= LD + 4.4 * RP, `failover took ${gap} ms after the last renewal`);
  assert.ok(new Set(gaps).size > 5, `the jitter spreads failovers: ${gaps.join(', ')}`);
});

test('a frozen leader steps down at its renewDeadline, before anyone may take over', async () => {
  const w = await world(2, 4);
  for (const e of w.electors) e.start();
  await w.until(20_000);
  const old = w.leader();
  const lastBefore = w.renewals.at(-1)!.at;
  w.links[old]!.pause(60_000);
  await w.until(80_000);
  const [, , steppedDown] = w.terms.find(([id]) => id === `r${old}`)!;
  const takeover = w.renewals.find((r) => r.at > lastBefore && r.holder !== `r${old}`)!.at;
  assert.ok(steppedDown <= lastBefore + RP + RD, `stepped down ${steppedDown - lastBefore} ms after its last renewal`);
  assert.ok(steppedDown < takeover, `stepped down at ${steppedDown}, successor took over at ${takeover}`);
  assert.ok(takeover - lastBefore >= LD);
  assert.equal(w.terms.filter(([t]) => t.startsWith('overlap')), []);
  assert.ok(w.electors[1 - old]!.isLeader, 'the other replica leads');
  assert.not.ok(w.electors[old]!.isLeader, 'and the thawed one follows');
  w.stop();
});

test('a leader that stops releases the Lease: the successor need not wait out leaseDuration', async () => {
  const w = await world(2, 5);
  for (const e of w.electors) e.start();
  await w.until(20_000);
  const old = w.leader();
  const stoppedAt = 20_000;
  await w.electors[old]!.stop();
  assert.equal((await w.lease()).holderIdentity, '');
  await w.until(30_000);
  const takeover = w.renewals.find((r) => r.at >= stoppedAt && r.holder === `r${1 - old}`)!.at;
  assert.ok(takeover - stoppedAt <= 2.2 * RP, `took over ${takeover - stoppedAt} ms after the release`);
  w.stop();
});

test('stopping an elector that never started, or that crashed, resolves at once and releases nothing', async () => {
  const w = await world(2, 6);
  await w.electors[0]!.stop();
  w.electors[1]!.start();
  await w.until(5_000);
  assert.ok(w.electors[1]!.isLeader);
  w.electors[1]!.halt();
  await w.electors[1]!.stop();
  assert.is((await w.lease()).holderIdentity, 'r1', 'a crashed leader leaves its Lease to run out');
  w.stop();
});

test.run();
