// A client in the API server's process hands its body over as a value, not as text: what is
// stored must be what the text would have given, whatever the sender or the server does with the
// objects afterwards, and an update tried again after a write race must start from the body sent.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { heldServer } from '../apiserver/server/held-server.ts';

const CMS = lookupResource('', 'v1', 'configmaps')!;
const cm = (name: string, data: Record<string, string>) => ({ metadata: { name, namespace: 'default' }, data }) as KObject;

test('a body changed by its sender after the call is stored as it was sent', async () => {
  const h = await heldServer();
  const client = new ApiClient(h.server.bus, 'test');
  const body = cm('sent', { k: 'v' });
  const created = client.create(CMS, body);
  (body.data as Record<string, string>).k = 'changed before the server read it';
  const stored = await created;
  (body.data as Record<string, string>).k = 'changed after';
  assert.equal(stored.data, { k: 'v' });
  const read = await client.get(CMS, 'default', 'sent');
  assert.equal(read.data, { k: 'v' });
  assert.is.not(read.data, body.data);
});

test('what JSON writes otherwise (a Date) goes as text and is stored as its text', async () => {
  const h = await heldServer();
  const client = new ApiClient(h.server.bus, 'test');
  const body = { metadata: { name: 'dated', namespace: 'default', annotations: { at: new Date(0) } }, data: { gone: undefined, k: 'v' } } as unknown as KObject;
  const stored = await client.create(CMS, body);
  assert.equal(stored.metadata.annotations, { at: '1970-01-01T00:00:00.000Z' });
  assert.equal(stored.data, { k: 'v' });
});

test('schema errors in a body sent as a value read as they do for text', async () => {
  const h = await heldServer();
  const client = new ApiClient(h.server.bus, 'test');
  const body = { metadata: { name: 'bad', namespace: 'default' }, data: { k: 5 } } as unknown as KObject;
  const viaValue = await client.create(CMS, body).then(() => undefined, (e: { code: number; message: string }) => e);
  const viaText = await h.send('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', ...body });
  assert.is(viaValue?.code, 400);
  assert.is(viaValue?.message, viaText.json.message);
});

test('a body nested past the limit is refused as its text would be', async () => {
  const h = await heldServer();
  const client = new ApiClient(h.server.bus, 'test');
  let deep: unknown = 'leaf';
  for (let i = 0; i < 300; i++) deep = { d: deep };
  const error = await client.create(CMS, { metadata: { name: 'deep', namespace: 'default' }, extra: deep } as unknown as KObject).then(() => undefined, (e: { code: number; message: string }) => e);
  assert.is(error?.code, 400);
  assert.match(error?.message ?? '', 'nests objects and arrays more than 256 levels deep');
});

test('an update tried again after a write race starts from the body as sent', async () => {
  const h = await heldServer();
  const client = new ApiClient(h.server.bus, 'test');
  await client.create(CMS, cm('raced', { k: 'v0' }));
  // Both updates read the same revision while the store is held; one of them then loses the race
  // to write it and is tried again from its body.
  h.hold();
  const first = client.update(CMS, cm('raced', { k: 'v1' }));
  const second = client.update(CMS, cm('raced', { k: 'v2' }));
  await h.settle();
  assert.is(h.store.waiting, 2);
  h.release();
  const [a, b] = await Promise.all([first, second]);
  assert.equal([a.data, b.data], [{ k: 'v1' }, { k: 'v2' }]);
  assert.is(Number(b.metadata.resourceVersion) > Number(a.metadata.resourceVersion), true);
  assert.equal((await client.get(CMS, 'default', 'raced')).data, { k: 'v2' });
});

test.run();
