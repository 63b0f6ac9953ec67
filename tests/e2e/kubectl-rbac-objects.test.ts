// kubectl (the one on PATH) creating and listing RBAC objects and service accounts against a real
// orchsim API server over HTTPS, as an administrator (system:masters). kubectl 1.32 sends these
// create commands as Protobuf; the outputs are those a real cluster gives.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { kubectlOk as ok, kubectlFails as fails, startTestServer, type RecordedRequest, type TestServer } from '../helpers/api-server.ts';

type Ctx = { s: TestServer };
const kubectl = suite<Ctx>('kubectl-rbac-objects');

kubectl.before(async (ctx) => {
  ctx.s = await startTestServer();
});
kubectl.after(async (ctx) => {
  await ctx.s.stop();
});

const PB = 'application/vnd.kubernetes.protobuf';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';

/** Runs kubectl and returns its stdout with the one POST it sent. */
async function created(ctx: Ctx, args: string[]): Promise<{ stdout: string; post: RecordedRequest }> {
  const mark = ctx.s.requests.length;
  const stdout = await ok(ctx, args);
  const posts = ctx.s.requests.slice(mark).filter((r) => r.method === 'POST');
  assert.is(posts.length, 1, `kubectl ${args.join(' ')} sent ${posts.length} POSTs`);
  return { stdout, post: posts[0] };
}

const json = async (ctx: Ctx, args: string[]) => JSON.parse(await ok(ctx, [...args, '-o', 'json']));

