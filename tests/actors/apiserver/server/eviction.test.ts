// The eviction subresource against budgets whose status is written here as the disruption
// controller would write it: what it refuses (429, 403, 500) with the real messages, what it
// spends (a compare-and-swap on the budget's status), what a dry run leaves alone, and which pods
// go without spending anything.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { headerValues, pod, startServer, type Harness } from '../../../helpers/in-process-server.ts';

const PODS = '/api/v1/namespaces/default/pods';
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const VIOLATES = "Cannot evict pod as it would violate the pod's disruption budget.";
const eviction = (name: string, deleteOptions: object = {}) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' }, deleteOptions });

/** A pod of app=web bound to a node, in `phase`, Ready or not. */
async function runningPod(h: Harness, name: string, { ready = true, phase = 'Running', labels = { app: 'web' } } = {}) {
  await h.post(PODS, pod(name, { labels, nodeName: 'n1' }));
  const current = (await h.get(`${PODS}/${name}`)).json;
  const conditions = [{ type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z' }];
  const r = await h.put(`${PODS}/${name}/status`, { ...current, status: { ...current.status, phase, conditions } });
  assert.is(r.status, 200);
}

interface Budget {
  name?: string;
  spec?: object;
  status?: Record<string, unknown>;
}

/** A budget over app=web (minAvailable 2 unless given) whose status says what the controller computed. */
async function budget(h: Harness, { name = 'web', spec = {}, status = {} }: Budget = {}) {
  const created = (await h.post(PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name },
    spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } }, ...spec } })).json;
  const r = await h.put(`${PDBS}/${name}/status`, { ...created, status: { observedGeneration: created.metadata.generation,
    disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, ...status } });
  assert.is(r.status, 200, r.text);
  return r.json;
}

/** A time as object timestamps are written: RFC 3339 to the second. */
const stamp = (ms: number) => new Date(ms - (ms % 1000)).toISOString().replace('.000Z', 'Z');
const condition = (obj: any, type: string) => (obj.status.conditions ?? []).find((c: any) => c.type === type);

test('an eviction without a budget marks the pod a disruption target, deletes it gracefully and answers 201 Success', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  const r = await h.post(`${PODS}/p/eviction`, eviction('p'));
  assert.is(r.status, 201);
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  const after = (await h.get(`${PODS}/p`)).json;
  assert.ok(after.metadata.deletionTimestamp, 'a pod on a node terminates gracefully');
  const target = condition(after, 'DisruptionTarget');
  assert.equal([target.status, target.reason, target.message], ['True', 'EvictionByEvictionAPI', 'Eviction API: evicting']);
});

test('an eviction honours the grace period of its delete options; a missing pod answers 404', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  assert.is((await h.post(`${PODS}/p/eviction`, eviction('p', { gracePeriodSeconds: 0 }))).status, 201);
  assert.is((await h.get(`${PODS}/p`)).status, 404);
  const missing = await h.post(`${PODS}/nope/eviction`, eviction('nope'));
  assert.is(missing.status, 404);
  assert.is(missing.json.message, 'pods "nope" not found');
});

