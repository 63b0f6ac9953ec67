// The ResourceQuota admission plugin and the ResourceQuota kind, against the in-process server.
// No controller runs here: each quota's status is written as the resource quota controller would
// (hard from spec, used counted), and the plugin charges creates against it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bareServerOptions } from '../../../helpers/bare-server.ts';
import { ApiServer } from '../../../../actors/apiserver/server.ts';
import { StorageError } from '../../../../actors/apiserver/storage/errors.ts';
import { MemoryStore } from '../../../../actors/apiserver/storage/memory.ts';
import type { KObject } from '../../../../actors/api/types.ts';
import { seededRandom } from '../../../../sim/random.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';
import { startServer, type Harness, type Reply } from '../../../helpers/in-process-server.ts';

const NS = '/api/v1/namespaces/default';
const QUOTAS = `${NS}/resourcequotas`;
const PODS = `${NS}/pods`;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

type Resources = { requests?: Record<string, string>; limits?: Record<string, string> };
const pod = (name: string, resources: Resources = {}, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources }], ...spec },
});

/** A quota whose status says `used` (zero for every hard name not given), as after the controller's first count. */
async function quota(h: Pick<Harness, 'post' | 'put'>, name: string, hard: Record<string, string>, used: Record<string, string> = {},
  spec: Record<string, unknown> = {}): Promise<void> {
  const created = await h.post(QUOTAS, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard, ...spec } });
  assert.is(created.status, 201, created.text);
  const status = { hard, used: Object.fromEntries(Object.keys(hard).map((k) => [k, used[k] ?? '0'])) };
  const r = await h.put(`${QUOTAS}/${name}/status`, { ...created.json, status });
  assert.is(r.status, 200, r.text);
}

const usedOf = async (h: Harness, name: string) => (await h.get(`${QUOTAS}/${name}`)).json.status.used;

function forbidden(r: Reply): string {
  assert.is(r.status, 403, r.text);
  return r.json.message;
}

