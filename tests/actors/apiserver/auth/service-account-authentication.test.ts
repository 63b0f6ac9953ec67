// Service-account tokens authenticating requests to a server: after static tokens, as the real
// order has it, and only while the objects they name are stored (the service account, the pod or
// secret a token is bound to, by uid; a legacy token's Secret under --service-account-lookup).
// Who a request is known as on arrival is read from ApiServer.arrive; whether it is served at all
// (the store's half) from its status.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPublicKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { keyId } from '../../../../actors/apiserver/auth/service-account-keys.ts';
import { startServer, type Harness } from '../../../helpers/in-process-server.ts';
import { ISSUER, keyFiles, serviceAccount, tokenRequestPath } from '../../../helpers/service-account-keys.ts';

const keys = keyFiles();
const NAMESPACES = '/api/v1/namespaces';
const NS = '/api/v1/namespaces/default';

const get = (h: Harness, token: string) => h.get(NAMESPACES, { authorization: `Bearer ${token}` });

/** The user a request with this token is counted as when it arrives (before the store is read). */
function arrivingAs(h: Harness, token: string) {
  const arrival = h.server.arrive({ method: 'GET', url: NAMESPACES, headers: { authorization: `Bearer ${token}` } });
  arrival.release();
  return arrival.user;
}

async function server(extra: Parameters<typeof keys.options>[0] = {}): Promise<Harness> {
  const h = await startServer(keys.options({ tokens: new Map([['static-token', { username: 'alice', groups: ['system:authenticated'] }]]), ...extra }));
  assert.is((await h.post(`${NS}/serviceaccounts`, serviceAccount('robot'))).status, 201);
  return h;
}

async function tokenFor(h: Harness, sa: string, spec: Record<string, unknown> = {}): Promise<string> {
  const r = await h.post(tokenRequestPath(sa), { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });
  assert.is(r.status, 201, r.text);
  return r.json.status.token;
}

