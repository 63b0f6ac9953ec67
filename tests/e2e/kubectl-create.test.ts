// kubectl create's generators against a real orchsim API server over HTTPS. kubectl 1.32 sends
// each object as a Protobuf body (its typed clients prefer Protobuf), so each kind must have its
// Protobuf form; the object stored is the one kubectl meant, as `get -o json` shows.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { kubectlOk as ok, startTestServer, type TestServer } from '../helpers/api-server.ts';
import { keyFiles } from '../helpers/service-account-keys.ts';

type Ctx = { s: TestServer };
const create = suite<Ctx>('kubectl-create');
type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

create.before(async (ctx) => {
  ctx.s = await startTestServer(keyFiles().options());
  await ok(ctx, ['create', 'namespace', 'shop']);
});
create.after(async (ctx) => {
  await ctx.s.stop();
});

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** Runs a generator, checks what it printed and that its POST to `path` carried a Protobuf body. */
async function generate(ctx: Ctx, args: string[], printed: string, path: string): Promise<void> {
  const mark = ctx.s.requests.length;
  assert.is(await ok(ctx, args), printed);
  const posts = ctx.s.requests.slice(mark).filter((r) => r.method === 'POST' && r.url.split('?')[0] === path);
  assert.equal(posts.map((r) => r.headers['content-type']), [PROTOBUF], `kubectl ${args.join(' ')} POSTs ${path} as Protobuf`);
}

const stored = async (ctx: Ctx, args: string[]): Promise<Rec> => JSON.parse(await ok(ctx, ['get', ...args, '-o', 'json']));

create('create namespace, configmap and secret generic store what was given', async (ctx) => {
  assert.is((await stored(ctx, ['namespace', 'shop'])).metadata.name, 'shop');
  await generate(ctx, ['-n', 'shop', 'create', 'configmap', 'settings', '--from-literal=mode=fast', '--from-literal=level=3'], 'configmap/settings created\n', '/api/v1/namespaces/shop/configmaps');
  assert.equal((await stored(ctx, ['-n', 'shop', 'configmap', 'settings'])).data, { level: '3', mode: 'fast' });
  await generate(ctx, ['-n', 'shop', 'create', 'secret', 'generic', 'creds', '--from-literal=password=hunter2'], 'secret/creds created\n', '/api/v1/namespaces/shop/secrets');
  const secret = await stored(ctx, ['-n', 'shop', 'secret', 'creds']);
  assert.equal([secret.type, secret.data], ['Opaque', { password: Buffer.from('hunter2').toString('base64') }]);
});

create('create secret docker-registry stores the registry credentials as kubernetes.io/dockerconfigjson', async (ctx) => {
  await generate(ctx, ['-n', 'shop', 'create', 'secret', 'docker-registry', 'pull', '--docker-server=registry.example.com', '--docker-username=bot', '--docker-password=s3cret'],
    'secret/pull created\n', '/api/v1/namespaces/shop/secrets');
  const secret = await stored(ctx, ['-n', 'shop', 'secret', 'pull']);
  assert.is(secret.type, 'kubernetes.io/dockerconfigjson');
  const config = JSON.parse(Buffer.from(secret.data['.dockerconfigjson'], 'base64').toString());
  assert.equal(Object.keys(config.auths), ['registry.example.com']);
  assert.is(config.auths['registry.example.com'].username, 'bot');
});

create('create secret tls stores the pair as kubernetes.io/tls', async (ctx) => {
  const certs = join(ctx.s.dir, 'certs');
  await generate(ctx, ['-n', 'shop', 'create', 'secret', 'tls', 'front', `--cert=${join(certs, 'apiserver.crt')}`, `--key=${join(certs, 'apiserver.key')}`],
    'secret/front created\n', '/api/v1/namespaces/shop/secrets');
  const secret = await stored(ctx, ['-n', 'shop', 'secret', 'front']);
  assert.is(secret.type, 'kubernetes.io/tls');
  assert.equal(Object.keys(secret.data).sort(), ['tls.crt', 'tls.key']);
  assert.match(Buffer.from(secret.data['tls.crt'], 'base64').toString(), /^-----BEGIN CERTIFICATE-----/);
});

create('create service clusterip, nodeport, loadbalancer and externalname store their ports and types', async (ctx) => {
  const path = '/api/v1/namespaces/shop/services';
  await generate(ctx, ['-n', 'shop', 'create', 'service', 'clusterip', 'web', '--tcp=80:8080', '--tcp=443'], 'service/web created\n', path);
  let svc = await stored(ctx, ['-n', 'shop', 'service', 'web']);
  assert.equal([svc.spec.type, svc.spec.selector], ['ClusterIP', { app: 'web' }]);
  assert.equal(svc.spec.ports, [{ name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 }, { name: '443', port: 443, protocol: 'TCP', targetPort: 443 }]);
  await generate(ctx, ['-n', 'shop', 'create', 'service', 'clusterip', 'headless', '--clusterip=None'], 'service/headless created\n', path);
  assert.is((await stored(ctx, ['-n', 'shop', 'service', 'headless'])).spec.clusterIP, 'None');
  await generate(ctx, ['-n', 'shop', 'create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30080'], 'service/np created\n', path);
  svc = await stored(ctx, ['-n', 'shop', 'service', 'np']);
  assert.equal([svc.spec.type, svc.spec.ports[0].nodePort, svc.spec.ports[0].targetPort], ['NodePort', 30080, 8080]);
  await generate(ctx, ['-n', 'shop', 'create', 'service', 'loadbalancer', 'lb', '--tcp=443:8443'], 'service/lb created\n', path);
  svc = await stored(ctx, ['-n', 'shop', 'service', 'lb']);
  assert.equal([svc.spec.type, svc.spec.ports[0].port, svc.spec.ports[0].targetPort], ['LoadBalancer', 443, 8443]);
  await generate(ctx, ['-n', 'shop', 'create', 'service', 'externalname', 'db', '--external-name=db.example.com'], 'service/db created\n', path);
  svc = await stored(ctx, ['-n', 'shop', 'service', 'db']);
  assert.equal([svc.spec.type, svc.spec.externalName], ['ExternalName', 'db.example.com']);
});

