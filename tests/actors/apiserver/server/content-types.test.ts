// Which Content-Type a write may carry, as the real handlers read it: POST, PUT and a DELETE body
// go through NegotiateInputSerializer (none means JSON, parameters allowed, case folded), PATCH
// through PatchResource's exact list (none, or anything else, is 415).
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { servingCert } from '../../../../actors/apiserver/certs.ts';
import { serveHttps } from '../../../../actors/apiserver/https.ts';
import { configMap, MERGE, startServer, type Reply } from '../../../helpers/in-process-server.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const BODY_TYPES = 'application/json, application/yaml, application/vnd.kubernetes.protobuf';
const PATCH_TYPES = 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml';

function unsupported(r: Reply, accepted: string, label: string): void {
  assert.is(r.status, 415, label);
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'UnsupportedMediaType', code: 415,
    message: `the body of the request was in an unknown format - accepted media types include: ${accepted}` }, label);
}

test('a POST or PUT without Content-Type is read as JSON, the first type the server reads', async () => {
  const h = await startServer();
  assert.is((await h.post(CM, configMap('a'))).status, 201);
  const r = await h.put(`${CM}/a`, configMap('a', { k: 'changed' }));
  assert.is(r.status, 200);
  assert.equal(r.json.data, { k: 'changed' });
});

test('parameters, blanks and upper case in a body Content-Type are read as Go\'s mime parser reads them', async () => {
  const h = await startServer();
  const types = ['application/json; charset=utf-8', 'Application/JSON', ' application/json ;charset="utf-8";', 'application/yaml; charset=UTF-8'];
  for (const [i, type] of types.entries()) {
    const body = type.includes('yaml') ? `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c${i}\ndata:\n  k: v\n` : configMap(`c${i}`);
    assert.is((await h.post(CM, body, { 'content-type': type })).status, 201, type);
  }
});

test('an unknown body type, or one whose parameters do not parse, answers 415 with the real Status and stores nothing', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const before = h.revision();
  for (const type of ['application/x-www-form-urlencoded', 'text/plain; charset=utf-8', 'application/json; charset', 'application/json;;', 'application/json; a=1; a=2', 'application/ json', 'json']) {
    unsupported(await h.post(CM, configMap('b'), { 'content-type': type }), BODY_TYPES, `POST ${type}`);
    unsupported(await h.put(`${CM}/a`, configMap('a', { k: 'x' }), { 'content-type': type }), BODY_TYPES, `PUT ${type}`);
  }
  unsupported(await h.del(`${CM}/a`, { propagationPolicy: 'Background' }, { 'content-type': 'text/plain' }), BODY_TYPES, 'DELETE text/plain');
  assert.is(h.revision(), before);
  assert.is((await h.del(`${CM}/a`, { propagationPolicy: 'Background' })).status, 200, 'a DELETE body without Content-Type is JSON');
});

test('a PATCH names its patch type exactly: none, an unknown one, other case or a blank before the parameters is 415', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const before = h.revision();
  for (const type of ['', 'application/json', 'Application/merge-patch+json', 'application/merge-patch+json ; charset=utf-8', 'application/apply-patch+cbor', ';application/merge-patch+json'])
    unsupported(await h.call('PATCH', `${CM}/a`, { body: { data: { k: 'x' } }, headers: type ? { 'content-type': type } : {} }), PATCH_TYPES, JSON.stringify(type));
  assert.is(h.revision(), before);
  const r = await h.patch(`${CM}/a`, { data: { k: 'x' } }, `${MERGE}; charset=utf-8`);
  assert.is(r.status, 200, 'parameters after the type are cut off');
  assert.equal(r.json.data, { k: 'x' });
});

test('over HTTPS, a body sent with no Content-Type header at all creates the object', async () => {
  const h = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-content-type-'));
  const cert = await servingCert({ certDir: dir }, manualClock(Date.now()));
  const listening = await serveHttps((req) => h.server.handle(req), { host: '127.0.0.1', port: 0, cert: cert.cert, key: cert.key, maxRequestBodyBytes: 3 * 1024 * 1024 });
  try {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(`${listening.url}${CM}`, { method: 'POST', ca: cert.cert }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(JSON.stringify(configMap('plain')));
    });
    assert.is(status, 201);
    assert.is((await h.get(`${CM}/plain`)).status, 200);
  } finally {
    await listening.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
