// The serviceaccounts/token subresource as the real TokenREST answers: 201 with a signed token
// and its expiration, the spec defaulted (audiences, one hour), refused with the real codes and
// messages (404, 422, 400, 409), the lifetime capped by --service-account-max-token-expiration,
// and a node agent's pod-bound 3607-second token extended to a year.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { headerValues, startServer, type Harness } from '../../../helpers/in-process-server.ts';
import { claimsOf, ISSUER, keyFiles, serviceAccount, tokenRequestPath } from '../../../helpers/service-account-keys.ts';

const keys = keyFiles();
const NS = '/api/v1/namespaces/default';
const YEAR_SECONDS = 365 * 24 * 3600;

async function server(extra: Parameters<typeof keys.options>[0] = {}): Promise<Harness> {
  const h = await startServer(keys.options(extra));
  assert.is((await h.post(`${NS}/serviceaccounts`, serviceAccount('robot'))).status, 201);
  return h;
}

const request = (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) =>
  ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata, spec });

const pod = (name: string, sa = 'robot', nodeName?: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { serviceAccountName: sa, containers: [{ name: 'c', image: 'nginx:1.27' }], ...(nodeName ? { nodeName } : {}) } });

test('a TokenRequest answers 201 with the token, its expiration, and the spec defaulted', async () => {
  const h = await server();
  const revision = h.revision();
  const r = await h.post(tokenRequestPath('robot'), { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: null } });
  assert.is(r.status, 201, r.text);
  const now = h.clock.now();
  assert.equal({ ...r.json, status: { ...r.json.status, token: '…' } }, {
    kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1',
    metadata: { name: 'robot', namespace: 'default', creationTimestamp: new Date(now).toISOString().replace('.000', '') },
    spec: { audiences: [ISSUER], expirationSeconds: 3600 },
    status: { token: '…', expirationTimestamp: new Date(now + 3_600_000).toISOString().replace('.000', '') },
  });
  const claims = claimsOf(r.json.status.token);
  assert.equal([claims.iss, claims.aud, claims.exp - claims.iat, claims.sub], [ISSUER, [ISSUER], 3600, 'system:serviceaccount:default:robot']);
  assert.is(h.revision(), revision, 'nothing is stored');
  const bare = await h.post(tokenRequestPath('robot'), {});
  assert.is(bare.status, 201, 'a body without spec is defaulted too');
  assert.equal(bare.json.spec, { audiences: [ISSUER], expirationSeconds: 3600 });
  h.server.stop();
});