create('create pdb stores minAvailable or maxUnavailable, a number or a percentage', async (ctx) => {
  const path = '/apis/policy/v1/namespaces/shop/poddisruptionbudgets';
  await generate(ctx, ['-n', 'shop', 'create', 'pdb', 'web', '--selector=app=web', '--min-available=1'], 'poddisruptionbudget.policy/web created\n', path);
  assert.equal((await stored(ctx, ['-n', 'shop', 'pdb', 'web'])).spec, { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
  await generate(ctx, ['-n', 'shop', 'create', 'pdb', 'half', '--selector=app=web', '--max-unavailable=50%'], 'poddisruptionbudget.policy/half created\n', path);
  assert.equal((await stored(ctx, ['-n', 'shop', 'pdb', 'half'])).spec, { maxUnavailable: '50%', selector: { matchLabels: { app: 'web' } } });
});

create('create deployment stores the replicas, image and port kubectl asked for', async (ctx) => {
  await generate(ctx, ['-n', 'shop', 'create', 'deployment', 'api', '--image=nginx:1.27', '--port=80', '--replicas=2'], 'deployment.apps/api created\n',
    '/apis/apps/v1/namespaces/shop/deployments');
  const d = await stored(ctx, ['-n', 'shop', 'deployment', 'api']);
  assert.equal([d.spec.replicas, d.spec.selector, d.spec.template.metadata.labels], [2, { matchLabels: { app: 'api' } }, { app: 'api' }]);
  assert.equal(d.spec.template.spec.containers.map((c: Rec) => [c.name, c.image, c.ports]), [['nginx', 'nginx:1.27', [{ containerPort: 80, protocol: 'TCP' }]]]);
});

create('create serviceaccount and create token give the account a token', async (ctx) => {
  await generate(ctx, ['-n', 'shop', 'create', 'serviceaccount', 'robot'], 'serviceaccount/robot created\n', '/api/v1/namespaces/shop/serviceaccounts');
  assert.is((await stored(ctx, ['-n', 'shop', 'serviceaccount', 'robot'])).metadata.name, 'robot');
  const mark = ctx.s.requests.length;
  const token = await ok(ctx, ['-n', 'shop', 'create', 'token', 'robot']);
  assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'a JWT alone, no newline when not printing to a terminal');
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  assert.is(claims.sub, 'system:serviceaccount:shop:robot');
  const post = ctx.s.requests.slice(mark).find((r) => r.method === 'POST');
  assert.is(post?.headers['content-type'], PROTOBUF);
});

create('create role, rolebinding, clusterrole and clusterrolebinding store their rules and subjects', async (ctx) => {
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  await generate(ctx, ['-n', 'shop', 'create', 'role', 'reader', '--verb=get,list', '--resource=pods,deployments.apps'],
    'role.rbac.authorization.k8s.io/reader created\n', `${rbac}/namespaces/shop/roles`);
  assert.equal((await stored(ctx, ['-n', 'shop', 'role', 'reader'])).rules,
    [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }, { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }]);
  await generate(ctx, ['-n', 'shop', 'create', 'rolebinding', 'robot-reads', '--role=reader', '--serviceaccount=shop:robot'],
    'rolebinding.rbac.authorization.k8s.io/robot-reads created\n', `${rbac}/namespaces/shop/rolebindings`);
  const rb = await stored(ctx, ['-n', 'shop', 'rolebinding', 'robot-reads']);
  assert.equal([rb.roleRef, rb.subjects], [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' }, [{ kind: 'ServiceAccount', name: 'robot', namespace: 'shop' }]]);
  await generate(ctx, ['create', 'clusterrole', 'node-reader', '--verb=get', '--resource=nodes'], 'clusterrole.rbac.authorization.k8s.io/node-reader created\n', `${rbac}/clusterroles`);
  await generate(ctx, ['create', 'clusterrolebinding', 'alice-nodes', '--clusterrole=node-reader', '--user=alice'],
    'clusterrolebinding.rbac.authorization.k8s.io/alice-nodes created\n', `${rbac}/clusterrolebindings`);
  assert.equal((await stored(ctx, ['clusterrolebinding', 'alice-nodes'])).subjects, [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }]);
});

create('a generator run twice answers AlreadyExists as a real cluster does', async (ctx) => {
  const again = await ctx.s.kubectl(['-n', 'shop', 'create', 'service', 'clusterip', 'web', '--tcp=80:8080']);
  assert.is(again.code, 1);
  assert.is(again.stderr, 'error: failed to create ClusterIP service: services "web" already exists\n');
});

create.run();
