// Lists: chunks from one snapshot, remainingItemCount, the resourceVersion and
// resourceVersionMatch rows of seed 000's list table, and deletecollection.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { configMap, MERGE, startServer, type Harness } from '../../../helpers/in-process-server.ts';

const CM = '/api/v1/namespaces/default/configmaps';

async function withConfigMaps(names: string[], labels?: (n: string) => Record<string, string>): Promise<Harness> {
  const h = await startServer();
  for (const n of names) await h.post(CM, configMap(n, { k: 'v' }, labels?.(n)));
  return h;
}

const itemNames = (body: any): string[] => body.items.map((i: any) => i.metadata.name);

test('limit splits a list into chunks: continue leads on, and the last chunk has none', async () => {
  const h = await withConfigMaps(['a', 'b', 'c', 'd', 'e']);
  const seen: string[] = [];
  let token: string | undefined;
  let chunks = 0;
  do {
    const r = await h.get(`${CM}?limit=2${token ? `&continue=${token}` : ''}`);
    assert.is(r.status, 200);
    assert.ok(r.json.items.length <= 2);
    seen.push(...itemNames(r.json));
    token = r.json.metadata.continue;
    chunks++;
  } while (token);
  assert.equal(seen, ['a', 'b', 'c', 'd', 'e']);
  assert.is(chunks, 3);
});

test('every chunk comes from the snapshot of the first: later writes do not show, and the resourceVersion stays', async () => {
  const h = await withConfigMaps(['a', 'b', 'c', 'd']);
  const first = (await h.get(`${CM}?limit=2`)).json;
  const snapshot = first.metadata.resourceVersion;
  await h.post(CM, configMap('bb'));
  await h.post(CM, configMap('e'));
  await h.patch(`${CM}/c`, { data: { k: 'changed' } }, MERGE);
  await h.del(`${CM}/d`);
  const second = (await h.get(`${CM}?limit=2&continue=${first.metadata.continue}`)).json;
  assert.is(second.metadata.resourceVersion, snapshot);
  assert.equal(second.items.map((i: any) => [i.metadata.name, i.data.k]), [['c', 'v'], ['d', 'v']]);
  assert.is(second.metadata.continue, undefined);
  assert.equal(itemNames((await h.get(CM)).json), ['a', 'b', 'bb', 'c', 'e']);
});

test('chunks work across namespaces for a cluster-wide list', async () => {
  const h = await startServer();
  for (const ns of ['default', 'kube-public', 'orch-system']) await h.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('x'));
  const first = (await h.get('/api/v1/configmaps?limit=2')).json;
  const rest = (await h.get(`/api/v1/configmaps?limit=2&continue=${first.metadata.continue}`)).json;
  assert.equal([...first.items, ...rest.items].map((i: any) => i.metadata.namespace), ['default', 'kube-public', 'orch-system']);
});

test('remainingItemCount counts what is left after a chunk', async () => {
  const h = await withConfigMaps(['a', 'b', 'c', 'd', 'e']);
  const first = (await h.get(`${CM}?limit=2`)).json;
  assert.is(first.metadata.remainingItemCount, 3);
  const second = (await h.get(`${CM}?limit=2&continue=${first.metadata.continue}`)).json;
  assert.is(second.metadata.remainingItemCount, 1);
});

test('remainingItemCount is left out when the list is complete or not chunked', async () => {
  const h = await withConfigMaps(['a', 'b']);
  const whole = (await h.get(CM)).json;
  assert.is(whole.metadata.remainingItemCount, undefined);
  assert.is(whole.metadata.continue, undefined);
  const exact = (await h.get(`${CM}?limit=2`)).json;
  assert.equal(itemNames(exact), ['a', 'b']);
  assert.is(exact.metadata.remainingItemCount, undefined);
  assert.is(exact.metadata.continue, undefined);
  const roomy = (await h.get(`${CM}?limit=10`)).json;
  assert.is(roomy.metadata.remainingItemCount, undefined);
});