test('pods beyond a quota\'s hard limit are refused with the real message; each create is charged to status.used', async () => {
  const h = await startServer();
  await quota(h, 'q', { pods: '2' });
  for (const name of ['p0', 'p1']) assert.is((await h.post(PODS, pod(name))).status, 201);
  assert.equal(await usedOf(h, 'q'), { pods: '2' });
  const r = await h.post(PODS, pod('p2'));
  assert.is(forbidden(r), 'pods "p2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
  assert.equal([r.json.details.name, r.json.details.kind], ['p2', 'pods']);
  assert.is((await h.get(`${PODS}/p2`)).status, 404);
});

test('compute usage adds up in canonical quantities, and a quota on cpu or memory makes every container state it', async () => {
  const h = await startServer();
  await quota(h, 'compute', { 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.cpu': '4' });
  assert.is(forbidden(await h.post(PODS, pod('bare'))),
    'pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: app; requests.cpu for: app; requests.memory for: app');
  await h.post(PODS, pod('a', { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1' } }));
  await h.post(PODS, pod('b', { requests: { cpu: '1', memory: '2Gi' }, limits: { cpu: '1' } }));
  assert.equal(await usedOf(h, 'compute'), { 'limits.cpu': '2', 'requests.cpu': '1500m', 'requests.memory': '3Gi' });
  assert.is(forbidden(await h.post(PODS, pod('c', { requests: { cpu: '3', memory: '1Gi' }, limits: { cpu: '3' } }))),
    'pods "c" is forbidden: exceeded quota: compute, requested: limits.cpu=3,requests.cpu=3, used: limits.cpu=2,requests.cpu=1500m, limited: limits.cpu=4,requests.cpu=4');
});

test('a quota not counted yet refuses what it limits until its usage is known', async () => {
  const h = await startServer();
  assert.is((await h.post(QUOTAS, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'fresh' }, spec: { hard: { pods: '10' } } })).status, 201);
  assert.is((await h.post(PODS, pod('p'))).status, 201, 'a quota whose status has no hard yet governs nothing');
  const created = (await h.get(`${QUOTAS}/fresh`)).json;
  await h.put(`${QUOTAS}/fresh/status`, { ...created, status: { hard: { pods: '10' } } });
  assert.is(forbidden(await h.post(PODS, pod('q'))), 'pods "q" is forbidden: status unknown for quota: fresh, resources: pods');
});

test('services, configmaps, secrets and count/<resource>.<group> are counted on create', async () => {
  const h = await startServer();
  await quota(h, 'objects', { services: '1', 'services.nodeports': '2', configmaps: '1', secrets: '1', 'count/deployments.apps': '1' });
  const svc = (name: string, type = 'ClusterIP') => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type, ports: [{ port: 80 }] } });
  assert.is((await h.post(`${NS}/services`, svc('web'))).status, 201);
  assert.is(forbidden(await h.post(`${NS}/services`, svc('api'))),
    'services "api" is forbidden: exceeded quota: objects, requested: services=1, used: services=1, limited: services=1');
  assert.is((await h.post(`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1' } })).status, 201);
  assert.match(forbidden(await h.post(`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c2' } })),
    'exceeded quota: objects, requested: configmaps=1, used: configmaps=1, limited: configmaps=1');
  assert.is((await h.post(`${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } })).status, 201);
  const deployment = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { selector: { matchLabels: { a: name } }, template: { metadata: { labels: { a: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } } });
  assert.is((await h.post('/apis/apps/v1/namespaces/default/deployments', deployment('d1'))).status, 201);
  assert.is(forbidden(await h.post('/apis/apps/v1/namespaces/default/deployments', deployment('d2'))),
    'deployments.apps "d2" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');
  assert.equal(await usedOf(h, 'objects'), { configmaps: '1', 'count/deployments.apps': '1', secrets: '1', services: '1', 'services.nodeports': '0' });
});

test('dry runs and writes refused by validation charge nothing', async () => {
  const h = await startServer();
  await quota(h, 'q', { pods: '5' });
  assert.is((await h.post(`${PODS}?dryRun=All`, pod('dry'))).status, 201);
  const invalid = await h.post(PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad' }, spec: { containers: [{ name: 'app' }] } });
  assert.is(invalid.status, 422, invalid.text);
  assert.equal(await usedOf(h, 'q'), { pods: '0' });
});

test('scopes: a BestEffort quota counts pods without requests; a PriorityClass selector counts pods of the classes it names', async () => {
  const h = await startServer();
  await quota(h, 'besteffort', { pods: '1' }, {}, { scopes: ['BestEffort'] });
  await quota(h, 'gold', { pods: '1' }, {}, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['gold'] }] } });
  await h.post('/apis/scheduling.k8s.io/v1/priorityclasses', { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'gold' }, value: 10 });
  assert.is((await h.post(PODS, pod('be1'))).status, 201);
  assert.match(forbidden(await h.post(PODS, pod('be2'))), 'exceeded quota: besteffort');
  assert.is((await h.post(PODS, pod('burst', { requests: { cpu: '100m' } }))).status, 201, 'not BestEffort: outside the scope');
  assert.is((await h.post(PODS, pod('g1', { requests: { cpu: '100m' } }, { priorityClassName: 'gold' }))).status, 201);
  assert.match(forbidden(await h.post(PODS, pod('g2', { requests: { cpu: '100m' } }, { priorityClassName: 'gold' }))), 'exceeded quota: gold');
});

test('concurrent creates through two API servers on one store never take a quota past its hard limit: a charge that loses the race checks again', async () => {
  // Updates commit a turn later, so the servers' charges read the same quota and race.
  let conflicts = 0;
  class DeferredStore extends MemoryStore {
    override async update(key: string, obj: KObject, expected?: number): Promise<KObject> {
      await new Promise((resolve) => setImmediate(resolve));
      try {
        return await super.update(key, obj, expected);
      } catch (e) {
        if (e instanceof StorageError && e.code === 'RevisionConflict') conflicts++;
        throw e;
      }
    }
  }
  const store = new DeferredStore();
  const servers: ApiServer[] = [];
  for (const seed of [1, 2]) {
    const server = new ApiServer(bareServerOptions({ etcdCompactionIntervalMs: 0 }), { clock: manualClock(), random: seededRandom(seed), store });
    await server.start();
    servers.push(server);
  }
  const call = async (server: ApiServer, method: string, url: string, body?: unknown): Promise<Reply> => {
    const r = await server.handle({ method, url, headers: {}, body: Buffer.from(body === undefined ? '' : JSON.stringify(body)) });
    const text = typeof r.body === 'string' ? r.body : Buffer.from(r.body).toString();
    return { status: r.status, headers: r.headers, text, bytes: new Uint8Array(), json: JSON.parse(text) };
  };
  const [one, two] = servers as [ApiServer, ApiServer];
  await quota({ post: (u, b) => call(one, 'POST', u, b), put: (u, b) => call(one, 'PUT', u, b) }, 'q', { pods: '5' });
  const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => call(i % 2 ? two : one, 'POST', PODS, pod(`p${i}`))));
  const created = replies.filter((r) => r.status === 201).length;
  assert.ok(replies.every((r) => r.status === 201 || r.status === 403 || r.status === 409), replies.map((r) => r.text).join('\n'));
  assert.ok(conflicts > 0, 'charges raced and lost');
  assert.ok(created > 0 && created <= 5, `${created} created`);
  assert.equal((await call(one, 'GET', `${QUOTAS}/q`)).json.status.used, { pods: String(created) }, 'every created pod charged, once');
  assert.is((await call(two, 'GET', PODS)).json.items.length, created);
  for (const server of servers) server.stop();
});

test('one server charges a namespace\'s creates one at a time: of twelve at once, exactly the five that fit are created', async () => {
  const h = await startServer();
  await quota(h, 'q', { pods: '5' });
  const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => h.post(PODS, pod(`p${i}`))));
  assert.equal(replies.map((r) => r.status), [201, 201, 201, 201, 201, 403, 403, 403, 403, 403, 403, 403]);
  assert.equal(await usedOf(h, 'q'), { pods: '5' });
});

test('kubectl get quota prints NAME AGE REQUEST LIMIT as used/hard, limits under LIMIT', async () => {
  const h = await startServer();
  await quota(h, 'q', { pods: '10', 'requests.cpu': '2', 'limits.memory': '1Gi' }, { pods: '1', 'requests.cpu': '500m' });
  const t = (await h.get(`${QUOTAS}/q`, { accept: TABLE })).json;
  assert.equal(t.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Age', 'Request', 'Limit']);
  assert.equal(t.rows[0].cells, ['q', '0s', 'pods: 1/10, requests.cpu: 500m/2', 'limits.memory: 0/1Gi']);
});

test('ResourceQuota validation: quota resource names, non-negative whole counts, compatible scopes that never change', async () => {
  const h = await startServer();
  const r = await h.post(QUOTAS, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'bad' },
    spec: { hard: { widgets: '1', pods: '1.5', cpu: '-1' }, scopes: ['BestEffort', 'NotBestEffort'] } });
  assert.is(r.status, 422, r.text);
  assert.equal(r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), [
    'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource type or fully qualified',
    'spec.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota',
    'spec.hard[pods]: Invalid value: "1500m": must be an integer',
    'spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: unsupported scope applied to resource',
    'spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes',
  ]);
  const ok = await h.post(QUOTAS, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'ok' }, spec: { hard: { pods: '2', memory: '1024Mi' }, scopes: ['NotTerminating'] } });
  assert.equal(ok.json.spec.hard, { memory: '1Gi', pods: '2' }, 'stored canonical');
  const changed = await h.put(`${QUOTAS}/ok`, { ...ok.json, spec: { ...ok.json.spec, scopes: ['Terminating'] } });
  assert.equal(changed.json.details.causes.map((c: { message: string }) => c.message), ['Invalid value: []core.ResourceQuotaScope{"Terminating"}: field is immutable']);
});

test.run();
