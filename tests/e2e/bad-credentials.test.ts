// Bad credentials never reach a handler. Over 1,000 forged credentials (bad-credentials-forge.ts)
// and certificates from an unknown CA, expired or not yet valid, each on a create of its own
// ConfigMap, over real HTTPS with keep-alive connections and concurrency, and the tokens again over
// the NATS bus as a component's client sends them: every answer is a 401 Status (code 401, reason
// Unauthorized). Everyone, anonymous requests included, may create ConfigMaps here, so a forged
// credential that got past authentication, or fell back to anonymous, would create one; afterwards
// none exists, the store's revision has not moved, and apiserver_request_total counted nothing
// but those 401s. Good credentials, before and after, are served.
import { createPublicKey, createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../actors/api/resources.ts';
import { StatusError } from '../../actors/api/status.ts';
import type { KObject } from '../../actors/api/types.ts';
import { clientCa, clientCertificate, type KeyPair } from '../../actors/apiserver/certs.ts';
import { ApiClient } from '../../actors/client/client.ts';
import { CredentialedBus } from '../../actors/client/credentials.ts';
import { wallClock } from '../../sim/clock.ts';
import { seededRandom } from '../../sim/random.ts';
import { NatsBus } from '../../transport/nats-bus.ts';
import { startTestServer } from '../helpers/api-server.ts';
import { IdentityClient, inPool, type Answer } from '../helpers/identity-client.ts';
import { startNatsServer } from '../helpers/nats-server.ts';
import { ISSUER, keyFiles } from '../helpers/service-account-keys.ts';
import { Forge, type BadCredential } from './bad-credentials-forge.ts';

const SEED = 20_240_612;
const PER_KIND = 125;
const CONCURRENCY = 16;
const CONFIGMAPS = lookupResource('', 'v1', 'configmaps')!;
const CM_PATH = '/api/v1/namespaces/default/configmaps';
const DAY_MS = 24 * 3600 * 1000;

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { k: 'v' } });

/** Why an answer is not the 401 Status it must be, or undefined. */
function not401(a: Answer): string | undefined {
  const s = a.json;
  const ok = a.status === 401 && s?.kind === 'Status' && s.apiVersion === 'v1' && s.status === 'Failure' && s.code === 401 && s.reason === 'Unauthorized';
  return ok ? undefined : `${a.status} ${a.body.slice(0, 200)}`;
}

/** A client certificate `ca` signs (self-signed without one) for `cn`, valid from `fromMs` to `toMs`. */
async function certificate(ca: KeyPair | undefined, cn: string, orgs: string[], fromMs: number, toMs: number): Promise<KeyPair> {
  const pems = await generate([{ name: 'commonName', value: cn }, ...orgs.map((value) => ({ name: 'organizationName', value }))], {
    keyType: 'ec', curve: 'P-256', algorithm: 'sha256', notBeforeDate: new Date(fromMs), notAfterDate: new Date(toMs), ...(ca ? { ca } : {}),
    extensions: [{ name: 'basicConstraints', cA: false, critical: true }, { name: 'keyUsage', digitalSignature: true, critical: true }, { name: 'extKeyUsage', clientAuth: true }],
  });
  return { cert: pems.cert, key: pems.private };
}

