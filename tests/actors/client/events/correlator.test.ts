// The event correlator on a manual clock: identical events counted as patches, similar ones
// combined after ten within ten minutes, the spam filter's 25 at once and one per five minutes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { timestamp } from '../../../../actors/api/env.ts';
import { COMBINED_PREFIX, EventCorrelator, type Correlated, type CorrelatorOptions } from '../../../../actors/client/events/correlator.ts';
import type { CoreEvent, ObjectReference } from '../../../../actors/client/events/event.ts';
import { manualClock, type ManualClock } from '../../../helpers/manual-clock.ts';
import { seededRandom } from '../../../../sim/random.ts';

const POD: ObjectReference = { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u-1', apiVersion: 'v1' };

function world(options: Omit<CorrelatorOptions, 'clock' | 'random'> = {}) {
  const clock = manualClock();
  const correlator = new EventCorrelator({ ...options, clock, random: seededRandom(1) });
  let n = 0;
  /** A fresh event as a recorder makes it, now, with its own name. */
  const make = (reason: string, message: string, ref: ObjectReference = POD): CoreEvent => ({
    metadata: { name: `${ref.name}.${++n}`, namespace: 'default' }, involvedObject: ref, reason, message,
    source: { component: 'kubelet', host: 'node-1' }, firstTimestamp: timestamp(clock.now()), lastTimestamp: timestamp(clock.now()), count: 1,
    type: 'Normal', eventTime: null, reportingComponent: 'kubelet', reportingInstance: 'node-1',
  });
  /** Correlates and, when something is to be sent, answers as a server would (a resourceVersion added). */
  const send = (e: CoreEvent): Correlated | undefined => {
    const c = correlator.correlate(e);
    if (c) correlator.updateState({ ...c.event, metadata: { ...c.event.metadata, resourceVersion: String(++n) } });
    return c;
  };
  return { clock, correlator, make, send };
}

const later = (clock: ManualClock, ms: number) => (clock.advance(ms), timestamp(clock.now()));

test('an event seen before is not created again: it is sent as a patch of its count, lastTimestamp and message', () => {
  const w = world();
  const first = w.send(w.make('Pulled', 'Container image "nginx" already present on machine'))!;
  assert.is(first.patch, undefined, 'the first is created');
  assert.is(first.event.count, 1);
  const at = later(w.clock, 30_000);
  const second = w.send(w.make('Pulled', 'Container image "nginx" already present on machine'))!;
  assert.equal(second.patch, { count: 2, lastTimestamp: at, message: 'Container image "nginx" already present on machine' });
  assert.is(second.event.metadata.name, first.event.metadata.name, 'the patch goes to the first event');
  assert.is(second.event.firstTimestamp, first.event.firstTimestamp);
  const third = w.send(w.make('Pulled', 'Container image "nginx" already present on machine'))!;
  assert.is(third.patch!.count, 3);
});

test('ten similar events (same object and reason, other messages) within ten minutes: the tenth is combined, later ones count on it', () => {
  const w = world();
  const sent: Correlated[] = [];
  for (let i = 1; i <= 12; i++) {
    sent.push(w.send(w.make('SuccessfulCreate', `Created pod: web-${i}`))!);
    w.clock.advance(20_000);
  }
  for (const c of sent.slice(0, 9)) assert.not.ok(c.event.message.startsWith(COMBINED_PREFIX), 'the first nine go as they are');
  assert.is(sent[9]!.event.message, `${COMBINED_PREFIX}Created pod: web-10`);
  assert.is(sent[9]!.patch, undefined, 'the combined event is created');
  assert.is(sent[9]!.event.reportingComponent, '', 'combined events carry no reporter, as the real ones');
  assert.is(sent[10]!.event.metadata.name, sent[9]!.event.metadata.name, 'the next one patches the combined event');
  assert.equal(sent[10]!.patch, { count: 2, lastTimestamp: sent[10]!.event.lastTimestamp, message: `${COMBINED_PREFIX}Created pod: web-11` });
  assert.is(sent[11]!.patch!.count, 3);
});

test('similar events more than ten minutes apart start afresh and are never combined', () => {
  const w = world();
  for (let i = 1; i <= 15; i++) {
    const c = w.send(w.make('SuccessfulCreate', `Created pod: web-${i}`))!;
    assert.is(c.event.message, `Created pod: web-${i}`);
    w.clock.advance(600_001);
  }
});

test('the spam filter lets 25 events of one source about one object through at once, then one every five minutes', () => {
  const w = world();
  const outcomes = Array.from({ length: 30 }, (_, i) => w.send(w.make(`Reason${i}`, `message ${i}`)) !== undefined);
  assert.equal(outcomes, [...Array(25).fill(true), ...Array(5).fill(false)]);
  w.clock.advance(299_999);
  assert.is(w.send(w.make('Late', 'too soon')), undefined, 'the bucket refills one token in five minutes');
  w.clock.advance(1);
  assert.ok(w.send(w.make('Later', 'one more')), 'one token five minutes after the burst');
  assert.is(w.send(w.make('Latest', 'and no more')), undefined);
});

test('the spam filter keeps a bucket per object: another pod has its own 25', () => {
  const w = world();
  for (let i = 0; i < 25; i++) assert.ok(w.send(w.make(`R${i}`, `m${i}`)));
  assert.is(w.send(w.make('R', 'm')), undefined);
  assert.ok(w.send(w.make('R', 'm', { ...POD, name: 'web-2', uid: 'u-2' })));
});

test('a counted event that the spam filter drops still counts: the next one let through carries the whole count', () => {
  const w = world({ burst: 2 });
  w.send(w.make('BackOff', 'Back-off restarting'));
  w.send(w.make('BackOff', 'Back-off restarting'));
  assert.is(w.send(w.make('BackOff', 'Back-off restarting')), undefined, 'the third is over the burst');
  w.clock.advance(300_000);
  assert.is(w.send(w.make('BackOff', 'Back-off restarting'))!.patch!.count, 4);
});

test('the caches are bounded: an event pushed out of the least recently used entries is created afresh', () => {
  const w = world({ cacheSize: 2 });
  const a = () => w.make('A', 'a');
  w.send(a());
  assert.is(w.send(a())!.patch!.count, 2);
  w.send(w.make('B', 'b'));
  w.send(w.make('C', 'c'));
  assert.is(w.send(a())!.patch, undefined, 'forgotten: created again');
});

test.run();