test('an eviction the budget allows spends one disruption, records the pod and turns the condition InsufficientPods at 0', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await runningPod(h, 'q');
  await budget(h, { status: { conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', observedGeneration: 1, lastTransitionTime: '2025-01-01T00:00:00Z' }] } });
  h.clock.advance(61_000);
  assert.is((await h.post(`${PODS}/p/eviction`, eviction('p'))).status, 201);
  const pdb = (await h.get(`${PDBS}/web`)).json;
  assert.is(pdb.status.disruptionsAllowed, 0);
  assert.equal(pdb.status.disruptedPods, { p: stamp(h.clock.now()) });
  const allowed = condition(pdb, 'DisruptionAllowed');
  assert.equal([allowed.status, allowed.reason, allowed.observedGeneration], ['False', 'InsufficientPods', 1]);
  assert.is.not(allowed.lastTransitionTime, '2025-01-01T00:00:00Z', 'the status changed, so did its transition time');
  const second = await h.post(`${PODS}/q/eviction`, eviction('q'));
  assert.is(second.status, 429);
  assert.is((await h.get(`${PODS}/q`)).json.metadata.deletionTimestamp, undefined);
});

test('an eviction that would violate the budget answers 429 naming what the budget needs, with no Retry-After, and leaves the pod alone', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await budget(h, { status: { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 } });
  const before = h.revision();
  const r = await h.post(`${PODS}/p/eviction`, eviction('p'));
  assert.is(r.status, 429);
  assert.equal([r.json.code, r.json.reason, r.json.message], [429, 'TooManyRequests', VIOLATES]);
  assert.equal(r.json.details, { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' }] });
  assert.equal(headerValues(r, 'retry-after'), []);
  assert.is(h.revision(), before, 'nothing written: no condition on the pod, no spending');
});

test('an eviction against a budget the controller has not observed yet answers 429 with Retry-After 10', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await h.post(PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
  const r = await h.post(`${PODS}/p/eviction`, eviction('p'));
  assert.is(r.status, 429);
  assert.equal(r.json.details, { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' }], retryAfterSeconds: 10 });
  assert.equal(headerValues(r, 'retry-after'), ['10']);
  // A spec change makes an observed budget stale again.
  const observed = await budget(h, { name: 'other', spec: { selector: { matchLabels: { app: 'other' } } } });
  await runningPod(h, 'o', { labels: { app: 'other' } });
  assert.is((await h.put(`${PDBS}/other`, { ...observed, spec: { ...observed.spec, minAvailable: 1 } })).status, 200);
  assert.is((await h.post(`${PODS}/o/eviction`, eviction('o'))).status, 429);
});

test('a budget whose disruptedPods holds more than 2000 pods answers 403', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  const full = Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`gone-${i}`, '2025-01-01T00:00:00Z']));
  await budget(h, { status: { disruptedPods: full } });
  const tooMany = await h.post(`${PODS}/p/eviction`, eviction('p'));
  assert.is(tooMany.status, 403);
  assert.is(tooMany.json.message, 'poddisruptionbudget.policy "web" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller');
});

test('a dry run answers as the real eviction would and writes nothing, from the body or the query', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await budget(h);
  const before = h.revision();
  assert.is((await h.post(`${PODS}/p/eviction`, eviction('p', { dryRun: ['All'] }))).status, 201);
  assert.is((await h.post(`${PODS}/p/eviction?dryRun=All`, eviction('p'))).status, 201);
  assert.is(h.revision(), before);
  await budget(h, { name: 'spent', spec: { selector: { matchLabels: { app: 'db' } } }, status: { disruptionsAllowed: 0 } });
  await runningPod(h, 'db', { labels: { app: 'db' } });
  assert.is((await h.post(`${PODS}/db/eviction?dryRun=All`, eviction('db'))).status, 429, 'a dry run is refused as the real one would be');
  const mismatch = await h.post(`${PODS}/p/eviction?dryRun=All`, eviction('p', { dryRun: ['All', 'All'] }));
  assert.is(mismatch.status, 500);
  assert.is(mismatch.json.message, 'Non-matching dry-run options in request and content: [All] and [All All]');
});

test('two evictions racing for the last disruption: one is granted, the other answers 429', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await runningPod(h, 'q');
  await budget(h);
  const codes = (await Promise.all(['p', 'q'].map((n) => h.post(`${PODS}/${n}/eviction`, eviction(n))))).map((r) => r.status).sort();
  assert.equal(codes, [201, 429]);
  const pdb = (await h.get(`${PDBS}/web`)).json;
  assert.is(pdb.status.disruptionsAllowed, 0);
  assert.is(Object.keys(pdb.status.disruptedPods).length, 1);
});

test('a pod more than one budget selects answers 500 with the real Status, and nothing is spent', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await budget(h);
  await budget(h, { name: 'also' });
  const r = await h.post(`${PODS}/p/eviction`, eviction('p'));
  assert.is(r.status, 500);
  assert.equal(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
    message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 });
  assert.is((await h.get(`${PDBS}/web`)).json.status.disruptionsAllowed, 1);
});

