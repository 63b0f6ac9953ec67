// Service-account tokens on their own: issued with the real claims layout and header, and verified
// as the real server's JWT authenticators verify them (signature, issuer, audiences, lifetime on
// the injected clock); the store's half is in service-account-authentication.test.ts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { keyId, parseSigningKey, parseVerifyingKeys, type PublicKey, type SigningKey } from '../../../../actors/apiserver/auth/service-account-keys.ts';
import { TokenIssuer, type TokenSpec } from '../../../../actors/apiserver/auth/service-account-tokens.ts';
import { LEGACY_ISSUER, ServiceAccountTokenVerifier } from '../../../../actors/apiserver/auth/service-account-verify.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';
import { claimsOf, headerOf, ISSUER } from '../../../helpers/service-account-keys.ts';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const signingKey = (k: typeof rsa): SigningKey => parseSigningKey(k.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 'test');
const RSA_KEY = signingKey(rsa);
const EC_KEY = signingKey(ec);

const SA = { name: 'robot', uid: 'sa-uid-1' };

function setup(opts: { keys?: PublicKey[]; issuers?: string[]; lookup?: boolean; apiAudiences?: string[] } = {}) {
  const clock = manualClock();
  const issuers = opts.issuers ?? [ISSUER];
  const verifier = new ServiceAccountTokenVerifier({ issuers, keys: opts.keys ?? [RSA_KEY], apiAudiences: opts.apiAudiences ?? issuers, lookup: opts.lookup ?? true, clock });
  const spec = (extra: Partial<TokenSpec> = {}): TokenSpec => ({ namespace: 'default', serviceAccount: SA, audiences: [ISSUER], expirationSeconds: 3600,
    nowMs: clock.now(), jti: 'jti-1', ...extra });
  return { clock, verifier, spec, issue: (extra: Partial<TokenSpec> = {}, key = RSA_KEY, iss = issuers[0]) => new TokenIssuer(iss, key).sign(spec(extra)) };
}

test('a key is named as the real server names it: base64url of the SHA-256 of its DER public key', () => {
  const der = rsa.publicKey.export({ type: 'spki', format: 'der' });
  assert.is(keyId(rsa.publicKey), createHash('sha256').update(der).digest('base64url'));
  assert.is(RSA_KEY.kid, keyId(rsa.publicKey));
  assert.equal([RSA_KEY.alg, EC_KEY.alg], ['RS256', 'ES256']);
  assert.is(signingKey(generateKeyPairSync('ec', { namedCurve: 'P-384' })).alg, 'ES384');
});

test('an issued token has the real header and claims layout, keys in Go\'s order', async () => {
  const { issue, clock } = setup();
  const now = Math.floor(clock.now() / 1000);
  const token = await issue({ pod: { name: 'web-0', uid: 'pod-uid' }, node: { name: 'node-1', uid: 'node-uid' }, audiences: [ISSUER, 'vault'] });
  assert.equal(headerOf(token), { alg: 'RS256', kid: RSA_KEY.kid });
  const claims = claimsOf(token);
  assert.equal(Object.keys(claims), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
  assert.equal(claims, {
    aud: [ISSUER, 'vault'], exp: now + 3600, iat: now, iss: ISSUER, jti: 'jti-1',
    'kubernetes.io': { namespace: 'default', node: { name: 'node-1', uid: 'node-uid' }, pod: { name: 'web-0', uid: 'pod-uid' }, serviceaccount: SA },
    nbf: now, sub: 'system:serviceaccount:default:robot',
  });
  const secretBound = claimsOf(await issue({ secret: { name: 's', uid: 'secret-uid' }, warnAfterSeconds: 3607 }))['kubernetes.io'];
  assert.equal(secretBound, { namespace: 'default', secret: { name: 's', uid: 'secret-uid' }, serviceaccount: SA, warnafter: now + 3607 });
});

test('a token the server issued authenticates as its service account, with the real groups and extra', async () => {
  const { issue, verifier } = setup();
  const token = await issue({ pod: { name: 'web-0', uid: 'pod-uid' }, node: { name: 'node-1', uid: 'node-uid' } });
  const v = verifier.verify(token);
  assert.equal(v, {
    outcome: 'accepted', audiences: [ISSUER],
    user: { username: 'system:serviceaccount:default:robot', uid: 'sa-uid-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/pod-name': ['web-0'], 'authentication.kubernetes.io/pod-uid': ['pod-uid'],
        'authentication.kubernetes.io/credential-id': ['JTI=jti-1'], 'authentication.kubernetes.io/node-name': ['node-1'], 'authentication.kubernetes.io/node-uid': ['node-uid'] } },
    // The pod is checked against the store; the node of a pod-bound token is information only.
    check: { kind: 'bound', namespace: 'default', serviceAccount: SA, pod: { name: 'web-0', uid: 'pod-uid' } },
  });
  const nodeBound = verifier.verify(await issue({ node: { name: 'node-1', uid: 'node-uid' } }));
  assert.equal(nodeBound.outcome === 'accepted' && nodeBound.check, { kind: 'bound', namespace: 'default', serviceAccount: SA, node: { name: 'node-1', uid: 'node-uid' } });
});

