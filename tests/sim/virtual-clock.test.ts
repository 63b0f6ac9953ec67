import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assign, cancel, createActor, raise, setup } from 'xstate';
import { virtualClock } from '../../sim/virtual-clock.ts';

const T0 = Date.UTC(2026, 0, 1);

test('timers fire in (due time, sequence) order, with now at each due time', () => {
  const clock = virtualClock(T0);
  const fired: string[] = [];
  const at = (name: string) => () => fired.push(`${name}@${clock.now() - T0}`);
  clock.setTimeout(at('c'), 300);
  clock.setTimeout(at('a1'), 100);
  clock.setTimeout(at('b'), 200);
  clock.setTimeout(at('a2'), 100);
  clock.setTimeout(at('z'), 0);
  clock.setTimeout(at('neg'), -5);
  assert.is(clock.pending, 6);
  assert.is(clock.next(), T0);
  assert.is(clock.advanceTo(T0 + 250), 5);
  assert.equal(fired, ['z@0', 'neg@0', 'a1@100', 'a2@100', 'b@200']);
  assert.is(clock.now(), T0 + 250);
  assert.is(clock.pending, 1);
  assert.is(clock.next(), T0 + 300);
  clock.runUntil(T0 + 300);
  assert.equal(fired.at(-1), 'c@300');
  assert.is(clock.next(), undefined);
});

test('heap order holds for many timers with random delays and ties', () => {
  const clock = virtualClock(0);
  const fired: [number, number][] = [];
  let x = 12345;
  for (let i = 0; i < 5000; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const ms = x % 100; // many ties
    clock.setTimeout(() => fired.push([clock.now(), i]), ms);
  }
  clock.advanceTo(1000);
  assert.is(fired.length, 5000);
  for (let i = 1; i < fired.length; i++) {
    const [pa, pi] = fired[i - 1];
    const [a, j] = fired[i];
    assert.ok(pa < a || (pa === a && pi < j), `out of order at ${i}: ${fired[i - 1]} then ${fired[i]}`);
  }
});

test('a timer set inside a firing timer counts from its due time: 15 s, 60 s, 30 s ends at 105 s', () => {
  const clock = virtualClock(T0);
  const marks: number[] = [];
  clock.setTimeout(() => {
    marks.push(clock.now() - T0);
    clock.setTimeout(() => {
      marks.push(clock.now() - T0);
      clock.setTimeout(() => marks.push(clock.now() - T0), 30_000);
    }, 60_000);
  }, 15_000);
  clock.advanceTo(T0 + 104_999);
  assert.equal(marks, [15_000, 75_000]);
  clock.advanceTo(T0 + 105_000);
  assert.equal(marks, [15_000, 75_000, 105_000]);
});

test('the same chain through an XState machine with after delays, in one jump', () => {
  const clock = virtualClock(T0);
  const entered: string[] = [];
  const log = (state: string) => () => entered.push(`${state}@${clock.now() - T0}`);
  const machine = setup({}).createMachine({
    id: 'chain',
    initial: 'a',
    states: {
      a: { entry: log('a'), after: { 15_000: 'b' } },
      b: { entry: log('b'), after: { 60_000: 'c' } },
      c: { entry: log('c'), after: { 30_000: 'd' } },
      d: { entry: log('d'), type: 'final' },
    },
  });
  const actor = createActor(machine, { clock, id: 'chain-1' }).start();
  clock.advanceTo(T0 + 105_000);
  assert.is(actor.getSnapshot().value, 'd');
  assert.is(actor.getSnapshot().status, 'done');
  assert.equal(entered, ['a@0', 'b@15000', 'c@75000', 'd@105000']);
  assert.is(clock.pending, 0);
});

