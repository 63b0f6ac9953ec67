// A Secret's stringData is write-only, as the real server converts it on every write: its values
// go into data as base64 (over keys data already has), and it is never stored or returned; a value
// that is not a string is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MERGE, startServer } from '../../../helpers/in-process-server.ts';

const SECRETS = '/api/v1/namespaces/default/secrets';
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

test('stringData merges into data on create, update and patch, and is never returned', async () => {
  const h = await startServer();
  const created = await h.post(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' },
    data: { user: b64('old'), keep: b64('k') }, stringData: { user: 'admin', password: 'pässwörd' } });
  assert.is(created.status, 201);
  assert.equal(created.json.data, { keep: b64('k'), password: b64('pässwörd'), user: b64('admin') });
  assert.is(created.json.stringData, undefined);
  const got = (await h.get(`${SECRETS}/s`)).json;
  assert.equal(got.data, created.json.data);
  assert.is(got.stringData, undefined, 'not stored');
  const patched = await h.patch(`${SECRETS}/s`, { stringData: { password: 'new' } }, MERGE);
  assert.is(patched.status, 200);
  assert.equal(patched.json.data, { keep: b64('k'), password: b64('new'), user: b64('admin') });
  const updated = await h.put(`${SECRETS}/s`, { ...patched.json, stringData: { token: 't' } });
  assert.is(updated.status, 200);
  assert.equal(Object.keys(updated.json.data).sort(), ['keep', 'password', 'token', 'user']);
  assert.is(updated.json.stringData, undefined);
  const listed = (await h.get(SECRETS)).json.items.find((s: { metadata: { name: string } }) => s.metadata.name === 's');
  assert.is(listed.stringData, undefined);
});

test('a stringData value that is not a string is refused, and nothing is written', async () => {
  const h = await startServer();
  const r = await h.post(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bad' }, stringData: { n: 42 } });
  assert.ok(r.status === 400 || r.status === 422, `${r.status} ${JSON.stringify(r.json)}`);
  assert.is(r.json.kind, 'Status');
  assert.match(r.json.message, /stringData/);
  assert.is((await h.get(`${SECRETS}/bad`)).status, 404);
});

test.run();
