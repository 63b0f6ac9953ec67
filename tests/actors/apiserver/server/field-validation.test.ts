// Field validation on POST, PUT and PATCH: unknown and duplicate fields are dropped (Ignore),
// warned one Warning header each (Warn, the default) or rejected listing every one (Strict);
// type errors always fail and missing required fields are Invalid.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APPLY, configMap, headerValues, MERGE, pod, startServer, STRATEGIC } from '../../../helpers/in-process-server.ts';

const PODS = '/api/v1/namespaces/default/pods';
const CM = '/api/v1/namespaces/default/configmaps';
/** A pod with an unknown nested field, an unknown top-level field and a duplicated label key. */
const sloppyPod = (name: string) =>
  `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"${name}","labels":{"a":"1","a":"2"}},` +
  `"spec":{"containers":[{"name":"c","image":"nginx:1.27"}],"x":1},"bogus":true}`;
const PROBLEMS = ['unknown field "bogus"', 'unknown field "spec.x"', 'duplicate field "metadata.labels.a"'];
const warning = (problem: string) => `299 - ${JSON.stringify(problem)}`;

test('Warn is the default: the create succeeds with one Warning header per dropped field', async () => {
  const h = await startServer();
  const r = await h.post(PODS, sloppyPod('p'));
  assert.is(r.status, 201);
  assert.equal(headerValues(r, 'warning').sort(), PROBLEMS.map(warning).sort());
  assert.ok(headerValues(r, 'warning').includes('299 - "unknown field \\"spec.x\\""'));
  assert.is(r.json.bogus, undefined);
  assert.is(r.json.spec.x, undefined);
  assert.equal(r.json.metadata.labels, { a: '2' }, 'the last duplicate wins, as in Go');
});

test('fieldValidation=Warn on POST warns exactly as the default does', async () => {
  const h = await startServer();
  const r = await h.post(`${PODS}?fieldValidation=Warn`, sloppyPod('p'));
  assert.is(r.status, 201);
  assert.is(headerValues(r, 'warning').length, 3);
});

test('fieldValidation=Ignore on POST drops unknown and duplicate fields silently', async () => {
  const h = await startServer();
  const r = await h.post(`${PODS}?fieldValidation=Ignore`, sloppyPod('p'));
  assert.is(r.status, 201);
  assert.equal(headerValues(r, 'warning'), []);
  assert.is(r.json.spec.x, undefined);
  assert.is(r.json.bogus, undefined);
});

test('fieldValidation=Strict on POST answers 400 listing every unknown and duplicate field, and stores nothing', async () => {
  const h = await startServer();
  const before = h.revision();
  const r = await h.post(`${PODS}?fieldValidation=Strict`, sloppyPod('p'));
  assert.is(r.status, 400);
  assert.is(r.json.reason, 'BadRequest');
  assert.match(r.json.message, /^Pod in version "v1" cannot be handled as a Pod: strict decoding error: /);
  for (const p of PROBLEMS) assert.ok(r.json.message.includes(p), p);
  assert.is(h.revision(), before);
  assert.is((await h.get(`${PODS}/p`)).status, 404);
});

test('a clean body under Strict is created without warnings', async () => {
  const h = await startServer();
  const r = await h.post(`${PODS}?fieldValidation=Strict`, pod('p'));
  assert.is(r.status, 201);
  assert.equal(headerValues(r, 'warning'), []);
});

