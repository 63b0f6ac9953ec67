// @kubernetes/client-node 1.4 against a real orchsim API server over HTTPS, configured only by the
// kubeconfig file: every call gives what it gives against a real cluster (informers: client-node-informer.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

interface Ctx {
  s: TestServer;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  coordination: k8s.CoordinationV1Api;
  authz: k8s.AuthorizationV1Api;
  scheduling: k8s.SchedulingV1Api;
}

const client = suite<Ctx>('client-node');

client.before(async (ctx) => {
  ctx.s = await startTestServer();
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(ctx.s.kubeconfig);
  ctx.core = kc.makeApiClient(k8s.CoreV1Api);
  ctx.apps = kc.makeApiClient(k8s.AppsV1Api);
  ctx.coordination = kc.makeApiClient(k8s.CoordinationV1Api);
  ctx.authz = kc.makeApiClient(k8s.AuthorizationV1Api);
  ctx.scheduling = kc.makeApiClient(k8s.SchedulingV1Api);
});
client.after(async (ctx) => {
  await ctx.s.stop();
});

const NS = 'client-node';
const mergePatch = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

const pod = (name: string, labels: Record<string, string> = { app: name }): k8s.V1Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] },
});

/** The ApiException a call rejects with, and the Status its body carries. */
async function failure(call: Promise<unknown>): Promise<{ code: number; status: k8s.V1Status }> {
  try {
    await call;
  } catch (e) {
    assert.instance(e, k8s.ApiException);
    const err = e as k8s.ApiException<string>;
    return { code: err.code, status: JSON.parse(err.body) as k8s.V1Status };
  }
  throw new assert.Assertion({ message: 'expected the call to fail with an ApiException', generated: false, operator: 'rejects', expects: 'ApiException', actual: 'success' });
}

client('a namespace is created, read back Active and listed', async ({ core }) => {
  const created = await core.createNamespace({ body: { metadata: { name: NS } } });
  assert.is(created.metadata?.name, NS);
  assert.ok(created.metadata?.uid);
  assert.instance(created.metadata?.creationTimestamp, Date);
  const read = await core.readNamespace({ name: NS });
  assert.is(read.status?.phase, 'Active');
  const list = await core.listNamespace();
  assert.ok(list.items.some((n) => n.metadata?.name === NS));
  assert.ok(list.items.some((n) => n.metadata?.name === 'default'));
  const patched = await core.patchNamespace({ name: NS, body: { metadata: { labels: { team: 'a' } } } }, mergePatch);
  assert.equal(patched.metadata?.labels, { team: 'a', 'kubernetes.io/metadata.name': NS });
  const replaced = await core.replaceNamespace({ name: NS, body: { ...patched, metadata: { ...patched.metadata, labels: { team: 'b' } } } });
  // The name label is put back on every write.
  assert.equal(replaced.metadata?.labels, { team: 'b', 'kubernetes.io/metadata.name': NS });
});

client('a pod is created Pending with defaults, read, and listed', async ({ core }) => {
  const created = await core.createNamespacedPod({ namespace: NS, body: pod('web') });
  assert.is(created.metadata?.namespace, NS);
  assert.is(created.status?.phase, 'Pending');
  assert.is(created.spec?.restartPolicy, 'Always');
  assert.is(created.spec?.containers[0].imagePullPolicy, 'IfNotPresent');
  const read = await core.readNamespacedPod({ name: 'web', namespace: NS });
  assert.is(read.metadata?.uid, created.metadata?.uid);
  assert.is(read.metadata?.resourceVersion, created.metadata?.resourceVersion);
  const list = await core.listNamespacedPod({ namespace: NS });
  assert.equal(list.items.map((p) => p.metadata?.name), ['web']);
  assert.ok(list.metadata?.resourceVersion);
});

