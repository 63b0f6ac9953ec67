// Impersonation under RBAC, driven by kubectl's --as, --as-group and --as-uid and by raw
// Impersonate-* headers: each thing asked for needs the `impersonate` verb on it; the request is
// then authorized, and answered, as the user impersonated, whose groups follow the real filter's rules.
import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { kubectlOk, startTestServer, type TestServer } from '../helpers/api-server.ts';

type Ctx = { s: TestServer; dana: string; ops: string };
const test = suite<Ctx>('kubectl-impersonation');

test.before(async (ctx) => {
  ctx.dana = randomBytes(16).toString('hex');
  ctx.ops = randomBytes(16).toString('hex');
  ctx.s = await startTestServer({ authorizationMode: ['RBAC'],
    tokens: new Map([
      [ctx.dana, { username: 'dana', uid: 'dana-uid', groups: ['developers', 'system:authenticated'] }],
      [ctx.ops, { username: 'olga', groups: ['ops', 'system:authenticated'] }],
    ]) });
  await kubectlOk(ctx, ['create', 'namespace', 'team']);
  await kubectlOk(ctx, ['-n', 'team', 'create', 'role', 'reader', '--verb=get,list', '--resource=configmaps']);
  await kubectlOk(ctx, ['-n', 'team', 'create', 'rolebinding', 'dana-reader', '--role=reader', '--user=dana']);
  await kubectlOk(ctx, ['-n', 'team', 'create', 'serviceaccount', 'robot']);
  await kubectlOk(ctx, ['create', 'namespace', 'lobby']);
  await kubectlOk(ctx, ['-n', 'lobby', 'create', 'rolebinding', 'visitors', '--role=reader', '--group=system:unauthenticated']);
  await kubectlOk(ctx, ['-n', 'lobby', 'create', 'role', 'reader', '--verb=get,list', '--resource=configmaps']);
  // olga may act as dana, as the groups developers and "a,b", with any uid and the extra key
  // acme.com/project, and as service accounts in team; nothing else.
  await kubectlOk(ctx, ['apply', '-f', '-'], `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: impersonator }
rules:
- { apiGroups: [""], resources: [users], verbs: [impersonate], resourceNames: [dana, system:anonymous] }
- { apiGroups: [""], resources: [groups], verbs: [impersonate], resourceNames: [developers, "a,b"] }
- { apiGroups: [authentication.k8s.io], resources: [uids], verbs: [impersonate] }
- { apiGroups: [authentication.k8s.io], resources: [userextras/acme.com/project], verbs: [impersonate] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: olga-impersonator }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: impersonator }
subjects: [{ kind: User, name: olga }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: olga-sa-impersonator, namespace: team }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: sa-impersonator }
subjects: [{ kind: User, name: olga }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: sa-impersonator }
rules:
- { apiGroups: [""], resources: [serviceaccounts], verbs: [impersonate] }
`);
});
test.after(async (ctx) => {
  await ctx.s.stop();
});

