// Every Status reason and code of CLIENTS.md 1.6 that the server produces, with the messages of
// real servers, and the rule that the HTTP status always equals the body's `code`.
import { request as httpsRequest } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { servingCert } from '../../../../actors/apiserver/certs.ts';
import { serveHttps } from '../../../../actors/apiserver/https.ts';
import { configMap, controllerRevision, headerValues, MERGE, pod, startServer, type Harness, type Reply } from '../../../helpers/in-process-server.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';
const MINUTE_MS = 60_000;

function failure(r: Reply, code: number, reason: string): void {
  assert.is(r.status, code, r.text);
  assert.is(r.headers['content-type'], 'application/json');
  assert.is(r.json.kind, 'Status');
  assert.is(r.json.apiVersion, 'v1');
  assert.is(r.json.status, 'Failure');
  assert.is(r.json.code, code);
  assert.is(r.json.reason, reason);
}

/** A server that compacts every minute, with a list split at a revision compaction will pass. */
async function compactedList(): Promise<{ h: Harness; revision: string; token: string }> {
  const h = await startServer({ etcdCompactionIntervalMs: MINUTE_MS });
  for (const n of ['a', 'b', 'c', 'd']) await h.post(CM, configMap(n));
  const first = (await h.get(`${CM}?limit=2`)).json;
  await h.patch(`${CM}/d`, { data: { k: 'changed' } }, MERGE);
  h.clock.advance(MINUTE_MS); // forgets up to the revision at start
  h.clock.advance(MINUTE_MS); // forgets up to the revision after the patch
  assert.ok(h.server.store.compactedRevision > Number(first.metadata.resourceVersion));
  return { h, revision: first.metadata.resourceVersion, token: first.metadata.continue };
}

test('400 BadRequest: malformed JSON, bad query values and bad selectors', async () => {
  const h = await startServer();
  failure(await h.post(CM, '{"metadata":'), 400, 'BadRequest');
  failure(await h.post(CM, ''), 400, 'BadRequest');
  failure(await h.get(`${CM}?limit=ten`), 400, 'BadRequest');
  failure(await h.get(`${CM}?watch=maybe`), 400, 'BadRequest');
  failure(await h.get(`${CM}?resourceVersion=abc`), 400, 'BadRequest');
  failure(await h.get(`${CM}?labelSelector=${encodeURIComponent('a in (b')}`), 400, 'BadRequest');
  failure(await h.get(`${CM}?continue=not-a-token`), 400, 'BadRequest');
  assert.is((await h.get(`${CM}?limit=ten`)).json.message, 'invalid value for limit: "ten": must be an integer');
});

test('400 BadRequest: a continue token together with a resourceVersion', async () => {
  const h = await startServer();
  for (const n of ['a', 'b', 'c']) await h.post(CM, configMap(n));
  const token = (await h.get(`${CM}?limit=1`)).json.metadata.continue;
  const r = await h.get(`${CM}?limit=1&continue=${token}&resourceVersion=3`);
  failure(r, 400, 'BadRequest');
  assert.is(r.json.message, 'specifying resource version is not allowed when using continue');
});

test('401 Unauthorized: a bearer token the server does not know', async () => {
  const h = await startServer();
  const r = await h.get(CM, { authorization: 'Bearer not-a-token' });
  failure(r, 401, 'Unauthorized');
  assert.is(r.json.message, 'Unauthorized');
});

test('403 Forbidden: the AlwaysDeny authorization mode refuses every request, paths too', async () => {
  const h = await startServer({ authorizationMode: ['AlwaysDeny'] });
  const get = await h.get(`${CM}/a`);
  failure(get, 403, 'Forbidden');
  assert.is(get.json.message, 'configmaps "a" is forbidden: User "system:anonymous" cannot get resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.');
  assert.equal(get.json.details, { name: 'a', group: '', kind: 'configmaps' });
  const list = await h.get('/apis/apps/v1/deployments');
  failure(list, 403, 'Forbidden');
  assert.is(list.json.message, 'deployments.apps is forbidden: User "system:anonymous" cannot list resource "deployments" in API group "apps" at the cluster scope: Everything is forbidden.');
  const before = h.revision();
  failure(await h.post(CM, configMap('a')), 403, 'Forbidden');
  assert.is(h.revision(), before);
  const version = await h.get('/version');
  failure(version, 403, 'Forbidden');
  assert.is(version.json.message, 'forbidden: User "system:anonymous" cannot get path "/version": Everything is forbidden.');
});

test('403 Forbidden: the AlwaysDeny admission plugin refuses every write but not reads', async () => {
  const h = await startServer({ enableAdmissionPlugins: ['AlwaysDeny'] });
  const create = await h.post('/api/v1/nodes', { metadata: { name: 'n1' } });
  failure(create, 403, 'Forbidden');
  assert.is(create.json.message, 'nodes "n1" is forbidden: admission control is denying all modifications');
  failure(await h.del('/api/v1/namespaces/kube-node-lease'), 403, 'Forbidden');
  assert.is((await h.get('/api/v1/namespaces')).status, 200);
  assert.is((await h.get('/api/v1/namespaces/kube-node-lease')).status, 200);
});

