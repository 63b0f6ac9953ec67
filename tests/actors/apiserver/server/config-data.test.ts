// ConfigMap and Secret data as ValidateConfigMap and ValidateSecret (1.32) check it: keys are file
// names that cannot climb out of their directory, a ConfigMap key is in data or binaryData but not
// both, and neither kind holds more than 1 MiB; on create and on update alike.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, startServer, type Reply } from '../../../helpers/in-process-server.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';
const MiB = 1024 * 1024;
const KEY_RULE = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

function refused(r: Reply, message: string, causes: { reason: string; message: string; field?: string }[]): void {
  assert.is(r.status, 422, r.text.slice(0, 300));
  assert.is(r.json.reason, 'Invalid');
  assert.is(r.json.message, message);
  assert.equal(r.json.details.causes, causes);
}

test('config map keys that are no file name, or climb out of their directory, are refused with the real messages', async () => {
  const h = await startServer();
  const before = h.revision();
  refused(await h.post(CM, configMap('a', { '../etc/passwd': 'x' })), `ConfigMap "a" is invalid: [data[../etc/passwd]: Invalid value: "../etc/passwd": ${KEY_RULE}, data[../etc/passwd]: Invalid value: "../etc/passwd": must not start with '..']`, [
    { reason: 'FieldValueInvalid', message: `Invalid value: "../etc/passwd": ${KEY_RULE}`, field: 'data[../etc/passwd]' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: "../etc/passwd": must not start with \'..\'', field: 'data[../etc/passwd]' },
  ]);
  refused(await h.post(CM, configMap('a', { 'a b': 'x' })), `ConfigMap "a" is invalid: data[a b]: Invalid value: "a b": ${KEY_RULE}`,
    [{ reason: 'FieldValueInvalid', message: `Invalid value: "a b": ${KEY_RULE}`, field: 'data[a b]' }]);
  for (const [key, why] of [['.', "must not be '.'"], ['..', "must not be '..'"], ['..x', "must not start with '..'"], ['k'.repeat(254), 'must be no more than 253 characters']]) {
    const r = await h.post(CM, { ...configMap('a', {}), binaryData: { [key]: 'eA==' } });
    refused(r, `ConfigMap "a" is invalid: binaryData[${key}]: Invalid value: ${JSON.stringify(key)}: ${why}`,
      [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(key)}: ${why}`, field: `binaryData[${key}]` }]);
  }
  assert.is(h.revision(), before);
  for (const key of ['a', 'A_b-c.d', '.hidden', 'k'.repeat(253)]) assert.is((await h.post(CM, configMap(`ok-${key.length}-${key.charCodeAt(1) || 0}`, { [key]: 'x' }))).status, 201, key);
});

test('a key in both data and binaryData is refused on data', async () => {
  const h = await startServer();
  refused(await h.post(CM, { ...configMap('a', { k: 'x', only: 'y' }), binaryData: { k: 'eA==' } }),
    'ConfigMap "a" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData',
    [{ reason: 'FieldValueInvalid', message: 'Invalid value: "k": duplicate of key present in binaryData', field: 'data[k]' }]);
});

test('a config map over 1 MiB (text in UTF-8 bytes plus binary data decoded) is refused on the whole object; exactly 1 MiB is stored', async () => {
  const h = await startServer();
  assert.is((await h.post(CM, configMap('full', { a: 'x'.repeat(MiB - 3), b: 'é' }))).status, 201);
  const over = await h.post(CM, { ...configMap('big', { a: 'x'.repeat(MiB - 1) }), binaryData: { b: Buffer.from('yz').toString('base64') } });
  refused(over, 'ConfigMap "big" is invalid: : Too long: may not be more than 1048576 bytes',
    [{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 1048576 bytes' }]);
});

test('secret keys, stringData\'s among them, follow the same rule, and a secret holds at most 1 MiB decoded', async () => {
  const h = await startServer();
  const secret = (name: string, body: object) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, ...body });
  refused(await h.post(SECRETS, secret('s', { data: { 'a/b': 'eA==' } })), `Secret "s" is invalid: data[a/b]: Invalid value: "a/b": ${KEY_RULE}`,
    [{ reason: 'FieldValueInvalid', message: `Invalid value: "a/b": ${KEY_RULE}`, field: 'data[a/b]' }]);
  refused(await h.post(SECRETS, secret('s', { stringData: { '..': 'v' } })), 'Secret "s" is invalid: data[..]: Invalid value: "..": must not be \'..\'',
    [{ reason: 'FieldValueInvalid', message: 'Invalid value: "..": must not be \'..\'', field: 'data[..]' }]);
  const atLimit = Buffer.alloc(MiB, 1).toString('base64');
  assert.is((await h.post(SECRETS, secret('full', { data: { a: atLimit } }))).status, 201);
  refused(await h.post(SECRETS, secret('big', { data: { a: atLimit }, stringData: { b: 'x' } })), 'Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes',
    [{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 1048576 bytes', field: 'data' }]);
});

test('an update is checked as a create is', async () => {
  const h = await startServer();
  await h.post(CM, configMap('a'));
  const r = await h.put(`${CM}/a`, configMap('a', { 'no spaces please': 'x' }));
  assert.is(r.status, 422);
  assert.is(r.json.details.causes[0].field, 'data[no spaces please]');
  assert.equal((await h.get(`${CM}/a`)).json.data, { k: 'v' });
});

test.run();
