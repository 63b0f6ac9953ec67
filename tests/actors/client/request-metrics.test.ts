// rest_client_requests_total{code,method,host} and rest_client_request_duration_seconds{verb,host},
// taken on the bus the clients share: every API request counted by the status it got (`<error>`
// for none), timed on the clock, and answered to the client exactly as without metrics.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { newRegistry } from '../../../actors/api/metrics.ts';
import { lookupResource } from '../../../actors/api/resources.ts';
import { StatusError } from '../../../actors/api/status.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { meteredBus } from '../../../actors/client/request-metrics.ts';
import { Link } from '../../../sim/link.ts';
import { seededRandom } from '../../../sim/random.ts';
import { MemoryBus } from '../../../transport/memory-bus.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';
import { sample } from './metric-values.ts';

const CONFIGMAPS = lookupResource('', 'v1', 'configmaps')!;
const HOST = 'orch.api.request';

async function world() {
  const { clock, bus, run, stop } = await virtualWorld({ seed: 1 });
  const link = new Link(bus, clock, seededRandom(2));
  const registry = newRegistry();
  const client = new ApiClient(meteredBus(link, clock, registry), 'test', 5_000);
  return { clock, link, registry, client, run, stop };
}

test('requests are counted by status code and method', async () => {
  const w = await world();
  const cm = { metadata: { name: 'a', namespace: 'default' }, data: { k: 'v' } } as KObject;
  const created = await w.client.create(CONFIGMAPS, cm);
  assert.is(created.metadata.name, 'a');
  assert.is((await w.client.get(CONFIGMAPS, 'default', 'a')).metadata.uid, created.metadata.uid);
  await w.client.get(CONFIGMAPS, 'default', 'a');
  try {
    await w.client.get(CONFIGMAPS, 'default', 'missing');
    assert.unreachable('a missing object answers 404');
  } catch (e) {
    assert.instance(e, StatusError);
    assert.is((e as StatusError).code, 404);
  }
  assert.is(await w.client.create(CONFIGMAPS, cm).then(() => 0, (e: StatusError) => e.code), 409);
  const count = (code: string, method: string) => sample(w.registry, 'rest_client_requests_total', { code, method, host: HOST });
  assert.is(await count('201', 'POST'), 1);
  assert.is(await count('200', 'GET'), 2);
  assert.is(await count('404', 'GET'), 1);
  assert.is(await count('409', 'POST'), 1);
  assert.is(await sample(w.registry, 'rest_client_request_duration_seconds_count', { verb: 'GET', host: HOST }), 3);
  w.stop();
});

test('latency is measured on the clock, from the request leaving to its answer', async () => {
  const w = await world();
  w.link.latencyMs = 300;
  const done = w.client.get(CONFIGMAPS, 'default', 'nothing').catch(() => undefined);
  await w.run(1_000);
  await done;
  assert.is(await sample(w.registry, 'rest_client_request_duration_seconds_sum', { verb: 'GET', host: HOST }), 0.3);
  assert.is(await sample(w.registry, 'rest_client_request_duration_seconds_bucket', { verb: 'GET', host: HOST, le: 0.25 }), 0);
  assert.is(await sample(w.registry, 'rest_client_request_duration_seconds_bucket', { verb: 'GET', host: HOST, le: 0.5 }), 1);
  w.stop();
});

test('a request nobody answers counts as <error>, and the client still gets its timeout', async () => {
  const w = await world();
  w.link.cut = true;
  const failed = w.client.get(CONFIGMAPS, 'default', 'a').then(() => 'answered', (e: Error) => e.name);
  await w.run(10_000);
  assert.is(await failed, 'BusTimeoutError');
  assert.is(await sample(w.registry, 'rest_client_requests_total', { code: '<error>', method: 'GET', host: HOST }), 1);
  assert.is(await sample(w.registry, 'rest_client_request_duration_seconds_sum', { verb: 'GET', host: HOST }), 5);
  w.stop();
});

test('other subjects pass through uncounted', async () => {
  const w = await world();
  const bus = meteredBus(new MemoryBus({ clock: w.clock }), w.clock, w.registry);
  const got: string[] = [];
  bus.subscribe('orch.test', (m) => got.push(m.subject));
  bus.publish('orch.test', new Uint8Array([1]));
  await bus.flush();
  assert.equal(got, ['orch.test']);
  assert.is(await sample(w.registry, 'rest_client_requests_total'), undefined);
  w.stop();
});

test.run();
