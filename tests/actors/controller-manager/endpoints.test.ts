// The endpoints and endpointslice controllers against a real API server on virtual time: a
// Service's Endpoints and EndpointSlices follow its pods as they become ready, unready and go,
// named ports are resolved per pod, slices split at --max-endpoints-per-slice, and pods no
// Service selects cost the controllers nothing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { timestamp } from '../../../actors/api/env.ts';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ControllerManager } from '../../../actors/controller-manager/controller-manager.ts';
import type { ControllerManagerOptions } from '../../../actors/controller-manager/options.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const SERVICES = lookupResource('', 'v1', 'services')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const NODES = lookupResource('', 'v1', 'nodes')!;
const ENDPOINTS = lookupResource('', 'v1', 'endpoints')!;
const SLICES = lookupResource('discovery.k8s.io', 'v1', 'endpointslices')!;
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function world(options: Partial<ControllerManagerOptions> = {}) {
  const w = await virtualWorld();
  const cm = new ControllerManager({ bus: w.bus, clock: w.clock, random: w.random.fork('cm'),
    options: { leaderElect: false, controllers: ['endpoints-controller', 'endpointslice-controller'], ...options },
    onError: (c, e) => { throw new Error(`${c}: ${e}`); } });
  await cm.start();
  const { client, clock } = w;
  await client.create(NODES, { metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } } } as KObject);
  return {
    ...w, cm,
    service: (name: string, spec: Rec) => client.create(SERVICES, { metadata: { name, namespace: 'default', labels: { team: 'shop' } }, spec } as KObject),
    /** A pod bound to n1 with an address; Ready or not; serving its `http` port on httpPort (none when 0). */
    async pod(name: string, ip: string, ready: boolean, labels: Record<string, string> = { app: 'web' }, httpPort = 8080) {
      await client.create(PODS, { metadata: { name, namespace: 'default', labels },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx', ...(httpPort ? { ports: [{ name: 'http', containerPort: httpPort }] } : {}) }] } } as KObject);
      await this.ready(name, ip, ready);
    },
    ready: (name: string, ip: string, ready: boolean) => client.patch(PODS, 'default', name, { status: { phase: 'Running', podIP: ip, podIPs: [{ ip }],
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: timestamp(clock.now()) }] } }, 'merge', 'status'),
    endpoints: async (name: string) => (await client.get(ENDPOINTS, 'default', name)) as Rec,
    slices: async (name: string) => (await client.list(SLICES, 'default', { labelSelector: `kubernetes.io/service-name=${name}` })).items as Rec[],
    done: () => (void cm.stop(), w.stop()),
  };
}

const ips = (addresses: Rec[] | undefined) => (addresses ?? []).map((a) => a.ip).sort();
const sliceEndpoints = (slices: Rec[]) => slices.flatMap((s) => s.endpoints ?? []).sort((a: Rec, b: Rec) => a.addresses[0].localeCompare(b.addresses[0]));

