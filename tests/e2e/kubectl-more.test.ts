// More kubectl commands (the kubectl on PATH) against a real orchsim API server over HTTPS, each
// checked against the output a real cluster gives. No node agent runs yet: pods bound to a node
// stay Terminating after a graceful delete, as they would on a cluster whose kubelet is down.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { kubectlOk as ok, kubectlFails as fails, startTestServer, type RecordedRequest, type TestServer } from '../helpers/api-server.ts';
import { groupVersions } from '../../actors/api/resources.ts';

type Ctx = { s: TestServer };
const kubectl = suite<Ctx>('kubectl-more');

kubectl.before(async (ctx) => {
  // The serviceaccount controller beside it: pods run as `default`, as kubectl shows on a real cluster.
  ctx.s = await startTestServer({}, { serviceAccounts: true });
});
kubectl.after(async (ctx) => {
  await ctx.s.stop();
});

function manifest(ctx: Ctx, name: string, text: string | object): string {
  const file = join(ctx.s.dir, name);
  writeFileSync(file, typeof text === 'string' ? text : JSON.stringify(text));
  return file;
}

const pod = (name: string, labels: Record<string, string>, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...spec },
});

/**
 * Several objects in one `create -f`, as a multi-document YAML stream. Not a `kind: List`: kubectl
 * validates a List on the client, which needs the protobuf /openapi/v2 this server does not serve.
 */
const stream = (docs: object[]) => docs.map((d) => toYaml(d)).join('---\n');

/** The requests the server received while `run` ran, leaving out the dispatcher's GET /version. */
async function traced(ctx: Ctx, run: () => Promise<unknown>): Promise<RecordedRequest[]> {
  const mark = ctx.s.requests.length;
  await run();
  return ctx.s.requests.slice(mark).filter((r) => !r.url.startsWith('/version'));
}

kubectl('run creates a bare pod labelled run=NAME with a container named after it', async (ctx) => {
  assert.is(await ok(ctx, ['run', 'web', '--image=nginx', '--restart=Never']), 'pod/web created\n');
  const out = await ok(ctx, ['get', 'pod', 'web', '-o', 'jsonpath={.metadata.labels.run} {.spec.containers[0].name} {.spec.restartPolicy}']);
  assert.is(out, 'web web Never');
});

kubectl('get -o yaml prints the stored pod with its defaults and status', async (ctx) => {
  const doc = parseYaml(await ok(ctx, ['get', 'pod', 'web', '-o', 'yaml']));
  assert.is(doc.apiVersion, 'v1');
  assert.is(doc.kind, 'Pod');
  assert.is(doc.metadata.name, 'web');
  assert.is(doc.metadata.namespace, 'default');
  assert.match(doc.metadata.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.match(doc.metadata.resourceVersion, /^\d+$/);
  // An untagged image means :latest, which is always pulled.
  assert.equal(doc.spec.containers, [{ image: 'nginx', imagePullPolicy: 'Always', name: 'web', resources: {},
    terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }]);
  assert.is(doc.spec.dnsPolicy, 'ClusterFirst');
  assert.is(doc.spec.schedulerName, 'default-scheduler');
  assert.is(doc.spec.terminationGracePeriodSeconds, 30);
  assert.is(doc.spec.serviceAccountName, 'default');
  assert.equal(doc.spec.tolerations.map((t: { key: string; tolerationSeconds: number }) => [t.key, t.tolerationSeconds]),
    [['node.kubernetes.io/not-ready', 300], ['node.kubernetes.io/unreachable', 300]]);
  assert.equal(doc.status, { phase: 'Pending', qosClass: 'BestEffort' });
});

kubectl('get -o jsonpath evaluates the template against the object', async (ctx) => {
  assert.is(await ok(ctx, ['get', 'pod', 'web', '-o', 'jsonpath={.metadata.name}:{.spec.containers[*].image}:{.status.phase}']), 'web:nginx:Pending');
  assert.is(await ok(ctx, ['get', 'pods', '-o', 'jsonpath={range .items[*]}{.metadata.name}{"\\n"}{end}']), 'web\n');
});

kubectl('get -l and --field-selector filter on the server', async (ctx) => {
  await ok(ctx, ['create', '-f', manifest(ctx, 'selected.yaml', stream([
    pod('front-1', { app: 'shop', tier: 'front' }), pod('front-2', { app: 'shop', tier: 'front' }), pod('back-1', { app: 'shop', tier: 'back' }),
  ]))]);
  const names = (out: string) => out.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[0]);
  const labelled = await traced(ctx, async () => {
    assert.equal(names(await ok(ctx, ['get', 'pods', '-l', 'app=shop,tier=front'])), ['front-1', 'front-2']);
  });
  assert.equal(labelled.map((r) => r.url), ['/api/v1/namespaces/default/pods?labelSelector=app%3Dshop%2Ctier%3Dfront&limit=500']);
  // notin also matches objects without the key.
  assert.equal(names(await ok(ctx, ['get', 'pods', '-l', 'tier notin (front)'])), ['back-1', 'web']);
  assert.equal(names(await ok(ctx, ['get', 'pods', '--field-selector', 'metadata.name=front-2'])), ['front-2']);
  assert.equal(names(await ok(ctx, ['get', 'pods', '--field-selector', 'status.phase=Pending,metadata.name!=web', '-l', 'tier'])),
    ['back-1', 'front-1', 'front-2']);
  const none = await ctx.s.kubectl(['get', 'pods', '-l', 'app=nothing']);
  assert.is(none.code, 0);
  assert.is(none.stderr, 'No resources found in default namespace.\n');
  const bad = await fails(ctx, ['get', 'pods', '--field-selector', 'spec.bogus=x']);
  assert.is(bad, 'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", field selector "spec.bogus=x": field label not supported: spec.bogus\n');
});

