// Service cluster IPs and node ports, as the real registry's allocators hand them out: from the
// server's ranges, a requested one reserved or refused in the real words, given back on delete
// and on a type change, rebuilt from the store when a server starts on it, none taken by a dry run.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apiServerOptions, type ApiServerOptions } from '../../../../actors/apiserver/options.ts';
import { ApiServer } from '../../../../actors/apiserver/server.ts';
import { seededRandom } from '../../../../sim/random.ts';
import { startServer, type Harness } from '../../../helpers/in-process-server.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';

const SVC = '/api/v1/namespaces/default/services';
const MERGE = 'application/merge-patch+json';
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const service = (name: string, spec: Rec = {}) => ({ metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });
const ipOf = async (h: Harness, name: string) => (await h.get(`${SVC}/${name}`)).json.spec.clusterIP as string;
/** A /29: six addresses, the kubernetes Service's .1 among them. */
const SMALL: Partial<ApiServerOptions> = { serviceClusterIpRange: '10.0.0.0/29', serviceNodePortRange: { base: 30000, size: 3 } };

test('cluster IPs come from the range, picked in its upper part first; the kubernetes Service holds the first address', async () => {
  const h = await startServer();
  assert.is(await ipOf(h, 'kubernetes'), '10.0.0.1');
  const seen = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const r = await h.post(SVC, service(`s${i}`));
    assert.is(r.status, 201);
    const { clusterIP, clusterIPs, ipFamilies, ipFamilyPolicy } = r.json.spec;
    assert.equal([clusterIPs, ipFamilies, ipFamilyPolicy], [[clusterIP], ['IPv4'], 'SingleStack']);
    assert.match(clusterIP, /^10\.0\.0\.\d+$/);
    assert.ok(Number(clusterIP.split('.')[3]) > 16, `${clusterIP} is above the static band (.1 to .16)`);
    seen.add(clusterIP);
  }
  assert.is(seen.size, 20, 'no address twice');
});

test('a full range answers 500 "range is full"; a deleted Service gives its address back', async () => {
  const h = await startServer(SMALL);
  for (let i = 0; i < 5; i++) assert.is((await h.post(SVC, service(`s${i}`))).status, 201);
  const full = await h.post(SVC, service('s5'));
  assert.is(full.status, 500);
  assert.is(full.json.message, 'Internal error occurred: failed to allocate a serviceIP: range is full');
  const freed = await ipOf(h, 's2');
  assert.is((await h.del(`${SVC}/s2`)).status, 200);
  const again = await h.post(SVC, service('s5'));
  assert.is(again.status, 201);
  assert.is(again.json.spec.clusterIP, freed);
});

