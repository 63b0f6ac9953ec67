// The service-account issuer's OpenID discovery documents: /.well-known/openid-configuration and
// /openid/v1/jwks as the real server serves them, and enough for a relying party with nothing but
// jose to verify the server's tokens.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import { keyId } from '../../../../actors/apiserver/auth/service-account-keys.ts';
import { createPublicKey } from 'node:crypto';
import { startServer, type Harness } from '../../../helpers/in-process-server.ts';
import { ISSUER, keyFiles, serviceAccount, tokenRequestPath } from '../../../helpers/service-account-keys.ts';

const keys = keyFiles();
const CONFIG = '/.well-known/openid-configuration';
const JWKS = '/openid/v1/jwks';

async function tokenFrom(h: Harness): Promise<string> {
  await h.post('/api/v1/namespaces/default/serviceaccounts', serviceAccount('robot'));
  return (await h.post(tokenRequestPath('robot'), { spec: { audiences: ['vault'] } })).json.status.token;
}

test('the discovery document names the issuer, the key set\'s address and the signing algorithms', async () => {
  const h = await startServer(keys.options());
  const r = await h.get(CONFIG);
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/json');
  assert.is(r.headers['cache-control'], 'public, max-age=3600');
  assert.equal(r.json, { issuer: ISSUER, jwks_uri: 'https://localhost:6443/openid/v1/jwks', response_types_supported: ['id_token'],
    subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'] });
  h.server.stop();
  const named = await startServer(keys.options({ externalHostname: 'api.example.com', securePort: 8443 }));
  assert.is((await named.get(CONFIG)).json.jwks_uri, 'https://api.example.com:8443/openid/v1/jwks');
  named.server.stop();
  const given = await startServer(keys.options({ serviceAccountJwksUri: 'https://keys.example.com/jwks' }));
  assert.is((await given.get(CONFIG)).json.jwks_uri, 'https://keys.example.com/jwks');
  given.server.stop();
});

test('the key set holds the verifying keys under their real ids, and a relying party verifies a token with it', async () => {
  const h = await startServer(keys.options());
  const r = await h.get(JWKS);
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/jwk-set+json');
  const jwks = r.json as { keys: JWK[] };
  assert.is(jwks.keys.length, 1);
  assert.equal(Object.keys(jwks.keys[0]), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
  assert.equal([jwks.keys[0].use, jwks.keys[0].kty, jwks.keys[0].alg, jwks.keys[0].kid], ['sig', 'RSA', 'RS256', keyId(createPublicKey(keys.rsaPrivateKey))]);
  assert.not.ok('d' in jwks.keys[0], 'no private part');
  const token = await tokenFrom(h);
  const config = (await h.get(CONFIG)).json;
  const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: config.issuer, audience: 'vault',
    currentDate: new Date(h.clock.now()), algorithms: config.id_token_signing_alg_values_supported });
  assert.is(payload.sub, 'system:serviceaccount:default:robot');
  assert.is(protectedHeader.kid, jwks.keys[0].kid);
  h.clock.advance(3600_000 + 1000);
  await jwtVerify(token, createLocalJWKSet(jwks), { currentDate: new Date(h.clock.now()) }).then(
    () => assert.unreachable('an expired token verified'), (e: Error) => assert.match(e.message, /"exp" claim timestamp check failed/));
  h.server.stop();
});

test('every --service-account-key-file key is published; the algorithms are those of the keys', async () => {
  const h = await startServer(keys.options({ serviceAccountKeyFile: [keys.rsaPublic, keys.ecKey] }));
  const jwks = (await h.get(JWKS)).json as { keys: JWK[] };
  assert.equal(jwks.keys.map((k) => [k.kty, k.alg, k.crv]), [['RSA', 'RS256', undefined], ['EC', 'ES256', 'P-256']]);
  assert.equal(Object.keys(jwks.keys[1]), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
  assert.equal((await h.get(CONFIG)).json.id_token_signing_alg_values_supported, ['ES256', 'RS256']);
  const token = await tokenFrom(h);
  assert.is((await jwtVerify(token, createLocalJWKSet(jwks), { audience: 'vault', currentDate: new Date(h.clock.now()) })).payload.iss, ISSUER);
  h.server.stop();
});

test('an issuer that is not an https URL issues tokens but serves no documents (404), as the real server', async () => {
  const h = await startServer(keys.options({ serviceAccountIssuer: ['api'] }));
  assert.is((await h.get(CONFIG)).status, 404);
  assert.is((await h.get(JWKS)).status, 404);
  const token = await tokenFrom(h);
  assert.is(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).iss, 'api');
  h.server.stop();
});

test('the documents are read only by users the authorizer allows', async () => {
  const h = await startServer(keys.options({ authorizationMode: ['AlwaysDeny'] }));
  const r = await h.get(CONFIG);
  assert.is(r.status, 403);
  assert.is(r.json.message, 'forbidden: User "system:anonymous" cannot get path "/.well-known/openid-configuration": Everything is forbidden.');
  assert.is((await h.get(JWKS)).status, 403);
  h.server.stop();
});

test.run();