test('ECDSA keys sign ES256 tokens that verify; an RSA key does not verify them', async () => {
  const { issue } = setup();
  const token = await issue({}, EC_KEY);
  assert.is(headerOf(token).alg, 'ES256');
  assert.is(setup({ keys: [EC_KEY] }).verifier.verify(token).outcome, 'accepted');
  assert.equal(setup({ keys: [RSA_KEY] }).verifier.verify(token), { outcome: 'rejected', error: 'go-jose/go-jose: error in cryptographic primitive' });
});

test('a token signed by a key the server does not hold is refused, even naming a known key id', async () => {
  const { verifier, spec } = setup();
  const stranger = signingKey(generateKeyPairSync('rsa', { modulusLength: 2048 }));
  const forged = await new TokenIssuer(ISSUER, { ...stranger, kid: RSA_KEY.kid }).sign(spec());
  assert.equal(verifier.verify(forged), { outcome: 'rejected', error: 'go-jose/go-jose: error in cryptographic primitive' });
  const unnamed = await new TokenIssuer(ISSUER, { ...stranger, kid: 'nobody' }).sign(spec());
  assert.is(verifier.verify(unnamed).outcome, 'rejected');
});

test('expiry and not-before are read on the injected clock, with the real minute of leeway', async () => {
  const { issue, verifier, clock } = setup();
  const token = await issue({ expirationSeconds: 600 });
  clock.advance(600_000 + 60_000);
  assert.is(verifier.verify(token).outcome, 'accepted', 'at exp plus the leeway');
  clock.advance(1);
  assert.equal(verifier.verify(token), { outcome: 'rejected', error: 'service account token has expired' });
  const early = await issue({ nowMs: clock.now() + 120_000 });
  assert.equal(verifier.verify(early), { outcome: 'rejected', error: 'service account token is not valid yet' });
  clock.advance(60_000);
  assert.is(verifier.verify(early).outcome, 'accepted', 'within the leeway of nbf');
});

test('audiences: a token for others is refused for the API, and taken when its audience is asked', async () => {
  const { issue, verifier } = setup();
  const token = await issue({ audiences: ['vault', 'other'] });
  assert.equal(verifier.verify(token), { outcome: 'rejected', error: `token audiences ["vault" "other"] is invalid for the target audiences ["${ISSUER}"]` });
  const asked = verifier.verify(token, ['vault']);
  assert.equal(asked.outcome === 'accepted' && asked.audiences, ['vault']);
  const two = verifier.verify(await issue({ audiences: ['a', ISSUER, 'b'] }));
  assert.equal(two.outcome === 'accepted' && two.audiences, [ISSUER], 'the audiences met, not all the token has');
});

test('every --service-account-issuer is accepted; another issuer\'s token is not this authenticator\'s', async () => {
  const { verifier, issue } = setup({ issuers: [ISSUER, 'https://old.example.com'], apiAudiences: [ISSUER] });
  assert.is(verifier.verify(await issue({}, RSA_KEY, 'https://old.example.com')).outcome, 'accepted');
  assert.equal(verifier.verify(await issue({}, RSA_KEY, 'https://elsewhere.example.com')), { outcome: 'unhandled' });
});

