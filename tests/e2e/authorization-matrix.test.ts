// The authorization matrix: every identity of the fixture (users, groups, service accounts with
// their TokenRequest tokens, nodes with client certificates and tokens, nobody) asks every verb of
// every served resource and subresource, in two namespaces, across all of them and at the cluster
// scope, and the non-resource paths, over real HTTPS. Each cell's decision is computed by the
// reference (tests/helpers/authorization-reference.ts, from the documented rules) and must be
// what the server answers, twice: the real request (403 or not; writes are dry runs, which need
// the same permission) and a SubjectAccessReview of the same attributes. Impersonating a user or
// a service account is asked with Impersonate-User, a group, uid or extra beside a user (allowed
// only if both are); cells no request can ask (bind, escalate, use, subresources not served) are
// checked by SubjectAccessReview alone. The aggregated ClusterRoles are filled by the real aggregation
// controller, running as its service account, before the matrix starts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientCa, clientCertificate, type KeyPair } from '../../actors/apiserver/certs.ts';
import { CredentialedBus } from '../../actors/client/credentials.ts';
import { SharedInformers } from '../../actors/client/shared-informers.ts';
import { ClusterRoleAggregationController } from '../../actors/controller-manager/controllers/clusterrole-aggregation.ts';
import { wallClock } from '../../sim/clock.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { accessReview, describe, SUBJECT_ACCESS_REVIEWS } from '../helpers/attribute-requests.ts';
import { ReferenceRbac, referenceAllows, sameRules, type RbacObject, type Rule } from '../helpers/authorization-reference.ts';
import { IdentityClient, inPool } from '../helpers/identity-client.ts';
import { bootstrapPolicy, rbacCollection } from '../helpers/rbac-objects.ts';
import { keyFiles } from '../helpers/service-account-keys.ts';
import { ADMIN_TOKEN, AGGREGATOR_TOKEN, IDENTITIES, PODS, POLICY, tokenFile, worldObjects, type Identity } from './authorization-matrix-fixture.ts';
import { matrixCells, type Cell } from './authorization-matrix-cells.ts';

const CONCURRENCY = 16;
const AGGREGATION_TIMEOUT_MS = 20_000;

interface World {
  s: TestServer;
  admin: IdentityClient;
  clients: Map<string, IdentityClient>;
  reference: ReferenceRbac;
  dir: string;
}

/** A client per identity, with the credential it proves itself by. */
async function clientsOf(s: TestServer, ca: KeyPair): Promise<Map<string, IdentityClient>> {
  const clock = wallClock();
  const admin = new IdentityClient(s.url, s.ca, { token: ADMIN_TOKEN });
  const out = new Map<string, IdentityClient>();
  for (const i of IDENTITIES) {
    const p = i.proof;
    if ('token' in p) out.set(i.name, new IdentityClient(s.url, s.ca, { token: p.token }));
    else if ('cert' in p) out.set(i.name, new IdentityClient(s.url, s.ca, { cert: await clientCertificate(ca, p.cert.cn, p.cert.orgs, clock) }));
    else if ('anonymous' in p) out.set(i.name, new IdentityClient(s.url, s.ca));
    else {
      const issued = await admin.must({ method: 'POST', path: `/api/v1/namespaces/${p.serviceAccount.namespace}/serviceaccounts/${p.serviceAccount.name}/token`,
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: [], expirationSeconds: 3600 } } });
      out.set(i.name, new IdentityClient(s.url, s.ca, { token: issued.json.status.token }));
    }
  }
  admin.close();
  return out;
}

/** Runs the real aggregation controller as its service account until every aggregated role holds what the reference says. */
async function aggregate(s: TestServer, reference: ReferenceRbac, objects: RbacObject[]): Promise<void> {
  const clock = wallClock();
  const bus = new CredentialedBus(s.server.bus, AGGREGATOR_TOKEN);
  const informers = new SharedInformers(bus, clock, 'clusterrole-aggregation-controller');
  const controller = new ClusterRoleAggregationController({ bus, clock, informers, workers: 1, onError: (e) => { throw e; } });
  const aggregated = objects.filter((o) => o.kind === 'ClusterRole' && o.aggregationRule).map((o) => o.metadata.name);
  const held = (name: string) => (s.server.rbac!.clusterRole(name) as { rules?: Rule[] } | undefined)?.rules ?? [];
  const late = () => aggregated.filter((n) => !sameRules(held(n), reference.clusterRoleRules(n)!));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`aggregation did not settle within ${AGGREGATION_TIMEOUT_MS} ms: ${late().map((n) => `${n} holds ${JSON.stringify(held(n))}, want ${JSON.stringify(reference.clusterRoleRules(n))}`).join('; ')}`));
      }, AGGREGATION_TIMEOUT_MS);
      const off = s.server.store.onChange((c) => { if (c.key.includes('/clusterroles/') && late().length === 0) done(); });
      const stop = () => { off(); clearTimeout(timer); };
      const done = () => { stop(); resolve(); };
      controller.start().then(() => { if (late().length === 0) done(); }, (e) => { stop(); reject(e); });
    });
  } finally {
    controller.stop();
    informers.stop();
  }
}