test('remainingItemCount is left out when a label or field selector is set, though continue is not', async () => {
  const h = await withConfigMaps(['a', 'b', 'c', 'd'], () => ({ app: 'x' }));
  const byLabel = (await h.get(`${CM}?limit=1&labelSelector=app%3Dx`)).json;
  assert.equal(itemNames(byLabel), ['a']);
  assert.ok(byLabel.metadata.continue);
  assert.is(byLabel.metadata.remainingItemCount, undefined);
  const byField = (await h.get(`${CM}?limit=1&fieldSelector=metadata.name!%3Da`)).json;
  assert.equal(itemNames(byField), ['b']);
  assert.ok(byField.metadata.continue);
  assert.is(byField.metadata.remainingItemCount, undefined);
  const next = (await h.get(`${CM}?limit=2&labelSelector=app%3Dx&continue=${byLabel.metadata.continue}`)).json;
  assert.equal(itemNames(next), ['b', 'c']);
});

test('limit=0 means no limit', async () => {
  const h = await withConfigMaps(['a', 'b', 'c']);
  const r = (await h.get(`${CM}?limit=0`)).json;
  assert.equal(itemNames(r), ['a', 'b', 'c']);
  assert.is(r.metadata.continue, undefined);
});

test('a continue token from another collection answers 400', async () => {
  const h = await withConfigMaps(['a', 'b', 'c']);
  const token = (await h.get(`${CM}?limit=1`)).json.metadata.continue;
  const r = await h.get(`/api/v1/namespaces/default/secrets?limit=1&continue=${token}`);
  assert.is(r.status, 400);
  assert.is(r.json.reason, 'BadRequest');
});

/** A store where `old` is the revision before `late` was created. */
async function twoRevisions(): Promise<{ h: Harness; old: string }> {
  const h = await withConfigMaps(['a', 'b']);
  const old = String(h.revision());
  await h.post(CM, configMap('late'));
  return { h, old };
}

test('resourceVersion unset or 0 without a limit: the newest state', async () => {
  const { h } = await twoRevisions();
  for (const q of ['', '?resourceVersion=0']) {
    const r = (await h.get(`${CM}${q}`)).json;
    assert.is(r.metadata.resourceVersion, String(h.revision()), q);
    assert.equal(itemNames(r), ['a', 'b', 'late'], q);
  }
});

test('resourceVersion=N without a limit: not older than N, so the newest state', async () => {
  const { h, old } = await twoRevisions();
  const r = (await h.get(`${CM}?resourceVersion=${old}`)).json;
  assert.is(r.metadata.resourceVersion, String(h.revision()));
  assert.equal(itemNames(r), ['a', 'b', 'late']);
});

test('resourceVersion=N with a limit: exactly N', async () => {
  const { h, old } = await twoRevisions();
  const r = (await h.get(`${CM}?resourceVersion=${old}&limit=10`)).json;
  assert.is(r.metadata.resourceVersion, old);
  assert.equal(itemNames(r), ['a', 'b']);
});

test('resourceVersion=0 with a limit: any state, here the newest', async () => {
  const { h } = await twoRevisions();
  const r = (await h.get(`${CM}?resourceVersion=0&limit=10`)).json;
  assert.equal(itemNames(r), ['a', 'b', 'late']);
});

test('resourceVersionMatch=Exact: exactly N, with or without a limit', async () => {
  const { h, old } = await twoRevisions();
  for (const limit of ['', '&limit=10']) {
    const r = (await h.get(`${CM}?resourceVersion=${old}&resourceVersionMatch=Exact${limit}`)).json;
    assert.is(r.metadata.resourceVersion, old, limit);
    assert.equal(itemNames(r), ['a', 'b'], limit);
  }
});

test('resourceVersionMatch=NotOlderThan: the newest state for N, with or without a limit, and for 0', async () => {
  const { h, old } = await twoRevisions();
  for (const q of [`resourceVersion=${old}`, `resourceVersion=${old}&limit=10`, 'resourceVersion=0', 'resourceVersion=0&limit=10']) {
    const r = (await h.get(`${CM}?${q}&resourceVersionMatch=NotOlderThan`)).json;
    assert.equal(itemNames(r), ['a', 'b', 'late'], q);
    assert.ok(Number(r.metadata.resourceVersion) >= Number(old), q);
  }
});