client('a pod image is replaced and its labels merge-patched; other spec changes are Invalid', async ({ core }) => {
  const read = await core.readNamespacedPod({ name: 'web', namespace: NS });
  const image = await core.replaceNamespacedPod({ name: 'web', namespace: NS,
    body: { ...read, spec: { ...read.spec!, containers: [{ ...read.spec!.containers[0], image: 'nginx:1.28' }] } } });
  assert.is(image.spec?.containers[0].image, 'nginx:1.28');
  const labelled = await core.patchNamespacedPod({ name: 'web', namespace: NS, body: { metadata: { labels: { tier: 'front' } } } }, mergePatch);
  assert.equal(labelled.metadata?.labels, { app: 'web', tier: 'front' });
  const { code, status } = await failure(core.patchNamespacedPod({ name: 'web', namespace: NS, body: { spec: { restartPolicy: 'Never' } } }, mergePatch));
  assert.is(code, 422);
  assert.is(status.reason, 'Invalid');
  assert.is(status.details?.kind, 'Pod');
  assert.equal(status.details?.causes?.map((c) => [c.reason, c.field]), [['FieldValueForbidden', 'spec']]);
  assert.match(status.message ?? '', 'Pod "web" is invalid: spec: Forbidden: pod updates may not change fields other than');
});

client('a configmap is created, replaced, merge-patched and deleted', async ({ s, core }) => {
  const created = await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'settings' }, data: { mode: 'fast' } } });
  const replaced = await core.replaceNamespacedConfigMap({ name: 'settings', namespace: NS,
    body: { metadata: { name: 'settings', resourceVersion: created.metadata?.resourceVersion }, data: { mode: 'slow', level: '3' } } });
  assert.equal(replaced.data, { mode: 'slow', level: '3' });
  assert.ok(Number(replaced.metadata?.resourceVersion) > Number(created.metadata?.resourceVersion));

  const patched = await core.patchNamespacedConfigMap({ name: 'settings', namespace: NS, body: { data: { level: null, zone: 'a' } } }, mergePatch);
  assert.equal(patched.data, { mode: 'slow', zone: 'a' });
  const sent = s.requests.filter((r) => r.method === 'PATCH').at(-1);
  assert.is(sent?.headers['content-type'], 'application/merge-patch+json');

  const deleted = await core.deleteNamespacedConfigMap({ name: 'settings', namespace: NS });
  assert.is(deleted.status, 'Success');
  assert.equal(deleted.details?.name, 'settings');
  assert.is(deleted.details?.kind, 'configmaps');
  assert.is((await failure(core.readNamespacedConfigMap({ name: 'settings', namespace: NS }))).code, 404);
});

client('a replace with a stale resourceVersion is a 409 Conflict', async ({ core }) => {
  const cm = await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'stale' }, data: { a: '1' } } });
  await core.replaceNamespacedConfigMap({ name: 'stale', namespace: NS, body: { ...cm, data: { a: '2' } } });
  const { code, status } = await failure(core.replaceNamespacedConfigMap({ name: 'stale', namespace: NS, body: { ...cm, data: { a: '3' } } }));
  assert.is(code, 409);
  assert.is(status.reason, 'Conflict');
  assert.is(status.message, 'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again');
});

client('a missing object is a 404 ApiException whose body is a NotFound Status', async ({ core }) => {
  const { code, status } = await failure(core.readNamespacedPod({ name: 'ghost', namespace: NS }));
  assert.is(code, 404);
  assert.is(status.kind, 'Status');
  assert.is(status.status, 'Failure');
  assert.is(status.reason, 'NotFound');
  assert.is(status.code, 404);
  assert.is(status.message, 'pods "ghost" not found');
  assert.is(status.details?.name, 'ghost');
  assert.is(status.details?.kind, 'pods');
});

client('creating an existing object is a 409 AlreadyExists Status', async ({ core }) => {
  const { code, status } = await failure(core.createNamespacedPod({ namespace: NS, body: pod('web') }));
  assert.is(code, 409);
  assert.is(status.reason, 'AlreadyExists');
  assert.is(status.message, 'pods "web" already exists');
  assert.is(status.details?.name, 'web');
});

