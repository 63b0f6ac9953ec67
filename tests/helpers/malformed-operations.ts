// Malformed operations for the API server fuzzer: bad query options, media types, patch documents,
// methods and subresource bodies. Writes here carry a body that would succeed on its own, so a
// server that checks the bad part only after writing is caught changing the store.
import { changedCopy, copy, CT, nameOf, request, type Fixtures, type Generator, type Malformed, type Target } from './fuzz-fixtures.ts';
import type { Draw } from './malformed-bodies.ts';

/** Label selectors real servers refuse (apimachinery labels.Parse). */
export const BAD_LABEL_SELECTORS = ['a in (', 'a in (b', '=x', 'a b', '!', 'a==b==c', 'Bad Key=1', 'a=b,', ',', 'a=(b)', 'a notin', '!a=b', 'a=b c', 'x/y/z=1', `a=${'v'.repeat(64)}`, 'a in (b,-c)'];
/** Field selectors that do not parse or name a field the kind cannot be selected by. */
export const BAD_FIELD_SELECTORS = ['metadata.nom=x', 'spec.bogus=1', '=', 'a', 'status.phase', 'metadata.labels=x', '==x'];

const enc = encodeURIComponent;
const fresh = (d: Draw) => `fuzz-new-${d.int(1_000_000)}`;

/** A write that would succeed: create a new object, update, patch, delete. */
function validWrite(d: Draw, f: Fixtures): { what: string; method: string; url: string; body?: unknown; ct: string } {
  const t = d.pick([f.configMap, f.pod, f.revision, f.node, f.ns]);
  switch (d.int(4)) {
    case 0: {
      const c = f.configMap;
      return { what: 'create', method: 'POST', url: c.collection, body: { ...c.manifest, metadata: { name: fresh(d) } }, ct: CT.json };
    }
    case 1:
      return { what: 'update', method: 'PUT', url: t.object, body: changedCopy(t), ct: CT.json };
    case 2:
      return { what: 'patch', method: 'PATCH', url: t.object, body: { metadata: { labels: { fuzzed: 'yes' } } }, ct: CT.merge };
    default:
      return { what: 'delete', method: 'DELETE', url: t.object, ct: CT.json };
  }
}

const WRITE_QUERIES: [string, number][] = [
  ['fieldValidation=Bogus', 422], ['fieldValidation=strict', 422], ['dryRun=Some', 422], ['dryRun=all', 422], ['dryRun=All&dryRun=Nope', 422],
  [`fieldManager=${'m'.repeat(129)}`, 422], ['fieldManager=a%0Ab', 422], ['fieldManager=%C3%BC', 422],
];
const DELETE_QUERIES: [string, number][] = [
  ['gracePeriodSeconds=x', 400], ['gracePeriodSeconds=1.5', 400], ['propagationPolicy=Bogus', 422], ['propagationPolicy=background', 422],
  ['orphanDependents=maybe', 400], ['orphanDependents=true&propagationPolicy=Orphan', 422], ['dryRun=Some', 422],
];
const DELETE_BODIES: [unknown, number][] = [
  [{ gracePeriodSeconds: 'x' }, 422], [{ gracePeriodSeconds: 1.5 }, 422], [{ propagationPolicy: 'Bogus' }, 422], [{ propagationPolicy: 5 }, 422],
  [{ dryRun: 'All' }, 422], [{ dryRun: ['Some'] }, 422], [{ orphanDependents: true, propagationPolicy: 'Orphan' }, 422],
  [{ preconditions: { uid: 'not-the-uid' } }, 409], [{ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'X' }, 422],
];

function listQuery(d: Draw, f: Fixtures): [string, number] {
  const old = d.between(1, f.compactedRevision - 1);
  const token = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return d.pick<[string, number]>([
    ['limit=-1', 400], ['limit=abc', 400], ['limit=1.5', 400], ['limit=1e3', 400], ['resourceVersion=abc', 400], ['resourceVersion=-1', 400],
    ['resourceVersion=%20', 400], ['resourceVersionMatch=bogus', 422], ['resourceVersionMatch=Exact', 422], ['resourceVersionMatch=NotOlderThan', 422],
    ['resourceVersionMatch=Exact&resourceVersion=0', 422], ['continue=garbage!', 400], [`continue=${token({ v: 'x', rv: 3, start: '/' })}`, 400],
    [`continue=${token({ v: 'meta.k8s.io/v1', rv: -1, start: '/' })}`, 400], [`continue=${token({ v: 'meta.k8s.io/v1', rv: 3, start: '/registry/secrets/x' })}`, 400],
    [`continue=${token({ v: 'meta.k8s.io/v1', rv: old, start: '/registry/configmaps/fuzz/a' })}&resourceVersion=5`, 400],
    [`resourceVersion=${old}&resourceVersionMatch=Exact`, 410], ['watch=maybe', 400], ['allowWatchBookmarks=maybe', 400],
    ['sendInitialEvents=maybe', 400], ['timeoutSeconds=x', 400],
    [`labelSelector=${enc(d.pick(BAD_LABEL_SELECTORS))}`, 400], [`fieldSelector=${enc(d.pick(BAD_FIELD_SELECTORS))}`, 400],
  ]);
}

