// The HTTPS endpoint of the component commands, over real HTTPS on a port the system picks:
// /healthz, /livez and /readyz answer "ok" or 500 naming the failing check as the real components
// do; /metrics answers the components' registries in the Prometheus text format (registries that
// share names, as in one process holding several components, summed per series); anything else
// is 404; port 0 serves nothing; a self-signed pair is kept in the certificate directory.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../helpers/real-time.ts';
import { virtualWorld } from '../helpers/virtual-world.ts';
import type { Registry } from '../../actors/api/metrics.ts';
import { lookupResource } from '../../actors/api/resources.ts';
import type { KObject } from '../../actors/api/types.ts';
import { ControllerManager } from '../../actors/controller-manager/controller-manager.ts';
import { NodeAgent } from '../../actors/nodeagent/nodeagent.ts';
import { schedulerOptions } from '../../actors/scheduler/options.ts';
import { schedulerReplica } from '../../actors/scheduler/replica.ts';
import { listenComponentServer, startComponentServer, type ComponentServer, type ComponentServerOptions } from '../../sim/component-server.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const RS = lookupResource('apps', 'v1', 'replicasets')!;

interface Answer { status: number; body: string; type: string | undefined }

function get(server: ComponentServer, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const send = server.cert ? request : httpRequest;
    const req = send(url, { ...(server.cert ? { ca: server.cert } : {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, type: res.headers['content-type'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

const base = (o: Partial<ComponentServerOptions> = {}): ComponentServerOptions =>
  ({ bindAddress: '127.0.0.1', port: 0, pairName: 'scheduler', registries: () => [], ...o });

/** Every sample line of an exposition, as `name{labels}` → value; throws on a line that is not one. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line);
    if (!m) throw new Error(`not a line of the text format: ${JSON.stringify(line)}`);
    samples.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return samples;
}

test('/healthz, /livez and /readyz answer ok while every check passes', async () => {
  const server = await listenComponentServer(base({ checks: { healthz: { leaderElection: () => true }, readyz: { 'sched-handler-sync': () => true } } }));
  for (const path of ['/healthz', '/livez', '/readyz']) {
    const a = await get(server, path);
    assert.equal([a.status, a.body, a.type], [200, 'ok', 'text/plain; charset=utf-8'], path);
  }
  assert.is((await get(server, '/healthz?verbose')).body, '[+]ping ok\n[+]leaderElection ok\nhealthz check passed\n');
  assert.is((await get(server, '/readyz/sched-handler-sync')).body, 'ok');
  await server.close();
});

test('/readyz answers 500 naming the failing check, which /healthz does not run', async () => {
  let synced = false;
  const server = await listenComponentServer(base({ checks: { readyz: { 'informer-sync': () => synced, shutdown: () => true }, livez: { broken: () => { throw new Error('x'); } } } }));
  const r = await get(server, '/readyz');
  assert.is(r.status, 500);
  assert.is(r.body, '[+]ping ok\n[-]informer-sync failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n');
  assert.equal([(await get(server, '/readyz/informer-sync')).status, (await get(server, '/readyz/informer-sync')).body], [500, 'internal server error: informer-sync check failed\n']);
  assert.is((await get(server, '/readyz?exclude=informer-sync')).status, 200);
  assert.is((await get(server, '/healthz')).status, 200);
  assert.is((await get(server, '/livez')).status, 500, 'a check that throws fails');
  synced = true;
  assert.equal([(await get(server, '/readyz')).status, (await get(server, '/readyz')).body], [200, 'ok']);
  await server.close();
});

test('anything else is 404', async () => {
  const server = await listenComponentServer(base({ checks: { healthz: { a: () => true } } }));
  for (const path of ['/', '/metricz', '/metrics/extra', '/healthz/nope', '/healthz/a/b', '/api/v1/pods'])
    assert.equal([(await get(server, path)).status, (await get(server, path)).body], [404, '404 page not found\n'], path);
  await server.close();
});

/** A small cluster on virtual time: a scheduler replica, a controller manager and a node agent at work. */
async function cluster(): Promise<{ scheduler: Registry; controllerManager: Registry; nodeAgent: Registry; stop(): void }> {
  const { clock, bus, random: root, server, client, run } = await virtualWorld({ seed: 5 });
  const fail = (e: unknown) => { throw e; };
  const agent = new NodeAgent({ bus, clock, random: root.fork('agent'), nodeName: 'node-1', onError: fail });
  const cm = new ControllerManager({ bus, clock, random: root.fork('cm'), options: { controllers: ['replicaset-controller', 'node-lifecycle-controller'] }, onError: (_c, e) => fail(e) });
  const scheduler = schedulerReplica({ bus, clock, random: root.fork('scheduler'), options: schedulerOptions(), identity: 's0', onError: fail });
  await agent.start();
  await cm.start();
  await scheduler.start();
  await run(20_000);
  await client.create(RS, { metadata: { name: 'web', namespace: 'default' }, spec: {
    replicas: 3, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } } as KObject);
  await run(30_000);
  const running = (await client.list(PODS, 'default')).items.filter((p) => (p.status as { phase?: string }).phase === 'Running');
  assert.is(running.length, 3, 'the cluster ran its pods');
  return { scheduler: scheduler.metrics, controllerManager: cm.metrics, nodeAgent: agent.metrics,
    stop: () => { scheduler.crash(); cm.crash(); agent.stop(); server.stop(); } };
}

test("/metrics answers a component's registry in the text format, with the components' metric names", async () => {
  const c = await cluster();
  const registries: Record<string, Registry> = { scheduler: c.scheduler, 'controller-manager': c.controllerManager, nodeagent: c.nodeAgent };
  const names: Record<string, string[]> = {
    scheduler: ['scheduler_schedule_attempts_total', 'scheduler_pending_pods', 'scheduler_scheduling_attempt_duration_seconds_bucket', 'scheduler_preemption_attempts_total',
      'leader_election_master_status', 'rest_client_requests_total', 'rest_client_request_duration_seconds_bucket'],
    'controller-manager': ['workqueue_depth', 'workqueue_adds_total', 'workqueue_retries_total', 'workqueue_queue_duration_seconds_bucket', 'workqueue_work_duration_seconds_bucket',
      'workqueue_unfinished_work_seconds', 'workqueue_longest_running_processor_seconds', 'leader_election_master_status', 'rest_client_requests_total'],
    nodeagent: ['nodeagent_node_name', 'nodeagent_running_pods', 'nodeagent_running_containers', 'nodeagent_started_pods_total', 'nodeagent_pod_start_duration_seconds_bucket',
      'nodeagent_node_status_updates_total', 'rest_client_requests_total'],
  };
  for (const [component, registry] of Object.entries(registries)) {
    const server = await listenComponentServer(base({ pairName: component, registries: () => [registry] }));
    const a = await get(server, '/metrics');
    assert.is(a.status, 200);
    assert.match(a.type!, /^text\/plain; version=0\.0\.4/);
    const samples = parseExposition(a.body);
    const seen = new Set([...samples.keys()].map((k) => k.replace(/\{.*$/, '')));
    for (const name of names[component]!) assert.ok(seen.has(name), `${component} shows ${name}`);
    await server.close();
  }
  const s = parseExposition((await get(await listenAndKeep(base({ registries: () => [c.scheduler] })), '/metrics')).body);
  assert.is(s.get('scheduler_schedule_attempts_total{result="scheduled",profile="default-scheduler"}'), 3);
  assert.is(s.get('leader_election_master_status{name="orch-scheduler"}'), 1);
  assert.is(s.get('scheduler_pending_pods{queue="active"}'), 0);
  const n = parseExposition((await get(await listenAndKeep(base({ registries: () => [c.nodeAgent] })), '/metrics')).body);
  assert.is(n.get('nodeagent_running_pods'), 3);
  const q = parseExposition((await get(await listenAndKeep(base({ registries: () => [c.controllerManager] })), '/metrics')).body);
  assert.ok(q.get('workqueue_adds_total{name="replicaset"}')! >= 1);
  await closeKept();
  c.stop();
});

test('registries that share metric names are summed per series', async () => {
  const c = await cluster();
  const all = [c.scheduler, c.controllerManager, c.nodeAgent];
  const server = await listenComponentServer(base({ registries: () => all }));
  const merged = parseExposition((await get(server, '/metrics')).body);
  let sum = 0;
  for (const r of all) sum += parseExposition(await r.metrics()).get('rest_client_requests_total{code="200",method="GET",host="orch.api.request"}') ?? 0;
  assert.ok(sum > 0);
  assert.is(merged.get('rest_client_requests_total{code="200",method="GET",host="orch.api.request"}'), sum);
  assert.is(merged.get('nodeagent_running_pods'), 3);
  assert.is(merged.get('leader_election_master_status{name="orch-scheduler"}'), 1);
  await server.close();
  c.stop();
});

const kept: ComponentServer[] = [];
async function listenAndKeep(o: ComponentServerOptions): Promise<ComponentServer> {
  const s = await listenComponentServer(o);
  kept.push(s);
  return s;
}
const closeKept = () => Promise.all(kept.splice(0).map((s) => s.close()));

test('port 0 serves nothing', async () => {
  const server = await startComponentServer(base({ port: 0, checks: { healthz: {} } }));
  assert.is(server, undefined);
});

test('startComponentServer serves on the port it is given', async () => {
  const port = await freePort();
  const server = (await startComponentServer(base({ port })))!;
  assert.is(server.port, port);
  assert.is(server.url, `https://127.0.0.1:${port}`);
  assert.is((await get(server, '/healthz')).body, 'ok');
  await startComponentServer(base({ port })).then(() => assert.unreachable('the port is taken'), (e: Error) => assert.match(e.message, /already in use.*--secure-port/));
  await server.close();
});

test('a self-signed pair is written to the certificate directory as <pairName>.crt and .key, and reused', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-certs-'));
  try {
    const first = await listenComponentServer(base({ certDir: join(dir, 'pki'), pairName: 'controller-manager' }));
    const cert = readFileSync(join(dir, 'pki', 'controller-manager.crt'), 'utf8');
    assert.is(first.cert, cert);
    assert.match(readFileSync(join(dir, 'pki', 'controller-manager.key'), 'utf8'), /PRIVATE KEY/);
    await first.close();
    const second = await listenComponentServer(base({ certDir: join(dir, 'pki'), pairName: 'controller-manager' }));
    assert.is(second.cert, cert, 'the kept pair is served again');
    assert.is((await get(second, '/healthz')).body, 'ok');
    await second.close();
    writeFileSync(join(dir, 'given.crt'), cert);
    writeFileSync(join(dir, 'given.key'), readFileSync(join(dir, 'pki', 'controller-manager.key')));
    const given = await listenComponentServer(base({ tlsCertFile: join(dir, 'given.crt'), tlsPrivateKeyFile: join(dir, 'given.key') }));
    assert.is(given.cert, cert);
    await given.close();
    await listenComponentServer(base({ tlsCertFile: join(dir, 'given.crt') })).then(() => assert.unreachable(), (e: Error) => assert.match(e.message, /must be given together/));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('insecure serves the same over plain HTTP (the node agent healthz port)', async () => {
  const server = await listenComponentServer(base({ insecure: true }));
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.is(server.cert, undefined);
  assert.is((await get(server, '/healthz')).body, 'ok');
  await server.close();
});

test.run();