const as = (ctx: Ctx, token: string, args: string[]) => ctx.s.kubectl([`--token=${token}`, ...args]);
const whoami = async (ctx: Ctx, token: string, flags: string[]) => {
  const r = await as(ctx, token, [...flags, 'auth', 'whoami', '-o', 'json']);
  assert.is(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).status.userInfo;
};
/** A SelfSubjectReview sent with raw headers: the user it names, or the Status refusing it. */
async function review(ctx: Ctx, headers: Record<string, string | string[]>) {
  const r = await ctx.s.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.ops}`, ...headers },
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }) });
  return { status: r.status, body: JSON.parse(r.body) };
}

test('an administrator acting as dana has dana\'s rights, and no more', async (ctx) => {
  assert.equal(await whoami(ctx, ctx.ops, ['--as=dana']), { username: 'dana', groups: ['system:authenticated'] });
  const read = await as(ctx, ctx.ops, ['--as=dana', '-n', 'team', 'get', 'configmaps']);
  assert.is(read.code, 0, read.stderr);
  const secrets = await as(ctx, ctx.ops, ['--as=dana', '-n', 'team', 'get', 'secrets']);
  assert.is(secrets.code, 1);
  assert.match(secrets.stderr, 'secrets is forbidden: User "dana" cannot list resource "secrets" in API group "" in the namespace "team"');
});

test('impersonating someone the requester may not: 403 naming the verb impersonate', async (ctx) => {
  const r = await as(ctx, ctx.dana, ['--as=olga', '-n', 'team', 'get', 'configmaps']);
  assert.is(r.code, 1);
  assert.match(r.stderr, 'users "olga" is forbidden: User "dana" cannot impersonate resource "users" in API group "" at the cluster scope');
  const group = await as(ctx, ctx.ops, ['--as=dana', '--as-group=system:masters', 'get', 'secrets', '-A']);
  assert.is(group.code, 1);
  assert.match(group.stderr, 'groups "system:masters" is forbidden: User "olga" cannot impersonate resource "groups" in API group "" at the cluster scope');
});

test('groups asked for are the groups, each header kept whole; system:authenticated added', async (ctx) => {
  assert.equal(await whoami(ctx, ctx.ops, ['--as=dana', '--as-group=developers', '--as-group=a,b']),
    { username: 'dana', groups: ['developers', 'a,b', 'system:authenticated'] });
});

test('system:anonymous is in system:unauthenticated, not system:authenticated', async (ctx) => {
  const lobby = await as(ctx, ctx.ops, ['--as=system:anonymous', '-n', 'lobby', 'get', 'configmaps']);
  assert.is(lobby.code, 0, lobby.stderr);
  const team = await as(ctx, ctx.ops, ['--as=system:anonymous', '-n', 'team', 'get', 'configmaps']);
  assert.match(team.stderr, 'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "team"');
});

test('a service account\'s user name is authorized as the service account, with its groups', async (ctx) => {
  assert.equal(await whoami(ctx, ctx.ops, ['--as=system:serviceaccount:team:robot']),
    { username: 'system:serviceaccount:team:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] });
  const elsewhere = await as(ctx, ctx.ops, ["--as=system:serviceaccount:other:robot", "-n", "other", "get", "configmaps"]);
  assert.match(elsewhere.stderr, 'serviceaccounts "robot" is forbidden: User "olga" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "other"');
});

test('uid and extras: authorized in authentication.k8s.io, extras keyed by their unescaped, lower-cased names', async (ctx) => {
  const ok = await review(ctx, { 'impersonate-user': 'dana', 'impersonate-uid': 'u-1', 'Impersonate-Extra-Acme.com%2fProject': ['x', 'y'] });
  assert.is(ok.status, 201, JSON.stringify(ok.body));
  assert.equal(ok.body.status.userInfo, { username: 'dana', uid: 'u-1', groups: ['system:authenticated'], extra: { 'acme.com/project': ['x', 'y'] } });
  const scopes = await review(ctx, { 'impersonate-user': 'dana', 'impersonate-extra-scopes': 'view' });
  assert.is(scopes.status, 403);
  assert.is(scopes.body.message, 'userextras.authentication.k8s.io "view" is forbidden: User "olga" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope');
});

test('groups, uid or extras without a user: 400', async (ctx) => {
  const alone: Record<string, string>[] = [{ 'impersonate-group': 'developers' }, { 'impersonate-uid': 'u' }, { 'impersonate-extra-scopes': 'view' }];
  for (const headers of alone) {
    const r = await review(ctx, headers);
    assert.is(r.status, 400, JSON.stringify(headers));
    assert.is(r.body.reason, 'BadRequest');
    assert.match(r.body.message, 'without impersonating a user');
  }
});

test('without credentials, impersonation is refused like anything else', async (ctx) => {
  const r = await ctx.s.request('GET', '/api/v1/namespaces/team/configmaps', { headers: { 'impersonate-user': 'dana' } });
  assert.is(r.status, 403);
  assert.match(r.body, 'User \\"system:anonymous\\" cannot impersonate resource \\"users\\"');
});

test.run();