test('403 Forbidden: the default namespace may not be deleted', async () => {
  const h = await startServer();
  const r = await h.del('/api/v1/namespaces/default');
  failure(r, 403, 'Forbidden');
  assert.is(r.json.message, 'namespaces "default" is forbidden: this namespace may not be deleted');
  assert.is((await h.get('/api/v1/namespaces/default')).json.metadata.deletionTimestamp, undefined);
});

test('404 NotFound: a missing object, and a path the server does not serve', async () => {
  const h = await startServer();
  const object = await h.get(`${CM}/nope`);
  failure(object, 404, 'NotFound');
  assert.is(object.json.message, 'configmaps "nope" not found');
  for (const path of ['/api/v1/widgets', '/apis/apps/v1/namespaces/default/widgets/x', '/api/v1/namespaces/default/configmaps/a/b/c']) {
    const r = await h.get(path);
    failure(r, 404, 'NotFound');
    assert.is(r.json.message, 'the server could not find the requested resource', path);
  }
});

test('405 MethodNotAllowed: a verb the path does not serve', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  failure(await h.post(`${CM}/a`, configMap('a')), 405, 'MethodNotAllowed');
  failure(await h.call('OPTIONS', CM), 405, 'MethodNotAllowed');
  failure(await h.get('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews'), 405, 'MethodNotAllowed');
});

test('405 MethodNotAllowed: a namespaced kind across all namespaces only lists and watches; nothing is deleted or created there', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  await h.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
  await h.post('/api/v1/namespaces/other/configmaps', configMap('b'));
  failure(await h.call('DELETE', '/api/v1/configmaps'), 405, 'MethodNotAllowed');
  failure(await h.post('/api/v1/configmaps', configMap('c')), 405, 'MethodNotAllowed');
  failure(await h.call('PUT', '/api/v1/configmaps'), 405, 'MethodNotAllowed');
  const all = (await h.get('/api/v1/configmaps')).json;
  assert.equal(all.items.map((c: { metadata: { name: string } }) => c.metadata.name).sort(), ['a', 'b'], 'both still there, and listed');
  assert.is((await h.call('DELETE', CM)).status, 200, 'a namespace\'s own collection can still be deleted');
  assert.equal((await h.get('/api/v1/configmaps')).json.items.map((c: { metadata: { name: string } }) => c.metadata.name), ['b']);
});

test('406 NotAcceptable: nothing in Accept is served', async () => {
  const h = await startServer();
  failure(await h.get(CM, { accept: 'image/png' }), 406, 'NotAcceptable');
});

test('409 AlreadyExists and 409 Conflict on a stale resourceVersion', async () => {
  const h = await startServer();
  const created = (await h.post(CM, configMap('a'))).json;
  failure(await h.post(CM, configMap('a')), 409, 'AlreadyExists');
  await h.patch(`${CM}/a`, { data: { k: 'w' } }, MERGE);
  failure(await h.put(`${CM}/a`, created), 409, 'Conflict');
});

test('410 Expired: an exact list at a compacted revision', async () => {
  const { h, revision } = await compactedList();
  const r = await h.get(`${CM}?resourceVersion=${revision}&resourceVersionMatch=Exact`);
  failure(r, 410, 'Expired');
  assert.is(r.json.message, 'The resourceVersion for the provided list is too old.');
  const chunked = await h.get(`${CM}?resourceVersion=${revision}&limit=2`);
  failure(chunked, 410, 'Expired');
});

test('410 Expired: a continue token older than the compaction, with a fresh token that lists the rest', async () => {
  const { h, token } = await compactedList();
  const r = await h.get(`${CM}?limit=2&continue=${token}`);
  failure(r, 410, 'Expired');
  assert.match(r.json.message, /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results\./);
  const fresh = r.json.metadata.continue;
  assert.ok(fresh && fresh !== token);
  const rest = await h.get(`${CM}?limit=2&continue=${fresh}`);
  assert.is(rest.status, 200);
  assert.equal(rest.json.items.map((i: any) => [i.metadata.name, i.data.k]), [['c', 'v'], ['d', 'changed']]);
  assert.is(rest.json.metadata.continue, undefined);
});

