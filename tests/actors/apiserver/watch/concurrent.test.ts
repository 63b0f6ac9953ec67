// 100 watchers, each started from the next resourceVersion while a writer changes configmaps
// every ~2 ms (real time, bounded: 300 writes), through server.handle() streams: once the
// writes stop and every watcher has caught up, each has received exactly the store's changes
// after its start version, in order, none missed and none twice. Once over the in-process bus,
// once with the API server's bus on a real nats-server.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiServerOptions } from '../../../../actors/apiserver/options.ts';
import { ApiServer } from '../../../../actors/apiserver/server.ts';
import { seededRandom } from '../../../../sim/random.ts';
import type { Bus } from '../../../../transport/bus.ts';
import { NatsBus } from '../../../../transport/nats-bus.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';
import { startNatsServer } from '../../../helpers/nats-server.ts';

const WATCHERS = 100;
const WRITES = 300;
const WRITE_EVERY_MS = 2;
const CATCH_UP_MS = 10_000;
const CM = '/api/v1/namespaces/default/configmaps';
const WATCHED = '/registry/core/configmaps/default/';

interface Watch {
  start: number;
  /** `TYPE name resourceVersion`, as received. */
  events: string[];
  last: number;
  ended: boolean;
  close(): void;
}

async function call(server: ApiServer, method: string, url: string, body?: unknown, contentType = 'application/json'): Promise<any> {
  const r = await server.handle({ method, url, headers: body === undefined ? {} : { 'content-type': contentType },
    body: body === undefined ? new Uint8Array() : Buffer.from(JSON.stringify(body)) });
  assert.ok(r.status < 300, `${method} ${url}: ${r.status} ${String(r.body)}`);
  return JSON.parse(String(r.body));
}

/**
 * Opens a watch through `server.handle()`. A `slow` one tells the watcher its connection is full
 * every fifth event and drains a turn of the event loop later, as a busy socket does.
 */
async function openWatch(server: ApiServer, start: number, slow: boolean, onEvent: () => void): Promise<Watch> {
  const r = await server.handle({ method: 'GET', url: `${CM}?watch=true&resourceVersion=${start}`, headers: {}, body: new Uint8Array() });
  assert.is(r.status, 200, String(r.body));
  assert.ok(r.stream, 'a watch answers with a stream');
  const drains: (() => void)[] = [];
  const closes: (() => void)[] = [];
  const w: Watch = { start, events: [], last: start, ended: false, close: () => closes.forEach((f) => f()) };
  let partial = '';
  let written = 0;
  r.stream({
    write(chunk) {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop()!;
      for (const line of parts) {
        const e = JSON.parse(line);
        const rv = e.object.metadata?.resourceVersion ?? e.object.code;
        w.events.push(`${e.type} ${e.object.metadata?.name ?? e.object.reason} ${rv}`);
        if (e.type !== 'ERROR') w.last = Number(rv);
      }
      onEvent();
      if (slow && ++written % 5 === 0) {
        setImmediate(() => drains.forEach((f) => f()));
        return false;
      }
      return true;
    },
    onDrain: (fn) => drains.push(fn),
    onClose: (fn) => closes.push(fn),
    end() {
      w.ended = true;
      onEvent();
    },
  });
  return w;
}

