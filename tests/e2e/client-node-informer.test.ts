// The informer of @kubernetes/client-node 1.4, unmodified, against a real orchsim API server over
// HTTPS (the CA comes from the kubeconfig): its cache stays equal to the server's list through
// creates, updates and deletes, through watch streams the server ends, and through a resume
// from a compacted version (ERROR 410, then a relist).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type RecordedRequest, type TestServer } from '../helpers/api-server.ts';

/** Generous upper bounds; every wait returns as soon as its condition holds. */
const WAIT_MS = 10_000;

interface Recorded {
  informer: k8s.Informer<k8s.V1Pod> & k8s.ObjectCache<k8s.V1Pod>;
  /** Callbacks in order: `add a@12`, `update a@13`, `delete a@14`. */
  callbacks: string[];
  errors: unknown[];
  /** How many times the informer called its list function. */
  lists(): number;
}

interface Ctx {
  s: TestServer;
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  running: Recorded[];
}

const pod = (name: string, labels: Record<string, string> = {}): k8s.V1Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
});
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const at = (o: k8s.KubernetesObject) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`;
const params = (r: RecordedRequest) => new URL(r.url, 'https://x').searchParams;
const watchesOf = (s: TestServer, ns: string) =>
  s.requests.filter((r) => r.url.startsWith(`/api/v1/namespaces/${ns}/pods?`) && params(r).get('watch') === 'true');

async function setup(ctx: Ctx, options: Parameters<typeof startTestServer>[0]): Promise<void> {
  ctx.s = await startTestServer(options);
  ctx.kc = new k8s.KubeConfig();
  ctx.kc.loadFromFile(ctx.s.kubeconfig);
  ctx.core = ctx.kc.makeApiClient(k8s.CoreV1Api);
  ctx.running = [];
}

async function teardown(ctx: Ctx): Promise<void> {
  for (const r of ctx.running) await r.informer.stop();
  await ctx.s.stop();
}

/** Starts an informer of the pods of `ns` the way the client-node docs show, recording what it does. */
async function inform(ctx: Ctx, ns: string): Promise<Recorded> {
  let lists = 0;
  const informer = k8s.makeInformer(ctx.kc, `/api/v1/namespaces/${ns}/pods`, () => {
    lists++;
    return ctx.core.listNamespacedPod({ namespace: ns });
  });
  const r: Recorded = { informer, callbacks: [], errors: [], lists: () => lists };
  informer.on('add', (o) => r.callbacks.push(`add ${at(o)}`));
  informer.on('update', (o) => r.callbacks.push(`update ${at(o)}`));
  informer.on('delete', (o) => r.callbacks.push(`delete ${at(o)}`));
  informer.on('error', (e) => r.errors.push(e));
  ctx.running.push(r);
  await informer.start();
  return r;
}

/**
 * The server's pods of `ns` as `name@resourceVersion`, sorted: asked of the server in process, so
 * the request log holds only what the clients under test sent.
 */
async function serverState(ctx: Ctx, ns: string): Promise<string[]> {
  const r = await ctx.s.server.handle({ method: 'GET', url: `/api/v1/namespaces/${ns}/pods`, headers: {}, body: new Uint8Array() });
  assert.is(r.status, 200);
  return (JSON.parse(String(r.body)).items as k8s.V1Pod[]).map(at).sort();
}

const cacheState = (r: Recorded, ns: string) => r.informer.list(ns).map(at).sort();

/** Waits until the informer's cache equals the server's list; fails with both after WAIT_MS. */
async function converged(ctx: Ctx, r: Recorded, ns: string): Promise<string[]> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const want = await serverState(ctx, ns);
    const have = cacheState(r, ns);
    if (JSON.stringify(want) === JSON.stringify(have)) return have;
    if (Date.now() > until) assert.equal(have, want, 'the informer cache should converge to the server list');
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** Polls `cond` until it holds; fails with `what` after WAIT_MS. */
async function eventually(cond: () => boolean, what: string): Promise<void> {
  const until = Date.now() + WAIT_MS;
  while (!cond()) {
    if (Date.now() > until) assert.unreachable(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

// ---------------------------------------------------------------------------------------------
const steady = suite<Ctx>('client-node informer');
steady.before((ctx) => setup(ctx, {}));
steady.after((ctx) => teardown(ctx));

steady('the informer cache follows creates, updates and deletes, one callback per change, on one watch', async (ctx) => {
  const { core } = ctx;
  const ns = 'inf';
  await core.createNamespace({ body: { metadata: { name: ns } } });
  const a0 = await core.createNamespacedPod({ namespace: ns, body: pod('a') });
  const r = await inform(ctx, ns);
  assert.equal(await converged(ctx, r, ns), [at(a0)]);
  assert.is(r.lists(), 1);

  const b0 = await core.createNamespacedPod({ namespace: ns, body: pod('b') });
  const c0 = await core.createNamespacedPod({ namespace: ns, body: pod('c') });
  await converged(ctx, r, ns);
  const a1 = await core.patchNamespacedPod({ name: 'a', namespace: ns, body: { metadata: { labels: { tier: 'web' } } } }, mergePatch);
  assert.equal(await converged(ctx, r, ns), [at(a1), at(b0), at(c0)]);
  assert.equal(r.informer.get('a', ns)?.metadata?.labels, { tier: 'web' });
  await core.createNamespacedPod({ namespace: 'default', body: pod('elsewhere') });
  const cGone = await core.deleteNamespacedPod({ name: 'c', namespace: ns });
  const b1 = await core.replaceNamespacedPod({ name: 'b', namespace: ns, body: { ...b0, metadata: { ...b0.metadata, labels: { tier: 'db' } } } });
  assert.equal(await converged(ctx, r, ns), [at(a1), at(b1)]);

  assert.equal(r.callbacks, [
    `add ${at(a0)}`, `add ${at(b0)}`, `add ${at(c0)}`, `update ${at(a1)}`,
    `delete ${at(cGone)}`, `update ${at(b1)}`,
  ]);
  assert.is(r.lists(), 1);
  assert.is(watchesOf(ctx.s, ns).length, 1, 'one watch stream carried every change');
  assert.is(params(watchesOf(ctx.s, ns)[0]).get('resourceVersion'), a0.metadata?.resourceVersion, 'the watch starts from the list version');
  assert.equal(r.errors, []);
});

steady.run();

// ---------------------------------------------------------------------------------------------
// Watches without timeoutSeconds last 1 to 2 s, and history is kept: every resume is from a held version.
const closing = suite<Ctx>('client-node informer, watches the server ends');
closing.before((ctx) => setup(ctx, { minRequestTimeoutSeconds: 1, etcdCompactionIntervalMs: 0 }));
closing.after((ctx) => teardown(ctx));

closing('when the server ends a watch the informer resumes from its last version, without a relist and without a repeated callback', async (ctx) => {
  const { core, s } = ctx;
  const ns = 'resume';
  await core.createNamespace({ body: { metadata: { name: ns } } });
  const r = await inform(ctx, ns);
  const x0 = await core.createNamespacedPod({ namespace: ns, body: pod('x') });
  await converged(ctx, r, ns);
  await eventually(() => watchesOf(s, ns).length >= 2, 'the informer to watch again after the server ended its stream');
  assert.is(params(watchesOf(s, ns)[1]).get('resourceVersion'), x0.metadata?.resourceVersion);

  const x1 = await core.patchNamespacedPod({ name: 'x', namespace: ns, body: { metadata: { labels: { v: '1' } } } }, mergePatch);
  await converged(ctx, r, ns);
  const seen = watchesOf(s, ns).length;
  await eventually(() => watchesOf(s, ns).length > seen, 'another server-side close and resume');
  assert.is(params(watchesOf(s, ns)[seen]).get('resourceVersion'), x1.metadata?.resourceVersion);

  const xGone = await core.deleteNamespacedPod({ name: 'x', namespace: ns });
  assert.equal(await converged(ctx, r, ns), []);
  assert.equal(r.callbacks, [`add ${at(x0)}`, `update ${at(x1)}`, `delete ${at(xGone)}`]);
  assert.is(r.lists(), 1, 'a resume from a version still held needs no relist');
  assert.equal(r.errors, []);
});

closing('a raw client-node Watch that resumes from its last version after each server-side close sees every change once, in order', async (ctx) => {
  const { core, s } = ctx;
  const ns = 'raw';
  await core.createNamespace({ body: { metadata: { name: ns } } });
  const start = s.server.store.revision;
  const watch = new k8s.Watch(ctx.kc);
  const seen: string[] = [];
  let rv = String(start);
  let streams = 0;
  let stopped = false;
  let current: AbortController | undefined;
  const open = async (): Promise<void> => {
    streams++;
    current = await watch.watch(`/api/v1/namespaces/${ns}/configmaps`, { resourceVersion: rv, allowWatchBookmarks: true }, (type, obj) => {
      if (type === 'ERROR') return void seen.push(`ERROR ${obj.code}`);
      rv = obj.metadata.resourceVersion;
      if (type !== 'BOOKMARK') seen.push(`${type} ${obj.metadata.name}@${rv}`);
    }, () => { if (!stopped) void open(); });
  };
  await open();
  // About 2.5 s of writes, every ~25 ms: the server ends the stream at least once meanwhile.
  for (let i = 0; i < 100; i++) {
    const name = `cm-${i % 7}`;
    const exists = (await core.listNamespacedConfigMap({ namespace: ns, fieldSelector: `metadata.name=${name}` })).items.length > 0;
    if (!exists) await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name }, data: { i: String(i) } } });
    else if (i % 4 === 0) await core.deleteNamespacedConfigMap({ name, namespace: ns });
    else await core.patchNamespacedConfigMap({ name, namespace: ns, body: { data: { i: String(i) } } }, mergePatch);
    await new Promise((done) => setTimeout(done, 25));
  }
  const want = s.server.store.changesSince(start)
    .filter((c) => c.key.startsWith(`/registry/core/configmaps/${ns}/`))
    .map((c) => `${c.type} ${c.object.metadata.name}@${c.revision}`);
  await eventually(() => seen.length >= want.length, `${want.length} events`);
  stopped = true;
  current?.abort();
  assert.ok(streams >= 2, 'the server ended at least one stream');
  assert.equal(seen, want);
});

closing.run();

// ---------------------------------------------------------------------------------------------
// Watches without timeoutSeconds last 1 to 2 s; history is compacted every 200 ms, so a version
// is gone within 400 ms of being superseded.
const short = suite<Ctx>('client-node informer, short watches and fast compaction');
short.before((ctx) => setup(ctx, { minRequestTimeoutSeconds: 1, etcdCompactionIntervalMs: 200 }));
short.after((ctx) => teardown(ctx));

short('an informer that resumes from a compacted version gets ERROR 410, relists, and its cache takes the changes it missed', async (ctx) => {
  const { core, s } = ctx;
  const ns = 'expired';
  await core.createNamespace({ body: { metadata: { name: ns } } });
  const a0 = await core.createNamespacedPod({ namespace: ns, body: pod('a') });
  const b0 = await core.createNamespacedPod({ namespace: ns, body: pod('b') });
  const r = await inform(ctx, ns);
  await converged(ctx, r, ns);
  const held = Number((r.informer as k8s.ListWatch<k8s.V1Pod>).latestResourceVersion());

  // The informer's stream goes away; meanwhile pods change and the history it would resume from is compacted.
  await r.informer.stop();
  r.errors.length = 0; // stopping aborts the request, which the informer reports as an error
  r.callbacks.length = 0;
  await core.deleteNamespacedPod({ name: 'a', namespace: ns });
  const b1 = await core.patchNamespacedPod({ name: 'b', namespace: ns, body: { metadata: { labels: { v: '2' } } } }, mergePatch);
  const c0 = await core.createNamespacedPod({ namespace: ns, body: pod('c') });
  await eventually(() => s.server.store.compactedRevision > held, `compaction past revision ${held}`);

  const from = s.requests.length;
  await r.informer.start();
  assert.equal(await converged(ctx, r, ns), [at(b1), at(c0)].sort());
  assert.equal(r.callbacks, [`delete ${at(a0)}`, `update ${at(b1)}`, `add ${at(c0)}`]);
  assert.is(r.lists(), 2);
  // The resume from the held version, the relist after its ERROR 410, and the watch from the new list.
  await s.waitForRequest((q) => s.requests.indexOf(q) >= from && q.url.startsWith(`/api/v1/namespaces/${ns}/pods?`) && params(q).get('resourceVersion') === c0.metadata?.resourceVersion,
    WAIT_MS, 'the watch from the relist\'s version');
  const after = s.requests.slice(from).filter((q) => q.url.startsWith(`/api/v1/namespaces/${ns}/pods`)).slice(0, 3);
  assert.equal(after.map((q) => [params(q).get('watch'), params(q).get('resourceVersion')]), [
    ['true', String(held)], [null, null], ['true', c0.metadata?.resourceVersion],
  ]);
  assert.equal(r.errors, [], 'the 410 arrives as an ERROR event, which the informer handles without an error callback');
  assert.ok(b0.metadata?.resourceVersion !== b1.metadata?.resourceVersion);
});

short('through streams the server keeps ending while pods and unrelated objects change, the cache ends equal to the server, relisting when its version was compacted', async (ctx) => {
  const { core, s } = ctx;
  const ns = 'churn';
  await core.createNamespace({ body: { metadata: { name: ns } } });
  const r = await inform(ctx, ns);
  const expected: string[] = [];
  // Phase 1, about a second and a half: pods change every ~40 ms, across at least one server-side close.
  const names = ['p0', 'p1', 'p2', 'p3'];
  const live = new Set<string>();
  for (let i = 0; i < 36; i++) {
    const name = names[i % names.length];
    if (!live.has(name)) {
      const o = await core.createNamespacedPod({ namespace: ns, body: pod(name) });
      live.add(name);
      expected.push(`add ${at(o)}`);
    } else if (i % 3 === 0) {
      const o = await core.deleteNamespacedPod({ name, namespace: ns });
      live.delete(name);
      expected.push(`delete ${at(o)}`);
    } else {
      const o = await core.patchNamespacedPod({ name, namespace: ns, body: { metadata: { labels: { i: String(i) } } } }, mergePatch);
      expected.push(`update ${at(o)}`);
    }
    await new Promise((done) => setTimeout(done, 40));
  }
  await converged(ctx, r, ns);
  assert.is(r.lists(), 1);
  // Phase 2: only configmaps change, so the version the informer holds falls behind the
  // compaction; the next time the server ends its stream, the resume gets ERROR 410 and it relists.
  let n = 0;
  while (r.lists() < 2) {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: `churn-${n++}` }, data: { a: '1' } } });
    await new Promise((done) => setTimeout(done, 50));
    if (n > WAIT_MS / 50) assert.unreachable('the informer never relisted');
  }
  await converged(ctx, r, ns);
  // The first watch, at least one resume that met ERROR 410, and the watch after the relist.
  await eventually(() => watchesOf(s, ns).length >= 3, 'the informer to watch again after its relist');
  // Resumes repeated nothing and missed nothing; the relist found the cache already right.
  assert.equal(r.callbacks, expected);
  assert.equal(r.errors, []);
});

short.run();