test('named delayed events fire on the clock, and cancelled ones never fire', () => {
  const clock = virtualClock(T0);
  const machine = setup({
    types: { context: {} as { ticks: number[] }, events: {} as { type: 'TICK' } | { type: 'BOOM' } | { type: 'STOP' } },
  }).createMachine({
    id: 'ticker',
    context: { ticks: [] },
    initial: 'on',
    states: {
      on: {
        entry: [raise({ type: 'TICK' }, { delay: 1_000, id: 'tick' }), raise({ type: 'BOOM' }, { delay: 5_000, id: 'boom' })],
        on: {
          TICK: {
            actions: [assign({ ticks: ({ context }) => [...context.ticks, clock.now() - T0] }), raise({ type: 'TICK' }, { delay: 1_000, id: 'tick' })],
          },
          STOP: { actions: [cancel('tick'), cancel('boom')], target: 'off' },
          BOOM: 'exploded',
        },
      },
      off: {},
      exploded: {},
    },
  });
  const actor = createActor(machine, { clock, id: 'ticker-1' }).start();
  clock.advanceTo(T0 + 3_500);
  assert.equal(actor.getSnapshot().context.ticks, [1_000, 2_000, 3_000]);
  actor.send({ type: 'STOP' });
  assert.is(clock.pending, 0);
  clock.advanceTo(T0 + 60_000);
  assert.is(actor.getSnapshot().value, 'off');
  assert.equal(actor.getSnapshot().context.ticks, [1_000, 2_000, 3_000]);
});

test('time never moves backwards: advanceTo an earlier time throws a RangeError naming both times', () => {
  const clock = virtualClock(1_000);
  clock.advanceTo(5_000);
  assert.throws(() => clock.advanceTo(4_999), (e: unknown) => e instanceof RangeError && /5000/.test(e.message) && /4999/.test(e.message));
  assert.throws(() => clock.advanceTo(Number.NaN), RangeError);
  assert.is(clock.now(), 5_000);
  clock.advanceTo(5_000); // standing still is fine
  assert.throws(() => virtualClock(Number.NaN), RangeError);
});

test('now never decreases as timers fire, including timers set with zero delay while firing', () => {
  const clock = virtualClock(0);
  const seen: number[] = [];
  const tick = (left: number) => () => {
    seen.push(clock.now());
    if (left > 0) clock.setTimeout(tick(left - 1), left % 3 === 0 ? 0 : 7);
  };
  clock.setTimeout(tick(30), 10);
  clock.advanceTo(1_000);
  assert.is(seen.length, 31);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1]);
});

test('cancelled timers never fire and leave pending; clearing twice or after firing is harmless', () => {
  const clock = virtualClock(0);
  const fired: number[] = [];
  const handles = Array.from({ length: 10 }, (_, i) => clock.setTimeout(() => fired.push(i), i * 10));
  for (const i of [1, 3, 5, 7, 9]) clock.clearTimeout(handles[i]);
  clock.clearTimeout(handles[3]);
  clock.clearTimeout('not a handle');
  assert.is(clock.pending, 5);
  clock.advanceTo(1_000);
  assert.equal(fired, [0, 2, 4, 6, 8]);
  clock.clearTimeout(handles[0]);
  assert.is(clock.pending, 0);
  assert.is(clock.next(), undefined);
});

test('mass cancellation compacts the heap and keeps order', () => {
  const clock = virtualClock(0);
  const fired: number[] = [];
  const handles = Array.from({ length: 10_000 }, (_, i) => clock.setTimeout(() => fired.push(i), 10_000 - i));
  for (let i = 0; i < handles.length; i++) if (i % 10 !== 0) clock.clearTimeout(handles[i]);
  assert.is(clock.pending, 1_000);
  clock.advanceTo(20_000);
  assert.is(fired.length, 1_000);
  assert.equal(fired.slice(0, 3), [9_990, 9_980, 9_970]);
});

test('a timer may not move time from inside itself', () => {
  const clock = virtualClock(0);
  let error: unknown;
  clock.setTimeout(() => {
    try {
      clock.advanceTo(100);
    } catch (e) {
      error = e;
    }
  }, 10);
  clock.advanceTo(50);
  assert.instance(error, Error);
  assert.is(clock.now(), 50);
});

test.run();