test('token ids come from the server\'s seeded randomness: two tokens differ, two runs agree', async () => {
  const jtis = async () => {
    const h = await server();
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push(claimsOf((await h.post(tokenRequestPath('robot'), request())).json.status.token).jti);
    h.server.stop();
    return ids;
  };
  const first = await jtis();
  assert.is.not(first[0], first[1]);
  assert.match(first[0], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(await jtis(), first);
});

test('a missing service account is 404; a body naming another account or namespace is 422', async () => {
  const h = await server();
  const missing = await h.post(tokenRequestPath('nobody'), request());
  assert.is(missing.status, 404);
  assert.is(missing.json.message, 'serviceaccounts "nobody" not found');
  const other = await h.post(tokenRequestPath('robot'), request({}, { name: 'other' }));
  assert.is(other.status, 422);
  assert.is(other.json.message, 'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
  const ns = await h.post(tokenRequestPath('robot'), request({}, { namespace: 'kube-public' }));
  assert.is(ns.status, 422);
  assert.match(ns.json.message, 'metadata.namespace: Invalid value: "kube-public": must match the service account namespace if specified');
  h.server.stop();
});

test('expirationSeconds: ten minutes at least, 2^32 seconds at most (422)', async () => {
  const h = await server();
  const short = await h.post(tokenRequestPath('robot'), request({ expirationSeconds: 599 }));
  assert.is(short.status, 422);
  assert.is(short.json.message, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
  assert.equal(short.json.details.causes, [{ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: 'Invalid value: 599: may not specify a duration less than 10 minutes' }]);
  const long = await h.post(tokenRequestPath('robot'), request({ expirationSeconds: 2 ** 32 + 1 }));
  assert.is(long.status, 422);
  assert.match(long.json.message, 'may not specify a duration larger than 2^32 seconds');
  const ten = await h.post(tokenRequestPath('robot'), request({ expirationSeconds: 600 }));
  assert.is(ten.status, 201);
  const claims = claimsOf(ten.json.status.token);
  assert.is(claims.exp - claims.iat, 600);
  const typed = await h.post(tokenRequestPath('robot'), request({ expirationSeconds: 'an hour' }));
  assert.is(typed.status, 400);
  h.server.stop();
});

test('--service-account-max-token-expiration caps the lifetime, with a warning', async () => {
  const h = await server({ serviceAccountMaxTokenExpirationMs: 7_200_000 });
  const r = await h.post(tokenRequestPath('robot'), request({ expirationSeconds: 86_400 }));
  assert.is(r.status, 201);
  assert.is(r.json.spec.expirationSeconds, 7200);
  assert.equal(headerValues(r, 'warning'), ['299 - "requested expiration of 86400 seconds shortened to 7200 seconds"']);
  const claims = claimsOf(r.json.status.token);
  assert.is(claims.exp - claims.iat, 7200);
  assert.equal(headerValues(await h.post(tokenRequestPath('robot'), request({ expirationSeconds: 3600 })), 'warning'), []);
  h.server.stop();
});

test('audiences asked are the token\'s audiences', async () => {
  const h = await server();
  const r = await h.post(tokenRequestPath('robot'), request({ audiences: ['vault', 'nats'] }));
  assert.equal(r.json.spec.audiences, ['vault', 'nats']);
  assert.equal(claimsOf(r.json.status.token).aud, ['vault', 'nats']);
  h.server.stop();
});

test('a token bound to a pod names the pod and its node; binding is checked as the real server checks it', async () => {
  const h = await server();
  await h.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
  assert.is((await h.post(`${NS}/pods`, pod('web', 'robot', 'node-1'))).status, 201);
  const podUid = (await h.get(`${NS}/pods/web`)).json.metadata.uid;
  const nodeUid = (await h.get('/api/v1/nodes/node-1')).json.metadata.uid;
  const bound = await h.post(tokenRequestPath('robot'), request({ boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: podUid } }));
  assert.is(bound.status, 201, bound.text);
  assert.equal(claimsOf(bound.json.status.token)['kubernetes.io'], { namespace: 'default', node: { name: 'node-1', uid: nodeUid },
    pod: { name: 'web', uid: podUid }, serviceaccount: { name: 'robot', uid: (await h.get(`${NS}/serviceaccounts/robot`)).json.metadata.uid } });
  assert.equal(bound.json.spec.boundObjectRef, { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: podUid });

  const missing = await h.post(tokenRequestPath('robot'), request({ boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'gone' } }));
  assert.equal([missing.status, missing.json.message], [404, 'pods "gone" not found']);
  await h.post(`${NS}/pods`, pod('other', 'default'));
  const foreign = await h.post(tokenRequestPath('robot'), request({ boundObjectRef: { kind: 'Pod', name: 'other' } }));
  assert.equal([foreign.status, foreign.json.message], [400, 'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.']);
  const stale = await h.post(tokenRequestPath('robot'), request({ boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'web', uid: 'old-uid' } }));
  assert.equal([stale.status, stale.json.reason, stale.json.message], [409, 'Conflict',
    'Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (old-uid) does not match the UID in record. The object might have been deleted and then recreated']);
  const configMap = await h.post(tokenRequestPath('robot'), request({ boundObjectRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' } }));
  assert.equal([configMap.status, configMap.json.message], [400, 'cannot bind token to object of type /v1, Kind=ConfigMap']);
  h.server.stop();
});

test('tokens bound to a Secret or a Node name them', async () => {
  const h = await server();
  await h.post(`${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ticket' } });
  await h.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
  const secret = await h.post(tokenRequestPath('robot'), request({ boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 'ticket' } }));
  assert.equal(claimsOf(secret.json.status.token)['kubernetes.io'].secret, { name: 'ticket', uid: (await h.get(`${NS}/secrets/ticket`)).json.metadata.uid });
  const node = await h.post(tokenRequestPath('robot'), request({ boundObjectRef: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } }));
  assert.equal(claimsOf(node.json.status.token)['kubernetes.io'].node, { name: 'node-1', uid: (await h.get('/api/v1/nodes/node-1')).json.metadata.uid });
  h.server.stop();
});

test('a pod-bound token asked for 3607 seconds for the API lasts a year and warns after 3607 seconds, unless extension is off', async () => {
  for (const extend of [true, false]) {
    const h = await server({ serviceAccountExtendTokenExpiration: extend });
    await h.post(`${NS}/pods`, pod('web'));
    const r = await h.post(tokenRequestPath('robot'), request({ expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', name: 'web' } }));
    assert.is(r.status, 201);
    const claims = claimsOf(r.json.status.token);
    assert.is(claims.exp - claims.iat, extend ? YEAR_SECONDS : 3607, `extend ${extend}`);
    assert.is(claims['kubernetes.io'].warnafter, extend ? claims.iat + 3607 : undefined);
    assert.is(r.json.status.expirationTimestamp, new Date(h.clock.now() + 3_607_000).toISOString().replace('.000', ''), 'the status tells the time asked');
    const unbound = claimsOf((await h.post(tokenRequestPath('robot'), request({ expirationSeconds: 3607 }))).json.status.token);
    assert.is(unbound.exp - unbound.iat, 3607, 'only pod-bound tokens are extended');
    h.server.stop();
  }
});

test('without an issuer and a signing key there is no token subresource (404), as on the real server', async () => {
  const h = await startServer();
  await h.post(`${NS}/serviceaccounts`, serviceAccount('robot'));
  const r = await h.post(tokenRequestPath('robot'), request());
  assert.is(r.status, 404);
  assert.is(r.json.message, 'the server could not find the requested resource');
  assert.is((await h.get(tokenRequestPath('robot'))).status, 404, 'nor any other verb there');
  h.server.stop();
  const issuing = await server();
  assert.is((await issuing.get(tokenRequestPath('robot'))).status, 405, 'with an issuer, only POST is a token request');
  issuing.server.stop();
});

test.run();
