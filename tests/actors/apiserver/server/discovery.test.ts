// Discovery (legacy and aggregated), /version, the health endpoints, the issuer documents' absence
// without an issuer (issuer-discovery.test.ts has them with one), serviceaccounts/token only with one, and
// OpenAPI v3, as kubectl 1.32 and client libraries read them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { groupVersions } from '../../../../actors/api/resources.ts';
import { startServer } from '../../../helpers/in-process-server.ts';
import { keyFiles } from '../../../helpers/service-account-keys.ts';

const AGG = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
/** Every named group the resource table serves, in its order. */
const GROUPS = [...new Set(groupVersions().map((g) => g.group).filter((g) => g !== ''))];

test('/api without the aggregated media type answers the legacy APIVersions', async () => {
  const h = await startServer();
  const r = await h.get('/api?timeout=32s');
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'application/json');
  assert.is(r.json.kind, 'APIVersions');
  assert.equal(r.json.versions, ['v1']);
  assert.ok(Array.isArray(r.json.serverAddressByClientCIDRs));
});

test('/apis without the aggregated media type answers the legacy APIGroupList with preferred versions', async () => {
  const h = await startServer();
  const r = await h.get('/apis');
  assert.is(r.json.kind, 'APIGroupList');
  assert.is(r.json.apiVersion, 'v1');
  assert.equal(r.json.groups.map((g: any) => g.name).sort(), [...GROUPS].sort());
  const apps = r.json.groups.find((g: any) => g.name === 'apps');
  assert.equal(apps.versions, [{ groupVersion: 'apps/v1', version: 'v1' }]);
  assert.equal(apps.preferredVersion, { groupVersion: 'apps/v1', version: 'v1' });
});

