import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assign, fromPromise } from 'xstate';
import { nodeMachine, type Written } from '../../machines/node.ts';
import { ActorSystem, type InspectionRecord } from '../../actors/system/index.ts';
import { seededRandom } from '../../sim/random.ts';
import { machineClock } from '../helpers/machine-clock.ts';

const settle = () => new Promise<void>((r) => setImmediate(r));

const SEED = 7;
/** The loops' phases the machine draws from its stream: the first renewal's, then the first check's. */
const phases = (seed = SEED) => {
  const r = seededRandom(seed);
  return { lease: Math.round(10_000 * r.next()), check: Math.round(10_000 * r.next()) };
};
const CHECK = phases().check;
/** The first point of the 10 s status grid at or after `t`. */
const gridAt = (t: number) => CHECK + 10_000 * Math.ceil((t - CHECK) / 10_000);

interface Options {
  seed?: number;
  memoryLowAt?: (ms: number) => boolean;
  failRegister?: boolean;
  /** Lease renewals that fail as unanswered, by their number (1 = the first renewal in Running). */
  unansweredRenewals?: number[];
  /** Times at which the host tells the machine that what a check looks at changed. */
  changes?: number[];
  /** Pods the server holds not Ready, as each check finds them. */
  unreadyAt?: (ms: number) => number;
}

/** A node machine whose I/O is recorded instead of done: when each write happened, what was evicted. */
async function startNode(o: Options = {}) {
  const clock = machineClock();
  const system = new ActorSystem(clock);
  const records: InspectionRecord[] = [];
  system.onRecord((r) => records.push(r));
  const renewals: number[] = [];
  const statuses: { atMs: number; pressure: boolean }[] = [];
  const evictions: number[] = [];
  const checks: number[] = [];
  const pressureChanges: { atMs: number; pressure: boolean }[] = [];
  const unanswered = new Error('unanswered');
  let halted = 0;
  const renew = async () => {
    renewals.push(clock.now());
    if (o.unansweredRenewals?.includes(renewals.length - 1)) throw unanswered;
  };
  const machine = nodeMachine.provide({
    actors: {
      register: fromPromise<Written>(async () => {
        if (o.failRegister) throw new Error('no server');
        return { atMs: clock.now() };
      }),
      renewLease: fromPromise<void>(renew),
      syncPods: fromPromise<void>(async () => {}),
    },
    actions: {
      renewLease: ({ self }) => {
        const startMs = clock.now();
        void renew().then(() => clock.now() > startMs && self.send({ type: 'RENEWED' }), (error) => self.send({ type: 'RENEW_FAILED', error }));
      },
      writeStatus: ({ self }, { pressure }) => {
        statuses.push({ atMs: clock.now(), pressure });
        const atMs = clock.now();
        void Promise.resolve().then(() => self.send({ type: 'REPORTED', atMs }));
      },
      measure: assign({ measurement: () => {
        checks.push(clock.now());
        return { atMs: clock.now(), memoryLow: o.memoryLowAt?.(clock.now()) ?? false, availableBytes: 1, unreadyPods: o.unreadyAt?.(clock.now()) ?? 0 };
      } }),
      evictOne: () => void evictions.push(clock.now()),
      pressureChanged: (_, { pressure }) => void pressureChanges.push({ atMs: clock.now(), pressure }),
      halt: () => void halted++,
    },
    guards: { unanswered: ({ event }) => (event as { error?: unknown }).error === unanswered },
  });
  const actor = system.host(machine, { id: 'node/n1', input: {
    leaseRenewMs: 10_000, leaseJitterFactor: 0.04, statusUpdateMs: 10_000, statusReportMs: 300_000, pressureTransitionMs: 30_000, random: seededRandom(o.seed ?? SEED),
    now: () => clock.now(),
  } }).start();
  for (const atMs of o.changes ?? []) clock.setTimeout(() => actor.send({ type: 'CHANGED' }), atMs);
  /** Moves time event by event, letting the invoked writes finish in the instant of each, as the kernel does. */
  const run = async (ms: number) => {
    const end = clock.now() + ms;
    while (clock.step(end - clock.now())) await settle();
  };
  await settle(); // registered and running at 0
  return { clock, actor, records, renewals, statuses, evictions, checks, pressureChanges, halted: () => halted, run };
}

test('a node registers, creates its lease, syncs its pods and runs; renewals come every 10 s plus up to 4% jitter', async () => {
  const n = await startNode();
  assert.equal(n.records.filter((r) => r.kind !== 'stop').map((r) => (r.kind === 'actor' ? r.to : `${r.event} → ${r.to}`)), [
    'Starting.Registering',
    'xstate.done.actor.register → Starting.Leasing',
    'xstate.done.actor.renewLease → Starting.Syncing',
    'xstate.done.actor.syncPods → Running.Normal',
  ]);
  await n.run(120_000);
  // The lease is created at 0; its renewals start at the phase drawn within the period.
  assert.equal(n.renewals.slice(0, 2), [0, phases().lease]);
  const gaps = n.renewals.slice(2).map((t, i) => t - n.renewals[i + 1]!);
  assert.ok(gaps.length >= 10, `${gaps.length} renewals`);
  assert.ok(gaps.every((g) => g >= 10_000 && g <= 10_400), gaps.join(' '));
  assert.ok(new Set(gaps).size > 1, 'the jitter is drawn for each wait');
});