test('pods no budget guards go despite a budget with none allowed: unselected, selected only by an empty selector, Pending, finished', async () => {
  const h = await startServer();
  await budget(h, { status: { disruptionsAllowed: 0 } });
  await budget(h, { name: 'everything', spec: { selector: {} }, status: { disruptionsAllowed: 0 } });
  await runningPod(h, 'db', { labels: { app: 'db' } });
  await h.post(PODS, pod('pending', { labels: { app: 'web' } }));
  await runningPod(h, 'done', { phase: 'Succeeded' });
  await runningPod(h, 'failed', { phase: 'Failed' });
  for (const name of ['db', 'pending', 'done', 'failed']) assert.is((await h.post(`${PODS}/${name}/eviction`, eviction(name))).status, 201, name);
  assert.is((await h.get(`${PODS}/pending`)).status, 404);
  assert.is((await h.get(`${PDBS}/web`)).json.status.disruptedPods, undefined, 'nothing spent');
});

test('an unready pod goes without spending while the budget is met, is refused while it is not, and always goes under AlwaysAllow', async () => {
  const h = await startServer();
  await runningPod(h, 'p', { ready: false });
  await budget(h, { status: { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 } });
  assert.is((await h.post(`${PODS}/p/eviction`, eviction('p'))).status, 201, 'the budget is met: an unready pod takes nothing from it');
  assert.is((await h.get(`${PDBS}/web`)).json.status.disruptedPods, undefined);
  await runningPod(h, 'q', { ready: false });
  const current = (await h.get(`${PDBS}/web`)).json;
  await h.put(`${PDBS}/web/status`, { ...current, status: { ...current.status, currentHealthy: 1 } });
  const refused = await h.post(`${PODS}/q/eviction`, eviction('q'));
  assert.is(refused.status, 429);
  assert.is(refused.json.details.causes[0].message, 'The disruption budget web needs 2 healthy pods and has 1 currently');
  const spec = (await h.get(`${PDBS}/web`)).json;
  await h.put(`${PDBS}/web`, { ...spec, spec: { ...spec.spec, unhealthyPodEvictionPolicy: 'AlwaysAllow' } });
  const stale = (await h.get(`${PDBS}/web`)).json;
  await h.put(`${PDBS}/web/status`, { ...stale, status: { ...stale.status, observedGeneration: stale.metadata.generation } });
  assert.is((await h.post(`${PODS}/q/eviction`, eviction('q'))).status, 201);
  assert.is((await h.get(`${PDBS}/web`)).json.status.disruptedPods, undefined);
});

test('a failed precondition answers 409 with the eviction\'s words and spends nothing (the real server spends first)', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  await budget(h);
  const before = h.revision();
  const r = await h.post(`${PODS}/p/eviction`, eviction('p', { preconditions: { uid: 'not-the-pod' } }));
  assert.is(r.status, 409);
  assert.match(r.json.message, /^Operation cannot be fulfilled on Pod "p": the UID in the precondition \(not-the-pod\) does not match the UID in record \(.+\)\. The object might have been deleted and then recreated$/);
  const stale = await h.post(`${PODS}/p/eviction`, eviction('p', { preconditions: { resourceVersion: '1' } }));
  assert.is(stale.status, 409);
  assert.match(stale.json.message, /the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/);
  assert.is(h.revision(), before, 'neither the budget nor the pod written');
  const current = (await h.get(`${PODS}/p`)).json;
  assert.is((await h.post(`${PODS}/p/eviction`, eviction('p', { preconditions: { uid: current.metadata.uid, resourceVersion: current.metadata.resourceVersion } }))).status, 201);
  assert.ok((await h.get(`${PODS}/p`)).json.metadata.deletionTimestamp, 'preconditions that hold name the pod as marked, so the delete goes');
});

test('an eviction naming another pod or namespace answers 400', async () => {
  const h = await startServer();
  await runningPod(h, 'p');
  const other = await h.post(`${PODS}/p/eviction`, eviction('q'));
  assert.is(other.status, 400);
  assert.is(other.json.message, 'name in URL does not match name in Eviction object');
  const elsewhere = await h.post(`${PODS}/p/eviction`, { ...eviction('p'), metadata: { name: 'p', namespace: 'kube-system' } });
  assert.is(elsewhere.status, 400);
  assert.is(elsewhere.json.message, 'the namespace of the provided object does not match the namespace sent on the request');
  assert.is((await h.get(`${PODS}/p`)).json.metadata.deletionTimestamp, undefined);
});

test.run();
