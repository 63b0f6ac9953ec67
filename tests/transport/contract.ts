// The one contract both buses pass: the same tests run against the in-process bus and a real
// nats-server. Waits are latches with timeouts, never sleeps.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BusTimeoutError, Deferred, InvalidSubjectError, NoRespondersError, type Bus, type Message } from '../../transport/bus.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const text = (m: Message) => dec.decode(m.data);

/** Resolves once `count` messages arrived, or rejects after `ms`. */
function collector(count: number, ms = 2000) {
  const got: Message[] = [];
  let done!: () => void;
  const all = new Promise<void>((resolve, reject) => {
    done = resolve;
    setTimeout(() => reject(new Error(`expected ${count} messages, got ${got.length}`)), ms).unref();
  });
  return {
    got,
    handler: (m: Message) => {
      got.push(m);
      if (got.length === count) done();
    },
    all,
  };
}

export function busContract(name: string, open: () => Promise<{ bus: Bus; other: () => Promise<Bus>; close(): Promise<void> }>) {
  const t = suite<{ bus: Bus; other: () => Promise<Bus>; close(): Promise<void> }>(`${name} bus contract`);
  t.before.each(async (ctx) => {
    Object.assign(ctx, await open());
  });
  t.after.each(async (ctx) => ctx.close());

  t('a subscriber receives what is published on its subject, in publish order', async ({ bus }) => {
    const c = collector(3);
    bus.subscribe('pods.default', c.handler);
    await bus.flush();
    for (const n of ['1', '2', '3']) bus.publish('pods.default', enc.encode(n));
    await c.all;
    assert.equal(c.got.map(text), ['1', '2', '3']);
  });

  t('* matches exactly one token and > one or more', async ({ bus }) => {
    const star = collector(1);
    const rest = collector(2);
    bus.subscribe('w.*.pods', star.handler);
    bus.subscribe('w.>', rest.handler);
    const none: Message[] = [];
    bus.subscribe('w.*', (m) => none.push(m));
    await bus.flush();
    bus.publish('w.ns1.pods', enc.encode('a'));
    bus.publish('w.ns1.pods.extra', enc.encode('b'));
    await Promise.all([star.all, rest.all]);
    assert.equal(star.got.map(text), ['a']);
    assert.equal(rest.got.map(text), ['a', 'b']);
    assert.is(none.length, 0);
  });

  t('members of a queue group share messages, each message to exactly one member', async ({ bus }) => {
    const seen: string[] = [];
    const all = collector(20);
    for (const member of ['a', 'b']) bus.subscribe('jobs', (m) => { seen.push(member); all.handler(m); }, { queue: 'workers' });
    await bus.flush();
    for (let i = 0; i < 20; i++) bus.publish('jobs', enc.encode(String(i)));
    await all.all;
    assert.is(seen.length, 20);
    assert.equal(new Set(all.got.map(text)).size, 20);
  });

  t('a request gets the reply of a responder', async ({ bus, other }) => {
    const peer = await other();
    peer.subscribe('echo', (m) => peer.publish(m.reply!, enc.encode(`re:${text(m)}`)));
    await peer.flush();
    const reply = await bus.request('echo', enc.encode('hi'), 2000);
    assert.is(text(reply), 're:hi');
  });

  t('a request with no responder fails at once; a silent responder times out', async ({ bus }) => {
    try {
      await bus.request('nobody.home', enc.encode('x'), 2000);
      assert.unreachable('expected NoRespondersError');
    } catch (e) {
      assert.instance(e, NoRespondersError);
    }
    bus.subscribe('silent', () => {});
    await bus.flush();
    try {
      await bus.request('silent', enc.encode('x'), 50);
      assert.unreachable('expected BusTimeoutError');
    } catch (e) {
      assert.instance(e, BusTimeoutError);
    }
  });

  t('a Deferred body arrives as the bytes of its encoding, made once; a request may carry one too', async ({ bus, other }) => {
    let encodings = 0;
    const body = new Deferred('hello', (v) => (encodings++, enc.encode(v)));
    const c = collector(2);
    bus.subscribe('deferred', c.handler);
    bus.subscribe('deferred', c.handler);
    await bus.flush();
    bus.publish('deferred', body);
    await c.all;
    assert.equal(c.got.map(text), ['hello', 'hello']);
    assert.ok(c.got.every((m) => m.value === undefined || m.value === 'hello'), 'a value, when there is one, is the one published');
    assert.is(encodings, 1);
    const peer = await other();
    peer.subscribe('shout', (m) => peer.publish(m.reply!, new Deferred(text(m).toUpperCase(), (v) => enc.encode(v))));
    await peer.flush();
    assert.is(text(await bus.request('shout', new Deferred('hi', (v) => enc.encode(v)), 2000)), 'HI');
  });

  t('an unsubscribed handler receives nothing more', async ({ bus }) => {
    const got: string[] = [];
    const sub = bus.subscribe('x', (m) => got.push(text(m)));
    const marker = collector(2);
    bus.subscribe('x', marker.handler);
    await bus.flush();
    bus.publish('x', enc.encode('1'));
    await bus.flush();
    sub.unsubscribe();
    await bus.flush();
    bus.publish('x', enc.encode('2'));
    await marker.all;
    assert.equal(got, ['1']);
  });

  t('invalid subjects are refused with a message saying why', ({ bus }) => {
    assert.throws(() => bus.publish('a..b', enc.encode('x')), (e: Error) => e instanceof InvalidSubjectError);
    assert.throws(() => bus.publish('a.*', enc.encode('x')), (e: Error) => e instanceof InvalidSubjectError);
    assert.throws(() => bus.subscribe('a.>.b', () => {}), (e: Error) => e instanceof InvalidSubjectError);
  });

  t('a handler that throws does not stop delivery to the others', async ({ bus }) => {
    const c = collector(1);
    bus.subscribe('boom', () => { throw new Error('handler failure'); });
    bus.subscribe('boom', c.handler);
    await bus.flush();
    bus.publish('boom', enc.encode('x'));
    await c.all;
  });

  t('drain delivers what is in flight, then the bus is closed', async ({ bus }) => {
    const c = collector(5);
    bus.subscribe('d', c.handler);
    await bus.flush();
    for (let i = 0; i < 5; i++) bus.publish('d', enc.encode(String(i)));
    await bus.drain();
    await c.all;
    assert.throws(() => bus.publish('d', enc.encode('late')));
  });

  return t;
}
