// Endpoints and EndpointSlices as kinds: kubectl get's columns (printEndpoints,
// printEndpointSlice), their defaults, and their validation in the real server's words.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResourceType } from '../../../../actors/api/resources.ts';
import type { KObject } from '../../../../actors/api/types.ts';
import { kindOf } from '../../../../actors/apiserver/registry/kinds/index.ts';
import { tableCells, tableColumns } from '../../../../actors/apiserver/registry/tables.ts';
import { startServer } from '../../../helpers/in-process-server.ts';

const ENDPOINTS = kindOf({ group: '', resource: 'endpoints' } as ResourceType);
const SLICES = kindOf({ group: 'discovery.k8s.io', resource: 'endpointslices' } as ResourceType);
const NOW = Date.parse('2024-05-03T12:00:00Z');
const obj = (fields: Record<string, unknown>): KObject => ({ metadata: { name: 'web', creationTimestamp: '2024-05-03T11:00:00Z' }, ...fields });
const address = (ip: string) => ({ ip });

test('kubectl get endpoints shows ip:port of the ready addresses, three at most, or <none>', () => {
  assert.equal(tableColumns(ENDPOINTS).map((c) => c.name), ['Name', 'Endpoints', 'Age']);
  const five = obj({ subsets: [{ addresses: ['10.0.0.1', '10.0.0.2'].map(address), notReadyAddresses: [address('10.0.0.9')], ports: [{ port: 80 }, { port: 443 }] },
    { addresses: [address('fd00::1')], ports: [{ port: 53 }] }] });
  assert.equal(tableCells(ENDPOINTS, five, NOW), ['web', '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...', '60m']);
  assert.equal(tableCells(ENDPOINTS, obj({ subsets: [{ addresses: [address('fd00::1')], ports: [{ port: 53 }] }] }), NOW)[1], '[fd00::1]:53');
  assert.equal(tableCells(ENDPOINTS, obj({ subsets: [{ addresses: [address('10.0.0.1')] }] }), NOW)[1], '10.0.0.1', 'a headless Service without ports');
  assert.equal(tableCells(ENDPOINTS, obj({}), NOW)[1], '<none>');
});

test('kubectl get endpointslices shows the address type, ports and addresses, three at most, or <unset>', () => {
  assert.equal(tableColumns(SLICES).map((c) => c.name), ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age']);
  const slice = obj({ addressType: 'IPv4', ports: [{ name: 'http', port: 80 }, { name: 'all' }, { port: 8080 }, { port: 9090 }],
    endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2'] }, { addresses: ['10.0.0.3'] }, { addresses: ['10.0.0.4'] }] });
  assert.equal(tableCells(SLICES, slice, NOW), ['web', 'IPv4', '80,all,8080 + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...', '60m']);
  assert.equal(tableCells(SLICES, obj({ addressType: 'IPv4' }), NOW).slice(2, 4), ['<unset>', '<unset>']);
});

test('Endpoints and EndpointSlices are defaulted and validated as the real server does', async () => {
  const h = await startServer();
  const ep = await h.post('/api/v1/namespaces/default/endpoints', { metadata: { name: 'ext' }, subsets: [{ addresses: [address('192.0.2.1')], ports: [{ port: 80 }] }] });
  assert.equal(ep.json.subsets[0].ports, [{ port: 80, protocol: 'TCP' }]);
  const bad = await h.post('/api/v1/namespaces/default/endpoints', { metadata: { name: 'bad' },
    subsets: [{ addresses: [address('nope')], ports: [{ name: 'a', port: 80 }, { port: 0 }] }, { ports: [{ port: 80 }] }] });
  assert.is(bad.status, 422);
  assert.is(bad.json.message, 'Endpoints "bad" is invalid: [subsets[0].addresses[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff), '
    + 'subsets[0].ports[1].name: Required value, subsets[0].ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive, '
    + 'subsets[1]: Required value: must specify `addresses` or `notReadyAddresses`]');
  const SLICE_URL = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
  const slice = await h.post(SLICE_URL, { metadata: { name: 's' }, addressType: 'IPv4', endpoints: [{ addresses: ['192.0.2.1'] }], ports: [{ port: 80 }] });
  assert.is(slice.status, 201);
  assert.equal(slice.json.ports, [{ port: 80, name: '', protocol: 'TCP' }]);
  const wrong = await h.post(SLICE_URL, { metadata: { name: 't' }, addressType: 'IPv6', endpoints: [{ addresses: ['192.0.2.1'] }, { addresses: [] }],
    ports: [{ name: 'x', port: 80 }, { name: 'x', port: 81 }] });
  assert.is(wrong.json.message, 'EndpointSlice.discovery.k8s.io "t" is invalid: [endpoints[0].addresses[0]: Invalid value: "192.0.2.1": must be a valid IPv6 address, '
    + 'endpoints[1].addresses: Required value: must contain at least 1 address, ports[1].name: Duplicate value: "x"]');
  const moved = await h.patch(`${SLICE_URL}/s`, { addressType: 'FQDN', endpoints: [{ addresses: ['db.example.com'] }] }, 'application/merge-patch+json');
  assert.is(moved.json.message, 'EndpointSlice.discovery.k8s.io "s" is invalid: addressType: Invalid value: "FQDN": field is immutable');
});

test('a Service is validated as the real server does', async () => {
  const h = await startServer();
  const r = await h.post('/api/v1/namespaces/default/services', { metadata: { name: 'web' },
    spec: { ports: [{ port: 80, nodePort: 30080 }, { port: 80 }], sessionAffinity: 'Sticky' } });
  assert.is(r.status, 422);
  assert.is(r.json.message, 'Service "web" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value, '
    + 'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None", '
    + 'spec.ports[0].nodePort: Forbidden: may not be used when `type` is \'ClusterIP\', spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}]');
});

test.run();