client('labelSelector and fieldSelector narrow a pod list', async ({ core }) => {
  await core.createNamespacedPod({ namespace: NS, body: pod('api-1', { app: 'api', tier: 'back' }) });
  await core.createNamespacedPod({ namespace: NS, body: pod('api-2', { app: 'api', tier: 'front' }) });
  const names = (l: k8s.V1PodList) => l.items.map((p) => p.metadata?.name);
  assert.equal(names(await core.listNamespacedPod({ namespace: NS, labelSelector: 'app=api' })), ['api-1', 'api-2']);
  assert.equal(names(await core.listNamespacedPod({ namespace: NS, labelSelector: 'app=api,tier!=back' })), ['api-2']);
  assert.equal(names(await core.listNamespacedPod({ namespace: NS, labelSelector: 'tier in (back,middle)' })), ['api-1']);
  assert.equal(names(await core.listNamespacedPod({ namespace: NS, fieldSelector: 'metadata.name=api-2' })), ['api-2']);
  assert.equal(names(await core.listNamespacedPod({ namespace: NS, fieldSelector: 'status.phase=Pending', labelSelector: 'app=web' })), ['web']);
  assert.equal(names(await core.listPodForAllNamespaces({ fieldSelector: `metadata.namespace=${NS},metadata.name!=web` })), ['api-1', 'api-2']);
  const bad = await failure(core.listNamespacedPod({ namespace: NS, fieldSelector: 'spec.bogus=x' }));
  assert.is(bad.code, 400);
  assert.is(bad.status.reason, 'BadRequest');
  assert.is(bad.status.message, 'field label not supported: spec.bogus');
});

client('limit and _continue page through a list from one snapshot', async ({ core }) => {
  const ns = 'paging';
  await core.createNamespace({ body: { metadata: { name: ns } } });
  for (let i = 1; i <= 5; i++) await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: `page-${i}` } } });
  const first = await core.listNamespacedConfigMap({ namespace: ns, limit: 2 });
  assert.equal(first.items.map((c) => c.metadata?.name), ['page-1', 'page-2']);
  assert.is(first.metadata?.remainingItemCount, 3);
  assert.ok(first.metadata?._continue);
  // Written after the first page: invisible to the pages that follow.
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'page-6' } } });
  const seen: (string | undefined)[] = first.items.map((c) => c.metadata?.name);
  let token: string | undefined = first.metadata?._continue;
  while (token) {
    const page = await core.listNamespacedConfigMap({ namespace: ns, limit: 2, _continue: token });
    assert.is(page.metadata?.resourceVersion, first.metadata?.resourceVersion);
    seen.push(...page.items.map((c) => c.metadata?.name));
    token = page.metadata?._continue;
  }
  assert.equal(seen, ['page-1', 'page-2', 'page-3', 'page-4', 'page-5']);
  assert.is((await core.listNamespacedConfigMap({ namespace: ns })).items.length, 6);
  const bad = await failure(core.listNamespacedConfigMap({ namespace: ns, limit: 2, _continue: 'not-a-token' }));
  assert.is(bad.code, 400);
  assert.is(bad.status.reason, 'BadRequest');
});

client('a deployment is created with defaults, read, merge-patched (generation grows) and listed', async ({ apps }) => {
  const labels = { app: 'shop' };
  const created = await apps.createNamespacedDeployment({ namespace: NS, body: {
    metadata: { name: 'shop' },
    spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
  } });
  assert.is(created.metadata?.generation, 1);
  assert.is(created.spec?.strategy?.type, 'RollingUpdate');
  assert.is(created.spec?.revisionHistoryLimit, 10);
  const patched = await apps.patchNamespacedDeployment({ name: 'shop', namespace: NS, body: { spec: { replicas: 3 } } }, mergePatch);
  assert.is(patched.spec?.replicas, 3);
  assert.is(patched.metadata?.generation, 2);
  const read = await apps.readNamespacedDeployment({ name: 'shop', namespace: NS });
  assert.is(read.spec?.replicas, 3);
  const list = await apps.listNamespacedDeployment({ namespace: NS });
  assert.equal(list.items.map((d) => d.metadata?.name), ['shop']);
  const template = read.spec!.template;
  const replaced = await apps.replaceNamespacedDeployment({ name: 'shop', namespace: NS, body: { ...read,
    spec: { ...read.spec!, template: { ...template, spec: { ...template.spec!, containers: [{ name: 'c', image: 'nginx:1.28' }] } } } } });
  assert.is(replaced.metadata?.generation, 3);
  assert.is(replaced.spec?.template.spec?.containers[0].image, 'nginx:1.28');
  const deleted = await apps.deleteNamespacedDeployment({ name: 'shop', namespace: NS });
  assert.is(deleted.status, 'Success');
  assert.is(deleted.details?.group, 'apps');
  assert.is(deleted.details?.kind, 'deployments');
  assert.is((await failure(apps.readNamespacedDeployment({ name: 'shop', namespace: NS }))).code, 404);
});

