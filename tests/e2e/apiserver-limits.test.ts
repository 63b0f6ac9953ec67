// `orchsim apiserver` over real HTTPS, at its limits and through its shutdown:
//   - load tests: with priority and fairness (the default), twenty times the limits get 429s with
//     Retry-After and quick answers, twice the limits lose nothing, and a burst queues in its
//     priority level; with the max-in-flight filter, hundreds of concurrent creates and lists
//     against --max-requests-inflight=4 and --max-mutating-requests-inflight=2 get 429s beyond
//     the limits, the server keeps serving, nothing is lost (every 201 is stored, no 429 is), and
//     retrying the refused ones (after their Retry-After) stores exactly what was sent;
//   - the graceful termination step by step, on the wall clock with a 1 s delay, with and without
//     --shutdown-send-retry-after.
// The in-memory store answers within one turn of the event loop, so over HTTPS requests would
// never overlap; the tests give it the latency a real backing store has (a few milliseconds, or a
// gate the test opens), which is what keeps requests in flight.
import { execFile } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Store } from '../../actors/apiserver/storage/store.ts';
import { startServer, type Running } from '../../sim/cli/serve.ts';
import { freePort } from '../helpers/real-time.ts';

const CM = '/api/v1/namespaces/default/configmaps';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface Apiserver {
  running: Running;
  port: number;
  /** The server's certificate, for clients in other processes. */
  caFile: string;
  agent: Agent;
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  stop(): Promise<void>;
}

