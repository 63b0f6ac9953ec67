// kubectl commands that watch, against a real orchsim API server over HTTPS: `get -w` prints a
// row per change as it happens, `get --chunk-size` pages, and `delete` of an object held by a
// finalizer waits on a watch for its DELETED event.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type KubectlProcess, type KubectlResult, type RecordedRequest, type TestServer } from '../helpers/api-server.ts';

interface Ctx {
  s: TestServer;
}

const watch = suite<Ctx>('kubectl-watch');

watch.before(async (ctx) => {
  ctx.s = await startTestServer();
});
watch.after(async (ctx) => {
  await ctx.s.stop();
});

/** How long a row may take to appear: generous, a latch returns as soon as it does. */
const WAIT_MS = 10_000;
const JSON_HEADERS = { 'content-type': 'application/json' };
const MERGE_HEADERS = { 'content-type': 'application/merge-patch+json' };

const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } });

async function api(s: TestServer, method: string, path: string, body?: unknown, headers = JSON_HEADERS): Promise<any> {
  const r = await s.request(method, path, { ...(body !== undefined ? { body: JSON.stringify(body) } : {}), headers });
  assert.ok(r.status >= 200 && r.status < 300, `${method} ${path} answered ${r.status}: ${r.body}`);
  return JSON.parse(r.body);
}

const params = (r: RecordedRequest) => new URL(r.url, 'https://x').searchParams;
const isWatchOf = (path: string) => (r: RecordedRequest) => r.method === 'GET' && r.url.startsWith(`${path}?`) && params(r).get('watch') === 'true';
const rowsAfter = (lines: string[], header: number) => lines.slice(header + 1).filter((l) => l.trim() !== '');