export const badQuery: Generator = (d, f) => {
  const t = d.pick(f.all);
  switch (d.int(6)) {
    case 0: {
      const [q, code] = listQuery(d, f);
      const url = d.chance(0.2) ? `/api/v1/configmaps?${q}` : `${t.collection}?${q}`;
      return { generator: 'bad-query/list', request: request('GET', url), expect: [code] };
    }
    case 1: {
      const [q, code] = d.pick<[string, number]>([['resourceVersion=abc', 400], ['resourceVersion=1.5', 400], ['resourceVersion=-2', 400]]);
      return { generator: 'bad-query/get', request: request('GET', `${t.object}?${q}`), expect: [code] };
    }
    case 2: {
      const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
      const url = d.chance(0.5) ? `${t.object}?includeObject=bad` : `${t.collection}?includeObject=${d.pick(['bad', 'none', 'OBJECT'])}`;
      return { generator: 'bad-query/include-object', request: request('GET', url, undefined, { accept: table }), expect: [400] };
    }
    case 3: {
      const w = validWrite(d, f);
      const [q, code] = d.pick(WRITE_QUERIES);
      // Deletes take DeleteOptions, which have no fieldValidation or fieldManager.
      const [dq, dcode] = d.pick(DELETE_QUERIES);
      const [query, expect] = w.method === 'DELETE' ? [dq, dcode] : [q, code];
      return { generator: `bad-query/${w.what}`, request: request(w.method, `${w.url}?${query}`, w.body, { 'content-type': w.ct }), expect: [expect] };
    }
    case 4: {
      const [body, code] = d.pick(DELETE_BODIES);
      return { generator: 'bad-query/delete-body', request: request('DELETE', t.object, body), expect: [code] };
    }
    default: {
      // deletecollection: a bad option must stop it before anything is deleted.
      const [q, code] = d.chance(0.5) ? d.pick(DELETE_QUERIES) : listQuery(d, f);
      return { generator: 'bad-query/deletecollection', request: request('DELETE', `${t.collection}?${q}`), expect: [code] };
    }
  }
};

