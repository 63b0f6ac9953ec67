// The informer against a real API server over the in-process bus and over a real nats-server:
// its cache converges to the server's state through creates, updates, deletes, 410s and gaps.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import { StatusError } from '../../../actors/api/status.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { bareServerOptions } from '../../helpers/bare-server.ts';
import { ApiServer } from '../../../actors/apiserver/server.ts';
import { WatchHub } from '../../../actors/apiserver/watch/hub.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { Informer } from '../../../actors/client/informer.ts';
import type { Bus, Message } from '../../../transport/bus.ts';
import { MemoryBus } from '../../../transport/memory-bus.ts';
import { NatsBus } from '../../../transport/nats-bus.ts';
import { wallClock } from '../../../sim/clock.ts';
import { seededRandom } from '../../../sim/random.ts';
import { startNatsServer } from '../../helpers/nats-server.ts';

const CM = lookupResource('', 'v1', 'configmaps')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const REVISIONS = lookupResource('apps', 'v1', 'controllerrevisions')!;

interface World {
  server: ApiServer;
  /** A bus for the informer's side (another connection, or the same in-process bus). */
  clientBus: () => Promise<Bus>;
  close(): Promise<void>;
}

async function inProcess(): Promise<World> {
  const clock = wallClock();
  const bus = new MemoryBus({ clock });
  const server = new ApiServer(bareServerOptions({}), { clock, random: seededRandom(3), bus });
  await server.start();
  return { server, clientBus: async () => bus, close: async () => server.stop() };
}

async function overNats(): Promise<World> {
  const nats = await startNatsServer();
  const clock = wallClock();
  const serverBus = await NatsBus.connect({ servers: nats.url });
  const server = new ApiServer(bareServerOptions({}), { clock, random: seededRandom(3), bus: serverBus });
  await server.start();
  await serverBus.flush();
  const buses: Bus[] = [serverBus];
  return {
    server,
    clientBus: async () => { const b = await NatsBus.connect({ servers: nats.url }); buses.push(b); return b; },
    async close() {
      server.stop();
      for (const b of buses) await b.close();
      await nats.stop();
    },
  };
}

/** A bus that loses the next message published to a subject matching `pattern` when told to. */
function lossy(bus: Bus) {
  let dropNext: RegExp | undefined;
  const wrapped: Bus = {
    ...bus,
    publish: bus.publish.bind(bus),
    subscribe: (subject, handler, opts) => bus.subscribe(subject, (m: Message) => {
      if (dropNext && dropNext.test(m.subject)) {
        dropNext = undefined;
        return;
      }
      handler(m);
    }, opts),
    request: bus.request.bind(bus),
    flush: bus.flush.bind(bus),
    drain: bus.drain.bind(bus),
    close: bus.close.bind(bus),
  };
  return { bus: wrapped, dropNext: (re: RegExp) => { dropNext = re; } };
}

async function eventually(check: () => Promise<boolean> | boolean, what: string, ms = 5000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const names = (objs: KObject[]) => objs.map((o) => `${o.metadata.namespace}/${o.metadata.name}@${o.metadata.resourceVersion}`).sort();

async function serverState(server: ApiServer, prefix: string) {
  return names((await server.store.list(prefix)).items);
}

/** Configmaps of about 1.3 MB in all: more than NATS's default max_payload of 1 MB. */
const BIG = 1_100;
async function bigCollection(writer: ApiClient): Promise<void> {
  const data = { blob: 'x'.repeat(1_200) };
  for (let i = 0; i < BIG; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, BIG - i) }, (_, j) => writer.create(CM, { metadata: { name: `big-${String(i + j).padStart(4, '0')}`, namespace: 'default' }, data })));
  }
}