test('/api and /apis answer aggregated discovery in v2 with its content type when asked as kubectl asks', async () => {
  const h = await startServer();
  for (const path of ['/api', '/apis']) {
    const r = await h.get(path, { accept: AGG });
    assert.is(r.status, 200);
    assert.is(r.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    assert.is(r.json.kind, 'APIGroupDiscoveryList');
    assert.is(r.json.apiVersion, 'apidiscovery.k8s.io/v2');
  }
});

test('aggregated /api has one unnamed core group whose pods carry the eviction subresource of policy/v1', async () => {
  const h = await startServer();
  const r = await h.get('/api', { accept: AGG });
  assert.is(r.json.items.length, 1);
  assert.equal(r.json.items[0].metadata, {});
  const v1 = r.json.items[0].versions[0];
  assert.is(v1.version, 'v1');
  assert.is(v1.freshness, 'Current');
  const pods = v1.resources.find((x: any) => x.resource === 'pods');
  assert.equal(pods.responseKind, { group: '', version: 'v1', kind: 'Pod' });
  assert.is(pods.scope, 'Namespaced');
  assert.is(pods.singularResource, 'pod');
  assert.equal(pods.shortNames, ['po']);
  assert.equal(pods.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  const eviction = pods.subresources.find((s: any) => s.subresource === 'eviction');
  assert.equal(eviction, { subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] });
  const nodes = v1.resources.find((x: any) => x.resource === 'nodes');
  assert.is(nodes.scope, 'Cluster');
  const namespaces = v1.resources.find((x: any) => x.resource === 'namespaces');
  assert.equal(namespaces.subresources.map((s: any) => s.subresource), ['status', 'finalize']);
});

test('aggregated /apis names every group and lists its resources', async () => {
  const h = await startServer();
  const r = await h.get('/apis', { accept: AGG });
  assert.equal(r.json.items.map((i: any) => i.metadata.name).sort(), [...GROUPS].sort());
  const apps = r.json.items.find((i: any) => i.metadata.name === 'apps');
  assert.equal(apps.versions[0].resources.map((x: any) => x.resource).sort(),
    ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets']);
  const reviews = r.json.items.find((i: any) => i.metadata.name === 'authorization.k8s.io').versions[0].resources;
  assert.ok(reviews.every((x: any) => x.verbs.join() === 'create'));
  assert.equal(reviews.filter((x: any) => x.scope === 'Namespaced').map((x: any) => x.resource), ['localsubjectaccessreviews']);
});

test('aggregated discovery in v2beta1 is served when only that is asked for', async () => {
  const h = await startServer();
  const r = await h.get('/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json' });
  assert.is(r.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
  assert.is(r.json.apiVersion, 'apidiscovery.k8s.io/v2beta1');
});

test('/api/v1 is the legacy resource list, with pods/eviction naming its policy group', async () => {
  const h = await startServer();
  const r = await h.get('/api/v1');
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'APIResourceList');
  assert.is(r.json.groupVersion, 'v1');
  const pods = r.json.resources.find((x: any) => x.name === 'pods');
  assert.equal([pods.singularName, pods.namespaced, pods.kind, pods.shortNames], ['pod', true, 'Pod', ['po']]);
  const eviction = r.json.resources.find((x: any) => x.name === 'pods/eviction');
  assert.equal([eviction.group, eviction.version, eviction.kind, eviction.verbs, eviction.namespaced], ['policy', 'v1', 'Eviction', ['create'], true]);
  const nodes = r.json.resources.find((x: any) => x.name === 'nodes');
  assert.is(nodes.namespaced, false);
  for (const name of ['namespaces', 'pods', 'nodes', 'configmaps', 'secrets', 'services', 'podtemplates', 'events', 'serviceaccounts'])
    assert.ok(r.json.resources.some((x: any) => x.name === name), name);
});

test('/apis/apps/v1 lists the apps resources and /apis/apps describes the group', async () => {
  const h = await startServer();
  const list = await h.get('/apis/apps/v1');
  assert.is(list.json.kind, 'APIResourceList');
  assert.is(list.json.groupVersion, 'apps/v1');
  const cr = list.json.resources.find((x: any) => x.name === 'controllerrevisions');
  assert.equal([cr.kind, cr.namespaced, cr.verbs], ['ControllerRevision', true, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']]);
  assert.ok(list.json.resources.some((x: any) => x.name === 'deployments/status'));
  const group = await h.get('/apis/apps');
  assert.is(group.json.kind, 'APIGroup');
  assert.is(group.json.name, 'apps');
  assert.equal(group.json.preferredVersion, { groupVersion: 'apps/v1', version: 'v1' });
});

test('an unknown group or version answers 404', async () => {
  const h = await startServer();
  for (const path of ['/apis/widgets.example.com', '/apis/widgets.example.com/v1', '/apis/apps/v2', '/api/v2']) {
    const r = await h.get(path);
    assert.is(r.status, 404, path);
    assert.is(r.json.reason, 'NotFound');
  }
});

test('/version reports major 1 and minor 32, which picks kubectl 1.32', async () => {
  const h = await startServer();
  const r = await h.get('/version?timeout=5s');
  assert.is(r.status, 200);
  assert.is(r.json.major, '1');
  assert.is(r.json.minor, '32');
  assert.match(r.json.gitVersion, /^v1\.32\./);
  assert.is(r.json.platform, 'linux/amd64');
});

test('/healthz, /livez and /readyz answer 200 with the body ok; ?verbose lists the checks', async () => {
  const h = await startServer();
  for (const path of ['/healthz', '/livez', '/readyz']) {
    const r = await h.get(path);
    assert.is(r.status, 200, path);
    assert.is(r.text, 'ok', path);
    assert.match(String(r.headers['content-type']), /^text\/plain/);
  }
  const verbose = await h.get('/readyz?verbose');
  assert.is(verbose.status, 200);
  assert.is(verbose.text, '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]shutdown ok\nreadyz check passed\n');
});

test('without a service-account issuer there are no issuer documents: both paths answer 404, as on the real server', async () => {
  const h = await startServer();
  for (const path of ['/.well-known/openid-configuration', '/openid/v1/jwks']) {
    const r = await h.get(path);
    assert.is(r.status, 404, path);
    assert.is(r.json.reason, 'NotFound', path);
  }
});

test('serviceaccounts/token is discovered only where tokens are issued, legacy and aggregated', async () => {
  const tokenSubresource = async (options: Parameters<typeof startServer>[0]) => {
    const h = await startServer(options);
    const legacy = (await h.get('/api/v1')).json.resources.some((r: { name: string }) => r.name === 'serviceaccounts/token');
    const core = (await h.get('/api', { accept: AGG })).json.items[0].versions[0].resources.find((r: { resource: string }) => r.resource === 'serviceaccounts');
    return [legacy, (core.subresources ?? []).some((s: { subresource: string }) => s.subresource === 'token')];
  };
  assert.equal(await tokenSubresource({}), [false, false], 'without an issuer');
  assert.equal(await tokenSubresource(keyFiles().options()), [true, true], 'with one');
});

test('/openapi/v3 lists every group version, and each document it points at is served', async () => {
  const h = await startServer();
  const root = await h.get('/openapi/v3?timeout=32s');
  assert.is(root.status, 200);
  assert.equal(Object.keys(root.json.paths), groupVersions().map((g) => (g.group ? `apis/${g.group}/${g.version}` : `api/${g.version}`)));
  for (const { serverRelativeURL } of Object.values(root.json.paths) as { serverRelativeURL: string }[]) {
    const doc = await h.get(serverRelativeURL);
    assert.is(doc.status, 200, serverRelativeURL);
    assert.is(doc.json.openapi, '3.0.0');
  }
  const apps = (await h.get('/openapi/v3/apis/apps/v1')).json;
  const patch = apps.paths['/apis/apps/v1/namespaces/{namespace}/controllerrevisions/{name}'].patch;
  assert.equal(patch['x-kubernetes-group-version-kind'], { group: 'apps', version: 'v1', kind: 'ControllerRevision' });
  assert.ok(patch.parameters.some((p: any) => p.name === 'fieldValidation' && p.in === 'query'));
});

test('an OpenAPI document for an unknown group version answers 404', async () => {
  const h = await startServer();
  const r = await h.get('/openapi/v3/apis/widgets.example.com/v1');
  assert.is(r.status, 404);
});

test('a path outside /api and /apis answers 404 Status', async () => {
  const h = await startServer();
  for (const path of ['/nothing/here', '/apis/apps/v1/namespaces/default/widgets']) {
    const r = await h.get(path);
    assert.is(r.status, 404, path);
    assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource',
      reason: 'NotFound', code: 404, details: {} });
  }
});

test.run();