kubectl('label and annotate add, refuse to overwrite, overwrite and remove', async (ctx) => {
  assert.is(await ok(ctx, ['label', 'pod', 'front-1', 'zone=a']), 'pod/front-1 labeled\n');
  const refused = await fails(ctx, ['label', 'pod', 'front-1', 'zone=b']);
  assert.is(refused, "error: 'zone' already has a value (a), and --overwrite is false\n");
  await ok(ctx, ['label', 'pod', 'front-1', 'zone=b', '--overwrite']);
  assert.is(await ok(ctx, ['annotate', 'pod', 'front-1', 'owner=team-a', 'note=hello world']), 'pod/front-1 annotated\n');
  assert.is(await ok(ctx, ['label', 'pod', 'front-1', 'tier-']), 'pod/front-1 unlabeled\n');
  const obj = JSON.parse(await ok(ctx, ['get', 'pod', 'front-1', '-o', 'json']));
  assert.equal(obj.metadata.labels, { app: 'shop', zone: 'b' });
  assert.equal(obj.metadata.annotations, { note: 'hello world', owner: 'team-a' });
  assert.match(await ok(ctx, ['get', 'pods', '-l', 'zone=b', '--show-labels']), /front-1\s+0\/1\s+Pending\s+0\s+\S+\s+app=shop,zone=b\n/);
});

kubectl('describe pod prints the pod, its containers and no events', async (ctx) => {
  const out = await ok(ctx, ['describe', 'pod', 'front-1']);
  assert.match(out, /^Name:\s+front-1\nNamespace:\s+default\nPriority:\s+0\nService Account:\s+default\nNode:\s+<none>\n/);
  assert.match(out, /Labels:\s+app=shop\n\s+zone=b\n/);
  assert.match(out, /Annotations:\s+note: hello world\n\s+owner: team-a\n/);
  assert.match(out, /Status:\s+Pending\n/);
  assert.match(out, /Containers:\n  c:\n    Image:\s+nginx:1.27\n/);
  assert.match(out, /QoS Class:\s+BestEffort\n/);
  assert.match(out, /Tolerations:\s+node.kubernetes.io\/not-ready:NoExecute op=Exists for 300s\n/);
  assert.match(out, /Events:\s+<none>\n$/);
});

