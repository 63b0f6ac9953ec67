// Fair queuing in one priority level: shuffle-sharded queues, the queue whose head finishes first
// in virtual time served next, the queue length limit, and the levels that do not queue.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { QueueSet, type QueuingConfig, type RejectReason, type Seat } from '../../../../actors/apiserver/flowcontrol/queueset.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';

const QUEUING: QueuingConfig = { exempt: false, queues: 64, handSize: 8, queueLengthLimit: 50 };

/** A level on a manual clock that records who was served, in order, and what was refused. */
function level(config: QueuingConfig, limit: number) {
  const clock = manualClock();
  const served: string[] = [];
  const rejected: RejectReason[] = [];
  let demand = 0;
  const qs = new QueueSet(clock, config, limit, { rejected: (_fs, reason) => void rejected.push(reason), demand: (seats) => void (demand = seats) });
  /** The counts of the one flow schema, whose flows the users `who` tell apart. */
  const counts = { flowSchema: 'fs', waiting: 0, executing: 0 };
  const seats: Seat[] = [];
  return {
    clock, qs, served, rejected, seats, counts, demand: () => demand,
    /** A request of the flow `who`; answers whether it was refused at once. */
    send(who: string): RejectReason | Seat {
      const s = qs.start(counts, who, { leftQueue: (ok) => void (ok && served.push(who)) });
      if (typeof s === 'string') return s;
      seats.push(s);
      if (s.state === 'executing') served.push(who);
      return s;
    },
    /** The oldest executing request finishes after 3 ms of work. */
    finishOne(): void {
      const s = seats.find((x) => x.state === 'executing')!;
      clock.advance(3);
      qs.finish(s);
    },
    drain(): void {
      while (seats.some((x) => x.state === 'executing')) this.finishOne();
    },
  };
}

test('two flows, one heavy: the light one is served within its fair share, not behind the heavy backlog', () => {
  const l = level(QUEUING, 1);
  for (let i = 0; i < 40; i++) l.send('heavy');
  for (let i = 0; i < 10; i++) l.finishOne();
  for (let i = 0; i < 4; i++) l.send('light');
  l.drain();
  assert.is(l.served.length, 44);
  const firstLight = l.served.indexOf('light');
  const lastLight = l.served.lastIndexOf('light');
  // The heavy flow's 30 waiting requests sit in its 8 queues; the light flow's 4 in 4 others:
  // every queue gets its turn, so the light ones go within the next round, not after 30.
  assert.ok(firstLight >= 11 && lastLight < 11 + 8 + 4, `light served at ${firstLight}..${lastLight}: ${l.served.join(' ')}`);
  assert.equal(l.served.slice(lastLight + 1), Array(44 - lastLight - 1).fill('heavy'));
});

test('a flow only ever reaches the queues of its hand, the same ones every time', () => {
  const l = level({ exempt: false, queues: 16, handSize: 2, queueLengthLimit: 50 }, 1);
  for (let i = 0; i < 21; i++) l.send('one');
  const queues = new Set(l.seats.map((s) => s.queue!.index));
  assert.is(queues.size, 2, 'one flow spreads over its hand of two');
  // Shortest queue first: the 20 waiting are split evenly.
  assert.equal([...queues].map((q) => l.seats.filter((s) => s.state === 'waiting' && s.queue!.index === q).length).sort(), [10, 10]);
});

test('beyond the queue length limit while every seat is taken: refused as queue-full', () => {
  const l = level({ exempt: false, queues: 1, handSize: 1, queueLengthLimit: 2 }, 1);
  assert.is((l.send('a') as Seat).state, 'executing');
  assert.is((l.send('a') as Seat).state, 'waiting');
  assert.is((l.send('b') as Seat).state, 'waiting');
  assert.is(l.send('c'), 'queue-full');
  assert.equal(l.rejected, ['queue-full']);
  assert.is(l.demand(), 3, 'seat demand: one executing, two waiting');
  assert.equal([l.counts.executing, l.counts.waiting], [1, 2]);
  l.finishOne();
  assert.is((l.send('c') as Seat).state, 'waiting', 'room again once one was served');
  l.drain();
  assert.equal(l.served, ['a', 'a', 'b', 'c']);
});

test('a request that leaves its queue before it is served is refused, and the others move up', () => {
  const l = level({ exempt: false, queues: 1, handSize: 1, queueLengthLimit: 10 }, 1);
  l.send('a');
  const waiting = l.send('b') as Seat;
  l.send('c');
  l.qs.finish(waiting, 'time-out');
  assert.equal(l.rejected, ['time-out']);
  assert.is(l.qs.waiting, 1);
  l.drain();
  assert.equal(l.served, ['a', 'c']);
});

test('a Reject level serves up to its limit and refuses at once beyond it (concurrency-limit)', () => {
  const l = level({ exempt: false, queues: 0, handSize: 0, queueLengthLimit: 0 }, 2);
  l.send('a');
  l.send('b');
  assert.is(l.send('c'), 'concurrency-limit');
  l.finishOne();
  assert.is((l.send('c') as Seat).state, 'executing');
});

test('a level whose limit is 0 still serves one request at a time when it is a Reject level, and none when it queues', () => {
  const reject = level({ exempt: false, queues: 0, handSize: 0, queueLengthLimit: 0 }, 0);
  assert.is((reject.send('a') as Seat).state, 'executing');
  assert.is(reject.send('b'), 'concurrency-limit');
  const jail = level({ exempt: false, queues: 1, handSize: 1, queueLengthLimit: 5 }, 0);
  assert.is((jail.send('a') as Seat).state, 'waiting', 'held until the level gets a seat');
  jail.qs.configure({ exempt: false, queues: 1, handSize: 1, queueLengthLimit: 5 }, 1);
  assert.equal(jail.served, ['a'], 'served once the level may run one');
});

test('the exempt level never queues and never refuses', () => {
  const l = level({ exempt: true, queues: 0, handSize: 0, queueLengthLimit: 0 }, 0);
  for (let i = 0; i < 1000; i++) assert.is((l.send('root') as Seat).state, 'executing');
  assert.is(l.qs.executing, 1000);
});

test.run();
