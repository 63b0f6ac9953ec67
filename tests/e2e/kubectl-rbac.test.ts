// kubectl (the one on PATH) under RBAC: an administrator grants a developer a namespaced Role
// with kubectl itself; the developer's token then does what the Role allows and is Forbidden the
// rest, in the real server's words, and `auth can-i`, `auth can-i --list` and `auth whoami`
// answer for it. A request with no credentials reaches discovery and nothing else.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

type Ctx = { s: TestServer; dev: string };
const kubectl = suite<Ctx>('kubectl-rbac');

kubectl.before(async (ctx) => {
  ctx.dev = randomBytes(16).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-rbac-key-'));
  const key = join(dir, 'sa.key');
  writeFileSync(key, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }));
  ctx.s = await startTestServer({ authorizationMode: ['RBAC', 'Node'], serviceAccountIssuer: ['https://kubernetes.default.svc'], serviceAccountSigningKeyFile: key,
    tokens: new Map([[ctx.dev, { username: 'dana', uid: 'dana-uid', groups: ['developers', 'system:authenticated'] }]]) });
  const admin = async (args: string[], stdin?: string) => {
    const r = await ctx.s.kubectl(args, stdin);
    assert.is(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  };
  await admin(['create', 'namespace', 'team']);
  await admin(['apply', '-f', '-'], `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: deployer, namespace: team }
rules:
- { apiGroups: [""], resources: [pods, configmaps], verbs: [get, list, watch, create, delete] }
- { apiGroups: [apps], resources: [deployments], verbs: [get] }
`);
  await admin(['-n', 'team', 'create', 'rolebinding', 'dana-deployer', '--role=deployer', '--user=dana']);
});
kubectl.after(async (ctx) => {
  await ctx.s.stop();
});

const asDev = (ctx: Ctx, args: string[]) => ctx.s.kubectl([`--token=${ctx.dev}`, ...args]);

kubectl('the Role\'s verbs work in its namespace', async (ctx) => {
  const created = await asDev(ctx, ['-n', 'team', 'create', 'configmap', 'settings', '--from-literal=a=b']);
  assert.is(created.code, 0, created.stderr);
  const got = await asDev(ctx, ['-n', 'team', 'get', 'configmaps', 'settings', '-o', 'jsonpath={.data.a}']);
  assert.is(got.stdout, 'b');
  const deleted = await asDev(ctx, ['-n', 'team', 'delete', 'configmap', 'settings']);
  assert.is(deleted.code, 0, deleted.stderr);
});

kubectl('the rest is Forbidden, in the real wording', async (ctx) => {
  const secrets = await asDev(ctx, ['-n', 'team', 'get', 'secrets']);
  assert.is(secrets.code, 1);
  assert.match(secrets.stderr, 'Error from server (Forbidden): secrets is forbidden: User "dana" cannot list resource "secrets" in API group "" in the namespace "team"');
  const elsewhere = await asDev(ctx, ['-n', 'default', 'get', 'pods']);
  assert.match(elsewhere.stderr, 'pods is forbidden: User "dana" cannot list resource "pods" in API group "" in the namespace "default"');
  const update = await asDev(ctx, ['-n', 'team', 'label', 'configmap', 'settings', 'x=y']);
  assert.is(update.code, 1);
  const escalate = await asDev(ctx, ['-n', 'team', 'create', 'role', 'more', '--verb=get', '--resource=secrets']);
  assert.is(escalate.code, 1);
  assert.match(escalate.stderr, 'roles.rbac.authorization.k8s.io is forbidden: User "dana" cannot create resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "team"');
});

kubectl('auth can-i answers from the same rules', async (ctx) => {
  const yes = await asDev(ctx, ['-n', 'team', 'auth', 'can-i', 'delete', 'pods']);
  assert.is(yes.stdout.trim(), 'yes');
  const no = await asDev(ctx, ['-n', 'team', 'auth', 'can-i', 'delete', 'deployments.apps']);
  assert.is(no.stdout.trim(), 'no');
  assert.is(no.code, 1);
  const list = await asDev(ctx, ['-n', 'team', 'auth', 'can-i', '--list']);
  assert.is(list.code, 0, list.stderr);
  // Columns: Resources, Non-Resource URLs, Resource Names, Verbs.
  const row = (resource: string) => list.stdout.split('\n').find((l) => l.startsWith(`${resource} `))?.trim();
  assert.match(row('pods') ?? '', /\[get list watch create delete\]$/);
  assert.match(row('deployments.apps') ?? '', /\[get\]$/);
  assert.ok(row('selfsubjectaccessreviews.authorization.k8s.io'), list.stdout);
  assert.not.ok(row('secrets'), list.stdout);
});

kubectl('auth whoami names the user and its groups', async (ctx) => {
  const r = await asDev(ctx, ['auth', 'whoami', '-o', 'json']);
  assert.is(r.code, 0, r.stderr);
  const info = JSON.parse(r.stdout).status.userInfo;
  assert.equal(info, { username: 'dana', uid: 'dana-uid', groups: ['developers', 'system:authenticated'] });
});

kubectl('create token gives a service account a token that authenticates as it, with its bindings\' rights', async (ctx) => {
  assert.is((await ctx.s.kubectl(['-n', 'team', 'create', 'serviceaccount', 'robot'])).code, 0);
  const issued = await ctx.s.kubectl(['-n', 'team', 'create', 'token', 'robot', '--duration=10m']);
  assert.is(issued.code, 0, issued.stderr);
  const token = issued.stdout.trim();
  const who = await ctx.s.kubectl([`--token=${token}`, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
  assert.is(who.stdout, 'system:serviceaccount:team:robot');
  assert.is((await ctx.s.kubectl([`--token=${token}`, '-n', 'team', 'get', 'pods'])).code, 1);
  assert.is((await ctx.s.kubectl(['-n', 'team', 'create', 'rolebinding', 'robot-deployer', '--role=deployer', '--serviceaccount=team:robot'])).code, 0);
  const pods = await ctx.s.kubectl([`--token=${token}`, '-n', 'team', 'get', 'pods']);
  assert.is(pods.code, 0, pods.stderr);
});

kubectl('without credentials: discovery and version only', async (ctx) => {
  assert.is((await ctx.s.request('GET', '/version')).status, 200);
  assert.is((await ctx.s.request('GET', '/apis')).status, 200);
  const secrets = await ctx.s.request('GET', '/api/v1/namespaces/team/secrets');
  assert.is(secrets.status, 403);
  assert.match(secrets.body, 'User \\"system:anonymous\\" cannot list resource \\"secrets\\"');
  const bad = await ctx.s.request('GET', '/api/v1/namespaces', { headers: { authorization: 'Bearer nope' } });
  assert.is(bad.status, 401);
});

kubectl.run();