async function world(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-authz-matrix-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, tokenFile());
  const ca = await clientCa(join(dir, 'ca'), wallClock());
  const keys = keyFiles();
  const s = await startTestServer({ authorizationMode: ['Node', 'RBAC'], tokenAuthFile: tokens, clientCaFile: ca.certFile, ...keys.options() });
  const admin = new IdentityClient(s.url, s.ca, { token: ADMIN_TOKEN }, 8);
  try {
    for (const o of worldObjects()) await admin.must({ method: 'POST', path: o.path, body: o.body });
    for (const o of POLICY) await admin.must({ method: 'POST', path: rbacCollection(o), body: o });
    const objects = [...await bootstrapPolicy(admin), ...POLICY];
    const reference = new ReferenceRbac(objects);
    await aggregate(s, reference, objects);
    return { s, admin, clients: await clientsOf(s, ca), dir, reference };
  } catch (e) {
    admin.close();
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

test('every identity, verb, resource and scope: the real answer and SubjectAccessReview are the reference\'s decision', async () => {
  const w = await world();
  try {
    // Authentication first: each credential is the user the reference thinks it is.
    for (const i of IDENTITIES) {
      if ('anonymous' in i.proof) continue;
      const who = await w.clients.get(i.name)!.must({ method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
      assert.equal({ username: who.json.status.userInfo.username, groups: who.json.status.userInfo.groups }, i.user, `${i.name} authenticates as declared`);
    }
    const cells: (Cell & { identity: Identity })[] = IDENTITIES.flatMap((identity) => matrixCells().map((c) => ({ ...c, identity })));
    const revision = w.s.server.store.revision;
    const failures: string[] = [];
    const allowedOf = new Map(IDENTITIES.map((i) => [i.name, 0]));
    let real = 0;
    await inPool(cells, CONCURRENCY, async (c) => {
      const expected = referenceAllows(w.reference, PODS, c.identity.user, c.attributes);
      const sar = await w.admin.must({ method: 'POST', path: SUBJECT_ACCESS_REVIEWS, body: accessReview(c.identity.user, c.attributes) }, [201]);
      const answer = c.call ? await w.clients.get(c.identity.name)!.send(c.call) : undefined;
      if (expected) allowedOf.set(c.identity.name, allowedOf.get(c.identity.name)! + 1);
      if (answer) real++;
      const wrongSar = sar.json.status.allowed !== expected;
      const expectedReal = expected && (c.alsoAsks === undefined || referenceAllows(w.reference, PODS, c.identity.user, c.alsoAsks));
      const wrongReal = answer !== undefined && ((answer.status === 403) === expectedReal || answer.status === 401);
      if (wrongSar || wrongReal)
        failures.push(`${c.identity.name} ${describe(c.attributes)}: reference ${expected ? 'allows' : 'forbids'}${c.alsoAsks ? ` (the request ${expectedReal ? 'allowed' : 'forbidden'})` : ''}; `
          + `SubjectAccessReview allowed=${sar.json.status.allowed}${sar.json.status.reason ? ` (${sar.json.status.reason})` : ''}`
          + `${answer ? `; ${c.call!.method} ${c.call!.path} answered ${answer.status} ${answer.json?.message ?? ''}` : ''}`);
    });
    assert.is(failures.length, 0, `${failures.length} of ${cells.length} cells wrong:\n${failures.slice(0, 60).join('\n')}`);
    assert.is(w.s.server.store.revision, revision, 'the matrix stored nothing: every write was a dry run');
    // A row that allowed (or forbade) everything would prove little: each but the administrator's has both, many times.
    const row = cells.length / IDENTITIES.length;
    for (const [name, allowed] of allowedOf)
      if (name !== 'admin') assert.ok(allowed >= 10 && allowed <= row - 100, `${name}: ${allowed} of ${row} cells allowed`);
    assert.is(allowedOf.get('admin'), row);
    console.log(`${cells.length} cells, ${real} real requests; allowed per identity: ${[...allowedOf].map(([n, k]) => `${n} ${k}`).join(', ')}`);
    assert.ok(real > 5000, `${real} real requests`);
  } finally {
    for (const c of w.clients.values()) c.close();
    w.admin.close();
    await w.s.stop();
    rmSync(w.dir, { recursive: true, force: true });
  }
});

test.run();
