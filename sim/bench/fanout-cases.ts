// One fan-out case per path, for one number of watchers: the same captured events, batches and
// warm-up on each. in-process: MemoryBus, WatchHub and Watchers in this process. nats: the same
// over two NATS connections (the API server's publishing one, a watching process's one). raw-nats:
// the NATS client alone with one subscription per watcher, receiving the same bytes.
import { parseLabelSelector } from '../../actors/api/selectors.ts';
import { MemoryStore } from '../../actors/apiserver/storage/memory.ts';
import type { WatchEvent } from '../../actors/apiserver/watch/watcher.ts';
import { watchSubject } from '../../actors/apiserver/watch/subjects.ts';
import type { Bus } from '../../transport/bus.ts';
import { MemoryBus } from '../../transport/memory-bus.ts';
import { NatsBus } from '../../transport/nats-bus.ts';
import { wallClock } from '../clock.ts';
import { NAMESPACE, type CapturedEvents } from './events.ts';
import { DeliveryLatch, drive } from './flow.ts';
import { DeliveryClock } from './latency.ts';
import type { FanoutCase, FanoutPath } from './fanout-report.ts';
import { rawSubscribers } from './raw-nats.ts';
import { startWatchers } from './watchers.ts';
import { PODS } from '../../actors/api/model/core.ts';

export interface CaseInput {
  watchers: number;
  events: CapturedEvents;
  warmEvents: number;
  timedEvents: number;
  batch: number;
}

/** Every watcher selects on a label all bench pods carry: each runs its filter, none is skipped. */
const LABEL_SELECTOR = 'app=bench-web';

async function timed(path: FanoutPath, input: CaseInput, clock: DeliveryClock, latch: DeliveryLatch, publish: (i: number) => void): Promise<FanoutCase> {
  const { watchers, warmEvents, timedEvents, batch } = input;
  const { wallMs } = await drive({
    warmEvents, events: timedEvents, batch, perEvent: watchers, sentAt: clock.sentAt, latch, publish,
    describe: () => `${path} with ${watchers} watchers`,
  });
  const deliveries = watchers * timedEvents;
  const [p50Ms, p99Ms] = clock.samples.percentiles(0.5, 0.99);
  return {
    path, watchers, events: timedEvents, batch, deliveries, wallMs,
    deliveriesPerSec: (deliveries * 1000) / wallMs, eventsPerSec: (timedEvents * 1000) / wallMs, p50Ms, p99Ms,
  };
}

async function orchsimCase(path: FanoutPath, input: CaseInput, pub: Bus, sub: Bus, latch: DeliveryLatch): Promise<FanoutCase> {
  const clock = new DeliveryClock(input.watchers, input.warmEvents, input.timedEvents, latch);
  const filter = parseLabelSelector(LABEL_SELECTOR)!;
  const subject = watchSubject(PODS, { namespace: NAMESPACE });
  const onEvent = (i: number, e: WatchEvent) => {
    const k = clock.deliver(i);
    // The sampled watchers check that they time the event they think they do.
    const revision = (e.object.metadata as { resourceVersion?: string }).resourceVersion;
    if (k >= 0 && revision !== String(first + k)) latch.fail(new Error(`watcher ${i} received revision ${revision} where it expected ${first + k}`));
  };
  const first = input.events.firstRevision;
  // Watchers start just before the first event, as if they had listed the store then.
  const started = await startWatchers(sub, new MemoryStore(first - 1), { count: input.watchers, scope: () => ({ subject, filter }), bookmarks: false, onEvent, latch });
  try {
    // In process the bus carries the event itself; over NATS, the bytes the Fanout encoded once.
    const { subjects } = input.events;
    const bodies = path === 'in-process' ? input.events.bodies : input.events.data;
    return await timed(path, input, clock, latch, (i) => pub.publish(subjects[i], bodies[i]));
  } finally {
    started.stop();
  }
}

export async function inProcessCase(input: CaseInput): Promise<FanoutCase> {
  const bus = new MemoryBus({ clock: wallClock() });
  try {
    return await orchsimCase('in-process', input, bus, bus, new DeliveryLatch());
  } finally {
    await bus.close();
  }
}

export async function natsCase(input: CaseInput, url: string): Promise<FanoutCase> {
  const latch = new DeliveryLatch();
  const onError = (e: unknown) => latch.fail(e instanceof Error ? e : new Error(String(e)));
  const pub = await NatsBus.connect({ servers: url, name: 'orchsim-bench-apiserver', onError });
  const sub = await NatsBus.connect({ servers: url, name: 'orchsim-bench-watchers', onError });
  try {
    return await orchsimCase('nats', input, pub, sub, latch);
  } finally {
    await sub.close();
    await pub.close();
  }
}

export async function rawNatsCase(input: CaseInput, url: string): Promise<FanoutCase> {
  const latch = new DeliveryLatch();
  const clock = new DeliveryClock(input.watchers, input.warmEvents, input.timedEvents, latch);
  const subject = watchSubject(PODS, { namespace: NAMESPACE });
  let received = 0;
  const raw = await rawSubscribers(url, input.watchers, subject, (i, data) => {
    received += data.length;
    clock.deliver(i);
  }, (e) => latch.fail(e));
  try {
    const { subjects, data } = input.events;
    return await timed('raw-nats', input, clock, latch, (i) => raw.publish(subjects[i], data[i]));
  } finally {
    await raw.close();
    if (received === 0) throw new Error('the raw NATS subscribers received no bytes');
  }
}