/** apiserver_request_total's POSTs of ConfigMaps that were not dry runs, by code. */
async function configMapCreates(admin: IdentityClient): Promise<Map<string, number>> {
  const text = (await admin.must({ method: 'GET', path: '/metrics' })).body;
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (labels.verb === 'POST' && labels.resource === 'configmaps' && labels.dry_run === '') out.set(labels.code!, Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return out;
}

test('over 1,000 bad credentials over HTTPS and NATS: each a 401 Status, none reaching a handler', async () => {
  const r = seededRandom(SEED);
  const clock = wallClock();
  const nats = await startNatsServer();
  const serverBus = await NatsBus.connect({ servers: nats.url, name: 'apiserver', onError: () => {} });
  const clientBus = await NatsBus.connect({ servers: nats.url, name: 'clients', onError: () => {} });
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-bad-credentials-'));
  const token = () => Array.from({ length: 32 }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(r.next() * 62)]).join('');
  const [adminToken, ...userTokens] = [token(), token(), token(), token()] as [string, ...string[]];
  writeFileSync(join(dir, 'tokens.csv'), [`${adminToken},bad-credentials-admin,uid-0,"system:masters"`,
    ...userTokens.map((t, i) => `${t},user-${i},uid-${i + 1},"team"`)].join('\n'));
  const keys = keyFiles();
  const ca = await clientCa(join(dir, 'ca'), clock);
  const s = await startTestServer({ authorizationMode: ['Node', 'RBAC'], tokenAuthFile: join(dir, 'tokens.csv'), clientCaFile: ca.certFile, ...keys.options() },
    { bus: serverBus });
  const admin = new IdentityClient(s.url, s.ca, { token: adminToken });
  const opened: IdentityClient[] = [admin];
  const client = (c: ConstructorParameters<typeof IdentityClient>[2], sockets = 2) => {
    const made = new IdentityClient(s.url, s.ca, c, sockets);
    opened.push(made);
    return made;
  };
  try {
    // Everyone may create ConfigMaps, even without credentials: a forgery past authentication would show.
    await admin.must({ method: 'POST', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
      metadata: { name: 'configmap-writer' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }] } });
    await admin.must({ method: 'POST', path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', body: { apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding', metadata: { name: 'configmap-writers' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'configmap-writer' },
      subjects: ['system:authenticated', 'system:unauthenticated'].map((name) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name })) } });
    const issue = async (sa: string, bound?: object) => (await admin.must({ method: 'POST', path: `/api/v1/namespaces/default/serviceaccounts/${sa}/token`,
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [], ...(bound ? { boundObjectRef: bound } : {}) } } })).json.status.token as string;
    for (const sa of ['victim', 'doomed']) await admin.must({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: sa } } });
    await admin.must({ method: 'POST', path: '/api/v1/namespaces/default/pods', body: { metadata: { name: 'doomed-pod' }, spec: { serviceAccountName: 'victim', containers: [{ name: 'c', image: 'nginx:1.27' }] } } });
    await admin.must({ method: 'POST', path: '/api/v1/namespaces/default/secrets', body: { metadata: { name: 'doomed-secret' } } });
    await admin.must({ method: 'POST', path: '/api/v1/nodes', body: { metadata: { name: 'doomed-node' } } });
    const goodToken = await issue('victim');
    // Tokens of objects about to go: the account (then made again, with another uid), and the pod, secret and node tokens are bound to.
    const orphaned: string[] = [];
    for (let i = 0; i < 6; i++)
      orphaned.push(await issue('doomed'), await issue('victim', { apiVersion: 'v1', kind: 'Pod', name: 'doomed-pod' }),
        await issue('victim', { apiVersion: 'v1', kind: 'Secret', name: 'doomed-secret' }), await issue('victim', { apiVersion: 'v1', kind: 'Node', name: 'doomed-node' }));
    for (const path of ['/api/v1/namespaces/default/serviceaccounts/doomed', '/api/v1/namespaces/default/pods/doomed-pod', '/api/v1/namespaces/default/secrets/doomed-secret', '/api/v1/nodes/doomed-node'])
      await admin.must({ method: 'DELETE', path });
    await admin.must({ method: 'POST', path: '/api/v1/namespaces/default/serviceaccounts', body: { metadata: { name: 'doomed' } } });

    const kid = createHash('sha256').update(createPublicKey(keys.rsaPrivateKey).export({ type: 'spki', format: 'der' })).digest('base64url');
    const forge = new Forge(r.fork('forge'), { goodToken, staticTokens: [adminToken, ...userTokens], signingKey: keys.rsaPrivateKey, kid, issuer: ISSUER,
      nowSeconds: Math.floor(clock.now() / 1000), orphaned });
    const resigned = forge.resigned();
    const good: { what: string; client: IdentityClient; token?: string }[] = [
      { what: 'the service account token', client: client({ token: goodToken }), token: goodToken },
      { what: 'the forge\'s own signature of the good claims', client: client({ token: resigned }), token: resigned },
      ...userTokens.map((t, i) => ({ what: `static token ${i}`, client: client({ token: t }), token: t })),
      { what: 'a certificate the client CA signed', client: client({ cert: await clientCertificate(ca, 'cert-user', ['team'], clock) }) },
    ];
    const goodOnes = async (when: string) => {
      for (const g of good) {
        const a = await g.client.send({ method: 'POST', path: `${CM_PATH}?dryRun=All`, body: configMap(`good-${when}`) });
        assert.is(a.status, 201, `${when}: ${g.what} is served: ${a.body}`);
        if (g.token) await new ApiClient(new CredentialedBus(clientBus, g.token), 'bad-credentials-test', 10_000).request('POST', `${CM_PATH}?dryRun=All`, configMap(`good-bus-${when}`));
      }
    };
    await goodOnes('before');

    const bad = forge.all(PER_KIND);
    const valid = new Set([adminToken, ...userTokens, goodToken]);
    assert.not.ok(bad.some((b) => b.token !== undefined && valid.has(b.token)), 'no forgery is a good token by chance');
    const now = clock.now();
    const foreign = await clientCa(join(dir, 'foreign-ca'), clock);
    const certs: { kind: string; pair: KeyPair }[] = [];
    for (let i = 0; i < 12; i++) certs.push({ kind: 'certificate from an unknown CA', pair: await clientCertificate(foreign, i % 2 ? 'bad-credentials-admin' : `mallory-${i}`, ['system:masters'], clock) });
    for (let i = 0; i < 6; i++) certs.push({ kind: 'expired certificate', pair: await certificate(ca, `late-${i}`, ['system:masters'], now - (i + 2) * DAY_MS, now - (i + 1) * DAY_MS) });
    for (let i = 0; i < 6; i++) certs.push({ kind: 'certificate not yet valid', pair: await certificate(ca, `early-${i}`, ['system:masters'], now + (i + 1) * DAY_MS, now + (i + 30) * DAY_MS) });
    for (let i = 0; i < 4; i++) certs.push({ kind: 'self-signed certificate', pair: await certificate(undefined, `self-${i}`, ['system:masters'], now - DAY_MS, now + DAY_MS) });

    const revision = s.server.store.revision;
    const countsBefore = await configMapCreates(admin);
    const wrong: string[] = [];
    const anonymous = client({}, CONCURRENCY);
    await inPool(bad, CONCURRENCY, async (b, i) => {
      const why = not401(await anonymous.send({ method: 'POST', path: CM_PATH, body: configMap(`bad-https-${i}`), headers: { authorization: b.authorization } }));
      if (why) wrong.push(`HTTPS ${b.kind} (${JSON.stringify(b.authorization.slice(0, 80))}): ${why}`);
    });
    // A certificate belongs to its connections: each its own client, three requests apiece.
    await inPool(certs, 8, async (c, i) => {
      const own = client({ cert: c.pair });
      for (const why of (await Promise.all([0, 1, 2].map((k) => own.send({ method: 'POST', path: CM_PATH, body: configMap(`bad-cert-${i}-${k}`) })))).map(not401))
        if (why) wrong.push(`HTTPS ${c.kind}: ${why}`);
      own.close();
    });
    const onBus = bad.filter((b): b is BadCredential & { token: string } => b.token !== undefined);
    await inPool(onBus, CONCURRENCY, async (b, i) => {
      try {
        await new ApiClient(new CredentialedBus(clientBus, b.token), 'bad-credentials-test', 10_000).create(CONFIGMAPS, configMap(`bad-bus-${i}`) as KObject);
        wrong.push(`NATS ${b.kind} (${b.token.slice(0, 60)}): created`);
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 401 && e.reason === 'Unauthorized')) wrong.push(`NATS ${b.kind} (${b.token.slice(0, 60)}): ${String(e)}`);
      }
    });
    const sent = bad.length + certs.length * 3 + onBus.length;
    assert.is(wrong.length, 0, `${wrong.length} of ${sent} bad credentials were not answered 401 Unauthorized:\n${wrong.slice(0, 30).join('\n')}`);

    assert.is(s.server.store.revision, revision, 'nothing was stored');
    const names = ((await admin.must({ method: 'GET', path: CM_PATH })).json.items as KObject[]).map((o) => o.metadata.name!);
    assert.equal(names.filter((n) => n.startsWith('bad-')), []);
    const countsAfter = await configMapCreates(admin);
    const moved = [...new Set([...countsBefore.keys(), ...countsAfter.keys()])].map((code) => [code, (countsAfter.get(code) ?? 0) - (countsBefore.get(code) ?? 0)] as const).filter(([, d]) => d !== 0);
    assert.equal(moved, [['401', sent]], 'apiserver_request_total counted the 401s and nothing else');
    assert.ok(bad.length >= 1000 && new Set(bad.map((b) => b.kind)).size === 9, `${bad.length} forged credentials`);

    await goodOnes('after');
  } finally {
    for (const c of opened) c.close();
    await s.stop();
    await clientBus.close();
    await serverBus.close();
    await nats.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
