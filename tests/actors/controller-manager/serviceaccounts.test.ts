// The serviceaccount controller and the ServiceAccount admission plugin together, on virtual
// time, with the plugin on (as a cluster with a controller manager runs it): every namespace gets
// its `default` account, pods run as it, a pod created right after its namespace waits for it,
// and a pod naming a missing account is refused in the real server's words.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiServerOptions } from '../../../actors/apiserver/options.ts';
import { ApiServer } from '../../../actors/apiserver/server.ts';
import { lookupResource } from '../../../actors/api/resources.ts';
import { StatusError } from '../../../actors/api/status.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import { Kernel } from '../../../sim/kernel.ts';
import { seededRandom } from '../../../sim/random.ts';
import { virtualClock } from '../../../sim/virtual-clock.ts';
import { MemoryBus } from '../../../transport/memory-bus.ts';

const NAMESPACES = lookupResource('', 'v1', 'namespaces')!;
const SERVICE_ACCOUNTS = lookupResource('', 'v1', 'serviceaccounts')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const CONFIG_MAPS = lookupResource('', 'v1', 'configmaps')!;
const pod = (name: string, namespace: string, serviceAccountName?: string) =>
  ({ metadata: { name, namespace }, spec: { ...(serviceAccountName ? { serviceAccountName } : {}), containers: [{ name: 'c', image: 'nginx' }] } }) as KObject;

/** An API server with every default admission plugin, and (unless `controllers` is empty) a controller manager. */
async function world(controllers = ['serviceaccount-controller', 'root-ca-certificate-publisher-controller']) {
  const clock = virtualClock();
  const kernel = new Kernel({ clock });
  const bus = new MemoryBus({ clock });
  const random = seededRandom(5);
  const server = new ApiServer(apiServerOptions({}), { clock, random: random.fork('apiserver'), bus });
  await server.start();
  const client = new ApiClient(bus, 'test');
  const cm = controllers.length ? new ControllerManager({ bus, clock, random: random.fork('cm'), rootCa: 'CA PEM', options: { leaderElect: false, controllers },
    onError: (c, e) => { throw new Error(`${c}: ${e}`); } }) : undefined;
  await cm?.start();
  const run = (ms: number) => kernel.run({ until: clock.now() + ms });
  return { clock, client, run, stop: () => (void cm?.stop(), server.stop()) };
}

test('every namespace, new ones included, gets a default ServiceAccount, made again when deleted', async () => {
  const w = await world();
  await w.run(1_000);
  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'orch-system'])
    assert.ok(await w.client.get(SERVICE_ACCOUNTS, ns, 'default'), `${ns} has its default account`);
  await w.client.create(NAMESPACES, { metadata: { name: 'team' } } as KObject);
  await w.run(1_000);
  assert.ok(await w.client.get(SERVICE_ACCOUNTS, 'team', 'default'));
  await w.client.delete(SERVICE_ACCOUNTS, 'team', 'default');
  await w.run(1_000);
  assert.ok(await w.client.get(SERVICE_ACCOUNTS, 'team', 'default'), 'made again');
  w.stop();
});

test('every namespace gets kube-root-ca.crt with the cluster\'s CA bundle', async () => {
  const w = await world();
  await w.client.create(NAMESPACES, { metadata: { name: 'team' } } as KObject);
  await w.run(1_000);
  const cm = await w.client.get(CONFIG_MAPS, 'team', 'kube-root-ca.crt');
  assert.equal(cm.data, { 'ca.crt': 'CA PEM' });
  assert.match(cm.metadata.annotations!['kubernetes.io/description']!, /^Contains a CA bundle that can be used to verify the kube-apiserver/);
  await w.client.patch(CONFIG_MAPS, 'team', 'kube-root-ca.crt', { data: { 'ca.crt': 'forged' } }, 'merge');
  await w.run(1_000);
  assert.equal((await w.client.get(CONFIG_MAPS, 'team', 'kube-root-ca.crt')).data, { 'ca.crt': 'CA PEM' }, 'put back');
  w.stop();
});

test('a pod without serviceAccountName runs as default, even created the moment its namespace is', async () => {
  const w = await world();
  await w.run(1_000);
  await w.client.create(NAMESPACES, { metadata: { name: 'team' } } as KObject);
  // No time passes between the two: the plugin waits for the controller's account.
  const created = w.client.create(PODS, pod('web', 'team'));
  await w.run(2_000);
  const p = (await created) as unknown as { spec: { serviceAccountName: string; serviceAccount: string } };
  assert.equal([p.spec.serviceAccountName, p.spec.serviceAccount], ['default', 'default']);
  w.stop();
});

test('a pod naming a missing account is refused at once; without the controller, default is refused after its retries', async () => {
  const w = await world([]);
  await w.client.create(NAMESPACES, { metadata: { name: 'team' } } as KObject);
  const refused = (e: unknown) => e as StatusError;
  const robot = refused(await w.client.create(PODS, pod('web', 'team', 'robot')).catch((e: unknown) => e));
  assert.instance(robot, StatusError);
  assert.is(robot.code, 403);
  assert.is(robot.message, 'pods "web" is forbidden: error looking up service account team/robot: serviceaccount "robot" not found');
  const started = w.clock.now();
  let refusedAtMs = 0;
  const pending = w.client.create(PODS, pod('api', 'team')).catch((e: unknown) => ((refusedAtMs = w.clock.now()), e));
  await w.run(5_000);
  const dflt = refused(await pending);
  assert.is(dflt.message, 'pods "api" is forbidden: error looking up service account team/default: serviceaccount "default" not found');
  const waitedMs = refusedAtMs - started;
  assert.ok(waitedMs >= 900 && waitedMs <= 1_800, `it asked ten times, 100 to 200 ms apart (refused after ${waitedMs} ms)`);
  w.stop();
});

test.run();