kubectl('create role sends a Protobuf Role and stores its rule', async (ctx) => {
  const { stdout, post } = await created(ctx, ['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods']);
  assert.is(stdout, 'role.rbac.authorization.k8s.io/pod-reader created\n');
  assert.is(post.url, `${RBAC}/namespaces/default/roles?fieldManager=kubectl-create&fieldValidation=Strict`);
  assert.is(post.headers['content-type'], PB);
  const role = await json(ctx, ['get', 'role', 'pod-reader']);
  assert.is(role.metadata.namespace, 'default');
  assert.equal(role.rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
});

kubectl('create clusterrole stores resource rules and non-resource URLs', async (ctx) => {
  const { stdout, post } = await created(ctx, ['create', 'clusterrole', 'log-reader', '--verb=get', '--non-resource-url=/logs/*']);
  assert.is(stdout, 'clusterrole.rbac.authorization.k8s.io/log-reader created\n');
  assert.is(post.headers['content-type'], PB);
  assert.equal((await json(ctx, ['get', 'clusterrole', 'log-reader'])).rules, [{ nonResourceURLs: ['/logs/*'], verbs: ['get'] }]);
  await ok(ctx, ['create', 'clusterrole', 'deployer', '--verb=create,update', '--resource=deployments.apps,pods']);
  assert.equal((await json(ctx, ['get', 'clusterrole', 'deployer'])).rules,
    [{ apiGroups: [''], resources: ['pods'], verbs: ['create', 'update'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['create', 'update'] }]);
});

kubectl('create rolebinding binds users, groups and service accounts to a role', async (ctx) => {
  const { stdout, post } = await created(ctx, ['create', 'rolebinding', 'read-pods', '--role=pod-reader', '--user=alice', '--user=bob',
    '--group=devs', '--serviceaccount=ci:builder']);
  assert.is(stdout, 'rolebinding.rbac.authorization.k8s.io/read-pods created\n');
  assert.is(post.headers['content-type'], PB);
  const rb = await json(ctx, ['get', 'rolebinding', 'read-pods']);
  assert.equal(rb.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' });
  assert.equal(rb.subjects, [
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' },
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' },
    { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'devs' },
    { kind: 'ServiceAccount', name: 'builder', namespace: 'ci' },
  ]);
});

kubectl('create clusterrolebinding binds a cluster role cluster-wide', async (ctx) => {
  const { stdout, post } = await created(ctx, ['create', 'clusterrolebinding', 'logs', '--clusterrole=log-reader', '--user=carol',
    '--serviceaccount=kube-system:collector']);
  assert.is(stdout, 'clusterrolebinding.rbac.authorization.k8s.io/logs created\n');
  assert.is(post.url, `${RBAC}/clusterrolebindings?fieldManager=kubectl-create&fieldValidation=Strict`);
  assert.is(post.headers['content-type'], PB);
  const crb = await json(ctx, ['get', 'clusterrolebinding', 'logs']);
  assert.is(crb.metadata.namespace, undefined);
  assert.equal(crb.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'log-reader' });
});

kubectl('create serviceaccount sends a Protobuf ServiceAccount; get and describe read it back', async (ctx) => {
  const { stdout, post } = await created(ctx, ['create', 'serviceaccount', 'builder']);
  assert.is(stdout, 'serviceaccount/builder created\n');
  assert.is(post.url, '/api/v1/namespaces/default/serviceaccounts?fieldManager=kubectl-create&fieldValidation=Strict');
  assert.is(post.headers['content-type'], PB);
  assert.match(await ok(ctx, ['get', 'serviceaccounts']), /^NAME\s+SECRETS\s+AGE\nbuilder\s+0\s+\d+s\n$/);
  assert.match(await ok(ctx, ['describe', 'sa', 'builder']), /^Name:\s+builder\nNamespace:\s+default\n/);
});

kubectl('get roles and clusterroles print NAME and CREATED AT', async (ctx) => {
  assert.match(await ok(ctx, ['get', 'roles']), /^NAME\s+CREATED AT\npod-reader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
  assert.match(await ok(ctx, ['get', 'clusterroles']),
    /^NAME\s+CREATED AT\ndeployer\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\nlog-reader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);
});

kubectl('get rolebindings prints ROLE as Kind/name; -o wide adds USERS, GROUPS and SERVICEACCOUNTS', async (ctx) => {
  assert.match(await ok(ctx, ['get', 'rolebindings']), /^NAME\s+ROLE\s+AGE\nread-pods\s+Role\/pod-reader\s+\d+s\n$/);
  assert.match(await ok(ctx, ['get', 'rolebindings', '-o', 'wide']),
    /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\nread-pods\s+Role\/pod-reader\s+\d+s\s+alice, bob\s+devs\s+ci\/builder\n$/);
  // No group: the GROUPS cell is empty, so the service account follows the users after padding only.
  assert.match(await ok(ctx, ['get', 'clusterrolebindings', '-o', 'wide']),
    /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS\nlogs\s+ClusterRole\/log-reader\s+\d+s\s+carol\s+kube-system\/collector\n$/);
});

kubectl('describe reads a binding and a role back as Protobuf', async (ctx) => {
  const mark = ctx.s.requests.length;
  const out = await ok(ctx, ['describe', 'rolebinding', 'read-pods']);
  assert.ok(ctx.s.requests.slice(mark).some((r) => r.method === 'GET' && r.url === `${RBAC}/namespaces/default/rolebindings/read-pods`
    && r.headers.accept?.startsWith(PB)), 'describe asked for Protobuf');
  assert.match(out, /\nRole:\n\s+Kind:\s+Role\n\s+Name:\s+pod-reader\n/);
  assert.match(out, /\n\s+User\s+alice\s*\n\s+User\s+bob\s*\n\s+Group\s+devs\s*\n\s+ServiceAccount\s+builder\s+ci\n/);
  assert.match(await ok(ctx, ['describe', 'clusterrole', 'deployer']), /\n\s+deployments\.apps\s+\[\]\s+\[\]\s+\[create update\]\n/);
});

kubectl('the server refuses what the real one refuses: a bad name, a changed roleRef', async (ctx) => {
  assert.is(await fails(ctx, ['create', 'role', 'a%b', '--verb=get', '--resource=pods']),
    'The Role "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain \'%\'\n');
  assert.is(await fails(ctx, ['patch', 'rolebinding', 'read-pods', '--type=merge', '-p', '{"roleRef":{"name":"other"}}']),
    'The RoleBinding "read-pods" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"Role", Name:"other"}: cannot change roleRef\n');
  assert.is(await fails(ctx, ['create', 'rolebinding', 'read-pods', '--role=pod-reader', '--user=dave']),
    'error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "read-pods" already exists\n');
});

kubectl.run();