test('a requested address is reserved, or refused when taken, outside the range or not an address', async () => {
  const h = await startServer();
  assert.is((await h.post(SVC, service('a', { clusterIP: '10.0.0.5' }))).json.spec.clusterIP, '10.0.0.5');
  const taken = await h.post(SVC, service('b', { clusterIP: '10.0.0.5' }));
  assert.is(taken.status, 422);
  assert.is(taken.json.message, 'Service "b" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.5"}: failed to allocate IP 10.0.0.5: provided IP is already allocated');
  const outside = await h.post(SVC, service('b', { clusterIP: '10.1.0.5' }));
  assert.is(outside.json.message,
    'Service "b" is invalid: spec.clusterIPs: Invalid value: []string{"10.1.0.5"}: failed to allocate IP 10.1.0.5: the provided IP (10.1.0.5) is not in the valid range. The range of valid IPs is 10.0.0.0/24');
  const bad = await h.post(SVC, service('b', { clusterIP: 'ten' }));
  assert.is(bad.json.message, 'Service "b" is invalid: spec.clusterIPs[0]: Invalid value: "ten": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
  const v6 = await h.post(SVC, service('b', { clusterIP: 'fd00::5' }));
  assert.is(v6.json.message, 'Service "b" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::5"}: IPv6 is not configured on this cluster');
  await h.del(`${SVC}/a`);
  assert.is((await h.post(SVC, service('b', { clusterIP: '10.0.0.5' }))).status, 201, 'given back on delete');
});

test('a headless Service and an ExternalName get no address', async () => {
  const h = await startServer();
  const headless = (await h.post(SVC, service('db', { clusterIP: 'None', selector: { app: 'db' } }))).json.spec;
  assert.equal([headless.clusterIP, headless.clusterIPs, headless.ipFamilies, headless.ipFamilyPolicy], ['None', ['None'], ['IPv4'], 'SingleStack']);
  const external = (await h.post(SVC, { metadata: { name: 'ext' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } })).json.spec;
  assert.equal([external.clusterIP, external.clusterIPs, external.ipFamilies], [undefined, undefined, undefined]);
});

test('node ports come from their range, picked above its static band; a requested one is reserved or refused; a full range answers 500', async () => {
  // 20 ports: 30000 to 30015 are the static band, kept for ports asked for.
  const h = await startServer({ serviceNodePortRange: { base: 30000, size: 20 } });
  const a = (await h.post(SVC, service('a', { type: 'NodePort', ports: [{ name: 'x', port: 80 }, { name: 'y', port: 81, nodePort: 30001 }] }))).json.spec;
  assert.is(a.ports[1].nodePort, 30001, 'the port asked for');
  assert.ok(a.ports[0].nodePort >= 30016 && a.ports[0].nodePort <= 30019, `a port above the static band (${a.ports[0].nodePort})`);
  const taken = await h.post(SVC, service('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30001 }] }));
  assert.is(taken.status, 422);
  assert.is(taken.json.message, 'Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30001: provided port is already allocated');
  const outside = await h.post(SVC, service('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] }));
  assert.is(outside.json.message, 'Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 31000: provided port is not in the valid range. The range of valid ports is 30000-30019');
  for (let i = 0; i < 18; i++) assert.is((await h.post(SVC, service(`c${i}`, { type: 'NodePort' }))).status, 201);
  const full = await h.post(SVC, service('d', { type: 'NodePort' }));
  assert.is(full.status, 500);
  assert.is(full.json.message, 'Internal error occurred: failed to allocate a nodePort: range is full');
  assert.is((await h.get(`${SVC}/d`)).status, 404, 'nothing stored');
});

test('a create refused for its node ports gives back the address it took', async () => {
  const h = await startServer({ ...SMALL, serviceNodePortRange: { base: 30000, size: 1 } });
  assert.is((await h.post(SVC, service('a', { type: 'NodePort' }))).status, 201);
  assert.is((await h.post(SVC, service('b', { type: 'NodePort' }))).status, 500);
  for (let i = 0; i < 4; i++) assert.is((await h.post(SVC, service(`c${i}`))).status, 201, 'the four addresses left are all free');
});

test('a type change allocates and gives back: ClusterIP to NodePort and back, LoadBalancer with Local traffic and its health-check port', async () => {
  const h = await startServer(SMALL);
  await h.post(SVC, service('web'));
  const node = (await h.patch(`${SVC}/web`, { spec: { type: 'NodePort' } }, MERGE)).json.spec;
  const port = node.ports[0].nodePort;
  assert.ok(port >= 30000 && port <= 30002);
  assert.is(node.externalTrafficPolicy, 'Cluster');
  const back = await h.patch(`${SVC}/web`, { spec: { type: 'ClusterIP' } }, MERGE);
  assert.is(back.status, 200, back.text);
  assert.equal([back.json.spec.ports[0].nodePort, back.json.spec.externalTrafficPolicy], [undefined, undefined], 'the node port and traffic policy are dropped');
  assert.is((await h.post(SVC, service('other', { type: 'NodePort', ports: [{ port: 80, nodePort: port }] }))).status, 201, 'and the port was given back');
  const lb = (await h.post(SVC, service('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }))).json.spec;
  assert.equal([lb.allocateLoadBalancerNodePorts, typeof lb.healthCheckNodePort, typeof lb.ports[0].nodePort], [true, 'number', 'number']);
  const cluster = await h.patch(`${SVC}/lb`, { spec: { type: 'ClusterIP' } }, MERGE);
  assert.equal([cluster.json.spec.healthCheckNodePort, cluster.json.spec.allocateLoadBalancerNodePorts], [undefined, undefined]);
  assert.is((await h.post(SVC, service('lb2', { type: 'NodePort', ports: [{ port: 80, nodePort: lb.healthCheckNodePort }] }))).status, 201, 'the health-check port was given back');
});

test('the cluster IP may not change; an update that leaves it out keeps it; to ExternalName gives it back', async () => {
  const h = await startServer(SMALL);
  const ip = (await h.post(SVC, service('web', { selector: { app: 'web' } }))).json.spec.clusterIP;
  const moved = await h.patch(`${SVC}/web`, { spec: { clusterIP: ip === '10.0.0.6' ? '10.0.0.5' : '10.0.0.6' } }, MERGE);
  assert.is(moved.status, 422);
  assert.match(moved.json.message, /^Service "web" is invalid: spec\.clusterIPs\[0\]: Invalid value: \[\]string\{"10\.0\.0\.\d"\}: may not change once set$/);
  const current = (await h.get(`${SVC}/web`)).json;
  const put = await h.put(`${SVC}/web`, { metadata: { name: 'web', resourceVersion: current.metadata.resourceVersion }, spec: { ports: [{ port: 81 }], selector: { app: 'web' } } });
  assert.is(put.status, 200, put.text);
  assert.is(put.json.spec.clusterIP, ip, 'a PUT without the address keeps it');
  const external = await h.patch(`${SVC}/web`, { spec: { type: 'ExternalName', externalName: 'web.example.com' } }, MERGE);
  assert.is(external.status, 200, external.text);
  assert.equal([external.json.spec.clusterIP, external.json.spec.clusterIPs], [undefined, undefined]);
  assert.is((await h.post(SVC, service('again', { clusterIP: ip }))).status, 201, 'its address was given back');
});

test('a dry run allocates nothing and answers the network address and made-up node ports, as the real one', async () => {
  const h = await startServer(SMALL);
  const before = h.revision();
  const dry = await h.post(`${SVC}?dryRun=All`, service('web', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }));
  assert.is(dry.status, 201);
  assert.is(dry.json.spec.clusterIP, '10.0.0.0');
  assert.equal(dry.json.spec.ports.map((p: Rec) => p.nodePort), [32769, 32770]);
  assert.is(dry.json.spec.healthCheckNodePort, 32771);
  assert.is(h.revision(), before);
  for (let i = 0; i < 5; i++) assert.is((await h.post(SVC, service(`s${i}`))).status, 201, 'the whole range is still free');
  for (let port = 30000; port <= 30002; port++)
    assert.is((await h.post(`${SVC}?dryRun=All`, service(`p${port}`, { type: 'NodePort', ports: [{ port: 80, nodePort: port }] }))).status, 201);
});

test('a server starting on a store takes back what its Services hold', async () => {
  const clock = manualClock();
  const options = apiServerOptions({ etcdCompactionIntervalMs: 0, ...SMALL });
  const first = new ApiServer(options, { clock, random: seededRandom(1) });
  await first.start();
  const post = (server: ApiServer, body: unknown) => server.handle({ method: 'POST', url: SVC, headers: {}, body: Buffer.from(JSON.stringify(body)) });
  for (let i = 0; i < 4; i++) await post(first, service(`s${i}`));
  await post(first, service('np', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }, { name: 'c', port: 82 }] }));
  first.stop();
  const second = new ApiServer(options, { clock, random: seededRandom(2), store: first.store });
  await second.start();
  const full = await post(second, service('s5'));
  assert.is(full.status, 500, 'the five addresses are taken');
  const port = await post(second, service('np2', { type: 'NodePort' }));
  assert.is(port.status, 500, 'so are the three ports');
  second.stop();
});

test.run();
