// The resource quota controller against a real API server on virtual time: a quota's status
// takes its hard limits and what its namespace holds; deletes of counted objects give their share
// back at once, what no event shows is recounted every sync period, and with the counts in place
// the ResourceQuota admission plugin refuses what does not fit.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import { StatusError } from '../../../actors/api/status.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const QUOTAS = lookupResource('', 'v1', 'resourcequotas')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const CONFIGMAPS = lookupResource('', 'v1', 'configmaps')!;
const SECRETS = lookupResource('', 'v1', 'secrets')!;
const DEPLOYMENTS = lookupResource('apps', 'v1', 'deployments')!;
const deployment = (name: string) => ({ metadata: { name, namespace: 'default' }, spec: { selector: { matchLabels: { app: name } },
  template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } }) as KObject;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SYNC_PERIOD_MS = 60_000;

async function world() {
  const w = await virtualWorld();
  const cm = new ControllerManager({ bus: w.bus, clock: w.clock, random: w.random,
    options: { leaderElect: false, controllers: ['resourcequota-controller'], resourceQuotaSyncPeriodMs: SYNC_PERIOD_MS },
    onError: (c, e) => { throw new Error(`${c}: ${e}`); } });
  await cm.start();
  const pod = (name: string, cpu: string) => w.client.create(PODS, { metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu } } }] } } as KObject);
  const status = async (name = 'q') => ((await w.client.get(QUOTAS, 'default', name)) as Rec).status;
  return { ...w, pod, status, stop: () => { void cm.stop(); w.stop(); } };
}

test('a new quota\'s status takes its hard limits and counts what its namespace already holds', async () => {
  const w = await world();
  await w.pod('a', '500m');
  await w.pod('b', '1');
  await w.client.create(CONFIGMAPS, { metadata: { name: 'settings', namespace: 'default' } } as KObject);
  await w.client.create(SECRETS, { metadata: { name: 'token', namespace: 'default' } } as KObject);
  await w.client.create(QUOTAS, { metadata: { name: 'q', namespace: 'default' },
    spec: { hard: { pods: '10', 'requests.cpu': '4000m', configmaps: '5', secrets: '5', 'count/deployments.apps': '3' } } } as KObject);
  await w.run(1_000);
  const s = await w.status();
  assert.equal(s.hard, { configmaps: '5', 'count/deployments.apps': '3', pods: '10', 'requests.cpu': '4', secrets: '5' });
  assert.equal(s.used, { configmaps: '1', 'count/deployments.apps': '0', pods: '2', 'requests.cpu': '1500m', secrets: '1' });
  w.stop();
});

test('a deleted pod gives its share back at once; a pod that ends keeps only its count', async () => {
  const w = await world();
  await w.client.create(QUOTAS, { metadata: { name: 'q', namespace: 'default' }, spec: { hard: { pods: '10', 'count/pods': '10', 'requests.cpu': '4' } } } as KObject);
  await w.run(1_000);
  for (const [name, cpu] of [['a', '500m'], ['b', '1'], ['c', '250m']]) await w.pod(name!, cpu!);
  assert.equal((await w.status()).used, { 'count/pods': '3', pods: '3', 'requests.cpu': '1750m' }, 'charged by admission');
  await w.client.delete(PODS, 'default', 'a');
  await w.run(1_000);
  assert.equal((await w.status()).used, { 'count/pods': '2', pods: '2', 'requests.cpu': '1250m' }, 'well before the sync period');
  const b = await w.client.get(PODS, 'default', 'b');
  await w.client.update(PODS, { ...b, status: { ...(b.status as Rec), phase: 'Succeeded' } }, 'status');
  await w.run(1_000);
  assert.equal((await w.status()).used, { 'count/pods': '2', pods: '1', 'requests.cpu': '250m' });
  w.stop();
});

test('a change of spec.hard shows in the status at once; what no event shows is recounted on the sync period', async () => {
  const w = await world();
  await w.client.create(SECRETS, { metadata: { name: 'token', namespace: 'default' } } as KObject);
  await w.client.create(QUOTAS, { metadata: { name: 'q', namespace: 'default' }, spec: { hard: { secrets: '5' } } } as KObject);
  await w.run(1_000);
  assert.equal((await w.status()).used, { secrets: '1' });
  const current = await w.client.get(QUOTAS, 'default', 'q');
  await w.client.update(QUOTAS, { ...current, spec: { hard: { secrets: '2', pods: '4' } } });
  await w.run(1_000);
  assert.equal([(await w.status()).hard, (await w.status()).used], [{ pods: '4', secrets: '2' }, { pods: '0', secrets: '1' }]);
  await w.client.delete(SECRETS, 'default', 'token');
  await w.run(1_000);
  assert.equal((await w.status()).used.secrets, '0', 'a deleted secret gives its share back at once');
  await w.client.create(DEPLOYMENTS, deployment('web'));
  await w.client.update(QUOTAS, { ...(await w.client.get(QUOTAS, 'default', 'q')), spec: { hard: { 'count/deployments.apps': '2' } } });
  await w.run(1_000);
  assert.equal((await w.status()).used, { 'count/deployments.apps': '1' });
  await w.client.delete(DEPLOYMENTS, 'default', 'web');
  await w.run(SYNC_PERIOD_MS / 2);
  assert.equal((await w.status()).used, { 'count/deployments.apps': '1' }, 'deployments are not followed: nothing has recounted yet');
  await w.run(SYNC_PERIOD_MS);
  assert.equal((await w.status()).used, { 'count/deployments.apps': '0' }, 'the periodic recount saw it go');
  w.stop();
});

test('with the controller counting, creates beyond the limit are refused and room made by a delete is usable', async () => {
  const w = await world();
  await w.client.create(QUOTAS, { metadata: { name: 'q', namespace: 'default' }, spec: { hard: { pods: '2' } } } as KObject);
  await w.run(1_000);
  await w.pod('a', '100m');
  await w.pod('b', '100m');
  const refused = await w.pod('c', '100m').then(() => undefined, (e: unknown) => e);
  assert.ok(refused instanceof StatusError && refused.code === 403);
  assert.is(refused.message, 'pods "c" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
  await w.client.delete(PODS, 'default', 'a');
  await w.run(1_000);
  await w.pod('c', '100m');
  assert.equal((await w.status()).used, { pods: '2' });
  w.stop();
});

test.run();