test('413 RequestEntityTooLarge: a body over the limit, over HTTPS', async () => {
  const h = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-413-'));
  const cert = await servingCert({ certDir: dir }, manualClock(Date.now()));
  const listening = await serveHttps((req) => h.server.handle(req), { host: '127.0.0.1', port: 0, cert: cert.cert, key: cert.key, maxRequestBodyBytes: 64 });
  try {
    const body = JSON.stringify(configMap('big', { k: 'x'.repeat(200) }));
    const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpsRequest(`${listening.url}${CM}`, { method: 'POST', ca: cert.cert, headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.is(r.status, 413);
    const status = JSON.parse(r.body);
    assert.equal([status.kind, status.status, status.reason, status.code], ['Status', 'Failure', 'RequestEntityTooLarge', 413]);
    assert.is(status.message, 'Request entity too large: limit is 64');
    assert.is((await h.get(`${CM}/big`)).status, 404);
  } finally {
    await listening.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('415 UnsupportedMediaType: a body in a type the server does not read', async () => {
  const h = await startServer();
  failure(await h.post(CM, '<configmap/>', { 'content-type': 'application/xml' }), 415, 'UnsupportedMediaType');
  failure(await h.patch(`${CM}/a`, {}, 'text/plain'), 415, 'UnsupportedMediaType');
});

test('422 Invalid: details name the Kind, and every cause has a reason, a message and a field', async () => {
  const h = await startServer();
  const r = await h.post('/apis/apps/v1/namespaces/default/controllerrevisions', controllerRevision('r', null));
  failure(r, 422, 'Invalid');
  assert.is(r.json.message, 'ControllerRevision.apps "r" is invalid: revision: Required value');
  assert.equal(r.json.details, { name: 'r', group: 'apps', kind: 'ControllerRevision',
    causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'revision' }] });
  const several = await h.post(PODS, { metadata: { name: 'Bad_Name' }, spec: {} });
  failure(several, 422, 'Invalid');
  assert.ok(several.json.details.causes.length >= 1);
  for (const c of several.json.details.causes) assert.ok(c.reason && c.message && c.field, JSON.stringify(c));
});

test('422 Invalid: resourceVersionMatch without a resourceVersion, or Exact at 0', async () => {
  const h = await startServer();
  const none = await h.get(`${CM}?resourceVersionMatch=Exact`);
  failure(none, 422, 'Invalid');
  assert.is(none.json.details.kind, 'ListOptions');
  failure(await h.get(`${CM}?resourceVersion=0&resourceVersionMatch=Exact`), 422, 'Invalid');
  failure(await h.get(`${CM}?resourceVersion=1&resourceVersionMatch=Newest`), 422, 'Invalid');
});

test('429 TooManyRequests: an eviction a budget forbids, with retryAfterSeconds and Retry-After', async () => {
  const h = await startServer();
  await h.post(PODS, pod('p', { labels: { app: 'web' }, nodeName: 'n1' }));
  const current = (await h.get(`${PODS}/p`)).json;
  await h.put(`${PODS}/p/status`, { ...current, status: { phase: 'Running' } });
  await h.post('/apis/policy/v1/namespaces/default/poddisruptionbudgets', { metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
  const r = await h.post(`${PODS}/p/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' } });
  failure(r, 429, 'TooManyRequests');
  assert.is(r.json.details.causes[0].reason, 'DisruptionBudget');
  assert.equal(headerValues(r, 'retry-after'), [String(r.json.details.retryAfterSeconds)]);
});

test('504 Timeout: a resourceVersion newer than the store, on get and on list', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const current = h.revision();
  for (const path of [`${CM}/a?resourceVersion=999999`, `${CM}?resourceVersion=999999`, `${CM}?resourceVersion=999999&resourceVersionMatch=Exact`]) {
    const r = await h.get(path);
    failure(r, 504, 'Timeout');
    assert.is(r.json.message, `Timeout: Too large resource version: 999999, current: ${current}`);
    assert.equal(r.json.details.causes, [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
    assert.is(r.json.details.retryAfterSeconds, 1);
    assert.equal(headerValues(r, 'retry-after'), ['1']);
  }
});

test('every error answer carries its HTTP status as the Status code', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const stale = (await h.get(`${CM}/a`)).json;
  await h.patch(`${CM}/a`, { data: { k: 'w' } }, MERGE);
  const replies = [
    await h.post(CM, '{'), await h.get(`${CM}?limit=1.5`), await h.get(CM, { authorization: 'Bearer x' }),
    await h.del('/api/v1/namespaces/default'), await h.get(`${CM}/nope`), await h.get('/nope'), await h.call('TRACE', CM),
    await h.get(CM, { accept: 'text/csv' }), await h.post(CM, configMap('a')), await h.put(`${CM}/a`, stale),
    await h.post(CM, 'x', { 'content-type': 'text/plain' }), await h.post(CM, { metadata: {} }),
    await h.get(`${CM}?resourceVersion=424242`), await h.patch(`${CM}/a?force=true`, {}, MERGE),
    await h.del(`${CM}/a`, { propagationPolicy: 'Never' }), await h.post(`${CM}?dryRun=Maybe`, configMap('b')),
  ];
  const codes = replies.map((r) => {
    assert.is(r.json.code, r.status, r.text);
    assert.is(r.json.status, 'Failure', r.text);
    return r.status;
  });
  assert.equal([...new Set(codes)].sort(), [400, 401, 403, 404, 405, 406, 409, 415, 422, 504]);
});

test.run();