for (const [label, open] of [['in-process', inProcess], ['NATS', overNats]] as const) {
  const t = suite<{ w: World }>(`informer over ${label}`);
  t.before.each(async (ctx) => { ctx.w = await open(); });
  t.after.each(async (ctx) => ctx.w.close());

  t('the cache equals the server through creates, updates and deletes, with handlers called for each', async ({ w }) => {
    const client = new ApiClient(await w.clientBus(), 'test-writer');
    await client.create(CM, { metadata: { name: 'before', namespace: 'default' }, data: { a: '1' } });
    const bus = await w.clientBus();
    const seen: string[] = [];
    const informer = new Informer({ client: new ApiClient(bus, 'test-informer'), hub: new WatchHub(bus), clock: wallClock(), type: CM })
      .on({ add: (o) => seen.push(`add ${o.metadata.name}`), update: (_, o) => seen.push(`update ${o.metadata.name}`), delete: (o) => seen.push(`delete ${o.metadata.name}`) });
    await informer.start();
    for (let i = 0; i < 20; i++) await client.create(CM, { metadata: { name: `cm-${i}`, namespace: 'default' }, data: { i: String(i) } });
    for (let i = 0; i < 20; i += 2) await client.patch(CM, 'default', `cm-${i}`, { data: { i: 'changed' } });
    for (let i = 0; i < 20; i += 5) await client.delete(CM, 'default', `cm-${i}`);
    const prefix = '/registry/core/configmaps/';
    await eventually(async () => JSON.stringify(names(informer.cache.list())) === JSON.stringify(await serverState(w.server, prefix)), 'the cache to converge');
    assert.is(seen.filter((s) => s.startsWith('add')).length, 21);
    assert.is(seen.filter((s) => s.startsWith('delete')).length, 4);
    assert.is(informer.lists, 1);
    informer.stop();
  });

  t('a lost event is noticed by its chain and the informer relists', async ({ w }) => {
    const writer = new ApiClient(await w.clientBus(), 'test-writer');
    const { bus, dropNext } = lossy(await w.clientBus());
    const informer = new Informer({ client: new ApiClient(bus, 'test-informer'), hub: new WatchHub(bus), clock: wallClock(), type: CM, namespace: 'default' });
    await informer.start();
    dropNext(/^orch\.w\.core\.configmaps\./);
    await writer.create(CM, { metadata: { name: 'lost', namespace: 'default' } });
    await writer.create(CM, { metadata: { name: 'next', namespace: 'default' } });
    await eventually(() => informer.cache.get('default', 'lost') !== undefined && informer.cache.get('default', 'next') !== undefined, 'the relist to recover the lost object');
    assert.is(informer.lists, 2);
    informer.stop();
  });

  t('a 410 for the backlog after the list makes the informer list again', async ({ w }) => {
    const writer = new ApiClient(await w.clientBus(), 'test-writer');
    const bus = await w.clientBus();
    const client = new ApiClient(bus, 'test-informer');
    let first = true;
    const changes = client.changes.bind(client);
    client.changes = async (q) => {
      if (first) {
        first = false;
        await writer.create(CM, { metadata: { name: 'meanwhile', namespace: 'default' } });
        w.server.store.compact(w.server.store.revision);
      }
      return changes(q);
    };
    const informer = new Informer({ client, hub: new WatchHub(bus), clock: wallClock(), type: CM });
    await informer.start();
    assert.is(informer.lists, 2);
    assert.ok(informer.cache.get('default', 'meanwhile'));
    informer.stop();
  });

  t('a backlog after the list larger than a page, or than one bus message, comes in pages', async ({ w }) => {
    const writer = new ApiClient(await w.clientBus(), 'test-writer');
    const bus = await w.clientBus();
    const client = new ApiClient(bus, 'test-informer');
    const pages: number[] = [];
    const changes = client.changes.bind(client);
    client.changes = async (q) => {
      if (pages.length === 0) {
        // 600 objects of 3 KB written between the list and the backlog: 1.8 MB of events.
        const data = { blob: 'y'.repeat(3_000) };
        for (let i = 0; i < 600; i += 100)
          await Promise.all(Array.from({ length: 100 }, (_, j) => writer.create(CM, { metadata: { name: `late-${i + j}`, namespace: 'default' }, data })));
      }
      const page = await changes(q);
      pages.push('events' in page ? page.events.length : -1);
      return page;
    };
    const informer = new Informer({ client, hub: new WatchHub(bus), clock: wallClock(), type: CM });
    await informer.start();
    // In process a page holds 500 events. Over NATS one message carries 1 MB: the server halves a
    // page that would be larger, 500 events (1.7 MB) to 250, then the other 350 to 175.
    assert.equal(pages, label === 'NATS' ? [250, 175, 175] : [500, 100]);
    assert.is(informer.lists, 1, 'caught up without listing again');
    assert.is(informer.cache.size, 600);
    await writer.create(CM, { metadata: { name: 'after', namespace: 'default' } });
    await eventually(() => informer.cache.get('default', 'after') !== undefined, 'the watch to follow on from the last page');
    informer.stop();
  });

  if (label === 'NATS')
    t('a change too large alone for one message: the write succeeds, and the backlog answers a 500 that says so', async ({ w }) => {
      const client = new ApiClient(await w.clientBus(), 'test-informer');
      const after = w.server.store.revision;
      // Written in the server's process (the request would not fit one message either). Its watch
      // event does not fit either: dropped and reported, the write still succeeds. A revision's data
      // has no size limit of its own (a ConfigMap's stops at 1 MiB).
      const created = await w.server.registry.create(REVISIONS, 'default', { metadata: { name: 'huge', namespace: 'default' }, revision: 1,
        data: { blob: 'z'.repeat(1_500_000) } } as KObject, { dryRun: false, fieldManager: 'test' });
      assert.is(created.metadata.name, 'huge');
      assert.ok(await w.server.store.get(w.server.registry.key(REVISIONS, 'default', 'huge')), 'committed');
      const reply = await client.changes({ group: 'apps', version: 'v1', resource: 'controllerrevisions', namespace: 'default', after });
      assert.ok('status' in reply, 'an answer, not a timeout');
      assert.is(reply.status.code, 500);
      assert.match(reply.status.message ?? '', `a change after revision ${after} could not be sent on the bus`);
    });

  t('a node-scoped pod informer holds only the pods bound to its node', async ({ w }) => {
    const writer = new ApiClient(await w.clientBus(), 'test-writer');
    const bus = await w.clientBus();
    const informer = new Informer({ client: new ApiClient(bus, 'agent-n1'), hub: new WatchHub(bus), clock: wallClock(), type: PODS, fieldSelector: 'spec.nodeName=n1' });
    await informer.start();
    const pod = (name: string, nodeName?: string) => ({ metadata: { name, namespace: 'default' }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'i' }] } });
    await writer.create(PODS, pod('mine', 'n1'));
    await writer.create(PODS, pod('theirs', 'n2'));
    await writer.create(PODS, pod('later'));
    await writer.request('POST', '/api/v1/namespaces/default/pods/later/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'later' }, target: { kind: 'Node', name: 'n1' } });
    await eventually(() => informer.cache.size === 2, 'two pods on n1');
    assert.equal(informer.cache.onNode('n1').map((p) => p.metadata.name).sort(), ['later', 'mine']);
    assert.is(informer.lists, 1);
    informer.stop();
  });

  t('a collection larger than one bus message lists in pages of 500 from one snapshot', async ({ w }) => {
    const writer = new ApiClient(await w.clientBus(), 'test-writer');
    await bigCollection(writer);
    const bus = await w.clientBus();
    const client = new ApiClient(bus, 'test-informer');
    const pages: string[] = [];
    const list = client.list.bind(client);
    client.list = async (type, namespace, opts = {}) => {
      const page = await list(type, namespace, opts);
      pages.push(`limit=${opts.limit} continue=${opts.continue ? 'yes' : 'no'} rv=${page.metadata.resourceVersion} items=${page.items.length}`);
      // A write between pages is not in the list: every page comes from the first one's snapshot.
      if (pages.length === 1) await writer.create(CM, { metadata: { name: 'between-pages', namespace: 'default' } });
      return page;
    };
    const informer = new Informer({ client, hub: new WatchHub(bus), clock: wallClock(), type: CM });
    await informer.start();
    const rv = pages[0].match(/rv=(\d+)/)![1];
    assert.equal(pages, [`limit=500 continue=no rv=${rv} items=500`, `limit=500 continue=yes rv=${rv} items=500`, `limit=500 continue=yes rv=${rv} items=${BIG - 1000}`]);
    assert.is(informer.lists, 1);
    // The write between pages arrives after the list, from the watch.
    assert.is(informer.cache.size, BIG + 1);
    informer.stop();
  });

  if (label === 'NATS')
    t('an unpaged list too large for one message answers 500 saying to page, and the server lives on', async ({ w }) => {
      const writer = new ApiClient(await w.clientBus(), 'test-writer');
      await bigCollection(writer);
      const reader = new ApiClient(await w.clientBus(), 'test-reader', 5_000);
      const e = await reader.list(CM, 'default').then(() => undefined, (err: unknown) => err);
      assert.instance(e, StatusError);
      assert.is((e as StatusError).code, 500);
      assert.match((e as StatusError).message, /could not be sent on the bus: .*list with limit and continue to page it/);
      assert.is((await reader.list(CM, 'default', { limit: 10 })).items.length, 10);
    });

  t.run();
}