test('Endpoints and EndpointSlices list the ready pods, move the unready ones aside and drop deleted ones', async () => {
  const w = await world();
  await w.service('web', { selector: { app: 'web' }, ports: [{ name: 'web', port: 80, targetPort: 'http' }] });
  await w.pod('web-1', '10.244.0.11', true);
  await w.pod('web-2', '10.244.0.12', false);
  await w.pod('other', '10.244.0.13', true, { app: 'other' });
  await w.run(1_000);
  let ep = await w.endpoints('web');
  assert.equal(ips(ep.subsets[0].addresses), ['10.244.0.11']);
  assert.equal(ips(ep.subsets[0].notReadyAddresses), ['10.244.0.12']);
  assert.equal(ep.subsets[0].ports, [{ name: 'web', port: 8080, protocol: 'TCP' }], 'the named target port is the container port');
  assert.equal(ep.subsets[0].addresses[0].targetRef.name, 'web-1');
  assert.is(ep.subsets[0].addresses[0].nodeName, 'n1');
  assert.equal(ep.metadata.labels, { team: 'shop' }, 'the Service\'s labels');
  assert.ok(ep.metadata.annotations['endpoints.kubernetes.io/last-change-trigger-time']);
  let slices = await w.slices('web');
  assert.is(slices.length, 1);
  const [slice] = slices;
  assert.is(slice!.addressType, 'IPv4');
  assert.equal(slice!.ports, [{ name: 'web', port: 8080, protocol: 'TCP' }]);
  assert.equal(slice!.metadata.labels, { team: 'shop', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
  assert.is(slice!.metadata.ownerReferences[0].kind, 'Service');
  assert.equal(sliceEndpoints(slices).map((e) => [e.addresses[0], e.conditions.ready, e.zone, e.nodeName, e.targetRef.name]),
    [['10.244.0.11', true, 'zone-a', 'n1', 'web-1'], ['10.244.0.12', false, 'zone-a', 'n1', 'web-2']]);
  await w.ready('web-2', '10.244.0.12', true);
  await w.ready('web-1', '10.244.0.11', false);
  await w.run(1_000);
  ep = await w.endpoints('web');
  assert.equal([ips(ep.subsets[0].addresses), ips(ep.subsets[0].notReadyAddresses)], [['10.244.0.12'], ['10.244.0.11']]);
  slices = await w.slices('web');
  assert.equal(sliceEndpoints(slices).map((e) => e.conditions.ready), [false, true]);
  assert.is(slices[0]!.metadata.name, slice!.metadata.name, 'the slice is updated in place');
  await w.client.delete(PODS, 'default', 'web-2', { gracePeriodSeconds: 0 });
  await w.run(1_000);
  ep = await w.endpoints('web');
  assert.equal(ips(ep.subsets[0].notReadyAddresses), ['10.244.0.11']);
  assert.is(ep.subsets[0].addresses, undefined);
  assert.equal(sliceEndpoints(await w.slices('web')).map((e) => e.addresses[0]), ['10.244.0.11']);
  w.done();
});

test('a terminating pod leaves the Endpoints and stays in its slice as serving and terminating, not ready', async () => {
  const w = await world();
  await w.service('web', { selector: { app: 'web' }, ports: [{ port: 80 }] });
  await w.pod('web-1', '10.244.0.11', true);
  await w.run(1_000);
  await w.client.delete(PODS, 'default', 'web-1', { gracePeriodSeconds: 30 });
  await w.run(1_000);
  assert.is((await w.endpoints('web')).subsets, undefined);
  const [e] = sliceEndpoints(await w.slices('web'));
  assert.equal(e.conditions, { ready: false, serving: true, terminating: true });
  w.done();
});

test('publishNotReadyAddresses lists every pod as ready', async () => {
  const w = await world();
  await w.service('db', { selector: { app: 'web' }, clusterIP: 'None', publishNotReadyAddresses: true, ports: [{ port: 5432 }] });
  await w.pod('web-1', '10.244.0.11', false);
  await w.run(1_000);
  const ep = await w.endpoints('db');
  assert.equal(ips(ep.subsets[0].addresses), ['10.244.0.11']);
  assert.is(ep.metadata.labels['service.kubernetes.io/headless'], '');
  const slices = await w.slices('db');
  assert.is(sliceEndpoints(slices)[0].conditions.ready, true);
  assert.is(slices[0]!.metadata.labels['service.kubernetes.io/headless'], '');
  w.done();
});

test('a named port resolves per pod: pods serving it on different container ports are grouped apart, pods without it left out', async () => {
  const w = await world();
  await w.service('web', { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] });
  await w.pod('old', '10.244.0.11', true, { app: 'web' }, 8080);
  await w.pod('new', '10.244.0.12', true, { app: 'web' }, 9090);
  await w.pod('none', '10.244.0.13', true, { app: 'web' }, 0);
  await w.run(1_000);
  const ep = await w.endpoints('web');
  assert.equal(ep.subsets.map((s: Rec) => [s.ports[0].port, ips(s.addresses)]).sort(), [[8080, ['10.244.0.11']], [9090, ['10.244.0.12']]]);
  // A pod without the port is left out of the Endpoints, but its slice endpoint has no ports (as the real reconciler files it).
  const slices = await w.slices('web');
  assert.equal(slices.map((s) => [s.ports[0]?.port ?? 'none', s.endpoints.map((e: Rec) => e.addresses[0])]).sort(),
    [[8080, ['10.244.0.11']], [9090, ['10.244.0.12']], ['none', ['10.244.0.13']]]);
  w.done();
});

test('slices split at --max-endpoints-per-slice and keep every endpoint', async () => {
  const w = await world({ maxEndpointsPerSlice: 2 });
  await w.service('web', { selector: { app: 'web' }, ports: [{ port: 80 }] });
  for (let i = 1; i <= 5; i++) await w.pod(`web-${i}`, `10.244.0.${10 + i}`, true);
  await w.run(1_000);
  const slices = await w.slices('web');
  assert.is(slices.length, 3);
  assert.ok(slices.every((s) => s.endpoints.length <= 2));
  assert.equal(sliceEndpoints(slices).map((e) => e.addresses[0]), ['10.244.0.11', '10.244.0.12', '10.244.0.13', '10.244.0.14', '10.244.0.15']);
  w.done();
});

test('selectorless Services are left to their owners; a Service with no pods gets empty Endpoints and one empty slice', async () => {
  const w = await world();
  await w.service('external', { ports: [{ port: 80 }] });
  await w.client.create(ENDPOINTS, { metadata: { name: 'external', namespace: 'default' }, subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 80 }] }] } as KObject);
  await w.service('lonely', { selector: { app: 'nobody' }, ports: [{ port: 80 }] });
  await w.run(1_000);
  assert.equal(ips((await w.endpoints('external')).subsets[0].addresses), ['192.0.2.10'], 'the owner\'s Endpoints stay as written');
  assert.equal(await w.slices('external'), []);
  assert.is((await w.endpoints('lonely')).subsets, undefined);
  const placeholder = await w.slices('lonely');
  assert.is(placeholder.length, 1);
  assert.equal([placeholder[0]!.endpoints ?? [], placeholder[0]!.ports ?? []], [[], []]);
  w.done();
});

