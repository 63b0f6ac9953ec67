// `orchsim serve` issues service-account tokens with no flags: a signing key of the cluster's own,
// made with node:crypto into --cert-dir on the first start (owner-only) and reused after, and the
// issuer real clusters use. Driven over HTTPS with @kubernetes/client-node and its kubeconfig:
// a TokenRequest answers a token that a TokenReview then authenticates, and that the published
// key set verifies. `orchsim apiserver` turns tokens on only when asked.
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as k8s from '@kubernetes/client-node';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { startServer, type Running } from '../../../sim/cli/serve.ts';
import { freePort } from '../../helpers/real-time.ts';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const asObject = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

async function serve(dir: string, extra: string[] = []): Promise<Running> {
  return startServer(['--secure-port', String(await freePort()), '--cert-dir', join(dir, 'certs'), '--kubeconfig-out', join(dir, 'kubeconfig'), '--nodes', '0', ...extra],
    'serve', () => {}, () => {});
}

test('serve makes a signing key per cluster, owner-only, and keeps it across starts', async () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'orchsim-sa-a-')), mkdtempSync(join(tmpdir(), 'orchsim-sa-b-'))];
  try {
    const pems: string[] = [];
    for (const dir of [dirs[0], dirs[0], dirs[1]]) {
      const running = await serve(dir);
      await running.stop();
      const file = join(dir, 'certs', 'service-account.key');
      assert.is(statSync(file).mode & 0o077, 0, 'readable by its owner only');
      pems.push(readFileSync(file, 'utf8'));
    }
    assert.is(createPrivateKey(pems[0]).asymmetricKeyType, 'rsa');
    assert.is(pems[1], pems[0], 'the same cluster keeps its key');
    assert.is.not(pems[2], pems[0], 'another cluster has another key');
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});

test('a served cluster answers TokenRequests; the token reviews as its service account and verifies with the published keys', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-sa-serve-'));
  const running = await serve(dir);
  try {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(running.kubeconfig!);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const authn = kc.makeApiClient(k8s.AuthenticationV1Api);
    await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'robot' } } });
    const tr = await core.createNamespacedServiceAccountToken({ namespace: 'default', name: 'robot', body: { spec: { audiences: [], expirationSeconds: 1200 } } });
    const token = tr.status!.token;
    assert.instance(tr.status!.expirationTimestamp, Date);
    const review = await authn.createTokenReview({ body: { spec: { token } } });
    assert.is(review.status?.authenticated, true);
    assert.is(review.status?.user?.username, 'system:serviceaccount:default:robot');
    assert.equal(review.status?.audiences, [ISSUER]);
    // Declared as strings, handed over parsed.
    const config = asObject(await kc.makeApiClient(k8s.WellKnownApi).getServiceAccountIssuerOpenIDConfiguration());
    assert.is(config.issuer, ISSUER);
    const keySet = asObject(await kc.makeApiClient(k8s.OpenidApi).getServiceAccountIssuerOpenIDKeyset());
    const { payload } = await jwtVerify(token, createLocalJWKSet(keySet), { issuer: ISSUER, audience: ISSUER });
    assert.is(payload.sub, 'system:serviceaccount:default:robot');
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

const call = (running: Running, method: string, url: string) => running.server.handle({ method, url, headers: {}, body: new Uint8Array() });

test('orchsim apiserver issues no tokens unless configured; serve takes a configuration given', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-sa-apiserver-'));
  try {
    const bare = await startServer(['--secure-port', String(await freePort()), '--cert-dir', join(dir, 'certs')], 'apiserver', () => {}, () => {});
    assert.is((await call(bare, 'POST', '/api/v1/namespaces/default/serviceaccounts/default/token')).status, 404);
    assert.is((await call(bare, 'GET', '/.well-known/openid-configuration')).status, 404);
    await bare.stop();
    const key = join(dir, 'own.key');
    writeFileSync(key, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }));
    // Anonymous calls: under serve's default RBAC only service accounts may read the issuer documents.
    const given = await serve(dir, ['--service-account-issuer', 'https://issuer.example.com', '--service-account-signing-key-file', key, '--authorization-mode', 'AlwaysAllow']);
    const doc = JSON.parse(String((await call(given, 'GET', '/.well-known/openid-configuration')).body));
    assert.equal([doc.issuer, doc.id_token_signing_alg_values_supported], ['https://issuer.example.com', ['ES256']]);
    assert.not.ok(existsSync(join(dir, 'certs', 'service-account.key')), 'no key of its own made');
    await given.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