/** `orchsim apiserver` with these flags, in this process, on a free loopback port. */
async function apiserver(flags: string[], maxSockets = 100): Promise<Apiserver> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-limits-'));
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'), '--seed', '3', ...flags],
    'apiserver', () => {}, () => {});
  const ca = readFileSync(join(dir, 'certs', 'apiserver.crt'), 'utf8');
  const agent = new Agent({ keepAlive: true, maxSockets, ca });
  const call = (method: string, path: string, body?: unknown) => new Promise<Reply>((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = httpsRequest({ host: '127.0.0.1', port, path, method, agent,
      headers: data === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(data);
  });
  return {
    running, port, agent, call, caFile: join(dir, 'certs', 'apiserver.crt'),
    async stop() {
      agent.destroy();
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every read and write of the store waits `delay()` first, as a backing store's round trip would. */
function slowStore(store: Store, delay: () => Promise<void>): void {
  for (const m of ['get', 'list', 'create', 'update', 'delete'] as const) {
    const original = (store[m] as (...a: unknown[]) => Promise<unknown>).bind(store);
    (store as unknown as Record<string, unknown>)[m] = async (...args: unknown[]) => {
      await delay();
      return original(...args);
    };
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } });

/** Waits (bounded) until `done()` holds, checking every 10 ms. */
async function until(what: string, done: () => boolean, timeoutMs = 5_000): Promise<void> {
  for (let waited = 0; !done(); waited += 10) {
    if (waited > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(10);
  }
}

function tooManyRequests(r: Reply): void {
  assert.is(r.status, 429);
  assert.is(r.headers['retry-after'], '1');
  const s = JSON.parse(r.body);
  assert.equal([s.kind, s.reason, s.message, s.code], ['Status', 'TooManyRequests', 'Too many requests, please try again later.', 429]);
}

const LOAD_CLIENT = join(import.meta.dirname, '../helpers/load-client.ts');

/**
 * `clients` clients in `processes` processes of their own (the load must not share the server's
 * event loop), each writing and reading in turn, `rounds` times, as fast as answers come.
 */
async function hammer(s: Apiserver, processes: number, clients: number, rounds: number, prefix: string) {
  const each = Math.ceil(clients / processes);
  const outputs = await Promise.all(Array.from({ length: processes }, (_, p) => new Promise<string>((resolve, reject) => {
    execFile('node', ['--import', './sim/cli/register.js', LOAD_CLIENT, String(s.port), s.caFile, String(each), String(rounds), `${prefix}${p}`],
      { maxBuffer: 64 << 20, timeout: 120_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
  })));
  return outputs.flatMap((o) => JSON.parse(o) as { name?: string; status: number; ms: number; retryAfter?: string }[]);
}

test('twenty times the limits, on the store as fast as it is: 429s with Retry-After, no 5xx, answers quick, every 201 stored and no 429', async () => {
  // Counted from each request's arrival, not from its handler: the in-memory store answers within
  // one turn of the event loop, so a limit counted from the handler never fills, and requests pile
  // up in the event loop unrefused.
  const s = await apiserver(['--max-requests-inflight=20', '--max-mutating-requests-inflight=10'], 600);
  try {
    const answers = await hammer(s, 4, 600, 3, 'load');
    assert.ok(answers.every((a) => a.status < 500), `no 5xx: ${[...new Set(answers.map((a) => a.status))]}`);
    const refused = answers.filter((a) => a.status === 429);
    assert.ok(refused.length > 0, 'beyond the limits, refused');
    // Priority and fairness answers Retry-After from how much its level has been refusing:
    // 1 s at first, doubling while refusals go on, at most 32 s.
    assert.ok(refused.every((a) => /^\d+$/.test(a.retryAfter ?? '') && Number(a.retryAfter) >= 1 && Number(a.retryAfter) <= 32),
      `each with Retry-After: ${[...new Set(refused.map((a) => a.retryAfter))]}`);
    const served = answers.filter((a) => a.status !== 429).map((a) => a.ms).sort((a, b) => a - b);
    const p99 = served[Math.ceil(0.99 * served.length) - 1]!;
    assert.ok(p99 < 10_000, `p99 of answered requests ${p99.toFixed(0)} ms, well under the 60 s request timeout`);
    const stored = new Set((JSON.parse((await s.call('GET', CM)).body).items as { metadata: { name: string } }[]).map((i) => i.metadata.name));
    const writes = answers.filter((a) => a.name !== undefined);
    assert.ok(writes.every((a) => (a.status === 201) === stored.has(a.name!)), 'every 201 in the store, and no 429');
    assert.ok(writes.every((a) => a.status === 201 || a.status === 429), `writes answered 201 or 429: ${[...new Set(writes.map((a) => a.status))]}`);
    const { watermark } = s.running.server.inflight;
    assert.ok(watermark.mutating <= 30 && watermark.readOnly <= 30, `never more than the pool (20 + 10) at once: ${JSON.stringify(watermark)}`);
  } finally {
    await s.stop();
  }
});

test('twice the limits: no 5xx and nothing lost', async () => {
  const s = await apiserver(['--max-requests-inflight=20', '--max-mutating-requests-inflight=10'], 60);
  try {
    const answers = await hammer(s, 2, 60, 5, 'twice');
    assert.ok(answers.every((a) => a.status < 500), `no 5xx: ${[...new Set(answers.map((a) => a.status))]}`);
    const stored = new Set((JSON.parse((await s.call('GET', CM)).body).items as { metadata: { name: string } }[]).map((i) => i.metadata.name));
    assert.ok(answers.filter((a) => a.name).every((a) => (a.status === 201) === stored.has(a.name!)), 'every 201 stored, nothing else');
  } finally {
    await s.stop();
  }
});

test('at --max-requests-inflight=4 and --max-mutating-requests-inflight=2, hundreds of concurrent requests: 429s beyond, nothing lost, retries complete', async () => {
  const s = await apiserver(['--max-requests-inflight=4', '--max-mutating-requests-inflight=2', '--enable-priority-and-fairness=false']);
  try {
    slowStore(s.running.server.store, () => sleep(2));
    const names = Array.from({ length: 300 }, (_, i) => `cm-${i}`);
    const creates = names.map((n) => s.call('POST', CM, configMap(n)));
    const lists = Array.from({ length: 100 }, () => s.call('GET', CM));
    const created = await Promise.all(creates);
    const listed = await Promise.all(lists);

    const stored = names.filter((_, i) => created[i].status === 201);
    const refused = names.filter((_, i) => created[i].status === 429);
    assert.is(stored.length + refused.length, names.length, `only 201 and 429: ${[...new Set(created.map((r) => r.status))]}`);
    assert.ok(refused.length > 0, 'creates beyond the mutating limit are refused');
    assert.ok(stored.length >= 2, 'and some get through');
    created.filter((r) => r.status === 429).forEach(tooManyRequests);
    assert.ok(listed.every((r) => r.status === 200 || r.status === 429), `only 200 and 429: ${[...new Set(listed.map((r) => r.status))]}`);
    const listRefused = listed.filter((r) => r.status === 429);
    assert.ok(listRefused.length > 0, 'lists beyond the read-only limit are refused');
    listRefused.forEach(tooManyRequests);
    const { watermark } = s.running.server.inflight;
    assert.ok(watermark.mutating <= 2 && watermark.readOnly <= 4, `never more than the limits at once: ${JSON.stringify(watermark)}`);

    // The server keeps serving, and every 201 (and no 429) is stored.
    const after = await s.call('GET', CM);
    assert.is(after.status, 200);
    assert.equal(JSON.parse(after.body).items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), [...stored].sort());

    // The refused ones again, by four workers that wait out Retry-After when refused, as client-go does.
    const queue = [...refused];
    let retried429 = 0;
    const worker = async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        for (let attempt = 0; ; attempt++) {
          const r = await s.call('POST', CM, configMap(name));
          if (r.status === 201) break;
          assert.is(r.status, 429, `${name}: ${r.body}`);
          assert.ok(attempt < 10, `${name} refused ten times`);
          retried429++;
          await sleep(Number(r.headers['retry-after']) * 1000);
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    const final = JSON.parse((await s.call('GET', CM)).body).items as { metadata: { name: string }; data: { k: string } }[];
    assert.is(final.length, names.length, 'the count at the end is what was sent');
    assert.equal(final.map((i) => i.metadata.name).sort(), [...names].sort());
    assert.ok(final.every((i) => i.data.k === i.metadata.name));

    const metrics = (await s.call('GET', '/metrics')).body;
    const terminated = metrics.split('\n').filter((l) => l.startsWith('apiserver_request_terminations_total{') && l.includes('code="429"'))
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
    assert.is(terminated, refused.length + listRefused.length + retried429, 'every 429 is counted as a termination');
  } finally {
    await s.stop();
  }
});

test('with priority and fairness (the default) the 20 + 10 seats are divided among priority levels: a burst queues in its level and is served, never beyond its seats', async () => {
  const s = await apiserver(['--max-requests-inflight=20', '--max-mutating-requests-inflight=10']);
  try {
    slowStore(s.running.server.store, () => sleep(2));
    const level = s.running.server.flowControl!.levels.get('global-default')!;
    // 30 × 20 / 245 shares, rounded up: 3 nominal seats, of which it starts with 2 (the levels
    // share the 33 nominal seats in proportion to what each may not lend, while nobody asks).
    assert.is(level.currentCL, 2);
    const replies = await Promise.all(Array.from({ length: 120 }, (_, i) => (i % 2 ? s.call('GET', CM) : s.call('POST', CM, configMap(`p-${i}`)))));
    assert.equal([...new Set(replies.map((r) => r.status))].sort(), [200, 201], 'queued, not refused: one flow has 6 queues of 50');
    const pl = JSON.parse((await s.call('GET', '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations/global-default')).body);
    assert.ok(replies.every((r) => r.headers['x-kubernetes-pf-prioritylevel-uid'] === pl.metadata.uid), 'each names its priority level');
    const { watermark } = s.running.server.inflight;
    assert.ok(watermark.mutating <= 2 && watermark.readOnly <= 2, `never more than the level's seats: ${JSON.stringify(watermark)}`);
    const stored = JSON.parse((await s.call('GET', CM)).body).items.length;
    assert.is(stored, 60);
  } finally {
    await s.stop();
  }
});

/** Holds creates of objects named `slow-*` until the test opens the gate. */
function gateSlowCreates(store: Store): { open(): void; waiting(): number } {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let waiting = 0;
  const create = store.create.bind(store);
  store.create = async (key, obj) => {
    if (obj.metadata.name?.startsWith('slow-')) {
      waiting++;
      await gate;
      waiting--;
    }
    return create(key, obj);
  };
  return { open, waiting: () => waiting };
}

/** A watch over HTTPS: resolves `ended` with how it ended. */
function openWatch(s: Apiserver): Promise<{ status: number; ended: Promise<'end' | 'aborted' | 'error'> }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port: s.port, path: `${CM}?watch=true`, agent: new Agent({ ca: s.agent.options.ca }) }, (res) => {
      res.resume();
      const ended = new Promise<'end' | 'aborted' | 'error'>((done) => {
        res.once('end', () => done('end'));
        res.once('aborted', () => done('aborted'));
        res.once('error', () => done('error'));
      });
      resolve({ status: res.statusCode ?? 0, ended });
    });
    req.on('error', reject);
    req.end();
  });
}

const refusedConnection = (port: number) => new Promise<boolean>((resolve) => {
  const socket = connect(port, '127.0.0.1');
  socket.once('connect', () => {
    socket.destroy();
    resolve(false);
  });
  socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
});

test('shutdown with --shutdown-send-retry-after: readyz fails at once, the delay serves, then 429 + Connection: close while in-flight requests finish, then the port closes', async () => {
  const s = await apiserver(['--shutdown-delay-duration=1s', '--shutdown-send-retry-after=true']);
  const lifecycle = s.running.server.lifecycle;
  try {
    const gate = gateSlowCreates(s.running.server.store);
    const watch = await openWatch(s);
    assert.is(watch.status, 200);
    const slow = s.call('POST', CM, configMap('slow-1'));
    await until('the slow create is in flight', () => gate.waiting() === 1);

    const stopped = s.running.stop(); // what SIGTERM and SIGINT do
    let done = false;
    void stopped.then(() => (done = true));
    // At once: not ready, but alive and serving.
    const readyz = await s.call('GET', '/readyz');
    assert.is(readyz.status, 500);
    assert.is(readyz.body, '[+]ping ok\n[+]log ok\n[+]etcd ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n');
    assert.is((await s.call('GET', '/healthz')).body, 'ok');
    assert.is((await s.call('GET', '/livez')).status, 200);
    assert.is((await s.call('POST', CM, configMap('during-delay'))).status, 201);
    assert.is((await s.call('GET', `${CM}/during-delay`)).status, 200);
    assert.is(lifecycle.phase, 'Draining/Delay');

    await until('the delay is over', () => lifecycle.phase === 'Draining/NotAccepting', 3_000);
    const refused = await s.call('GET', CM);
    assert.is(refused.status, 429);
    assert.is(refused.headers['retry-after'], '5');
    assert.is(refused.headers.connection, 'close');
    assert.is(JSON.parse(refused.body).message, 'The apiserver is shutting down, please try again later.');
    assert.is((await s.call('GET', '/healthz')).status, 200, 'probes are still answered');
    assert.is((await s.call('GET', '/readyz')).status, 500);
    assert.is(await refusedConnection(s.port), false, 'still listening while a request is in flight');
    assert.is(done, false);

    gate.open();
    assert.is((await slow).status, 201, 'the in-flight request completes');
    assert.is(await watch.ended, 'end', 'the watch is ended cleanly');
    await stopped;
    assert.is(lifecycle.phase, 'Stopped');
    assert.is(await refusedConnection(s.port), true, 'the port is closed');
  } finally {
    await s.stop();
  }
});

test('shutdown without --shutdown-send-retry-after: after the delay the listener closes while the in-flight request finishes', async () => {
  const s = await apiserver(['--shutdown-delay-duration=1s']);
  const lifecycle = s.running.server.lifecycle;
  try {
    const gate = gateSlowCreates(s.running.server.store);
    const slow = s.call('POST', CM, configMap('slow-2'));
    await until('the slow create is in flight', () => gate.waiting() === 1);
    const stopped = s.running.stop();
    assert.is((await s.call('GET', '/readyz')).status, 500);
    assert.is((await s.call('GET', CM)).status, 200, 'served during the delay');
    await until('the delay is over', () => lifecycle.phase === 'Draining/NotAccepting', 3_000);
    assert.is(await refusedConnection(s.port), true, 'new connections are refused');
    gate.open();
    const r = await slow;
    assert.is(r.status, 201, 'the in-flight request completes');
    assert.is(r.headers.connection, 'close');
    await stopped;
    assert.is(lifecycle.phase, 'Stopped');
  } finally {
    await s.stop();
  }
});

test.run();