client('the scale subresources of Deployments, ReplicaSets and StatefulSets are read, replaced and patched', async ({ apps }) => {
  const labels = { app: 'scaled' };
  const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } };
  await apps.createNamespacedDeployment({ namespace: NS, body: { metadata: { name: 'scaled' }, spec: { replicas: 1, selector: { matchLabels: labels }, template } } });
  await apps.createNamespacedReplicaSet({ namespace: NS, body: { metadata: { name: 'scaled' }, spec: { replicas: 1, selector: { matchLabels: labels }, template } } });
  await apps.createNamespacedStatefulSet({ namespace: NS, body: { metadata: { name: 'scaled' }, spec: { replicas: 1, serviceName: 'scaled', selector: { matchLabels: labels }, template } } });

  const read = await apps.readNamespacedDeploymentScale({ name: 'scaled', namespace: NS });
  assert.equal([read.apiVersion, read.kind, read.spec?.replicas, read.status?.selector], ['autoscaling/v1', 'Scale', 1, 'app=scaled']);
  const replaced = await apps.replaceNamespacedDeploymentScale({ name: 'scaled', namespace: NS, body: { ...read, spec: { replicas: 4 } } });
  assert.is(replaced.spec?.replicas, 4);
  assert.is((await apps.readNamespacedDeployment({ name: 'scaled', namespace: NS })).spec?.replicas, 4);
  const stale = await failure(apps.replaceNamespacedDeploymentScale({ name: 'scaled', namespace: NS, body: { ...read, spec: { replicas: 5 } } }));
  assert.equal([stale.code, stale.status.reason], [409, 'Conflict'], 'the Scale read before the replace is stale');

  const rs = await apps.patchNamespacedReplicaSetScale({ name: 'scaled', namespace: NS, body: { spec: { replicas: 2 } } }, mergePatch);
  assert.is(rs.spec?.replicas, 2);
  assert.is((await apps.readNamespacedReplicaSetScale({ name: 'scaled', namespace: NS })).spec?.replicas, 2);
  const sts = await apps.patchNamespacedStatefulSetScale({ name: 'scaled', namespace: NS, body: { spec: { replicas: 3 } } }, mergePatch);
  assert.is(sts.spec?.replicas, 3);
  assert.is((await apps.readNamespacedStatefulSet({ name: 'scaled', namespace: NS })).spec?.replicas, 3);
  const negative = await failure(apps.patchNamespacedStatefulSetScale({ name: 'scaled', namespace: NS, body: { spec: { replicas: -1 } } }, mergePatch));
  assert.equal([negative.code, negative.status.reason], [422, 'Invalid']);
});

client('PriorityClasses are created, read, listed and deleted; the system classes are there from the start', async ({ scheduling }) => {
  const created = await scheduling.createPriorityClass({ body: { metadata: { name: 'batch-low' }, value: -10, description: 'for batch work' } });
  assert.equal([created.value, created.preemptionPolicy, created.globalDefault ?? false], [-10, 'PreemptLowerPriority', false]);
  assert.is((await scheduling.readPriorityClass({ name: 'batch-low' })).description, 'for batch work');
  const names = (await scheduling.listPriorityClass()).items.map((c) => `${c.metadata?.name}=${c.value}`).sort();
  assert.equal(names, ['batch-low=-10', 'system-cluster-critical=2000000000', 'system-node-critical=2000001000']);
  const changed = await failure(scheduling.patchPriorityClass({ name: 'batch-low', body: { value: 5 } }, mergePatch));
  assert.equal([changed.code, changed.status.reason], [422, 'Invalid'], 'a class\'s value is immutable');
  assert.is((await scheduling.deletePriorityClass({ name: 'batch-low' })).status, 'Success');
  assert.is((await failure(scheduling.readPriorityClass({ name: 'batch-low' }))).code, 404);
});

