// What a definition's schema does to the objects written through the API server: unknown fields
// pruned and reported as fieldValidation says, defaults filled, values and rules refused with 422,
// the printer columns, server-side apply merging lists by their keys, no strategic merge patches.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APPLY, headerValues, MERGE, STRATEGIC, startServer, type Harness } from '../../../helpers/in-process-server.ts';
import { settle } from '../../../helpers/watch-stream.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object', required: ['size'],
      properties: {
        size: { type: 'integer', maximum: 10 },
        color: { type: 'string', enum: ['blue', 'red'], default: 'blue' },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
      },
      'x-kubernetes-validations': [{ rule: 'self.size >= 1', message: 'size must be positive' }],
    },
  },
};

async function withWidgets(): Promise<Harness> {
  const h = await startServer();
  const crd = await h.post(CRDS, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: SCHEMA },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }, { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 1 }] }] } });
  assert.is(crd.status, 201, crd.text);
  await settle();
  return h;
}

const widget = (name: string, spec: object) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec });

test('unknown fields are dropped with a warning, or refused under Strict', async () => {
  const h = await withWidgets();
  const warned = await h.post(WIDGETS, widget('w1', { size: 1, bogus: true }));
  assert.is(warned.status, 201);
  assert.equal(warned.json.spec, { size: 1, color: 'blue' });
  assert.equal(headerValues(warned, 'warning'), ['299 - "unknown field \\"spec.bogus\\""']);
  const strict = await h.post(`${WIDGETS}?fieldValidation=Strict`, widget('w2', { size: 1, bogus: true }));
  assert.is(strict.status, 400);
  assert.is(strict.json.message, 'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.bogus"');
});

test('values the schema refuses and failed rules are Invalid', async () => {
  const h = await withWidgets();
  const big = await h.post(WIDGETS, widget('big', { size: 30 }));
  assert.is(big.status, 422);
  assert.is(big.json.message, 'Widget.example.com "big" is invalid: spec.size: Invalid value: 30: spec.size in body should be less than or equal to 10');
  const zero = await h.post(WIDGETS, widget('zero', { size: 0 }));
  assert.is(zero.status, 422);
  assert.is(zero.json.details.causes[0].message, 'Invalid value: "object": size must be positive');
  const missing = await h.post(WIDGETS, widget('missing', { color: 'red' }));
  assert.is(missing.status, 422);
  assert.is(missing.json.details.causes[0].field, 'spec.size');
});

test('the printer columns are the definition\'s, with wide ones at priority 1', async () => {
  const h = await withWidgets();
  await h.post(WIDGETS, widget('w1', { size: 3 }));
  const t = (await h.get(WIDGETS, { accept: TABLE })).json;
  assert.equal(t.columnDefinitions.map((c: { name: string; priority: number }) => [c.name, c.priority]), [['Name', 0], ['Size', 0], ['Color', 1]]);
  assert.equal(t.rows[0].cells, ['w1', 3, 'blue']);
});

test('server-side apply merges a map-type list by its keys, between two managers', async () => {
  const h = await withWidgets();
  const a = await h.patch(`${WIDGETS}/w1?fieldManager=a`, widget('w1', { size: 1, ports: [{ name: 'http', port: 80 }] }), APPLY);
  assert.is(a.status, 201, a.text);
  const b = await h.patch(`${WIDGETS}/w1?fieldManager=b`, widget('w1', { ports: [{ name: 'grpc', port: 90 }] }), APPLY);
  assert.is(b.status, 200, b.text);
  assert.equal(b.json.spec.ports, [{ name: 'http', port: 80 }, { name: 'grpc', port: 90 }]);
});

test('a strategic merge patch is refused with 415, a merge patch goes through', async () => {
  const h = await withWidgets();
  await h.post(WIDGETS, widget('w1', { size: 3 }));
  const smp = await h.patch(`${WIDGETS}/w1`, { spec: { size: 4 } }, STRATEGIC);
  assert.is(smp.status, 415);
  const merge = await h.patch(`${WIDGETS}/w1`, { spec: { size: 4 } }, MERGE);
  assert.is(merge.status, 200);
  assert.is(merge.json.spec.size, 4);
});

test('custom objects have no Protobuf form: a Protobuf body is 415, a Protobuf-only Accept 406', async () => {
  const h = await withWidgets();
  const body = await h.call('POST', WIDGETS, { body: new Uint8Array([0x6b, 0x38, 0x73, 0x00]), headers: { 'content-type': 'application/vnd.kubernetes.protobuf' } });
  assert.is(body.status, 415);
  assert.is(body.json.message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
  const read = await h.get(WIDGETS, { accept: 'application/vnd.kubernetes.protobuf' });
  assert.is(read.status, 406);
  assert.is(read.json.message, 'only the following media types are accepted: application/json, application/yaml');
  assert.is((await h.get(WIDGETS, { accept: 'application/vnd.kubernetes.protobuf, application/json' })).headers['content-type'], 'application/json');
});

test.run();