async function run(bus?: Bus): Promise<void> {
  const server = new ApiServer(apiServerOptions({ etcdCompactionIntervalMs: 0 }), { clock: manualClock(), random: seededRandom(3), ...(bus ? { bus } : {}) });
  await server.start();
  try {
    await call(server, 'POST', '/api/v1/namespaces', { metadata: { name: 'other' } });
    const random = seededRandom('writer');
    const base = server.store.revision;
    const watches: Promise<Watch>[] = [];
    const opened: Watch[] = [];
    let wake = () => {};
    const onEvent = () => wake();
    // Watcher i starts from base + i, after a varying number of later writes, so each replays
    // some history (0 to 22 changes) while live events keep arriving.
    const startAfter = Array.from({ length: WATCHERS }, (_, i) => Math.min(WRITES - 1, i + ((i * 7) % 23)));
    const live = new Set<string>();
    let secretMade = false;
    for (let k = 0; k < WRITES; k++) {
      // Mostly configmaps of the watched namespace; some writes elsewhere the watchers must not see.
      if (k % 10 === 9) {
        await call(server, 'POST', '/api/v1/namespaces/other/configmaps', { metadata: { name: `o-${k}` }, data: { k: String(k) } });
      } else if (k % 10 === 8) {
        if (!secretMade) await call(server, 'POST', '/api/v1/namespaces/default/secrets', { metadata: { name: 's' }, stringData: { k: String(k) } });
        else await call(server, 'PATCH', '/api/v1/namespaces/default/secrets/s', { stringData: { k: String(k) } }, 'application/merge-patch+json');
        secretMade = true;
      } else {
        const name = `cm-${Math.floor(random.next() * 12)}`;
        if (!live.has(name)) {
          await call(server, 'POST', CM, { metadata: { name, labels: { k: String(k) } }, data: { k: String(k) } });
          live.add(name);
        } else if (random.next() < 0.25) {
          await call(server, 'DELETE', `${CM}/${name}`);
          live.delete(name);
        } else if (random.next() < 0.5) {
          await call(server, 'PATCH', `${CM}/${name}`, { data: { k: String(k) } }, 'application/merge-patch+json');
        } else {
          await call(server, 'PUT', `${CM}/${name}`, { metadata: { name }, data: { k: String(k), put: 'yes' } });
        }
      }
      for (let i = 0; i < WATCHERS; i++)
        if (startAfter[i] === k) watches.push(openWatch(server, base + i, i % 2 === 1, onEvent).then((w) => (opened.push(w), w)));
      await new Promise((done) => setTimeout(done, WRITE_EVERY_MS));
    }
    assert.is(server.store.revision, base + WRITES, 'every write committed exactly one revision');
    const all = await Promise.all(watches);
    assert.is(all.length, WATCHERS);

    const changes = server.store.changesSince(base).filter((c) => c.key.startsWith(WATCHED));
    const last = changes[changes.length - 1].revision;
    const caughtUp = () => all.every((w) => w.last >= last || w.ended);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((done) => { wake = () => { if (caughtUp()) done(); }; wake(); }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`watchers behind after ${CATCH_UP_MS} ms: ${all.filter((w) => w.last < last).map((w) => `from ${w.start} at ${w.last}`).join(', ')}`)), CATCH_UP_MS);
      }),
    ]).finally(() => clearTimeout(timer));

    for (const w of all) {
      const want = changes.filter((c) => c.revision > w.start).map((c) => `${c.type} ${c.object.metadata.name} ${c.revision}`);
      assert.ok(!w.ended, `the watch from ${w.start} ended: ${w.events.slice(-1)}`);
      assert.equal(w.events, want, `the watch from ${w.start}`);
    }
    // Every kind of change was exercised, and the watchers between them received them all.
    assert.ok(['ADDED', 'MODIFIED', 'DELETED'].every((t) => changes.some((c) => c.type === t)));
    assert.is(all.reduce((n, w) => n + w.events.length, 0), all.reduce((n, w) => n + changes.filter((c) => c.revision > w.start).length, 0));

    // Closing the connections lets go of the bus subscriptions they shared.
    for (const w of all) w.close();
    assert.equal(server.hub.subjects, []);
  } finally {
    server.stop();
  }
}

test('100 watchers from successive versions over the in-process bus each receive exactly the changes after their version, in order', async () => {
  await run();
});

test('100 watchers from successive versions with the bus on a real nats-server each receive exactly the changes after their version, in order', async () => {
  const nats = await startNatsServer();
  const bus = await NatsBus.connect({ servers: nats.url, name: 'concurrent-watch-test' });
  try {
    await run(bus);
  } finally {
    await bus.close();
    await nats.stop();
  }
});

test.run();
