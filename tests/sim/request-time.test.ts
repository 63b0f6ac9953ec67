// The request-time model on hand-made requests: each reaches the server a network delay after it
// is sent, waits for a free slot, is served for its draw (here exactly the mean: a stream that
// always draws 1 - 1/e), and its reply travels back; writes take the write mean; before `start`
// and for plain publishes nothing is delayed. And the scenario's `requestTime:` section.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Random } from '../../actors/api/env.ts';
import { REQUEST_SUBJECT } from '../../actors/apiserver/bus-endpoint.ts';
import { ServedBus } from '../../sim/request-time.ts';
import { parseScenario } from '../../sim/scenario/load.ts';
import { MemoryBus } from '../../transport/memory-bus.ts';
import { payload } from '../../transport/payload.ts';
import { manualClock } from '../helpers/manual-clock.ts';

const mean: Random = { next: () => 1 - Math.exp(-1), fork: () => mean };
const settle = () => new Promise<void>((r) => setImmediate(r));

function world(inflight: number) {
  const clock = manualClock(0);
  const bus = new MemoryBus({ clock });
  const served = new ServedBus(bus, clock, mean, { networkMs: 1, readMs: 2, writeMs: 5, inflight });
  const handled: string[] = [];
  served.subscribe(REQUEST_SUBJECT, (msg) => {
    const method = (msg.value as { method: string }).method;
    handled.push(`${method}@${clock.now()}`);
    served.publish(msg.reply!, payload({ ok: method }));
  });
  const answered: string[] = [];
  const send = (method: string) => void bus.request(REQUEST_SUBJECT, payload({ method }), 60_000).then(() => answered.push(`${method}@${clock.now()}`));
  const run = async (ms: number) => {
    await settle();
    for (let t = 0; t < ms; t++) {
      clock.advance(1);
      await settle();
    }
  };
  return { served, handled, answered, send, run };
}

test('network, a slot, the service time, the network back: one slot makes the second read wait', async () => {
  const w = world(1);
  w.served.start();
  w.send('GET');
  w.send('GET');
  w.send('PATCH');
  await w.run(20);
  assert.equal(w.handled, ['GET@3', 'GET@5', 'PATCH@10'], 'arrive at 1; served 1-3, 3-5, then the write 5-10');
  assert.equal(w.answered, ['GET@4', 'GET@6', 'PATCH@11']);
  assert.equal(w.served.times, { requests: 3, networkMs: 1, queueMs: [0, 2, 4], serviceMs: [2, 2, 5] });
});

test('enough slots: nobody waits; before start, requests are answered at once', async () => {
  const w = world(8);
  w.send('GET');
  await w.run(1);
  assert.equal(w.answered, ['GET@0'], 'not started: no time');
  w.served.start();
  w.send('GET');
  w.send('PUT');
  await w.run(20);
  assert.equal(w.answered, ['GET@0', 'GET@5', 'PUT@8']);
  assert.equal(w.served.times.queueMs, [0, 0]);
});

test('requestTime: defaults from a quiet cluster, every field checked', () => {
  const base = 'duration: 5m\nnodePools: [{ name: a, count: 2 }]\n';
  assert.equal(parseScenario(`${base}requestTime: {}\n`, { name: 's', dir: '.' }).requestTime, { networkMs: 1, readMs: 2, writeMs: 5, inflight: 600 });
  assert.equal(parseScenario(`${base}requestTime: { network: 0s, read: 1ms, write: 20ms, inflight: 4 }\n`, { name: 's', dir: '.' }).requestTime,
    { networkMs: 0, readMs: 1, writeMs: 20, inflight: 4 });
  assert.is(parseScenario(base, { name: 's', dir: '.' }).requestTime, undefined);
  const error = (text: string) => {
    try {
      parseScenario(`${base}${text}\n`, { name: 's', dir: '.' });
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };
  assert.is(error('requestTime: { read: 0s }'), 's.yaml: requestTime.read: must be whole milliseconds, greater than 0 and at most 10s, got "0s"');
  assert.is(error('requestTime: { network: 1500us }'), 's.yaml: requestTime.network: must be whole milliseconds, at least 0 and at most 10s, got "1500us"');
  assert.is(error('requestTime: { inflight: 0 }'), 's.yaml: requestTime.inflight: must be an integer from 1 to 100000, got 0');
  assert.match(error('requestTime: { latency: 1ms }'), /^s\.yaml: requestTime\.latency: unknown field/);
});

test.run();