test('the Endpoints of a selectorless Service are mirrored into EndpointSlices, which follow them and go when the Service gets a selector', async () => {
  const w = await world({ controllers: ['endpoints-controller', 'endpointslice-controller', 'endpointslice-mirroring-controller'] });
  await w.service('external', { ports: [{ port: 80 }] });
  const ep = await w.client.create(ENDPOINTS, { metadata: { name: 'external', namespace: 'default', labels: { tier: 'db' } },
    subsets: [{ addresses: [{ ip: '192.0.2.10' }], notReadyAddresses: [{ ip: '192.0.2.11' }], ports: [{ name: 'sql', port: 5432 }] }] } as KObject);
  await w.run(1_000);
  let slices = await w.slices('external');
  assert.is(slices.length, 1);
  assert.equal(slices[0]!.metadata.labels, { tier: 'db', 'kubernetes.io/service-name': 'external', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' });
  assert.equal([slices[0]!.metadata.ownerReferences[0].kind, slices[0]!.metadata.ownerReferences[0].uid], ['Endpoints', ep.metadata.uid]);
  assert.equal(slices[0]!.ports, [{ name: 'sql', port: 5432, protocol: 'TCP' }]);
  assert.equal(sliceEndpoints(slices).map((e) => [e.addresses[0], e.conditions]), [['192.0.2.10', { ready: true }], ['192.0.2.11', { ready: false }]]);
  await w.client.patch(ENDPOINTS, 'default', 'external', { subsets: [{ addresses: [{ ip: '192.0.2.12' }], ports: [{ name: 'sql', port: 5432 }] }] }, 'merge');
  await w.run(1_000);
  slices = await w.slices('external');
  assert.equal(sliceEndpoints(slices).map((e) => e.addresses[0]), ['192.0.2.12']);
  assert.is((await w.slices('kubernetes')).filter((s) => s.metadata.labels['endpointslice.kubernetes.io/managed-by'] !== undefined).length, 0,
    'the kubernetes Service\'s Endpoints say skip-mirror');
  await w.client.patch(SERVICES, 'default', 'external', { spec: { selector: { app: 'db' } } }, 'merge');
  await w.run(1_000);
  assert.equal((await w.slices('external')).map((s) => s.metadata.labels['endpointslice.kubernetes.io/managed-by']), ['endpointslice-controller.k8s.io'],
    'with a selector, the endpointslice controller\'s slices, no mirrored ones');
  w.done();
});

test('a deleted Service\'s Endpoints are deleted', async () => {
  const w = await world();
  await w.service('web', { selector: { app: 'web' }, ports: [{ port: 80 }] });
  await w.run(1_000);
  assert.ok(await w.endpoints('web'));
  await w.client.delete(SERVICES, 'default', 'web');
  await w.run(1_000);
  const gone = await w.client.get(ENDPOINTS, 'default', 'web').then(() => false, () => true);
  assert.ok(gone);
  w.done();
});

test('pods no Service selects wake neither controller', async () => {
  const w = await world();
  await w.run(1_000);
  const adds = () => w.cm.metrics.getSingleMetricAsString('workqueue_adds_total');
  const before = await adds();
  for (let i = 0; i < 20; i++) await w.pod(`batch-${i}`, `10.244.1.${i + 1}`, i % 2 === 0, { app: 'batch' });
  await w.run(1_000);
  assert.is(await adds(), before);
  w.done();
});

test.run();
