// The registry decides deletion through the object machine and records each terminating object
// in the process's actor system: tracked from Live when a delete leaves it Terminating, a
// transition per committed change the machine takes, and a stop once it leaves the store.
// Records are compared as compact lines: `<t> <kind> <id> [<event> <from>→<to> | <to>]`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bareServerOptions } from '../../../helpers/bare-server.ts';
import { ApiServer } from '../../../../actors/apiserver/server.ts';
import type { Store } from '../../../../actors/apiserver/storage/store.ts';
import { ActorSystem, type InspectionRecord } from '../../../../actors/system/index.ts';
import { seededRandom } from '../../../../sim/random.ts';
import { manualClock, type ManualClock } from '../../../helpers/manual-clock.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

const line = (r: InspectionRecord) =>
  r.kind === 'transition' ? `${r.t} transition ${r.id} ${r.event} ${r.from}→${r.to}` : r.kind === 'actor' ? `${r.t} actor ${r.id} ${r.to}` : `${r.t} stop ${r.id}`;

/** An API server on a manual clock whose actor system's object records are collected as lines. */
async function world(clock: ManualClock = manualClock(), store?: Store) {
  const system = new ActorSystem(clock);
  const records: string[] = [];
  system.onRecord((r) => r.id.startsWith('object/') && records.push(line(r)));
  const server = new ApiServer(bareServerOptions({ etcdCompactionIntervalMs: 0 }), { clock, random: seededRandom(7), system, ...(store ? { store } : {}) });
  await server.start();
  const call = async (method: string, url: string, body?: unknown, contentType = 'application/json') => {
    const r = await server.handle({ method, url, headers: { 'content-type': contentType }, body: Buffer.from(body === undefined ? '' : JSON.stringify(body)) });
    const text = typeof r.body === 'string' ? r.body : Buffer.from(r.body).toString('utf8');
    return { status: r.status, json: text ? JSON.parse(text) : undefined };
  };
  return {
    clock, system, server, records,
    post: (url: string, body: unknown) => call('POST', url, body),
    put: (url: string, body: unknown) => call('PUT', url, body),
    patch: (url: string, body: unknown, contentType = MERGE) => call('PATCH', url, body, contentType),
    del: (url: string, body?: unknown) => call('DELETE', url, body),
    get: (url: string) => call('GET', url),
  };
}

const configMap = (name: string, finalizers?: string[]) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(finalizers ? { finalizers } : {}) } });
const boundPod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] } });

test('an object with two finalizers stays Terminating until the last one goes, then is Removed and stops', async () => {
  const w = await world();
  await w.post(CM, configMap('cm', ['example.com/a', 'example.com/b']));
  w.clock.advance(1_000);
  assert.is((await w.del(`${CM}/cm`)).status, 200);
  const { serial: _, ...cm } = w.system.get('object/configmaps/default/cm')!;
  assert.equal(cm, { id: 'object/configmaps/default/cm', machine: 'object', state: 'Terminating' });
  w.clock.advance(1_000);
  assert.is((await w.patch(`${CM}/cm`, { metadata: { finalizers: ['example.com/b'] } })).status, 200);
  w.clock.advance(1_000);
  assert.is((await w.patch(`${CM}/cm`, [{ op: 'remove', path: '/metadata/finalizers' }], JSON_PATCH)).status, 200);
  assert.is((await w.get(`${CM}/cm`)).status, 404);
  assert.equal(w.records, [
    '1000 actor object/configmaps/default/cm Live',
    '1000 transition object/configmaps/default/cm DELETE Live→Terminating',
    '2000 transition object/configmaps/default/cm FINALIZERS_CHANGED Terminating→Terminating',
    '3000 transition object/configmaps/default/cm FINALIZERS_CHANGED Terminating→Removed',
    '3000 stop object/configmaps/default/cm',
  ]);
  assert.is(w.system.get('object/configmaps/default/cm'), undefined);
});

test('a pod deleted with a grace period, then a shorter one, then with gracePeriodSeconds 0 is Removed', async () => {
  const w = await world();
  await w.post(PODS, boundPod('web-1'));
  const first = await w.del(`${PODS}/web-1`);
  assert.is(first.json.metadata.deletionGracePeriodSeconds, 30);
  w.clock.advance(5_000);
  assert.is((await w.del(`${PODS}/web-1`, { gracePeriodSeconds: 60 })).status, 200); // longer: no change, no record
  assert.is((await w.del(`${PODS}/web-1`, { gracePeriodSeconds: 10 })).json.metadata.deletionGracePeriodSeconds, 10);
  w.clock.advance(2_000);
  assert.is((await w.del(`${PODS}/web-1`, { gracePeriodSeconds: 0 })).status, 200);
  assert.is((await w.get(`${PODS}/web-1`)).status, 404);
  assert.equal(w.records, [
    '0 actor object/pods/default/web-1 Live',
    '0 transition object/pods/default/web-1 DELETE Live→Terminating',
    '5000 transition object/pods/default/web-1 DELETE Terminating→Terminating',
    '7000 transition object/pods/default/web-1 DELETE Terminating→Removed',
    '7000 stop object/pods/default/web-1',
  ]);
});