const BAD_CONTENT_TYPES = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/cbor', 'application/json-patch+json', 'image/png', 'application/apply-patch+yaml', 'json'];
const BAD_PATCH_TYPES = ['application/json', 'text/plain', '', 'application/yaml', 'application/apply-patch+cbor', 'application/merge-patch', 'application/vnd.kubernetes.protobuf'];
const BAD_ACCEPTS = ['text/html', 'application/xml', 'application/json;as=Bogus', 'application/json;as=Table;g=meta.k8s.io;v=v9', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', 'image/*', '*/*;q=0', 'text/*', 'application/cbor'];

export const badMedia: Generator = (d, f) => {
  const t = d.pick(f.all);
  switch (d.int(5)) {
    case 0: {
      const put = d.chance(0.5);
      const body = put ? changedCopy(t) : { ...t.manifest, metadata: { name: fresh(d) } };
      return { generator: 'bad-media/content-type', request: request(put ? 'PUT' : 'POST', put ? t.object : t.collection, body, { 'content-type': d.pick(BAD_CONTENT_TYPES) }), expect: [415] };
    }
    case 1:
      return { generator: 'bad-media/patch-type', request: request('PATCH', t.object, { metadata: { labels: { fuzzed: 'yes' } } }, { 'content-type': d.pick(BAD_PATCH_TYPES) }), expect: [415] };
    case 2:
      return { generator: 'bad-media/delete-body-type', request: request('DELETE', t.object, {}, { 'content-type': d.pick(BAD_CONTENT_TYPES) }), expect: [415] };
    case 3: {
      // Every built-in kind has a Protobuf form, so asking for Protobuf alone is no bad Accept.
      const url = d.pick([t.object, t.collection, '/api/v1/services', `/api/v1/namespaces/${f.namespace}/events`]);
      return { generator: 'bad-media/accept-read', request: request('GET', url, undefined, { accept: d.pick(BAD_ACCEPTS) }), expect: [406] };
    }
    default: {
      const w = validWrite(d, f);
      const accept = d.pick([...BAD_ACCEPTS.filter((a) => !a.includes('Table')), 'application/json;as=Table;g=meta.k8s.io;v=v1']);
      return { generator: `bad-media/accept-${w.what}`, request: request(w.method, w.url, w.body, { 'content-type': w.ct, accept }), expect: [406] };
    }
  }
};

function jsonPatches(d: Draw, t: Target): [unknown, number[]][] {
  const test = { op: 'test', path: '/metadata/name', value: nameOf(t) };
  return [
    [{ op: 'add', path: '/x', value: 1 }, [400]], [[1], [400]], [['op'], [400]], [[{ op: 'bogus', path: '/x' }], [422]], [[{ op: 'add' }], [422]],
    [[{ op: 'remove', path: '/nope/x' }], [422]], [[{ op: 'test', path: '/metadata/name', value: 'zzz' }], [422]],
    [[{ op: 'replace', path: '/metadata/name', value: 'other' }], [400]], [[{ op: 'add', path: '/metadata/labels/a', value: 5 }], [422]],
    [[{ op: 'move', from: '/nope', path: '/x' }], [422]], [[{ op: 'add', path: '', value: {} }], [422]], [[{ op: 'copy', from: '/metadata/zz', path: '/x' }], [422]],
    [[{ op: 'add', path: '/metadata/labels/a~2b', value: 'v' }], [422]], [[{ op: 'add', path: 'metadata/labels/a', value: 'v' }], [422]],
    [[{ op: 'remove', path: `/metadata/labels/${d.int(99)}missing` }], [422]], [[{ op: 'add', path: '/metadata/finalizers/7', value: 'a' }], [422]],
    [Array.from({ length: 10_001 }, () => test), [413]],
    // Each copy doubles the document: real servers stop at 3 MiB copied (JSONPatchMaxCopyBytes).
    [Array.from({ length: d.between(24, 60) }, (_, i) => ({ op: 'copy', from: '/metadata', path: `/metadata/x${i}` })), [422]],
  ];
}

function mergePatches(): [unknown, number[]][] {
  return [
    ['"str"', [422]], [42, [422]], [[1], [422]], [true, [422]], ['null', [422]], [{ metadata: 'x' }, [422]], [{ metadata: { labels: 'x' } }, [422]],
    [{ metadata: { name: 'other' } }, [400]], [{ metadata: { labels: { a: 5 } } }, [422]], [{ metadata: { annotations: [] } }, [422]],
    // Without metadata the object has no name: checkName's 400.
    [{ metadata: null }, [400]],
  ];
}

function strategicPatches(t: Target): [unknown, number[]][] {
  const common: [unknown, number[]][] = [
    // Directives strategicpatch refuses with a plain error: the real server's unclassified 500.
    [[], [400]], ['"x"', [400]], [{ $patch: 'bogus' }, [500]], [{ metadata: { $retainKeys: 'x' } }, [400]], [{ metadata: { labels: 'x' } }, [422]],
    [{ metadata: { '$setElementOrder/finalizers': 'x' } }, [500]], [{ metadata: { $patch: 'delete' } }, [400]],
    [{ metadata: { $patch: 'replace', name: 'other' } }, [400]], [{ metadata: null }, [400]],
  ];
  if (t.kind !== 'Pod') return common;
  return [...common,
    [{ spec: { containers: [{ $patch: 'delete' }] } }, [500]], [{ spec: { containers: [{ image: 'x' }] } }, [500]],
    // The live list's maps come first: a list item of another type is "not identical" before any list of lists.
    [{ spec: { containers: [[1]] } }, [500]], [{ spec: { containers: [1, 'x'] } }, [500]], [{ spec: { containers: 'x' } }, [422]],
    [{ spec: { '$setElementOrder/containers': [{ name: 'zz' }], containers: [{ name: 'c', image: 'y' }] } }, [500]],
    [{ spec: { containers: [{ name: 'c', $patch: 'merge' }] } }, [500]],
  ];
}

export const badPatch: Generator = (d, f) => {
  const t = d.pick(f.all);
  const kind = d.pick(['json', 'merge', 'strategic'] as const);
  // Strategic patches naming pod fields go to the pod; the others to any object.
  const target = kind === 'strategic' && d.chance(0.6) ? f.pod : t;
  const [body, expect] = d.pick(kind === 'json' ? jsonPatches(d, t) : kind === 'merge' ? mergePatches() : strategicPatches(target));
  const ct = kind === 'json' ? CT.jsonPatch : kind === 'merge' ? CT.merge : CT.strategic;
  return { generator: `bad-patch/${kind}`, request: request('PATCH', target.object, body, { 'content-type': ct }), expect };
};

export const methodNotAllowed: Generator = (d, f) => {
  const t = d.pick(f.all);
  const sar = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
  const cases: [string, string, unknown?][] = [
    ['PUT', t.collection, changedCopy(t)], ['PATCH', t.collection, { metadata: { labels: { fuzzed: 'yes' } } }], ['POST', t.object, t.manifest],
    ['GET', sar], ['DELETE', sar], ['PUT', sar, {}], ['PATCH', sar, {}], ['POST', `${sar}/x`, {}], ['DELETE', `${f.pod.object}/status`],
    ['POST', `${f.pod.object}/status`, {}], ['GET', `${f.pod.object}/binding`], ['PUT', `${f.pod.object}/eviction`, {}], ['GET', `${f.ns.object}/finalize`],
    ['POST', `${f.ns.object}/finalize`, {}], [d.pick(['OPTIONS', 'TRACE', 'PROPFIND', 'LOCK']), d.pick([t.object, t.collection])],
  ];
  const [method, url, body] = d.pick(cases);
  const ct = method === 'PATCH' ? CT.merge : CT.json;
  return { generator: `method/${method.toLowerCase()}`, request: request(method, url, body, { 'content-type': ct }), expect: [405] };
};

export const subresourceBodies: Generator = (d, f) => {
  const pod = f.pod;
  const running = f.runningPod;
  const eviction = (name: string, extra: object = {}) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra });
  const cases: (() => Malformed)[] = [
    () => ({ generator: 'subresource/binding-no-target', request: request('POST', `${pod.object}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: nameOf(pod) }, target: d.pick([{}, { name: '' }]) }), expect: [422] }),
    () => ({ generator: 'subresource/binding-name', request: request('POST', `${pod.object}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'other' }, target: { name: 'n1' } }), expect: [422] }),
    () => ({ generator: 'subresource/binding-kind', request: request('POST', `${pod.object}/binding`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: nameOf(pod) }, target: { name: 'n1' } }), expect: [400] }),
    () => ({ generator: 'subresource/binding-type', request: request('POST', `${pod.object}/binding`, { apiVersion: 'v1', kind: 'Binding', target: d.pick(['n1', 5, ['n1']]) }), expect: [400] }),
    () => ({ generator: 'subresource/binding-bound', request: request('POST', `${running.object}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: nameOf(running) }, target: { name: 'n1' } }), expect: [409] }),
    () => ({ generator: 'subresource/eviction-guarded', request: request('POST', `${running.object}/eviction`, eviction(nameOf(running))), expect: [429] }),
    () => ({ generator: 'subresource/eviction-kind', request: request('POST', `${pod.object}/eviction`, { ...eviction(nameOf(pod)), kind: 'Binding' }), expect: [400] }),
    () => ({ generator: 'subresource/eviction-dry-run', request: request('POST', `${pod.object}/eviction`, eviction(nameOf(pod), { deleteOptions: { dryRun: ['Some'] } })), expect: [422] }),
    () => ({ generator: 'subresource/eviction-precondition', request: request('POST', `${pod.object}/eviction`, eviction(nameOf(pod), { deleteOptions: { preconditions: { uid: 'not-the-uid' } } })), expect: [409] }),
    () => ({ generator: 'subresource/eviction-grace-type', request: request('POST', `${pod.object}/eviction`, eviction(nameOf(pod), { deleteOptions: { gracePeriodSeconds: 'x' } })), expect: [400] }),
    () => ({ generator: 'subresource/status-type', request: request('PUT', `${pod.object}/status`, { ...copy(pod.stored), status: d.pick(['Running', 5, [], { phase: 5 }, { conditions: 'x' }]) }), expect: [400] }),
    () => ({ generator: 'subresource/status-stale', request: request('PUT', `${running.object}/status`, { ...copy(running.stored), metadata: { ...copy(running.stored.metadata), resourceVersion: '1' }, status: { phase: 'Failed' } }), expect: [409] }),
    () => ({ generator: 'subresource/finalize-type', request: request('PUT', `${f.ns.object}/finalize`, { ...copy(f.ns.stored), spec: { finalizers: d.pick(['x', 5, { a: 1 }]) } }), expect: [400] }),
    () => ({ generator: 'subresource/access-review', request: request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', d.pick([{}, { spec: {} }, { spec: 'x' }, { kind: 'Pod', spec: {} }, { spec: { resourceAttributes: {}, nonResourceAttributes: {} } }])), expect: [400, 422] }),
  ];
  return d.pick(cases)();
};
