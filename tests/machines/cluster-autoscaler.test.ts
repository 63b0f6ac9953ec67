// The cluster autoscaler's loop on a manual clock: a scan every scan interval; a scale-up ends
// the loop; a node goes only once it has been unneeded for the unneeded time, continuously, and
// not within the delays after an addition or a removal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, fromPromise } from 'xstate';
import { clusterAutoscalerMachine } from '../../machines/cluster-autoscaler.ts';
import { machineClock } from '../helpers/machine-clock.ts';

const settle = () => new Promise<void>((r) => setImmediate(r));
const MIN = 60_000;

/** A loop whose steps answer from the test's script: `up(t)` scales up at t, `unneeded(t)` the nodes unneeded at t. */
function loop(script: { up?: (t: number) => boolean; unneeded?: (t: number) => string[]; onePerLoop?: boolean }, delays = { add: 10 * MIN, delete: 10_000 }) {
  const clock = machineClock();
  const scans: number[] = [];
  const removed: [number, string[]][] = [];
  const machine = clusterAutoscalerMachine.provide({
    actors: {
      syncCaches: fromPromise(async () => {}),
      scaleUp: fromPromise(async () => {
        scans.push(clock.now());
        return { atMs: clock.now(), scaledUp: script.up?.(clock.now()) ?? false };
      }),
      findUnneeded: fromPromise(async () => ({ atMs: clock.now(), nodes: script.unneeded?.(clock.now()) ?? [] })),
      scaleDown: fromPromise(async ({ input }: { input: { nodes: string[] } }) => {
        const begun = script.onePerLoop ? input.nodes.slice(0, 1) : input.nodes;
        removed.push([clock.now(), begun]);
        return begun;
      }),
    },
  });
  const actor = createActor(machine, { clock, input: { scanIntervalMs: 10_000, scaleDownEnabled: true, scaleDownUnneededTimeMs: 10 * MIN,
    scaleDownDelayAfterAddMs: delays.add, scaleDownDelayAfterDeleteMs: delays.delete } }).start();
  const runTo = async (ms: number) => {
    for (let i = 0; i < 5; i++) await settle();
    while (clock.now() < ms) {
      clock.advance(Math.min(1_000, ms - clock.now()));
      for (let i = 0; i < 5; i++) await settle();
    }
  };
  return { actor, scans, removed, runTo };
}

test('the loop scans every scan interval', async () => {
  const l = loop({});
  await l.runTo(35_000);
  assert.equal(l.scans, [10_000, 20_000, 30_000]);
});

test('a node unneeded from a scan goes at the first scan the unneeded time later', async () => {
  const l = loop({ unneeded: () => ['n-1'] });
  await l.runTo(11 * MIN + 5_000);
  assert.equal(l.removed, [[10_000 + 10 * MIN, ['n-1']]]);
});

test('a node that was needed again in between starts its unneeded time afresh', async () => {
  const l = loop({ unneeded: (t) => (t === 5 * MIN ? [] : ['n-1']) });
  await l.runTo(16 * MIN);
  assert.equal(l.removed, [[5 * MIN + 10_000 + 10 * MIN, ['n-1']]]);
});

test('no node goes within the delay after a scale-up, nor the delay after a removal', async () => {
  let removed: [number, string[]][] = [];
  const gone = (n: string) => removed.some(([, nodes]) => nodes.includes(n));
  const l = loop({ up: (t) => t === 8 * MIN, unneeded: () => ['a', 'b'].filter((n) => !gone(n)), onePerLoop: true }, { add: 15 * MIN, delete: 3 * MIN });
  removed = l.removed;
  await l.runTo(40 * MIN);
  // The scale-up at 8m clears the list: both unneeded afresh from 8m10s, due at 18m10s; the delay after add holds them until 23m.
  // One goes per loop: the other waits for the delay after that removal, 3m.
  assert.equal(removed, [[23 * MIN, ['a']], [26 * MIN, ['b']]]);
});

test.run();