test('dry runs record nothing: a delete, and an update that would remove a terminating object', async () => {
  const w = await world();
  await w.post(CM, configMap('cm', ['example.com/a']));
  const dry = await w.del(`${CM}/cm?dryRun=All`);
  assert.is(dry.status, 200);
  assert.ok(dry.json.metadata.deletionTimestamp);
  assert.equal(w.records, []);
  await w.del(`${CM}/cm`);
  w.records.length = 0;
  assert.is((await w.patch(`${CM}/cm?dryRun=All`, { metadata: { finalizers: [] } })).status, 200);
  assert.equal(w.records, []);
  assert.is(w.system.get('object/configmaps/default/cm')?.state, 'Terminating');
});

test('adding a finalizer while terminating answers 422 and records no transition', async () => {
  const w = await world();
  await w.post(CM, configMap('cm', ['example.com/a']));
  await w.del(`${CM}/cm`);
  const r = await w.patch(`${CM}/cm`, { metadata: { finalizers: ['example.com/a', 'example.com/new'] } });
  assert.is(r.status, 422);
  assert.equal(r.json.details.causes, [{ reason: 'FieldValueForbidden', field: 'metadata.finalizers',
    message: 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}' }]);
  assert.equal(w.records, ['0 actor object/configmaps/default/cm Live', '0 transition object/configmaps/default/cm DELETE Live→Terminating']);
});

test('objects deleted at once, and writes that leave the finalizers as they were, are not recorded', async () => {
  const w = await world();
  await w.post(CM, configMap('gone'));
  await w.del(`${CM}/gone`);
  await w.post(CM, configMap('cm', ['example.com/a']));
  await w.del(`${CM}/cm`);
  await w.del(`${CM}/cm`); // already being deleted
  await w.patch(`${CM}/cm`, { metadata: { labels: { x: 'y' } } });
  assert.equal(w.records, ['0 actor object/configmaps/default/cm Live', '0 transition object/configmaps/default/cm DELETE Live→Terminating']);
});

test('ids name a grouped resource as resource.group, and a cluster-scoped object without a namespace', async () => {
  const w = await world();
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 0, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
  await w.post('/apis/apps/v1/namespaces/default/deployments', deployment);
  await w.del('/apis/apps/v1/namespaces/default/deployments/web', { propagationPolicy: 'Foreground' });
  // A namespace is held by its spec.finalizers until finalize empties them.
  await w.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  await w.del('/api/v1/namespaces/team');
  const ns = (await w.get('/api/v1/namespaces/team')).json;
  assert.is((await w.put('/api/v1/namespaces/team/finalize', { ...ns, spec: { finalizers: [] } })).status, 200);
  assert.equal(w.records, [
    '0 actor object/deployments.apps/default/web Live',
    '0 transition object/deployments.apps/default/web DELETE Live→Terminating',
    '0 actor object/namespaces/team Live',
    '0 transition object/namespaces/team DELETE Live→Terminating',
    '0 transition object/namespaces/team FINALIZERS_CHANGED Terminating→Removed',
    '0 stop object/namespaces/team',
  ]);
});

test('an object of the same name created again after removal is a new actor', async () => {
  const w = await world();
  for (const _ of [1, 2]) {
    await w.post(CM, configMap('cm', ['example.com/a']));
    await w.del(`${CM}/cm`);
    await w.patch(`${CM}/cm`, { metadata: { finalizers: [] } });
  }
  assert.equal(w.records.filter((l) => !l.includes(' transition ')), [
    '0 actor object/configmaps/default/cm Live', '0 stop object/configmaps/default/cm',
    '0 actor object/configmaps/default/cm Live', '0 stop object/configmaps/default/cm',
  ]);
});

test('a server started on a store holding a terminating object tracks it from Terminating when it is touched', async () => {
  const clock = manualClock();
  const first = await world(clock);
  await first.post(CM, configMap('cm', ['example.com/a', 'example.com/b']));
  await first.del(`${CM}/cm`);
  first.server.stop();
  const second = await world(clock, first.server.store);
  assert.is(second.system.get('object/configmaps/default/cm'), undefined);
  await second.patch(`${CM}/cm`, { metadata: { finalizers: ['example.com/b'] } });
  await second.patch(`${CM}/cm`, { metadata: { finalizers: [] } });
  assert.equal(second.records, [
    '0 actor object/configmaps/default/cm Terminating',
    '0 transition object/configmaps/default/cm FINALIZERS_CHANGED Terminating→Terminating',
    '0 transition object/configmaps/default/cm FINALIZERS_CHANGED Terminating→Removed',
    '0 stop object/configmaps/default/cm',
  ]);
});

test.run();