test('truncated, altered and unsigned tokens are refused', async () => {
  const { issue, verifier } = setup();
  const token = await issue();
  const [h, p, s] = token.split('.');
  assert.is(verifier.verify(token.slice(0, -10)).outcome, 'rejected', 'signature cut short');
  assert.is(verifier.verify(`${h}.${p}`).outcome, 'unhandled', 'two parts: not a JWS');
  assert.is(verifier.verify(`${h}.${p.slice(0, -5)}.${s}`).outcome, 'unhandled', 'claims cut short no longer parse');
  const altered = Buffer.from(JSON.stringify({ ...claimsOf(token), sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url');
  assert.equal(verifier.verify(`${h}.${altered}.${s}`), { outcome: 'rejected', error: 'go-jose/go-jose: error in cryptographic primitive' });
  const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
  assert.equal(verifier.verify(`${none}.${p}.`), { outcome: 'unhandled' }, 'alg none is not a signature');
  const hmac = await new SignJWT(claimsOf(token)).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
  assert.equal(verifier.verify(hmac), { outcome: 'unhandled' }, 'no shared secrets');
  assert.equal(verifier.verify('not-a-jwt'), { outcome: 'unhandled' });
});

test('legacy tokens: the claims are checked, and --service-account-lookup decides whether the store is asked', async () => {
  const legacy = (claims: Record<string, unknown>) => new SignJWT({ iss: LEGACY_ISSUER, sub: 'system:serviceaccount:default:robot',
    'kubernetes.io/serviceaccount/namespace': 'default', 'kubernetes.io/serviceaccount/secret.name': 'robot-token',
    'kubernetes.io/serviceaccount/service-account.name': 'robot', 'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid-1', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: RSA_KEY.kid }).sign(rsa.privateKey);
  const token = await legacy({});
  const looked = setup({ lookup: true }).verifier.verify(token);
  assert.equal(looked, { outcome: 'accepted', audiences: [ISSUER],
    user: { username: 'system:serviceaccount:default:robot', uid: 'sa-uid-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] },
    check: { kind: 'legacy', namespace: 'default', serviceAccount: SA, secretName: 'robot-token', token } });
  const unlooked = setup({ lookup: false }).verifier.verify(token);
  assert.ok(unlooked.outcome === 'accepted' && unlooked.check === undefined, 'without lookup nothing is read');
  const { verifier } = setup();
  assert.equal(verifier.verify(await legacy({ 'kubernetes.io/serviceaccount/secret.name': undefined })), { outcome: 'rejected', error: 'secretName claim is missing' });
  assert.equal(verifier.verify(await legacy({ sub: 'system:serviceaccount:other:robot' })), { outcome: 'rejected', error: 'sub claim is invalid' });
});

test('key files: private keys, public keys and certificates give their public keys; other blocks are passed over', () => {
  const pem = [
    '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n',
    ec.privateKey.export({ type: 'sec1', format: 'pem' }) as string,
    rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }) as string,
  ].join('');
  const keys = parseVerifyingKeys(pem, 'keys.pem');
  assert.equal(keys.map((k) => [k.kid, k.alg]), [[EC_KEY.kid, 'ES256'], [RSA_KEY.kid, 'RS256']]);
  assert.ok(keys.every((k) => k.key.type === 'public'));
  assert.throws(() => parseVerifyingKeys('nothing here', 'keys.pem'), /keys.pem: data does not contain any valid RSA or ECDSA public keys/);
  const publicOnly = createPublicKey(rsa.privateKey).export({ type: 'spki', format: 'pem' }) as string;
  assert.throws(() => parseSigningKey(publicOnly, '--service-account-signing-key-file k'), /--service-account-signing-key-file k: data does not contain a valid RSA or ECDSA private key/);
  const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  assert.throws(() => parseSigningKey(ed, 'ed'), /not contain a valid RSA or ECDSA private key/, 'Ed25519 is not a service-account key');
});

test.run();
