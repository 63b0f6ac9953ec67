// Server-side apply of part of an object: the configuration is only type-checked, the object it
// merges into the live one is what is validated (the documented hand-over of spec.replicas to an
// autoscaler's manager); creating from an incomplete configuration is refused as a create is.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APPLY, startServer, type Harness, type Reply } from '../../../helpers/in-process-server.ts';

const D = '/apis/apps/v1/namespaces/default/deployments';

const full = (replicas?: number) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { app: 'web' } },
  spec: { ...(replicas !== undefined ? { replicas } : {}), selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } } },
});
const replicasOnly = (replicas: number) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas } });

const apply = (h: Harness, manager: string, body: object, force = false) =>
  h.patch(`${D}/web?fieldManager=${manager}${force ? '&force=true' : ''}`, body, APPLY);

/** The managers owning spec.replicas. */
const replicaOwners = (r: Reply): string[] =>
  r.json.metadata.managedFields.filter((m: { fieldsV1: { 'f:spec'?: Record<string, unknown> } }) => m.fieldsV1['f:spec']?.['f:replicas'] !== undefined)
    .map((m: { manager: string }) => m.manager).sort();

test('applying only spec.replicas to a live Deployment merges first, then validates: the hand-over shares, then moves, the field', async () => {
  const h = await startServer();
  assert.is((await apply(h, 'kubectl', full(2))).status, 201);
  const shared = await apply(h, 'handover-to-hpa', replicasOnly(2));
  assert.is(shared.status, 200, shared.text);
  assert.equal(replicaOwners(shared), ['handover-to-hpa', 'kubectl']);
  assert.equal(shared.json.spec.template.spec.containers.map((c: { image: string }) => c.image), ['nginx:1'], 'the rest of the object stays');
  // The original manifest drops replicas: the field stays, now the hand-over manager's alone.
  const moved = await apply(h, 'kubectl', full());
  assert.is(moved.status, 200, moved.text);
  assert.is(moved.json.spec.replicas, 2);
  assert.equal(replicaOwners(moved), ['handover-to-hpa']);
});

test('a different value conflicts with the owner (409), and force takes the field over', async () => {
  const h = await startServer();
  await apply(h, 'kubectl', full(2));
  const conflict = await apply(h, 'handover-to-hpa', replicasOnly(3));
  assert.is(conflict.status, 409);
  assert.is(conflict.json.message, 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
  const forced = await apply(h, 'handover-to-hpa', replicasOnly(3), true);
  assert.is(forced.status, 200, forced.text);
  assert.equal([forced.json.spec.replicas, forced.json.metadata.generation], [3, 2]);
  assert.equal(replicaOwners(forced), ['handover-to-hpa']);
});

test('creating from an incomplete configuration answers the 422 a create of the same object answers, and stores nothing', async () => {
  const h = await startServer();
  const before = h.revision();
  const applied = await apply(h, 'handover-to-hpa', replicasOnly(3));
  const created = await h.post(D, replicasOnly(3));
  assert.is(applied.status, 422);
  assert.equal([applied.json.reason, applied.json.message, applied.json.details], [created.json.reason, created.json.message, created.json.details]);
  assert.match(applied.json.message, /^Deployment\.apps "web" is invalid: .*spec\.selector: Required value/);
  assert.is(h.revision(), before);
});

test('a configuration without a name takes the live object\'s; with no live object it is refused as checkName refuses it', async () => {
  const h = await startServer();
  const nameless = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 4 } };
  const missing = await apply(h, 'm', { ...full(1), metadata: { labels: { app: 'web' } } });
  assert.equal([missing.status, missing.json.message], [400, 'the name of the object (web based on URL) was undeterminable: name must be provided']);
  await apply(h, 'kubectl', full(2));
  const r = await apply(h, 'scaler', nameless, true);
  assert.is(r.status, 200, r.text);
  assert.equal([r.json.metadata.name, r.json.spec.replicas], ['web', 4]);
});

test('the configuration is still type-checked on its own', async () => {
  const h = await startServer();
  await apply(h, 'kubectl', full(2));
  const r = await apply(h, 'scaler', { ...replicasOnly(1), spec: { replicas: 'three' } });
  assert.is(r.status, 400);
  assert.match(r.json.message, /cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32/);
});

test.run();