test('PUT follows fieldValidation: Warn warns, Ignore is silent, Strict refuses and keeps the object', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const sloppy = (v: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"0","k":"${v}"},"spec":{"x":1}}`;
  const problems = ['unknown field "spec"', 'duplicate field "data.k"'];
  const warn = await h.put(`${CM}/a`, sloppy('1'));
  assert.is(warn.status, 200);
  assert.equal(headerValues(warn, 'warning').sort(), problems.map(warning).sort());
  assert.equal(warn.json.data, { k: '1' });
  const ignore = await h.put(`${CM}/a?fieldValidation=Ignore`, sloppy('2'));
  assert.is(ignore.status, 200);
  assert.equal(headerValues(ignore, 'warning'), []);
  const stored = (await h.get(`${CM}/a`)).json;
  const strict = await h.put(`${CM}/a?fieldValidation=Strict`, sloppy('3'));
  assert.is(strict.status, 400);
  assert.match(strict.json.message, /^ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: /);
  for (const p of problems) assert.ok(strict.json.message.includes(p), p);
  assert.equal((await h.get(`${CM}/a`)).json, stored);
});

test('a merge patch that adds an unknown field warns under Warn and drops the field', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.patch(`${CM}/a`, { data: { k: 'w' }, spec: { x: 1 } }, MERGE);
  assert.is(r.status, 200);
  assert.equal(headerValues(r, 'warning'), [warning('unknown field "spec"')]);
  assert.is(r.json.spec, undefined);
  assert.equal(r.json.data, { k: 'w' });
});

test('a patch with duplicate keys warns about each under Warn, and the last value wins', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const merge = await h.patch(`${CM}/a`, '{"data":{"k":"1","k":"2"}}', MERGE);
  assert.is(merge.status, 200);
  assert.equal(headerValues(merge, 'warning'), [warning('duplicate field "data.k"')]);
  assert.equal(merge.json.data, { k: '2' });
  const strategic = await h.patch(`${CM}/a`, '{"data":{"k":"3","k":"4"}}', STRATEGIC);
  assert.equal(headerValues(strategic, 'warning'), [warning('duplicate field "data.k"')]);
  assert.equal(strategic.json.data, { k: '4' });
});

test('a patch under Strict with unknown or duplicate fields answers 422 Invalid on the patch and changes nothing', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v' }));
  const before = h.revision();
  const unknown = await h.patch(`${CM}/a?fieldValidation=Strict`, { data: { k: 'w' }, spec: { x: 1 } }, MERGE);
  assert.is(unknown.status, 422);
  assert.is(unknown.json.reason, 'Invalid');
  assert.is(unknown.json.details.causes[0].field, 'patch');
  assert.match(unknown.json.message, /strict decoding error: unknown field "spec"$/);
  const both = await h.patch(`${CM}/a?fieldValidation=Strict`, '{"data":{"k":"1","k":"2"},"spec":{}}', MERGE);
  assert.is(both.status, 422);
  assert.match(both.json.message, /strict decoding error: duplicate field "data.k", unknown field "spec"$/);
  assert.is(h.revision(), before);
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: 'v' });
});

test('a patch under Ignore drops unknown fields without a warning', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.patch(`${CM}/a?fieldValidation=Ignore`, '{"data":{"k":"1","k":"2"},"spec":{}}', MERGE);
  assert.is(r.status, 200);
  assert.equal(headerValues(r, 'warning'), []);
  assert.is(r.json.spec, undefined);
});

test('an apply patch with duplicate keys answers 400 under Strict and warns under Warn', async () => {
  const h = await startServer();
  const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: "1"\n  k: "2"\n';
  const strict = await h.patch(`${CM}/a?fieldManager=m&fieldValidation=Strict`, body, APPLY);
  assert.is(strict.status, 400);
  assert.is(strict.json.reason, 'BadRequest');
  assert.match(strict.json.message, /^error strict decoding YAML: /);
  assert.is((await h.get(`${CM}/a`)).status, 404);
  const warn = await h.patch(`${CM}/a?fieldManager=m`, body, APPLY);
  assert.is(warn.status, 201);
  assert.equal(headerValues(warn, 'warning'), [warning('duplicate field "data.k"')]);
  assert.equal(warn.json.data, { k: '2' });
});

test('an invalid fieldValidation value answers 422 on the options kind of each verb', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const cases: [string, Promise<any>][] = [
    ['CreateOptions', h.post(`${CM}?fieldValidation=Loose`, configMap('b'))],
    ['UpdateOptions', h.put(`${CM}/a?fieldValidation=Loose`, configMap('a'))],
    ['PatchOptions', h.patch(`${CM}/a?fieldValidation=Loose`, { data: {} }, MERGE)],
  ];
  for (const [kind, pending] of cases) {
    const r = await pending;
    assert.is(r.status, 422, kind);
    assert.is(r.json.reason, 'Invalid');
    assert.is(r.json.details.kind, kind);
    assert.is(r.json.details.group, 'meta.k8s.io');
    assert.is(r.json.message, `${kind}.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"`);
  }
  assert.is((await h.get(`${CM}/b`)).status, 404);
});

test('a type error answers 400 on POST and PUT whatever fieldValidation says', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  for (const mode of ['Ignore', 'Warn', 'Strict']) {
    const post = await h.post(`${CM}?fieldValidation=${mode}`, { metadata: { name: 'b' }, data: 5 });
    assert.is(post.status, 400, mode);
    assert.is(post.json.reason, 'BadRequest');
    assert.is(post.json.message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type map[string]string');
    const put = await h.put(`${CM}/a?fieldValidation=${mode}`, { metadata: { name: 'a' }, data: { k: 1 } });
    assert.is(put.status, 400, mode);
  }
  assert.is((await h.get(`${CM}/b`)).status, 404);
});

test('a patch that gives a field the wrong type answers 422 Invalid on the patch, as patch.go does', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a', { k: 'v' }));
  const r = await h.patch(`${CM}/a?fieldValidation=Ignore`, { data: 5 }, MERGE);
  assert.is(r.status, 422);
  assert.is(r.json.details.causes[0].field, 'patch');
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: 'v' });
});

test('a missing required field answers 422 Invalid naming it, whatever fieldValidation says', async () => {
  const h = await startServer();
  for (const mode of ['Ignore', 'Warn', 'Strict']) {
    const r = await h.post(`${PODS}?fieldValidation=${mode}`, { metadata: { name: 'p' }, spec: {} });
    assert.is(r.status, 422, mode);
    assert.is(r.json.reason, 'Invalid');
    assert.is(r.json.message, 'Pod "p" is invalid: spec.containers: Required value');
    assert.equal(r.json.details, { name: 'p', group: '', kind: 'Pod', causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' }] });
  }
  assert.is((await h.get(`${PODS}/p`)).status, 404);
});

test('a body of the wrong kind or apiVersion answers 400', async () => {
  const h = await startServer();
  const kind = await h.post(CM, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } });
  assert.is(kind.status, 400);
  assert.is(kind.json.message, 'the kind in the data (Secret) does not match the expected kind (ConfigMap)');
  const version = await h.post(CM, { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x' } });
  assert.is(version.status, 400);
  assert.is(version.json.message, 'the API version in the data (apps/v1) does not match the expected API version (v1)');
});

test.run();