test('a TokenRequest token authenticates as its service account, with the real groups, uid and extra', async () => {
  const h = await server();
  const sa = (await h.get(`${NS}/serviceaccounts/robot`)).json;
  const token = await tokenFor(h, 'robot');
  assert.is((await get(h, token)).status, 200);
  const jti = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti;
  assert.equal(arrivingAs(h, token), { username: 'system:serviceaccount:default:robot', uid: sa.metadata.uid,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'], extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${jti}`] } });
  h.server.stop();
});

test('static tokens come first; a bearer token that is neither a static token nor a valid JWT is 401', async () => {
  const h = await server();
  assert.is(arrivingAs(h, 'static-token')?.username, 'alice');
  assert.is((await get(h, 'static-token')).status, 200);
  assert.is((await get(h, 'neither-static-nor-jwt')).status, 401);
  assert.is(arrivingAs(h, 'neither-static-nor-jwt'), undefined);
  const forged = await new SignJWT({ iss: ISSUER, aud: [ISSUER], sub: 'system:serviceaccount:default:robot' })
    .setProtectedHeader({ alg: 'RS256', kid: keyId(createPublicKey(keys.rsaPrivateKey)) }).sign(keys.strangerKey);
  const r = await get(h, forged);
  assert.is(r.status, 401);
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  h.server.stop();
});

test('a token stops authenticating once it expires on the server\'s clock (past the minute of leeway)', async () => {
  const h = await server();
  const token = await tokenFor(h, 'robot', { expirationSeconds: 600 });
  h.clock.advance(660_000);
  assert.is((await get(h, token)).status, 200);
  h.clock.advance(1000);
  assert.is((await get(h, token)).status, 401);
  h.server.stop();
});

test('a token for another audience does not authenticate to the API', async () => {
  const h = await server();
  const token = await tokenFor(h, 'robot', { audiences: ['vault'] });
  assert.is((await get(h, token)).status, 401);
  h.server.stop();
});

test('deleting the service account ends its tokens; a new one of the same name does not revive them', async () => {
  const h = await server();
  const token = await tokenFor(h, 'robot');
  assert.is((await h.del(`${NS}/serviceaccounts/robot`)).status, 200);
  // Known on arrival (the signature holds), refused once the store is read.
  assert.is(arrivingAs(h, token)?.username, 'system:serviceaccount:default:robot');
  assert.is((await get(h, token)).status, 401);
  assert.is((await h.post(`${NS}/serviceaccounts`, serviceAccount('robot'))).status, 201);
  assert.is((await get(h, token)).status, 401, 'another uid');
  assert.is((await get(h, await tokenFor(h, 'robot'))).status, 200, 'the new account\'s own tokens work');
  h.server.stop();
});

test('a pod-bound token stops authenticating once its pod is deleted', async () => {
  const h = await server();
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx:1.27' }] } };
  assert.is((await h.post(`${NS}/pods`, pod)).status, 201);
  const token = await tokenFor(h, 'robot', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web' } });
  assert.is((await get(h, token)).status, 200);
  assert.equal(arrivingAs(h, token)?.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
  assert.is((await h.del(`${NS}/pods/web`)).status, 200);
  assert.is((await h.get(`${NS}/pods/web`)).status, 404, 'an unscheduled pod goes at once');
  assert.is((await get(h, token)).status, 401);
  assert.is((await h.post(`${NS}/pods`, pod)).status, 201);
  assert.is((await get(h, token)).status, 401, 'a new pod of the same name has another uid');
  h.server.stop();
});

test('a pod being deleted keeps its tokens for the minute of leeway after its deletion time', async () => {
  const h = await server();
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'held', finalizers: ['example.com/hold'] },
    spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx:1.27' }] } };
  assert.is((await h.post(`${NS}/pods`, pod)).status, 201);
  const token = await tokenFor(h, 'robot', { boundObjectRef: { kind: 'Pod', name: 'held' } });
  await h.del(`${NS}/pods/held`);
  assert.ok((await h.get(`${NS}/pods/held`)).json.metadata.deletionTimestamp, 'terminating, held by its finalizer');
  h.clock.advance(60_000);
  assert.is((await get(h, token)).status, 200);
  h.clock.advance(1000);
  assert.is((await get(h, token)).status, 401);
  h.server.stop();
});

test('a secret-bound token stops authenticating once its secret is deleted', async () => {
  const h = await server();
  assert.is((await h.post(`${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ticket' } })).status, 201);
  const token = await tokenFor(h, 'robot', { boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 'ticket' } });
  assert.is((await get(h, token)).status, 200);
  await h.del(`${NS}/secrets/ticket`);
  assert.is((await get(h, token)).status, 401);
  h.server.stop();
});

test('legacy (secret-based) tokens: under --service-account-lookup the Secret must still hold the token', async () => {
  for (const lookup of [true, false]) {
    const h = await server({ serviceAccountLookup: lookup });
    const uid = (await h.get(`${NS}/serviceaccounts/robot`)).json.metadata.uid;
    const token = await new SignJWT({ iss: 'kubernetes/serviceaccount', sub: 'system:serviceaccount:default:robot',
      'kubernetes.io/serviceaccount/namespace': 'default', 'kubernetes.io/serviceaccount/secret.name': 'robot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'robot', 'kubernetes.io/serviceaccount/service-account.uid': uid })
      .setProtectedHeader({ alg: 'RS256', kid: keyId(createPublicKey(keys.rsaPrivateKey)) }).sign(keys.rsaPrivateKey);
    assert.is((await get(h, token)).status, lookup ? 401 : 200, `lookup ${lookup}: no Secret yet`);
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'robot-token' }, type: 'kubernetes.io/service-account-token',
      data: { token: Buffer.from(token).toString('base64') } };
    assert.is((await h.post(`${NS}/secrets`, secret)).status, 201);
    assert.is((await get(h, token)).status, 200, `lookup ${lookup}: the Secret holds it`);
    await h.put(`${NS}/secrets/robot-token`, { ...secret, data: { token: Buffer.from('another').toString('base64') } });
    assert.is((await get(h, token)).status, lookup ? 401 : 200, `lookup ${lookup}: the Secret holds another token`);
    h.server.stop();
  }
});

test.run();
