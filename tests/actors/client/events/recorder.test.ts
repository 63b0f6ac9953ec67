// The core v1 recorder: events written behind the caller's back through its client, named after
// their object and time, counted as patches, tried again while nobody answers (12 tries, 10 s apart
// on the client's clock, the first after a random share of it), dropped when refused, bounded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../../actors/api/resources.ts';
import { StatusError } from '../../../../actors/api/status.ts';
import { ApiClient } from '../../../../actors/client/client.ts';
import { CoreEventRecorder, EVENTS, type CoreEvent, type ObjectReference } from '../../../../actors/client/events/index.ts';
import { seededRandom } from '../../../../sim/random.ts';
import { MemoryBus } from '../../../../transport/memory-bus.ts';
import { virtualWorld } from '../../../helpers/virtual-world.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';

const POD: ObjectReference = { kind: 'Pod', namespace: 'shop', name: 'web-1', uid: 'u-1', apiVersion: 'v1', resourceVersion: '7' };
const NODE: ObjectReference = { kind: 'Node', name: 'n1', uid: 'n1' };
const NAMESPACES = lookupResource('', 'v1', 'namespaces')!;

async function world() {
  const w = await virtualWorld();
  await w.client.create(NAMESPACES, { metadata: { name: 'shop' } });
  const recorder = new CoreEventRecorder({ client: new ApiClient(w.bus, 'kubelet'), clock: w.clock, random: seededRandom(2), source: { component: 'kubelet', host: 'n1' } });
  const stored = async () => (await w.client.list(EVENTS, undefined)).items as CoreEvent[];
  return { ...w, recorder, stored };
}

/** A client whose every request fails with `error`, counting them. */
function failing(error: () => Error) {
  const clock = manualClock();
  const tries: number[] = [];
  const client = new (class extends ApiClient {
    override async request(): Promise<unknown> {
      tries.push(clock.now());
      throw error();
    }
  })(new MemoryBus({ clock }), 'kubelet');
  const recorder = new CoreEventRecorder({ client, clock, random: seededRandom(2), source: { component: 'kubelet', host: 'n1' } });
  const settle = async () => { for (let i = 0; i < 20; i++) await Promise.resolve(); };
  return { clock, tries, recorder, settle };
}

test('an event is written behind the caller, in its object\'s namespace (default for a node), named after the object and the time', async () => {
  const w = await world();
  const nanos = BigInt(w.clock.now()) * 1_000_000n;
  w.recorder.event(POD, 'Normal', 'Pulled', 'Container image "nginx" already present on machine');
  w.recorder.event(NODE, 'Normal', 'Starting', 'Starting kubelet.');
  assert.equal(await w.stored(), [], 'nothing written yet when event() returns');
  await w.run(1);
  const [pod, node] = (await w.stored()).sort((a, b) => a.reason.localeCompare(b.reason));
  assert.equal([pod!.metadata.namespace, node!.metadata.namespace], ['shop', 'default']);
  const hex = pod!.metadata.name.slice('web-1.'.length);
  assert.match(hex, /^[0-9a-f]{16}$/);
  assert.ok(BigInt(`0x${hex}`) - nanos >= 0n && BigInt(`0x${hex}`) - nanos < 1_000_000n, 'the time in nanoseconds, below the millisecond drawn');
  assert.equal({ ...pod, metadata: undefined, eventTime: pod!.eventTime ?? null }, {
    metadata: undefined, involvedObject: POD, reason: 'Pulled', message: 'Container image "nginx" already present on machine',
    source: { component: 'kubelet', host: 'n1' }, firstTimestamp: pod!.firstTimestamp, lastTimestamp: pod!.firstTimestamp, count: 1, type: 'Normal',
    eventTime: null, reportingComponent: 'kubelet', reportingInstance: 'n1',
  });
  w.stop();
});

test('the same event again is a patch of the first: its count and last timestamp on the server', async () => {
  const w = await world();
  w.recorder.event(POD, 'Warning', 'BackOff', 'Back-off restarting failed container');
  await w.run(5_000);
  w.recorder.event(POD, 'Warning', 'BackOff', 'Back-off restarting failed container');
  await w.run(1);
  const [e, ...more] = await w.stored();
  assert.equal(more, []);
  assert.is(e!.count, 2);
  assert.ok(e!.lastTimestamp! > e!.firstTimestamp!);
  w.stop();
});

test('an event at a fractional virtual millisecond is named after the whole millisecond', async () => {
  const w = await world();
  w.clock.setTimeout(() => w.recorder.event(POD, 'Normal', 'Killing', 'Stopping container app'), 0.25);
  await w.run(10);
  assert.match((await w.stored())[0]!.metadata.name, /^web-1\.[0-9a-f]{16}$/);
  w.stop();
});

test('nobody answering: tried again after a random share of 10 s, then every 10 s, 12 tries in all, then dropped', async () => {
  const f = failing(() => new Error('no responders'));
  const t0 = f.clock.now();
  f.recorder.event(POD, 'Normal', 'Pulled', 'present');
  await f.settle();
  for (let i = 0; i < 150; i++) {
    f.clock.advance(1_000);
    await f.settle();
  }
  assert.is(f.tries.length, 12);
  const gaps = f.tries.slice(2).map((t, i) => t - f.tries[i + 1]!);
  assert.ok(f.tries[1]! - t0 < 10_000, 'the first wait is a random share of 10 s');
  assert.ok(gaps.every((g) => g === 10_000), `then 10 s apart: ${gaps}`);
});

test('a refused event is dropped at once, and the events behind it go on', async () => {
  const f = failing(() => new StatusError(422, 'Invalid', 'Event "x" is invalid'));
  f.recorder.event(POD, 'Normal', 'A', 'a');
  f.recorder.event(POD, 'Normal', 'B', 'b');
  await f.settle();
  f.clock.advance(60_000);
  await f.settle();
  assert.is(f.tries.length, 2);
});

test('at most 1,000 events wait; stopping drops them and every retry', async () => {
  const f = failing(() => new Error('no responders'));
  for (let i = 0; i < 1_200; i++) f.recorder.event(POD, 'Normal', `R${i}`, `m${i}`);
  await f.settle();
  f.recorder.stop();
  f.clock.advance(3_600_000);
  await f.settle();
  assert.is(f.tries.length, 1, 'the first try, then nothing once stopped');
  assert.is(f.clock.pending(), 0, 'no retry left waiting');
});

test.run();
