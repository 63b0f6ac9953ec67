import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { assign, createActor, setup } from 'xstate';
import { Kernel, StepLimitError } from '../../sim/kernel.ts';
import { seededRandom } from '../../sim/random.ts';
import { virtualClock } from '../../sim/virtual-clock.ts';
import { MemoryBus } from '../../transport/memory-bus.ts';

const T0 = Date.UTC(2026, 0, 1);
const setupKernel = (maxSteps?: number) => {
  const clock = virtualClock(T0);
  return { clock, kernel: new Kernel(maxSteps === undefined ? { clock } : { clock, maxSteps }) };
};

test('promise continuations run between timers: an async function awaiting twice finishes before the next timer', async () => {
  const { clock, kernel } = setupKernel();
  const log: string[] = [];
  const work = async () => {
    log.push(`start@${clock.now() - T0}`);
    await Promise.resolve();
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    log.push(`done@${clock.now() - T0}`);
  };
  clock.setTimeout(() => void work(), 1_000);
  clock.setTimeout(() => log.push(`second@${clock.now() - T0}`), 2_000);
  const r = await kernel.run({ until: T0 + 10_000 });
  assert.equal(log, ['start@1000', 'done@1000', 'second@2000']);
  assert.equal(r, { steps: 2, virtualMs: T0 + 10_000, reason: 'until' });
});

test('deep chains, nextTick and timers set from continuations are all drained in order', async () => {
  const { clock, kernel } = setupKernel();
  const log: string[] = [];
  clock.setTimeout(async () => {
    for (let i = 0; i < 1_000; i++) await null;
    process.nextTick(() => log.push('tick'));
    await new Promise<void>((resolve) => setTimeout0(resolve));
    log.push(`deep@${clock.now() - T0}`);
  }, 10);
  // A continuation's zero-delay timer, due at 10, fires before this one, due at 11.
  const setTimeout0 = (fn: () => void) => clock.setTimeout(fn, 0);
  clock.setTimeout(() => log.push(`later@${clock.now() - T0}`), 11);
  await kernel.run({ until: T0 + 100 });
  assert.equal(log, ['tick', 'deep@10', 'later@11']);
});

test('work queued before the run is drained first; stopWhen ends the run between steps', async () => {
  const { clock, kernel } = setupKernel();
  let count = 0;
  const tick = () => {
    count++;
    clock.setTimeout(tick, 1_000);
  };
  clock.setTimeout(tick, 1_000);
  let early = false;
  void Promise.resolve().then(() => (early = true));
  const r = await kernel.run({ until: T0 + 3_600_000, stopWhen: () => count === 5 });
  assert.ok(early);
  assert.equal(r, { steps: 5, virtualMs: T0 + 5_000, reason: 'stopWhen' });
  const again = await kernel.run({ until: T0 + 7_500 });
  assert.equal(again, { steps: 2, virtualMs: T0 + 7_500, reason: 'until' });
  assert.is(count, 7);
  const none = await kernel.run({ until: T0 + 8_000, stopWhen: () => true });
  assert.equal(none, { steps: 0, virtualMs: T0 + 7_500, reason: 'stopWhen' });
});

test('a run stops with a StepLimitError naming the bound after maxSteps timers', async () => {
  const { clock, kernel } = setupKernel(100);
  const loop = () => clock.setTimeout(loop, 0); // never lets time move
  loop();
  try {
    await kernel.run({ until: T0 + 1 });
    assert.unreachable('should have thrown');
  } catch (e) {
    assert.instance(e, StepLimitError);
    assert.match((e as Error).message, /maxSteps \(100\)/);
    assert.is((e as StepLimitError).virtualMs, T0);
  }
  assert.throws(() => new Kernel({ clock, maxSteps: 0 }), RangeError);
});

test('a run cannot go backwards or forever', async () => {
  const { clock, kernel } = setupKernel();
  await kernel.run({ until: T0 + 1_000 });
  for (const until of [T0 + 999, Infinity, Number.NaN]) {
    try {
      await kernel.run({ until });
      assert.unreachable(`until ${until} should throw`);
    } catch (e) {
      assert.instance(e, RangeError);
    }
  }
  assert.is(clock.now(), T0 + 1_000);
});

