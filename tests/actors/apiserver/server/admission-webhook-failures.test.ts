// When a webhook cannot be asked or answers nonsense: failurePolicy Fail answers 500 with the
// real "failed calling webhook" words, Ignore lets the write through; a webhook that never answers
// is given up after its timeoutSeconds; a certificate the caBundle does not vouch for is refused;
// a patch that does not decode fails the call, one that cannot apply is a 500 whatever the policy.
import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { configMap } from '../../../helpers/in-process-server.ts';
import { answer, hookFor } from '../../../helpers/admission-webhooks.ts';
import { withAdmission } from '../../../helpers/admission-world.ts';
import { freePort } from '../../../helpers/real-time.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servingCert } from '../../../../actors/apiserver/certs.ts';
import { wallClock } from '../../../../sim/clock.ts';

const CM = '/api/v1/namespaces/default/configmaps';

withAdmission('an unreachable webhook fails the write with 500 under Fail, and is passed over under Ignore', async ({ h, hook, configure }) => {
  const port = await freePort();
  const unreachable = { clientConfig: { url: `https://127.0.0.1:${port}/check`, caBundle: Buffer.from(hook.caPem).toString('base64') } };
  await configure('ValidatingWebhookConfiguration', 'closed', [hookFor(hook, 'closed.example.com', unreachable)]);
  const r = await h.post(CM, configMap('a'));
  assert.is(r.status, 500);
  const message = `failed calling webhook "closed.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/check?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`;
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`,
    reason: 'InternalError', details: { causes: [{ message }] }, code: 500 });
  assert.is((await h.del('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/closed')).status, 200);
  await configure('ValidatingWebhookConfiguration', 'open', [hookFor(hook, 'open.example.com', { ...unreachable, failurePolicy: 'Ignore' })]);
  assert.is((await h.post(CM, configMap('b'))).status, 201);
});

withAdmission('a webhook that does not answer within timeoutSeconds fails the call: 500 under Fail, passed over under Ignore', async ({ h, hook, configure }) => {
  hook.answer(() => 'hold');
  await configure('ValidatingWebhookConfiguration', 'slow', [hookFor(hook, 'slow.example.com', { timeoutSeconds: 1 }, '/slow'),
    hookFor(hook, 'slow-but-optional.example.com', { timeoutSeconds: 1, failurePolicy: 'Ignore' }, '/optional')]);
  const r = await h.post(CM, configMap('a'));
  assert.is(r.status, 500);
  assert.is(r.json.message, `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hook.url}/slow?timeout=1s": context deadline exceeded`);
  assert.is(hook.received.length, 2, 'both were asked, at once');
  assert.is((await h.del('/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/slow')).status, 200);
  await configure('MutatingWebhookConfiguration', 'slow', [hookFor(hook, 'slow-but-optional.example.com', { timeoutSeconds: 1, failurePolicy: 'Ignore' })]);
  assert.is((await h.post(CM, configMap('b'))).status, 201);
});

withAdmission('an answer that is no valid review fails the call: another uid, not JSON, a server error', async ({ h, hook, configure }) => {
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'v.example.com')]);
  const prefix = 'Internal error occurred: failed calling webhook "v.example.com": ';
  hook.answer((review) => answer(review, { allowed: true, uid: 'not-yours' }));
  const wrongUid = await h.post(CM, configMap('a'));
  assert.is(wrongUid.status, 500);
  assert.is(wrongUid.json.message, `${prefix}received invalid webhook response: expected response.uid=${JSON.stringify(hook.received[0]!.body.request.uid)}, got "not-yours"`);
  hook.answer(() => ({ code: 200, text: 'fine, really' }));
  assert.match((await h.post(CM, configMap('a'))).json.message, `${prefix}failed to call webhook: couldn't get version/kind; json parse error: `);
  hook.answer(() => ({ code: 500, text: 'database down' }));
  assert.is((await h.post(CM, configMap('a'))).json.message,
    `${prefix}failed to call webhook: an error on the server ("database down") has prevented the request from succeeding`);
});

withAdmission('a certificate the caBundle does not vouch for (another self-signed one) fails the call', async ({ h, hook, configure }) => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-stranger-'));
  const stranger = (await servingCert({ certDir: dir }, wallClock())).cert;
  rmSync(dir, { recursive: true, force: true });
  await configure('ValidatingWebhookConfiguration', 'v', [hookFor(hook, 'v.example.com', {
    clientConfig: { url: `${hook.url}/v`, caBundle: Buffer.from(stranger).toString('base64') } })]);
  const r = await h.post(CM, configMap('a'));
  assert.is(r.status, 500);
  assert.is(r.json.message, `Internal error occurred: failed calling webhook "v.example.com": failed to call webhook: Post "${hook.url}/v?timeout=10s": `
    + 'tls: failed to verify certificate: x509: certificate signed by unknown authority');
  assert.is(hook.received.length, 0);
});

withAdmission('a patch that does not decode fails the call (Ignore passes it over); one that cannot apply is a 500 under either policy', async ({ h, hook, configure }) => {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  await configure('MutatingWebhookConfiguration', 'm', [hookFor(hook, 'm.example.com', { failurePolicy: 'Ignore' })]);
  hook.answer((review) => answer(review, { allowed: true, patchType: 'JSONPatch', patch: b64('{"op":"add"}') }));
  const ignored = await h.post(CM, configMap('a'));
  assert.is(ignored.status, 201, 'an undecodable patch is a call failure, which Ignore passes over');
  assert.equal(ignored.json.data, { k: 'v' });
  hook.answer((review) => answer(review, { allowed: true, patchType: 'JSONPatch', patch: b64('[{"op":"remove","path":"/data/missing"}]') }));
  const r = await h.post(CM, configMap('b'));
  assert.is(r.status, 500);
  assert.is(r.json.message, 'Internal error occurred: Unable to remove nonexistent key: missing');
});

test.run();
