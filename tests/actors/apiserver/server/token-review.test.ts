// TokenReview as the real server answers it: the token goes through the request authenticators
// for spec.audiences (the API audiences when empty); status.authenticated only when true,
// status.user always, the audiences the token is good for, and the authenticator's error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type Harness } from '../../../helpers/in-process-server.ts';
import { ISSUER, keyFiles, serviceAccount, TOKEN_REVIEWS, tokenRequestPath } from '../../../helpers/service-account-keys.ts';

const keys = keyFiles();
const NS = '/api/v1/namespaces/default';
const GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'];

async function server(): Promise<Harness> {
  const h = await startServer(keys.options({ tokens: new Map([['static-token', { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'] }]]) }));
  assert.is((await h.post(`${NS}/serviceaccounts`, serviceAccount('robot'))).status, 201);
  return h;
}

const review = (h: Harness, token: string, audiences?: string[]) =>
  h.post(TOKEN_REVIEWS, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } });

async function tokenFor(h: Harness, spec: Record<string, unknown> = {}): Promise<string> {
  return (await h.post(tokenRequestPath('robot'), { spec })).json.status.token;
}

test('a service-account token reviews as its account: authenticated, user with uid, groups and extra, audiences', async () => {
  const h = await server();
  const uid = (await h.get(`${NS}/serviceaccounts/robot`)).json.metadata.uid;
  await h.post(`${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'nginx:1.27' }] } });
  const podUid = (await h.get(`${NS}/pods/web`)).json.metadata.uid;
  const token = await tokenFor(h, { boundObjectRef: { kind: 'Pod', name: 'web' } });
  const jti = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti;
  const r = await review(h, token);
  assert.is(r.status, 201);
  assert.equal(r.json, {
    kind: 'TokenReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, spec: { token },
    status: { authenticated: true, audiences: [ISSUER], user: { username: 'system:serviceaccount:default:robot', uid, groups: GROUPS, extra: {
      'authentication.kubernetes.io/pod-name': ['web'], 'authentication.kubernetes.io/pod-uid': [podUid], 'authentication.kubernetes.io/credential-id': [`JTI=${jti}`] } } },
  });
  h.server.stop();
});

test('an unknown, expired or orphaned token is not authenticated, with the authenticator\'s error and an empty user', async () => {
  const h = await server();
  const unknown = await review(h, 'no-such-token');
  assert.is(unknown.status, 201);
  assert.equal(unknown.json.status, { user: {}, error: 'invalid bearer token' });
  const token = await tokenFor(h, { expirationSeconds: 600 });
  h.clock.advance(661_000);
  assert.equal((await review(h, token)).json.status, { user: {}, error: 'service account token has expired' });
  const fresh = await tokenFor(h);
  await h.del(`${NS}/serviceaccounts/robot`);
  assert.equal((await review(h, fresh)).json.status, { user: {}, error: 'serviceaccounts "robot" not found' });
  const [head, payload, signature] = fresh.split('.');
  assert.equal((await review(h, `${head}.${payload}.${signature.slice(2)}`)).json.status, { user: {}, error: 'go-jose/go-jose: error in cryptographic primitive' });
  h.server.stop();
});

test('spec.audiences: a token is reviewed for the audiences asked, and refused for others', async () => {
  const h = await server();
  const vault = await tokenFor(h, { audiences: ['vault'] });
  const forVault = await review(h, vault, ['vault', 'other']);
  assert.is(forVault.json.status.authenticated, true);
  assert.equal(forVault.json.status.audiences, ['vault']);
  assert.equal((await review(h, vault)).json.status, { user: {}, error: `token audiences ["vault"] is invalid for the target audiences ["${ISSUER}"]` });
  const api = await tokenFor(h);
  assert.equal((await review(h, api, ['vault'])).json.status.error, `token audiences ["${ISSUER}"] is invalid for the target audiences ["vault"]`);
  h.server.stop();
});

test('a static token reviews as its user for the API audiences only, as the real server wraps audience-agnostic tokens', async () => {
  const h = await server();
  assert.equal((await review(h, 'static-token')).json.status,
    { authenticated: true, user: { username: 'alice', uid: 'u1', groups: ['dev', 'system:authenticated'] }, audiences: [ISSUER] });
  assert.equal((await review(h, 'static-token', ['vault'])).json.status, { user: {}, error: 'invalid bearer token' });
  h.server.stop();
});

test('a review without a token is 400; other verbs are not allowed', async () => {
  const h = await server();
  const r = await h.post(TOKEN_REVIEWS, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} });
  assert.equal([r.status, r.json.message], [400, 'token is required for TokenReview in authentication']);
  assert.is((await h.get(TOKEN_REVIEWS)).status, 405);
  h.server.stop();
});

test.run();