test('resourceVersionMatch without a resourceVersion, or Exact at 0, answers 422 on ListOptions', async () => {
  const h = await withConfigMaps(['a']);
  const cases: [string, string][] = [
    ['resourceVersionMatch=Exact', 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['resourceVersionMatch=NotOlderThan', 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
    ['resourceVersion=0&resourceVersionMatch=Exact', 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
  ];
  for (const [q, message] of cases) {
    const r = await h.get(`${CM}?${q}`);
    assert.is(r.status, 422, q);
    assert.is(r.json.message, message, q);
  }
});

test('resourceVersionMatch together with continue answers 422', async () => {
  const h = await withConfigMaps(['a', 'b']);
  const token = (await h.get(`${CM}?limit=1`)).json.metadata.continue;
  const r = await h.get(`${CM}?resourceVersion=3&resourceVersionMatch=Exact&continue=${token}`);
  assert.is(r.status, 422);
  assert.is(r.json.details.kind, 'ListOptions');
});

test('continue with resourceVersion=0 is treated as the token alone; any other resourceVersion answers 400', async () => {
  const h = await withConfigMaps(['a', 'b', 'c']);
  const first = (await h.get(`${CM}?limit=1`)).json;
  await h.post(CM, configMap('bb'));
  const zero = (await h.get(`${CM}?limit=5&resourceVersion=0&continue=${first.metadata.continue}`)).json;
  assert.is(zero.metadata.resourceVersion, first.metadata.resourceVersion);
  assert.equal(itemNames(zero), ['b', 'c']);
  const other = await h.get(`${CM}?limit=5&resourceVersion=${first.metadata.resourceVersion}&continue=${first.metadata.continue}`);
  assert.is(other.status, 400);
});

test('an unsupported resourceVersionMatch value answers 422', async () => {
  const h = await withConfigMaps(['a']);
  const r = await h.get(`${CM}?resourceVersion=1&resourceVersionMatch=Latest`);
  assert.is(r.status, 422);
  assert.equal(r.json.details.causes, [{ reason: 'FieldValueNotSupported', field: 'resourceVersionMatch', message: 'Unsupported value: "Latest": supported values: "Exact", "NotOlderThan"' }]);
});

test('GET of one object with resourceVersion 0 or an old version answers the newest object', async () => {
  const h = await withConfigMaps(['a']);
  const old = h.revision();
  await h.patch(`${CM}/a`, { data: { k: 'new' } }, MERGE);
  for (const rv of ['0', String(old)]) {
    const r = await h.get(`${CM}/a?resourceVersion=${rv}`);
    assert.is(r.status, 200);
    assert.equal(r.json.data, { k: 'new' }, rv);
  }
});

test('deletecollection with a label selector deletes only what matches, across a namespace', async () => {
  const h = await withConfigMaps(['a', 'b', 'c', 'd'], (n) => ({ app: n < 'c' ? 'old' : 'new' }));
  const r = await h.del(`${CM}?labelSelector=app%3Dold`);
  assert.is(r.status, 200);
  assert.is(r.json.kind, 'ConfigMapList');
  assert.equal(itemNames(r.json), ['a', 'b']);
  assert.equal(itemNames((await h.get(CM)).json), ['c', 'd']);
});

test('deletecollection without a selector empties the collection of its namespace only', async () => {
  const h = await withConfigMaps(['a', 'b']);
  await h.post('/api/v1/namespaces/orch-system/configmaps', configMap('kept'));
  const r = await h.del(CM, { propagationPolicy: 'Background' });
  assert.equal(itemNames(r.json), ['a', 'b']);
  assert.equal(itemNames((await h.get(CM)).json), []);
  assert.equal(itemNames((await h.get('/api/v1/namespaces/orch-system/configmaps')).json), ['kept']);
});

test('deletecollection with a selector that matches nothing answers an empty list and writes nothing', async () => {
  const h = await withConfigMaps(['a']);
  const before = h.revision();
  const r = await h.del(`${CM}?labelSelector=app%3Dnone`);
  assert.is(r.status, 200);
  assert.equal(r.json.items, []);
  assert.is(h.revision(), before);
});

test.run();