kubectl('replace -f swaps the whole object; a pod accepts only a new image', async (ctx) => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1', b: '2' } };
  await ok(ctx, ['create', '-f', manifest(ctx, 'cm.json', cm)]);
  assert.is(await ok(ctx, ['replace', '-f', manifest(ctx, 'cm2.json', { ...cm, data: { c: '3' } })]), 'configmap/settings replaced\n');
  assert.is(await ok(ctx, ['get', 'cm', 'settings', '-o', 'jsonpath={.data}']), '{"c":"3"}');

  const stored = JSON.parse(await ok(ctx, ['get', 'pod', 'front-2', '-o', 'json']));
  stored.spec.containers[0].image = 'nginx:1.28';
  assert.is(await ok(ctx, ['replace', '-f', manifest(ctx, 'front-2.json', stored)]), 'pod/front-2 replaced\n');
  assert.is(await ok(ctx, ['get', 'pod', 'front-2', '-o', 'jsonpath={.spec.containers[0].image}']), 'nginx:1.28');
  // The manifest it was created from lacks the defaulted serviceAccountName: a spec change.
  const err = await fails(ctx, ['replace', '-f', manifest(ctx, 'front-2-bare.json', pod('front-2', { app: 'shop', tier: 'front' }))]);
  assert.match(err, /^The Pod "front-2" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers\[\*\].image`/);
});

kubectl('delete -f and delete -l remove what they name', async (ctx) => {
  const file = manifest(ctx, 'doomed.json', pod('doomed', { app: 'doomed' }));
  await ok(ctx, ['create', '-f', file]);
  assert.is(await ok(ctx, ['delete', '-f', file]), 'pod "doomed" deleted\n');
  const again = await fails(ctx, ['delete', '-f', file]);
  assert.is(again, `Error from server (NotFound): error when deleting "${file}": pods "doomed" not found\n`);
  assert.is(await ok(ctx, ['delete', 'pods', '-l', 'app=shop']), 'pod "back-1" deleted\npod "front-1" deleted\npod "front-2" deleted\n');
  assert.is(await ok(ctx, ['get', 'pods', '-o', 'name']), 'pod/web\n');
});

kubectl('create deployment sends protobuf and get deployments shows its columns', async (ctx) => {
  const sent = await traced(ctx, async () => {
    assert.is(await ok(ctx, ['create', 'deployment', 'shop', '--image=nginx:1.27', '--replicas=2']), 'deployment.apps/shop created\n');
  });
  const post = sent.find((r) => r.method === 'POST');
  assert.is(post?.url, '/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict');
  assert.is(post?.headers['content-type'], 'application/vnd.kubernetes.protobuf');
  assert.match(await ok(ctx, ['get', 'deployments']), /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\nshop\s+0\/2\s+0\s+0\s+\d+s\n$/);
  assert.match(await ok(ctx, ['get', 'deploy', '-o', 'wide']),
    /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nshop\s+0\/2\s+0\s+0\s+\d+s\s+nginx\s+nginx:1.27\s+app=shop\n$/);
  const d = JSON.parse(await ok(ctx, ['get', 'deployment', 'shop', '-o', 'json']));
  assert.equal(d.spec.selector, { matchLabels: { app: 'shop' } });
  assert.equal(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
  assert.is(d.spec.template.spec.containers[0].imagePullPolicy, 'IfNotPresent');
});

kubectl('create secret generic stores base64 data of type Opaque', async (ctx) => {
  assert.is(await ok(ctx, ['create', 'secret', 'generic', 'creds', '--from-literal=user=admin', '--from-literal=pass=s3cr3t']), 'secret/creds created\n');
  const secret = JSON.parse(await ok(ctx, ['get', 'secret', 'creds', '-o', 'json']));
  assert.is(secret.type, 'Opaque');
  assert.equal(secret.data, { pass: Buffer.from('s3cr3t').toString('base64'), user: Buffer.from('admin').toString('base64') });
  assert.match(await ok(ctx, ['get', 'secrets']), /^NAME\s+TYPE\s+DATA\s+AGE\ncreds\s+Opaque\s+2\s+\d+s\n$/);
});

kubectl('get controllerrevisions -o wide shows the controller and revision', async (ctx) => {
  const cr = { apiVersion: 'apps/v1', kind: 'ControllerRevision', revision: 3, data: {}, metadata: { name: 'ds-1-5d8f9',
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds-1', uid: '6a1c3a36-1d53-4d8e-9d0f-3c4b5a6d7e8f', controller: true }] } };
  await ok(ctx, ['create', '-f', manifest(ctx, 'cr.json', cr)]);
  assert.match(await ok(ctx, ['get', 'controllerrevisions', '-o', 'wide']), /^NAME\s+CONTROLLER\s+REVISION\s+AGE\nds-1-5d8f9\s+daemonset.apps\/ds-1\s+3\s+\d+s\n$/);
});

kubectl('api-versions lists every served group version', async (ctx) => {
  // The resource table's group versions, sorted as kubectl prints them (so a new kind need not edit this test).
  const served = groupVersions().map((g) => (g.group ? `${g.group}/${g.version}` : g.version)).sort();
  assert.is(await ok(ctx, ['api-versions']), `${served.join('\n')}\n`);
});

kubectl('auth can-i on a cluster-scoped resource warns, then answers yes', async (ctx) => {
  const r = await ctx.s.kubectl(['auth', 'can-i', 'delete', 'nodes']);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout, 'yes\n');
  assert.is(r.stderr.trim(), "Warning: resource 'nodes' is not namespace scoped");
});

kubectl('get --chunk-size=2 pages through five pods with continue tokens', async (ctx) => {
  await ok(ctx, ['create', 'namespace', 'paged']);
  await ok(ctx, ['create', '-n', 'paged', '-f', manifest(ctx, 'paged.yaml', stream([1, 2, 3, 4, 5].map((i) => pod(`p${i}`, { app: 'paged' }))))]);
  const sent = await traced(ctx, async () => {
    const out = await ok(ctx, ['get', 'pods', '-n', 'paged', '--chunk-size=2']);
    assert.equal(out.trim().split('\n').map((l) => l.split(/\s+/)[0]), ['NAME', 'p1', 'p2', 'p3', 'p4', 'p5']);
  });
  assert.is(sent.length, 3);
  assert.is(sent[0].url, '/api/v1/namespaces/paged/pods?limit=2');
  for (const r of sent.slice(1)) assert.match(r.url, /^\/api\/v1\/namespaces\/paged\/pods\?continue=[^&]+&limit=2$/);
  for (const r of sent) assert.match(r.headers.accept ?? '', /^application\/json;as=Table;v=v1;g=meta.k8s.io,/);
});

kubectl('apply -f of a multi-document YAML creates a namespace and a configmap in it', async (ctx) => {
  const file = manifest(ctx, 'multi.yaml', [
    'apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: shop', '---',
    'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: settings', '  namespace: shop', 'data:', '  mode: fast', '',
  ].join('\n'));
  assert.is(await ok(ctx, ['apply', '-f', file]), 'namespace/shop created\nconfigmap/settings created\n');
  assert.is(await ok(ctx, ['get', 'configmap', 'settings', '-n', 'shop', '-o', 'jsonpath={.data.mode}']), 'fast');
  assert.is(await ok(ctx, ['apply', '-f', file]), 'namespace/shop unchanged\nconfigmap/settings unchanged\n');
});

kubectl('drain evicts bound pods; without a node agent they stay Terminating until the grace period is 0', async (ctx) => {
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };
  await ok(ctx, ['create', '-f', manifest(ctx, 'drained.yaml', stream([node,
    pod('bound-1', { app: 'bound' }, { nodeName: 'node-1' }), pod('bound-2', { app: 'bound' }, { nodeName: 'node-1' })]))]);

  const refused = await ctx.s.kubectl(['drain', 'node-1', '--ignore-daemonsets']);
  assert.is(refused.code, 1);
  assert.is(refused.stdout, 'node/node-1 cordoned\n');
  assert.match(refused.stderr, 'cannot delete Pods that declare no controller (use --force to override): default/bound-1, default/bound-2');

  // A graceful eviction marks the pods deleted; only a node agent would finish the job, so drain times out.
  const sent = await traced(ctx, async () => {
    const r = await ctx.s.kubectl(['drain', 'node-1', '--ignore-daemonsets', '--force', '--timeout=2s']);
    assert.is(r.code, 1);
    assert.match(r.stdout, 'node/node-1 already cordoned\n');
    assert.match(r.stdout, 'evicting pod default/bound-1\n');
    assert.match(r.stderr, 'Warning: deleting Pods that declare no controller: default/bound-1, default/bound-2');
    assert.match(r.stderr, 'error when waiting for pod "bound-1" in namespace "default" to terminate: context deadline exceeded');
  });
  const evictions = sent.filter((r) => r.method === 'POST').map((r) => r.url).sort();
  assert.equal(evictions, ['/api/v1/namespaces/default/pods/bound-1/eviction', '/api/v1/namespaces/default/pods/bound-2/eviction']);
  assert.match(await ok(ctx, ['get', 'pods', '-l', 'app=bound']), /bound-1\s+0\/1\s+Terminating\s+0\s+\S+\nbound-2\s+0\/1\s+Terminating/);
  assert.match(await ok(ctx, ['get', 'nodes']), /node-1\s+Ready,SchedulingDisabled/);

  // Grace period 0 removes the pods at once, as the real server does.
  const r = await ctx.s.kubectl(['drain', 'node-1', '--ignore-daemonsets', '--force', '--grace-period=0']);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, 'pod/bound-1 evicted\n');
  assert.match(r.stdout, 'pod/bound-2 evicted\n');
  assert.match(r.stdout, /node\/node-1 drained\n$/);
  const gone = await ctx.s.kubectl(['get', 'pods', '-l', 'app=bound']);
  assert.is(gone.stderr, 'No resources found in default namespace.\n');
});

kubectl('get --raw /version and version -o json report server 1.32', async (ctx) => {
  const raw = JSON.parse(await ok(ctx, ['get', '--raw', '/version']));
  assert.is(raw.major, '1');
  assert.is(raw.minor, '32');
  assert.match(raw.gitVersion, /^v1\.32\./);
  const v = JSON.parse(await ok(ctx, ['version', '-o', 'json']));
  assert.equal(v.serverVersion, raw);
  assert.match(v.clientVersion.gitVersion, /^v1\.32\./);
});

kubectl('explain controllerrevisions describes the kind and its fields', async (ctx) => {
  const out = await ok(ctx, ['explain', 'controllerrevisions']);
  assert.match(out, /^GROUP:\s+apps\nKIND:\s+ControllerRevision\nVERSION:\s+v1\n\nDESCRIPTION:\n\s+ControllerRevision implements an immutable snapshot of state data\./);
  assert.match(out, /\n  data\t<RawExtension>\n\s+Data is the serialized representation of the state\.\n/);
  assert.match(out, /\n  metadata\t<ObjectMeta>\n/);
  assert.match(out, /\n  revision\t<integer> -required-\n\s+Revision indicates the revision of the state represented by Data\.\n/);
});

kubectl('create --validate=strict names the unknown field; --validate=warn prints a warning and creates', async (ctx) => {
  const file = manifest(ctx, 'unknown.yaml', ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: loose', 'data:', '  a: b', 'bogusField: 1', ''].join('\n'));
  const strict = await fails(ctx, ['create', '--validate=strict', '-f', file]);
  assert.is(strict, `Error from server (BadRequest): error when creating "${file}": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogusField"\n`);
  const warn = await ctx.s.kubectl(['create', '--validate=warn', '-f', file]);
  assert.is(warn.code, 0, warn.stderr);
  assert.is(warn.stdout, 'configmap/loose created\n');
  assert.is(warn.stderr, 'Warning: unknown field "bogusField"\n');
  assert.is(await ok(ctx, ['get', 'cm', 'loose', '-o', 'jsonpath={.data.a}']), 'b');
});

kubectl.run();