client('a controller revision is created and read; its data is immutable (422 Invalid)', async ({ apps }) => {
  const created = await apps.createNamespacedControllerRevision({ namespace: NS, body: {
    metadata: { name: 'shop-rev-1' }, revision: 1, data: { spec: { template: { a: 1 } } },
  } });
  assert.is(created.revision, 1);
  const read = await apps.readNamespacedControllerRevision({ name: 'shop-rev-1', namespace: NS });
  assert.equal(read.data, { spec: { template: { a: 1 } } });

  const replace = await failure(apps.replaceNamespacedControllerRevision({ name: 'shop-rev-1', namespace: NS,
    body: { ...read, data: { spec: { template: { a: 2 } } } } }));
  assert.is(replace.code, 422);
  assert.is(replace.status.kind, 'Status');
  assert.is(replace.status.reason, 'Invalid');
  assert.is(replace.status.details?.kind, 'ControllerRevision');
  assert.is(replace.status.details?.group, 'apps');
  assert.is(replace.status.details?.name, 'shop-rev-1');
  assert.equal(replace.status.details?.causes?.map((c) => [c.reason, c.field]), [['FieldValueInvalid', 'data']]);
  assert.match(replace.status.message ?? '', 'ControllerRevision.apps "shop-rev-1" is invalid: data: Invalid value');
  assert.match(replace.status.message ?? '', 'field is immutable');

  const patch = await failure(apps.patchNamespacedControllerRevision({ name: 'shop-rev-1', namespace: NS, body: { data: { x: 1 } } }, mergePatch));
  assert.is(patch.code, 422);
  // The revision number is not covered by the rule.
  const bumped = await apps.patchNamespacedControllerRevision({ name: 'shop-rev-1', namespace: NS, body: { revision: 2 } }, mergePatch);
  assert.is(bumped.revision, 2);
  assert.equal(bumped.data, { spec: { template: { a: 1 } } });
});

client('replacing a missing lease creates it (201); a second replace renews it', async ({ s, coordination }) => {
  const now = new k8s.V1MicroTime();
  const created = await coordination.replaceNamespacedLeaseWithHttpInfo({ name: 'leader', namespace: NS, body: {
    metadata: { name: 'leader' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: now, renewTime: now },
  } });
  assert.is(created.httpStatusCode, 201);
  assert.is(created.data.spec?.holderIdentity, 'a');
  // client-node sends a V1MicroTime with microseconds and reads it back as the string it got.
  assert.match(String(created.data.spec?.renewTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  assert.is(s.requests.at(-1)?.method, 'PUT');
  const renewed = await coordination.replaceNamespacedLeaseWithHttpInfo({ name: 'leader', namespace: NS, body: {
    ...created.data, spec: { ...created.data.spec, holderIdentity: 'b', leaseTransitions: 1 },
  } });
  assert.is(renewed.httpStatusCode, 200);
  const read = await coordination.readNamespacedLease({ name: 'leader', namespace: NS });
  assert.is(read.spec?.holderIdentity, 'b');
  assert.is(read.spec?.leaseTransitions, 1);
  assert.is(String(read.spec?.renewTime), String(created.data.spec?.renewTime));
});

client('a SelfSubjectAccessReview answers allowed under AlwaysAllow', async ({ authz }) => {
  const review = await authz.createSelfSubjectAccessReview({ body: {
    spec: { resourceAttributes: { verb: 'delete', resource: 'nodes' } },
  } });
  assert.is(review.kind, 'SelfSubjectAccessReview');
  assert.is(review.status?.allowed, true);
  assert.is(review.apiVersion, 'authorization.k8s.io/v1');
  assert.is(review.spec.resourceAttributes?.verb, 'delete');
  assert.is(review.spec.resourceAttributes?.resource, 'nodes');
  const invalid = await failure(authz.createSelfSubjectAccessReview({ body: { spec: {} } }));
  assert.is(invalid.code, 422);
  assert.is(invalid.status.reason, 'Invalid');
});

client('deleting a pod answers the pod; deleting the namespace marks it Terminating', async ({ core }) => {
  const deleted = await core.deleteNamespacedPod({ name: 'web', namespace: NS });
  assert.is(deleted.kind, 'Pod');
  assert.is(deleted.metadata?.name, 'web');
  assert.is((await failure(core.readNamespacedPod({ name: 'web', namespace: NS }))).code, 404);
  const ns = await core.deleteNamespace({ name: NS });
  assert.ok(ns);
  const read = await core.readNamespace({ name: NS });
  assert.is(read.status?.phase, 'Terminating');
  assert.ok(read.metadata?.deletionTimestamp);
  const refused = await failure(core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'late' } } }));
  assert.is(refused.code, 403);
  assert.is(refused.status.reason, 'Forbidden');
  assert.match(refused.status.message ?? '', `because it is being terminated`);
});

client.run();