test('agents started together start their loops at phases spread over the period', async () => {
  const firsts: number[] = [];
  const checks: number[] = [];
  for (let seed = 1; seed <= 12; seed++) {
    const n = await startNode({ seed });
    await n.run(20_000);
    firsts.push(n.renewals[1]!);
    checks.push(n.checks[0]!);
  }
  for (const times of [firsts, checks]) {
    assert.ok(times.every((t) => t >= 0 && t <= 10_000), times.join(' '));
    // Uniform phases over 10 s spread by about 2.9 s (10 s / √12); agents in lockstep, by none.
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    const sd = Math.sqrt(times.reduce((a, t) => a + (t - mean) ** 2, 0) / times.length);
    assert.ok(sd > 2_000, `spread ${sd.toFixed(0)} ms: ${times.join(' ')}`);
  }
});

test('the same input stream gives the same renewal times', async () => {
  const a = await startNode();
  const b = await startNode();
  await a.run(300_000);
  await b.run(300_000);
  assert.equal(a.renewals, b.renewals);
});

test('an unchanged status is written only when nodeStatusReportFrequency has passed', async () => {
  const n = await startNode();
  await n.run(610_000 + CHECK);
  // Registered at 0: the status falls due at 300 s and is written at the grid point there, then 300 s later.
  assert.equal(n.statuses.map((s) => s.atMs), [gridAt(300_000), gridAt(300_000) + 300_000]);
});

test('a quiet node is checked when its report falls due; a change brings the check to the next grid point', async () => {
  const n = await startNode({ changes: [123_400] });
  await n.run(610_000 + CHECK);
  // The first check (at its phase) finds the node quiet; the next one that can matter is the
  // report at 300 s, unless something changes: 123.4 s brings one at the next point of the 10 s grid.
  const due = gridAt(300_000);
  assert.equal(n.checks, [CHECK, gridAt(123_400), due, due + 300_000]);
  assert.equal(n.statuses.map((s) => s.atMs), [due, due + 300_000]);
});

test('pods the server holds not Ready keep the checks every 10 s until none is left', async () => {
  const n = await startNode({ unreadyAt: (ms) => (ms <= 40_000 ? 1 : 0) });
  await n.run(100_000);
  // Every grid point while one is left, and the one that finds none.
  const expected = [CHECK];
  while (expected.at(-1)! <= 40_000) expected.push(expected.at(-1)! + 10_000);
  assert.equal(n.checks, expected);
});

test('low memory starts pressure, evicts a pod per check, reports at once, and lasts the transition period after the last low check', async () => {
  // Memory runs low from 55 s to 80 s (the host says so at 55 s): the check comes at the next grid point.
  const n = await startNode({ memoryLowAt: (ms) => ms >= 55_000 && ms < 80_000, changes: [55_000] });
  await n.run(200_000);
  const low: number[] = [];
  for (let t = gridAt(55_000); t < 80_000; t += 10_000) low.push(t);
  // Each low check evicts a pod; pressure ends at the first check 30 s after the last low one.
  const end = gridAt(low.at(-1)! + 30_000);
  assert.equal(n.evictions, low);
  assert.equal(n.statuses, [{ atMs: low[0]!, pressure: true }, { atMs: end, pressure: false }]);
  assert.equal(n.pressureChanges, n.statuses, 'the host is told at the checks that start and end the pressure, and only then');
  const pressure = n.records.filter((r) => r.kind === 'transition' && r.from.startsWith('Running'));
  assert.equal(pressure.map((r) => [r.t, r.kind === 'transition' && `${r.event} ${r.from} → ${r.to}`]),
    [[low[0]!, 'CHECK Running.Normal → Running.Pressure'], [end, 'CHECK Running.Pressure → Running.Normal']]);
});

test('the loops leave no records of their own: a renewal or a quiet check leaves the node in the state it was in', async () => {
  const n = await startNode();
  const before = n.records.length;
  await n.run(320_000);
  assert.ok(n.renewals.length >= 25, `${n.renewals.length} renewals`);
  assert.is(n.records.length, before);
});

test('a lease renewal nobody answered makes the next check report the whole status', async () => {
  const n = await startNode({ unansweredRenewals: [2] });
  await n.run(60_000);
  assert.is(n.statuses.length, 1, 'reported at the check after the unanswered renewal');
  assert.ok(n.statuses[0]!.atMs > n.renewals[2]! && n.statuses[0]!.atMs <= n.renewals[2]! + 10_000);
});

test('a crash ends the machine: its loops stop, the host halts, the stop is recorded', async () => {
  const n = await startNode();
  await n.run(30_000);
  n.actor.send({ type: 'CRASH' });
  const before = n.renewals.length;
  await n.run(60_000);
  assert.is(n.renewals.length, before);
  assert.is(n.halted(), 1);
  assert.equal(n.records.slice(-2).map((r) => r.kind === 'transition' ? `${r.event} → ${r.to}` : r.kind), ['CRASH → Crashed', 'stop']);
});

test('a registration that fails ends in Failed with the reason', async () => {
  const n = await startNode({ failRegister: true });
  assert.ok(n.actor.getSnapshot().matches('Failed'));
  assert.is(n.actor.getSnapshot().context.error, 'no server');
});

test.run();