/** A request/reply and fan-out exchange on the in-process bus with latency, as a trace. */
async function busScenario(): Promise<string[]> {
  const { clock, kernel } = setupKernel();
  const bus = new MemoryBus({ clock, latencyMs: 5 });
  const trace: string[] = [];
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const at = () => clock.now() - T0;
  for (const name of ['w1', 'w2']) bus.subscribe('pods.>', (m) => trace.push(`${at()} ${name} ${m.subject} ${dec.decode(m.data)}`));
  bus.subscribe('echo', (m) => bus.publish(m.reply!, enc.encode(`re:${dec.decode(m.data)}`)), { queue: 'q' });
  bus.subscribe('echo', (m) => bus.publish(m.reply!, enc.encode(`RE:${dec.decode(m.data)}`)), { queue: 'q' });
  for (let i = 0; i < 4; i++)
    clock.setTimeout(async () => {
      bus.publish(`pods.n${i % 2}`, enc.encode(`p${i}`));
      const reply = await bus.request('echo', enc.encode(`r${i}`), 1_000);
      trace.push(`${at()} reply ${dec.decode(reply.data)}`);
    }, i * 3);
  await kernel.run({ until: T0 + 100 });
  return trace;
}

test('the in-process bus with latency delivers at publish time plus latency, the same every run', async () => {
  const a = await busScenario();
  const b = await busScenario();
  assert.equal(a, b);
  assert.equal(a.slice(0, 6), ['5 w1 pods.n0 p0', '5 w2 pods.n0 p0', '8 w1 pods.n1 p1', '8 w2 pods.n1 p1', '10 reply re:r0', '11 w1 pods.n0 p2']);
  assert.is(a.filter((l) => l.includes('reply')).length, 4);
  assert.ok(a.includes('19 reply RE:r3'), a.join('\n'));
});

/** `actors` small machines, each with three delays drawn from the seeded stream, as a trace. */
async function randomScenario(seed: number, actors: number): Promise<string[]> {
  const { clock, kernel } = setupKernel();
  const random = seededRandom(seed).fork('x');
  const trace: string[] = [];
  const machine = setup({
    types: { input: {} as { delays: number[] }, context: {} as { delays: number[] } },
    delays: { d0: ({ context }) => context.delays[0], d1: ({ context }) => context.delays[1], d2: ({ context }) => context.delays[2] },
    actions: { mark: ({ self }, state: string) => trace.push(`${clock.now() - T0} ${self.id} ${state}`) },
  }).createMachine({
    context: ({ input }) => ({ delays: input.delays }),
    initial: 'a',
    states: {
      a: { after: { d0: 'b' } },
      b: { entry: { type: 'mark', params: 'b' }, after: { d1: 'c' } },
      c: { entry: [{ type: 'mark', params: 'c' }, assign({ delays: ({ context }) => context.delays })], after: { d2: 'd' } },
      d: { entry: { type: 'mark', params: 'd' }, type: 'final' },
    },
  });
  for (let i = 0; i < actors; i++) {
    const delays = [0, 1, 2].map(() => Math.floor(random.next() * 60_000));
    createActor(machine, { clock, id: `a${i}`, input: { delays } }).start();
  }
  const r = await kernel.run({ until: T0 + 600_000 });
  trace.push(`steps ${r.steps}`);
  return trace;
}

test('determinism: the same seed gives an identical trace over 1,000 actors; another seed differs', async () => {
  const a = await randomScenario(42, 1_000);
  const b = await randomScenario(42, 1_000);
  const c = await randomScenario(43, 1_000);
  assert.is(a.length, 3_001);
  assert.is(a.at(-1), 'steps 3000');
  assert.equal(a, b);
  assert.not.equal(a, c);
});

// 50,000 by default to stay well under 15 s beside other test files (100,000 took 13 s alone:
// xstate's actor creation and transitions dominate; the clock alone fires 300,000 timers in
// about 0.25 s); ORCHSIM_KERNEL_ACTORS=100000 for the full measurement, 10,000 in CI.
test('measurement: small actors with 3 chained timers each (printed, not asserted)', async () => {
  const actors = Number(process.env.ORCHSIM_KERNEL_ACTORS ?? (process.env.CI ? 10_000 : 50_000));
  const { clock, kernel } = setupKernel();
  let done = 0;
  const machine = setup({ actions: { finish: () => done++ } }).createMachine({
    initial: 'a',
    states: {
      a: { after: { 15_000: 'b' } },
      b: { after: { 60_000: 'c' } },
      c: { after: { 30_000: 'd' } },
      d: { entry: 'finish', type: 'final' },
    },
  });
  const started = performance.now();
  for (let i = 0; i < actors; i++) createActor(machine, { clock, id: `m${i}` }).start();
  const created = performance.now();
  const r = await kernel.run({ until: T0 + 3_600_000 });
  const ran = performance.now();
  assert.is(done, actors);
  assert.is(r.steps, actors * 3);
  const s = (ms: number) => (ms / 1000).toFixed(2);
  console.log(
    `  ${actors} actors, ${r.steps} timers: start ${s(created - started)} s, run ${s(ran - created)} s ` +
      `(${Math.round(r.steps / ((ran - created) / 1000))} timers/s through the kernel), total ${s(ran - started)} s`,
  );
});

test.run();
