// `orchsim serve --ui` serves the inspector's JSON API on 127.0.0.1 with a token: counts per
// machine and state, pages of actors by filter, one actor with its context, delays and records,
// and a machine's definition; bad requests get a JSON error naming the problem.
import { mkdtempSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import { WebSocket } from 'ws';
import * as assert from 'uvu/assert';
import { startServer, type Running } from '../../sim/cli/serve.ts';
import { OptionError } from '../../actors/api/options/table.ts';
import { eventually, freePort, kubectl } from '../helpers/real-time.ts';

const dir = mkdtempSync(join(tmpdir(), 'orchsim-inspector-'));
let running: Running;
let api: string;
let token: string;

async function get(path: string, headers: Record<string, string> = { Authorization: `Bearer ${token}` }) {
  const r = await fetch(`${api}${path}`, { headers });
  return { status: r.status, type: r.headers.get('content-type'), cookie: r.headers.get('set-cookie'), body: await r.json() as any };
}

test.before(async () => {
  running = await startServer(['--secure-port', String(await freePort()), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', join(dir, 'kubeconfig'), '--seed', '7', '--nodes', '2', '--zones', 'east,west', '--ui'], 'serve', () => {});
  const url = new URL(running.inspector!.url);
  assert.is(url.hostname, '127.0.0.1');
  token = url.searchParams.get('token')!;
  api = `${url.origin}/inspect/api/`;
});

test.after(async () => {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('the summary counts every actor by machine and state, on the process clock', async () => {
  const summary = await eventually('both nodes Ready to their health machines', async () => {
    const s = (await get('summary')).body;
    return s.machines['node-health']?.['Ready.Heard'] === 2 ? s : undefined;
  });
  assert.equal(summary.machines.node, { 'Running.Normal': 2 });
  assert.equal(Object.keys(summary.machines.zone).length > 0, true);
  const total = Object.values(summary.machines as Record<string, Record<string, number>>).flatMap((s) => Object.values(s)).reduce((a, b) => a + b, 0);
  assert.is(summary.actors, total);
  assert.ok(summary.timeMs > 0);
});

test('no token, a wrong one, or another host name: refused with a JSON message', async () => {
  const none = await get('summary', {});
  assert.is(none.status, 401);
  assert.match(none.body.message, /token/);
  assert.is((await get('summary', { Authorization: 'Bearer not-it' })).status, 401);
  // A name that resolves here but is not this server's (DNS rebinding) is refused, token or not.
  const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpGet(`${api}summary`, { headers: { Authorization: `Bearer ${token}`, Host: 'attacker.example' } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
  });
  assert.is(rebound.status, 403);
  assert.match((JSON.parse(rebound.body) as { message: string }).message, /127\.0\.0\.1/);
  const post = await fetch(`${api}summary`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  assert.is(post.status, 405);
});

test('the printed address sets a cookie the browser then carries', async () => {
  const first = await get(`summary?token=${token}`, {});
  assert.is(first.status, 200);
  assert.match(first.cookie ?? '', /HttpOnly/);
  const cookie = first.cookie!.split(';')[0]!;
  assert.is((await get('summary', { Cookie: cookie })).status, 200);
});

test('actors page by machine, state, search and namespace, with a continue token', async () => {
  const health = await get('actors?machine=node-health');
  assert.equal(health.body.items.map((a: { id: string }) => a.id), ['node-health/node-0', 'node-health/node-1']);
  assert.is(health.body.continue, undefined);
  const first = await get('actors?machine=node-health&limit=1');
  assert.equal(first.body.items.map((a: { id: string }) => a.id), ['node-health/node-0']);
  const second = await get(`actors?machine=node-health&limit=1&continue=${first.body.continue}`);
  assert.equal(second.body.items.map((a: { id: string }) => a.id), ['node-health/node-1']);
  assert.is(second.body.continue, undefined);
  const found = await get('actors?q=NODE-1');
  assert.equal(found.body.items.map((a: { id: string }) => a.id).sort(), ['node-health/node-1', 'node/node-1']);
  const byState = await get('actors?machine=node&state=Running');
  assert.is(byState.body.items.length, 2, 'a state matches its substates');
  assert.is((await get('actors?machine=node&state=Starting')).body.items.length, 0);

  const kubeconfig = join(dir, 'kubeconfig');
  assert.is((await kubectl(kubeconfig, ['run', 'web', '--image=nginx:1.27', '--restart=Never'])).code, 0);
  const pods = await eventually('the pod as an actor', async () => {
    const items = (await get('actors?namespace=default&machine=pod')).body.items as { id: string; state: string }[];
    return items.length > 0 ? items : undefined;
  });
  assert.equal(pods.map((p) => p.id), ['pod/default/web']);
  const node = (pods[0] as { node?: string }).node!;
  assert.ok(['node-0', 'node-1'].includes(node), `the pod's node: ${node}`);
  const onNode = (await get(`actors?node=${node}`)).body.items.map((a: { id: string }) => a.id).sort();
  assert.equal(onNode, [`node-health/${node}`, `node/${node}`, 'pod/default/web'], 'a node\'s own machines and its pods');
  assert.is((await get('actors?namespace=kube-nothing')).body.items.length, 0);
});

test('one actor: its state, context, delays as they resolve for it, and its records', async () => {
  const a = await get('actors/node-health%2Fnode-1');
  assert.is(a.status, 200);
  assert.equal([a.body.id, a.body.machine], ['node-health/node-1', 'node-health']);
  assert.match(a.body.state, /^(Ready|NotReady|Unknown)\./);
  assert.is(a.body.context.monitorGraceMs, 40_000);
  assert.is(typeof a.body.delays.graceLeftMs, 'number');
  assert.is(a.body.records[0].kind, 'actor');
  assert.ok(a.body.records.every((r: { id: string }) => r.id === 'node-health/node-1'));
  const node = await get('actors/node%2Fnode-0');
  assert.is(node.body.context.random, '[service: next, fork]');
  assert.is(node.body.context.leaseRenewMs, 10_000);
});

test('a machine\'s definition: nested states, transitions by event, delays named', async () => {
  const m = (await get('machines/node-health')).body;
  assert.is(m.id, 'node-health');
  assert.equal(m.root.states.map((s: { key: string }) => s.key), ['Ready', 'NotReady', 'Unknown']);
  const ready = m.root.states.find((s: { key: string }) => s.key === 'Ready');
  assert.is(ready.initial, 'Ready.Heard');
  const heard = ready.states.find((s: { key: string }) => s.key === 'Heard');
  assert.equal(heard.transitions.map((t: { event: string; delay?: string; targets: string[] }) => [t.event, t.delay, t.targets]),
    [['after graceLeftMs', 'graceLeftMs', ['Ready.Looking']]]);
});

test('bad requests get a JSON error naming the problem', async () => {
  const cases: [string, number, RegExp][] = [
    ['actors/node%2Fnope', 404, /no actor "node\/nope"/],
    ['machines/kettle', 404, /no machine "kettle"; the machines are apiserver, /],
    ['actors?machine=kettle', 400, /no machine "kettle"/],
    ['actors?limit=0', 400, /limit must be a whole number from 1 to 1000/],
    ['actors?limit=ten', 400, /limit/],
    ['actors?continue=garbage', 400, /continue must be the token/],
    ['actors?colour=red', 400, /unknown parameter "colour"/],
    ['nowhere', 404, /the API is/],
    ['actors/node%E0%A4%A', 400, /not a well-formed percent-encoded name/],
  ];
  for (const [path, status, message] of cases) {
    const r = await get(path);
    assert.is(r.status, status, path);
    assert.is(r.type, 'application/json', path);
    assert.match(r.body.message, message, path);
  }
});

test('a simulated node\'s agent is stopped and started again with POST; wrong requests say why', async () => {
  const post = async (path: string, body: string, type = 'application/json') => {
    const r = await fetch(`${api}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': type }, body });
    return { status: r.status, body: await r.json() as any };
  };
  assert.equal((await get('nodes')).body, { nodes: [{ name: 'node-0', agent: 'running' }, { name: 'node-1', agent: 'running' }] });
  assert.equal(await post('nodes/node-0', '{"action":"start"}'), { status: 409, body: { message: "node node-0's agent is already running" } });
  assert.is((await post('nodes/node-0', 'action=stop', 'application/x-www-form-urlencoded')).status, 415, 'a form from a page elsewhere cannot drive it');
  assert.match((await post('nodes/node-0', '{"action":"pause"}')).body.message, /must be \{"action": "stop"\} or \{"action": "start"\}/);
  assert.match((await post('nodes/node-0', '{nope')).body.message, /not JSON/);
  assert.equal(await post('nodes/node-9', '{"action":"stop"}'), { status: 404, body: { message: 'no simulated node "node-9"; the nodes are node-0, node-1' } });
  assert.is((await get('nodes/node-0')).status, 405);

  assert.equal(await post('nodes/node-0', '{"action":"stop"}'), { status: 200, body: { name: 'node-0', agent: 'stopped' } });
  const stopped = await eventually('node-0\'s machine stopped', async () => {
    const r = await get('actors/node%2Fnode-0');
    return r.status === 404 ? r : undefined;
  });
  assert.match(stopped.body.message, /no actor "node\/node-0"/);
  assert.is((await post('nodes/node-0', '{"action":"stop"}')).status, 409);
  assert.equal(await post('nodes/node-0', '{"action":"start"}'), { status: 200, body: { name: 'node-0', agent: 'running' } });
  assert.is((await get('actors/node%2Fnode-0')).body.state, 'Running.Normal');
});

test('the sequence follows chosen actors: their records, who sent them their events, and the requests they send', async () => {
  const put = async (body: unknown) => {
    const r = await fetch(`${api}sequence`, { method: 'PUT', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() as any };
  };
  const chosen = await put({ actors: ['node/node-1', 'node-health/node-1'] });
  assert.is(chosen.status, 200);
  assert.equal(chosen.body.actors, ['node/node-1', 'node-health/node-1']);
  // Their newest records are there at once: the node's start, and the controller telling the health machine of its first heartbeat.
  assert.ok(chosen.body.records.some((r: any) => r.kind === 'actor' && r.id === 'node/node-1'), JSON.stringify(chosen.body.records.slice(0, 3)));
  assert.ok(chosen.body.records.some((r: any) => r.id === 'node-health/node-1' && r.event === 'OBSERVED' && r.sender === 'controller/node-lifecycle-controller'));

  // From now on: the agent stopped and started again, its registration a request it sent.
  const control = (action: string) => fetch(`${api}nodes/node-1`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ action }) });
  assert.is((await control('stop')).status, 200);
  await eventually('node-1\'s stop in the sequence', async () => ((await get('sequence')).body.records.some((r: any) => r.kind === 'stop' && r.id === 'node/node-1') || undefined));
  const since = (await get('sequence')).body.timeMs;
  assert.is((await control('start')).status, 200);
  const sent = await eventually('a request node-1 sent after its restart', async () =>
    (await get(`sequence?from=${since}`)).body.records.find((r: any) => r.kind === 'send' && r.id === 'node/node-1'));
  assert.equal([sent.machine, sent.target], ['node', 'apiserver']);
  assert.match(sent.event, /^(GET|POST|PUT|PATCH) \/api\/v1\/nodes/);

  const bad: [string, unknown, RegExp][] = [
    ['too many', { actors: Array.from({ length: 13 }, (_, i) => `node/n${i}`) }, /at most 12 ids/],
    ['not a list', { actors: 'node/node-1' }, /must be \{"actors": \[<actor id>, ...\]\}/],
    ['an empty id', { actors: [''] }, /must be/],
  ];
  for (const [what, body, message] of bad) {
    const r = await put(body);
    assert.is(r.status, 400, what);
    assert.match(r.body.message, message, what);
  }
  assert.match((await get('sequence?from=soon')).body.message, /from must be a whole number, got "soon"/);
  assert.match((await get('sequence?from=10&to=5')).body.message, /"to" \(5\) is before "from" \(10\)/);
  assert.match((await get('sequence?limit=0')).body.message, /limit must be a whole number from 1 to 5000/);
  assert.match((await get('sequence?actors=x')).body.message, /unknown parameter "actors"/);
  assert.equal((await get('sequence')).body.actors, ['node/node-1', 'node-health/node-1'], 'bad requests changed nothing');
});

test('under serve, time is the wall clock\'s: it can be read, not moved', async () => {
  const time = (await get('time')).body;
  assert.equal([time.mode, time.state], ['wall', 'running']);
  assert.ok(time.timeMs > 0);
  const r = await fetch(`${api}time`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'run', to: 0 }) });
  assert.is(r.status, 400);
  assert.match(((await r.json()) as { message: string }).message, /under orchsim serve time is the wall clock's/);
});

test('live updates over a WebSocket: what the page watches, only for the page\'s origin with the token', async () => {
  const wsUrl = api.replace(/^http/, 'ws').replace('/inspect/api/', '/inspect/ws');
  const refused = (headers: Record<string, string>) => new Promise<number>((resolve) => {
    const ws = new WebSocket(wsUrl, { headers });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode!));
    ws.on('open', () => resolve(101));
    ws.on('error', () => {});
  });
  assert.is(await refused({}), 401);
  assert.is(await refused({ Authorization: `Bearer ${token}`, Origin: 'http://attacker.example' }), 403);

  const ws = new WebSocket(wsUrl, { headers: { Authorization: `Bearer ${token}` } });
  const messages: { type: string; [k: string]: unknown }[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(String(d))));
  await new Promise((r) => ws.once('open', r));
  const next = (type: string) => eventually(`a ${type} message`, async () => messages.find((m) => m.type === type));
  ws.send(JSON.stringify({ watch: 'summary' }));
  const summary = await next('summary');
  assert.ok((summary.machines as Record<string, unknown>)['node-health'], JSON.stringify(summary));
  assert.is((await next('time')).mode, 'wall');
  messages.length = 0;
  ws.send('{"watch": "everything"}');
  assert.match(String((await next('error')).message), /a message is \{"watch": "summary"\}/);
  ws.send(JSON.stringify({ watch: 'actor', id: 'node-health/node-1' }));
  const actor = await next('actor');
  assert.equal([actor.id, actor.machine], ['node-health/node-1', 'node-health']);
  ws.close();
});

test('--ui-port without --ui, or a port in use, is refused before anything starts', async () => {
  try {
    await startServer(['--ui-port', '9999'], 'serve', () => {});
    assert.unreachable('started');
  } catch (e) {
    assert.instance(e, OptionError);
    assert.match((e as Error).message, /--ui-port is the inspector's port: give --ui too/);
  }
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
  const port = (taken.address() as { port: number }).port;
  try {
    await startServer(['--secure-port', String(await freePort()), '--cert-dir', join(dir, 'certs2'), '--kubeconfig-out', join(dir, 'k2'), '--nodes', '0',
      '--ui', '--ui-port', String(port)], 'serve', () => {});
    assert.unreachable('started');
  } catch (e) {
    assert.match((e as Error).message, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port} \\(EADDRINUSE\\); choose another --ui-port`));
  } finally {
    taken.close();
  }
});

test.run();