/** The process's result once it exits by itself; fails the test if it is still running after `ms`. */
async function exitWithin(p: KubectlProcess, ms: number, what: string): Promise<KubectlResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}; stderr: ${p.stderr}`)), ms); });
  try {
    return await Promise.race([p.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function stopped(p: KubectlProcess): Promise<string[]> {
  await p.kill();
  return p.lines;
}

watch('get pods -w --output-watch-events prints ADDED, MODIFIED and DELETED rows as the pod changes', async ({ s }) => {
  await api(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'watched' } });
  await api(s, 'POST', '/api/v1/namespaces/watched/pods', pod('before'));
  const k = s.spawnKubectl(['get', 'pods', '-n', 'watched', '-w', '--output-watch-events']);
  // The watch starts from the list's version: anything created after the list arrives as an event.
  const w = await s.waitForRequest(isWatchOf('/api/v1/namespaces/watched/pods'), WAIT_MS, 'watch request from kubectl');
  const list = s.requests.find((r) => r.url === '/api/v1/namespaces/watched/pods?limit=500');
  assert.ok(list, 'kubectl lists before it watches');
  assert.ok(list.headers.accept?.includes('as=Table'));
  assert.ok(w.headers.accept?.includes('as=Table'), 'the watch asks for Table rows');
  assert.ok(Number(params(w).get('resourceVersion')) > 0, 'the watch resumes from the list version');

  await api(s, 'POST', '/api/v1/namespaces/watched/pods', pod('w1'));
  await k.waitFor((l) => l.some((x) => /^ADDED\s+w1\s/.test(x)), WAIT_MS, 'ADDED row for w1');
  await api(s, 'PATCH', '/api/v1/namespaces/watched/pods/w1', { metadata: { labels: { tier: 'web' } } }, MERGE_HEADERS);
  await k.waitFor((l) => l.some((x) => /^MODIFIED\s+w1\s/.test(x)), WAIT_MS, 'MODIFIED row for w1');
  // A pod elsewhere is no business of this watch.
  await api(s, 'POST', '/api/v1/namespaces/default/pods', pod('elsewhere'));
  await api(s, 'DELETE', '/api/v1/namespaces/watched/pods/w1');
  await k.waitFor((l) => l.some((x) => /^DELETED\s+w1\s/.test(x)), WAIT_MS, 'DELETED row for w1');

  const lines = await stopped(k);
  assert.match(lines[0], /^EVENT\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
  const rows = rowsAfter(lines, 0).map((l) => l.split(/\s+/).slice(0, 5).join(' '));
  assert.equal(rows, [
    'ADDED before 0/1 Pending 0',
    'ADDED w1 0/1 Pending 0',
    'MODIFIED w1 0/1 Pending 0',
    'DELETED w1 0/1 Pending 0',
  ]);
  // kubectl is gone: its connection closed, and with it the watch's bus subscription.
  const until = Date.now() + WAIT_MS;
  while (s.server.hub.subjects.length > 0 && Date.now() < until) await new Promise((done) => setTimeout(done, 10));
  assert.equal(s.server.hub.subjects, []);
});

watch('get pods -w without --output-watch-events prints each change as a plain row under one header', async ({ s }) => {
  await api(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'plain' } });
  const k = s.spawnKubectl(['get', 'pods', '-n', 'plain', '-w']);
  await s.waitForRequest(isWatchOf('/api/v1/namespaces/plain/pods'), WAIT_MS, 'watch request from kubectl');
  await api(s, 'POST', '/api/v1/namespaces/plain/pods', pod('p1'));
  await api(s, 'POST', '/api/v1/namespaces/plain/pods', pod('p2'));
  await k.waitFor((l) => l.filter((x) => /^p[12]\s/.test(x)).length === 2, WAIT_MS, 'rows for p1 and p2');
  const lines = await stopped(k);
  // An empty namespace prints "No resources found" on stderr, then the header comes with the first row.
  assert.match(lines[0], /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
  assert.equal(rowsAfter(lines, 0).map((l) => l.split(/\s+/)[0]), ['p1', 'p2']);
});

watch('get pods -A -w prints the listed pods, then each change with its NAMESPACE column, from every namespace', async ({ s }) => {
  await api(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'team-x' } });
  const existing = (await api(s, 'GET', '/api/v1/pods')).items.map((p: any) => `ADDED ${p.metadata.namespace} ${p.metadata.name}`);
  const k = s.spawnKubectl(['get', 'pods', '-A', '-w', '--output-watch-events']);
  await s.waitForRequest(isWatchOf('/api/v1/pods'), WAIT_MS, 'cluster-wide watch request from kubectl');
  await api(s, 'POST', '/api/v1/namespaces/team-x/pods', pod('ax'));
  await api(s, 'POST', '/api/v1/namespaces/default/pods', pod('ad'));
  await api(s, 'DELETE', '/api/v1/namespaces/team-x/pods/ax');
  await k.waitFor((l) => l.some((x) => /^DELETED\s+team-x\s+ax\s/.test(x)), WAIT_MS, 'DELETED row for team-x/ax');
  const lines = await stopped(k);
  assert.match(lines[0], /^EVENT\s+NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
  assert.equal(rowsAfter(lines, 0).map((l) => l.split(/\s+/).slice(0, 3).join(' ')), [...existing, 'ADDED team-x ax', 'ADDED default ad', 'DELETED team-x ax']);
});

watch('get pod X -w starts at resourceVersion=0, prints the pod once (the synthetic ADDED is not repeated), then its changes only', async ({ s }) => {
  await api(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'single' } });
  await api(s, 'POST', '/api/v1/namespaces/single/pods', pod('solo'));
  await api(s, 'POST', '/api/v1/namespaces/single/pods', pod('other'));
  const k = s.spawnKubectl(['get', 'pod', 'solo', '-n', 'single', '-w', '--output-watch-events']);
  const w = await s.waitForRequest(isWatchOf('/api/v1/namespaces/single/pods'), WAIT_MS, 'watch request from kubectl');
  assert.is(params(w).get('fieldSelector'), 'metadata.name=solo');
  assert.is(params(w).get('resourceVersion'), '0');
  await k.waitFor((l) => l.length >= 2, WAIT_MS, 'the header and the row of the GET');

  await api(s, 'PATCH', '/api/v1/namespaces/single/pods/other', { metadata: { labels: { x: '1' } } }, MERGE_HEADERS);
  await api(s, 'PATCH', '/api/v1/namespaces/single/pods/solo', { metadata: { labels: { x: '1' } } }, MERGE_HEADERS);
  await k.waitFor((l) => l.some((x) => /^MODIFIED\s+solo\s/.test(x)), WAIT_MS, 'MODIFIED row for solo');
  await api(s, 'DELETE', '/api/v1/namespaces/single/pods/solo');
  await k.waitFor((l) => l.some((x) => /^DELETED\s+solo\s/.test(x)), WAIT_MS, 'DELETED row for solo');

  const lines = await stopped(k);
  assert.match(lines[0], /^EVENT\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
  // The first row is the GET's; had the synthetic ADDED of the rv=0 watch been printed, a second
  // solo row would come before MODIFIED. The other pod never shows.
  assert.equal(rowsAfter(lines, 0).map((l) => l.split(/\s+/).slice(0, 2).join(' ')), ['ADDED solo', 'MODIFIED solo', 'DELETED solo']);
});

watch('get pods --chunk-size=2 pages through every pod with continue tokens, each name once and in order', async ({ s }) => {
  await api(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'paged' } });
  const names = ['pa', 'pb', 'pc', 'pd', 'pe'];
  for (const n of names) await api(s, 'POST', '/api/v1/namespaces/paged/pods', pod(n));
  const from = s.requests.length;
  const r = await s.kubectl(['get', 'pods', '-n', 'paged', '--chunk-size=2']);
  assert.is(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0], /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
  assert.equal(lines.slice(1).map((l) => l.split(/\s+/)[0]), names);
  const pages = s.requests.slice(from).filter((q) => q.url.startsWith('/api/v1/namespaces/paged/pods?'));
  assert.equal(pages.map((q) => [params(q).get('limit'), params(q).has('continue'), params(q).get('resourceVersion')]), [
    ['2', false, null], ['2', true, null], ['2', true, null],
  ]);
  const o = await s.kubectl(['get', 'pods', '-n', 'paged', '--chunk-size=2', '-o', 'name']);
  assert.equal(o.stdout.trim().split('\n'), names.map((n) => `pod/${n}`));
});

watch('delete of a configmap held by a finalizer times out on its watch (exit 1), and a second delete finishes once the finalizer goes', async ({ s }) => {
  const path = '/api/v1/namespaces/default/configmaps';
  await api(s, 'POST', path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fin', finalizers: ['example.com/hold'] }, data: { a: '1' } });

  const from = s.requests.length;
  const timedOut = await s.kubectl(['delete', 'configmap', 'fin', '--timeout=3s']);
  assert.is(timedOut.code, 1);
  assert.match(timedOut.stdout, 'configmap "fin" deleted');
  assert.match(timedOut.stderr, 'error: timed out waiting for the condition on configmaps/fin');
  const waited = s.requests.slice(from).find(isWatchOf(path));
  assert.ok(waited, 'kubectl waits for the deletion on a watch');
  assert.is(params(waited).get('fieldSelector'), 'metadata.name=fin');
  assert.is(params(waited).get('allowWatchBookmarks'), 'true');
  const held = await api(s, 'GET', `${path}/fin`);
  assert.ok(held.metadata.deletionTimestamp, 'the object is still there, marked for deletion');

  const second = s.requests.length;
  const k = s.spawnKubectl(['delete', 'configmap', 'fin']);
  await s.waitForRequest((r) => s.requests.indexOf(r) >= second && isWatchOf(path)(r), WAIT_MS, 'the second delete\'s watch');
  await api(s, 'PATCH', `${path}/fin`, { metadata: { finalizers: null } }, MERGE_HEADERS);
  const done = await exitWithin(k, WAIT_MS, 'kubectl delete did not finish once the finalizer was removed');
  assert.is(done.code, 0, done.stderr);
  assert.match(done.stdout, 'configmap "fin" deleted');
  assert.is((await s.request('GET', `${path}/fin`)).status, 404);
});

watch.run();

const closing = suite<Ctx>('kubectl-watch, server-side close');

closing.before(async (ctx) => {
  // Watches without timeoutSeconds live between 1 and 2 s.
  ctx.s = await startTestServer({ minRequestTimeoutSeconds: 1 });
});
closing.after(async (ctx) => {
  await ctx.s.stop();
});

closing('get pods -w exits 0 without an error when the server ends the watch', async ({ s }) => {
  const k = s.spawnKubectl(['get', 'pods', '-w']);
  await s.waitForRequest(isWatchOf('/api/v1/namespaces/default/pods'), WAIT_MS, 'watch request from kubectl');
  const done = await exitWithin(k, WAIT_MS, 'kubectl get -w kept running past the watch lifetime');
  assert.is(done.code, 0, done.stderr);
  assert.not.match(done.stderr, /error/i);
});

closing.run();
