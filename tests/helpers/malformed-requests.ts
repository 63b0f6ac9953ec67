// Malformed requests for the API server fuzzer, drawn from one seeded stream. Every request is
// certain to be refused: when a corruption might by chance leave a valid write (a value of another
// type that the schema tolerates, a decodable truncation), the request also carries a stale
// resourceVersion, an existing name or a foreign kind, so the answer is still a 4xx and the store
// keeps its state. Requests that are wrong in one definite way carry otherwise valid writes, so a
// server that checks too late is caught writing.
import { encodeProtobuf } from '../../actors/apiserver/codec/protobuf.ts';
import { MAX_NESTING_DEPTH } from '../../actors/apiserver/validation/nesting.ts';
import { changedCopy, copy, CT, nameOf, request, staleCopy, staleRv, type Fixtures, type Generator, type Malformed, type Target } from './fuzz-fixtures.ts';
import { BAD_YAML, corruptJson, corruptProtobuf, Draw, nested, wrongTypeAt, type Path } from './malformed-bodies.ts';
import { badMedia, badPatch, badQuery, methodNotAllowed, subresourceBodies } from './malformed-operations.ts';

export { Draw, type Malformed };

/** Mutations must leave the stale resourceVersion (the safety net) in place, so not `metadata` itself either. */
const skipRv = (p: Path) => !['metadata', 'metadata.resourceVersion'].includes(p.join('.'));

/** Each request route a body can take, with a base body that already fails and keeps failing. */
function bodyRoute(d: Draw, t: Target): { route: string; method: string; url: string; ct: string; base: unknown } {
  switch (d.int(7)) {
    case 0: return { route: 'post', method: 'POST', url: t.collection, ct: CT.json, base: t.manifest };
    case 1: return { route: 'put', method: 'PUT', url: t.object, ct: CT.json, base: staleCopy(t) };
    case 2: return { route: 'merge', method: 'PATCH', url: t.object, ct: CT.merge, base: { metadata: { resourceVersion: staleRv(t) } } };
    case 3: return { route: 'strategic', method: 'PATCH', url: t.object, ct: CT.strategic, base: { metadata: { resourceVersion: staleRv(t) } } };
    case 4: return { route: 'json-patch', method: 'PATCH', url: t.object, ct: CT.jsonPatch, base: [{ op: 'test', path: '/metadata/name', value: 'not-it' }] };
    case 5: return { route: 'apply', method: 'PATCH', url: `${t.object}?fieldManager=fuzz`, ct: CT.apply, base: { ...t.manifest, kind: 'NotAKind' } };
    default: return { route: 'delete', method: 'DELETE', url: t.object, ct: CT.json, base: { preconditions: { uid: '00000000-0000-4000-8000-000000000000' } } };
  }
}

const WRONG_TOP_LEVEL: Record<string, string[]> = {
  post: ['[]', '[1]', '"x"', '42', 'true', 'null'],
  put: ['[]', '[{}]', '"x"', '42', 'false', 'null'],
  // Go decodes `null` (and a JSON patch `[]`) into an empty patch, a valid no-op: left out here.
  strategic: ['[]', '[{}]', '"x"', '42', 'true'],
  'json-patch': ['{}', '{"op":"add"}', '"x"', '42', 'true'],
  merge: ['"x"', '42', 'true', '[1]', '[]', 'null'],
  apply: ['[]', '"x"', '42', 'true', 'null'],
  delete: ['[]', '"x"', '42', 'true', 'null', '[{}]'],
};

const badJson: Generator = (d, f) => {
  const t = d.pick(f.all);
  const r = bodyRoute(d, t);
  if (d.chance(0.2)) {
    const body = d.pick(WRONG_TOP_LEVEL[r.route] as string[]);
    return { generator: `bad-json/wrong-top-level-${r.route}`, request: request(r.method, r.url, body, { 'content-type': r.ct }) };
  }
  const { how, body } = corruptJson(d, JSON.stringify(r.base));
  return { generator: `bad-json/${how}`, request: request(r.method, r.url, body, { 'content-type': r.ct }) };
};

/** Duplicate keys: accepted with a warning by default, refused under fieldValidation=Strict. */
const duplicateKeys: Generator = (d, f) => {
  const t = d.pick(f.all);
  const put = d.chance(0.5);
  const base = JSON.stringify(put ? staleCopy(t) : t.manifest);
  const dup = d.pick(['"metadata":{"name":"x"},', '"kind":"x",', '"fuzz":1,"fuzz":2,']);
  const body = base.replace(/^\{/, `{${dup}`);
  return { generator: `bad-json/duplicate-keys-strict`, request: request(put ? 'PUT' : 'POST', `${put ? t.object : t.collection}?fieldValidation=Strict`, body), expect: [400] };
};

/**
 * Deep but readable nesting (under Go's 10,000 levels) where the schema keeps anything: a revision's
 * data, managedFields' fieldsV1. Half stay within the server's own limit, half go past it.
 */
const deepNesting: Generator = (d, f) => {
  const t = f.revision;
  const deep = nested(d.chance(0.5) ? d.between(100, MAX_NESTING_DEPTH - 8) : d.between(MAX_NESTING_DEPTH + 1, 9_900));
  switch (d.int(6)) {
    case 5: {
      // YAML flow (not JSON: a plain scalar) goes to the YAML composer, which recurses per level.
      const levels = d.chance(0.5) ? d.between(100, MAX_NESTING_DEPTH - 8) : d.between(MAX_NESTING_DEPTH + 1, 5_000);
      const body = `apiVersion: apps/v1\nkind: ControllerRevision\nmetadata:\n  name: ${nameOf(t)}\n  resourceVersion: "${staleRv(t)}"\nrevision: 1\ndata: ${'['.repeat(levels)}a${']'.repeat(levels)}\n`;
      return { generator: 'deep-nesting/apply-yaml', request: request('PATCH', `${t.object}?fieldManager=fuzz`, body, { 'content-type': CT.apply }) };
    }
    case 4: {
      // Each op inserts more levels at the innermost point, then a test or copy walks the result.
      const step = d.between(40, 400);
      const ops: unknown[] = [{ op: 'add', path: '/data/deep', value: JSON.parse(nested(step)) }];
      for (let k = 1; k < d.between(3, 12); k++) ops.push({ op: 'add', path: `/data/deep${'/0'.repeat(step * k)}`, value: JSON.parse(nested(step)) });
      ops.push(d.pick([{ op: 'test', path: '/data/deep', value: 1 }, { op: 'copy', from: '/data/deep', path: '/data/copy' }, { op: 'remove', path: '/data/spec' }]));
      return { generator: 'deep-nesting/json-patch-built', request: request('PATCH', t.object, ops, { 'content-type': CT.jsonPatch }) };
    }
    case 0:
      return { generator: 'deep-nesting/post', request: request('POST', t.collection, `{"metadata":{"name":"${nameOf(t)}"},"revision":2,"data":${deep}}`) };
    case 1:
      return { generator: 'deep-nesting/put', request: request('PUT', t.object, JSON.stringify(staleCopy(t)).replace(/"data":/, `"data":${deep},"x":`)) };
    case 2:
      return { generator: 'deep-nesting/merge', request: request('PATCH', t.object, `{"data":${deep}}`, { 'content-type': CT.merge }) };
    default: {
      const tt = d.pick(f.all);
      const body = JSON.stringify(staleCopy(tt)).replace(/"fieldsV1":/, `"fieldsV1":{"f:x":${deep.replace(/\[/g, '{"a":[').replace(/\]/g, ']}')}},"x":`);
      return { generator: 'deep-nesting/fields-v1', request: request('PUT', tt.object, body) };
    }
  }
};

const wrongType: Generator = (d, f) => {
  const t = d.pick(f.all);
  switch (d.int(5)) {
    case 0: {
      const m = wrongTypeAt(d, t.manifest as never, () => true);
      return { generator: 'wrong-type/post', request: request('POST', t.collection, m.value) };
    }
    case 1: {
      const m = wrongTypeAt(d, staleCopy(t) as never, skipRv);
      return { generator: 'wrong-type/put', request: request('PUT', t.object, m.value) };
    }
    case 2: {
      const m = wrongTypeAt(d, staleCopy(t) as never, skipRv);
      return { generator: 'wrong-type/merge', request: request('PATCH', t.object, m.value, { 'content-type': CT.merge }) };
    }
    case 3: {
      const m = wrongTypeAt(d, staleCopy(t) as never, skipRv);
      return { generator: 'wrong-type/strategic', request: request('PATCH', t.object, m.value, { 'content-type': CT.strategic }), unclassified: true };
    }
    default: {
      const base = { ...copy(t.manifest), metadata: { ...copy(t.manifest.metadata), resourceVersion: staleRv(t) } };
      const m = wrongTypeAt(d, base as never, skipRv);
      return { generator: 'wrong-type/apply', request: request('PATCH', `${t.object}?fieldManager=fuzz`, m.value, { 'content-type': CT.apply }) };
    }
  }
};

const identity: Generator = (d, f) => {
  const t = d.pick(f.all);
  const apiVersion = d.pick(['v2', 'apps/v1beta9', 'nope/v1', t.apiVersion === 'v1' ? 'apps/v1' : 'v1']);
  switch (d.int(6)) {
    case 0:
      return { generator: 'identity/post-api-version', request: request('POST', t.collection, { ...t.manifest, apiVersion }), expect: [400] };
    case 1:
      return { generator: 'identity/post-kind', request: request('POST', t.collection, { ...t.manifest, kind: d.pick(['Secret', 'pod', 'Pods', 'Binding']) }), expect: [400] };
    case 2: {
      const ns = f.pod;
      return { generator: 'identity/post-namespace', request: request('POST', ns.collection, { ...ns.manifest, metadata: { ...ns.manifest.metadata, namespace: 'other' } }), expect: [400] };
    }
    case 3: {
      const body = { ...changedCopy(t), metadata: { ...changedCopy(t).metadata, name: 'someone-else' } };
      return { generator: 'identity/put-name', request: request('PUT', t.object, body), expect: [400] };
    }
    case 4:
      return { generator: 'identity/merge-name', request: request('PATCH', t.object, { metadata: { name: 'someone-else' } }, { 'content-type': CT.merge }), expect: [400] };
    default:
      return { generator: 'identity/apply-kind', request: request('PATCH', `${t.object}?fieldManager=fuzz`, { ...t.manifest, apiVersion }, { 'content-type': CT.apply }), expect: [400] };
  }
};

const BAD_SUBDOMAIN_NAMES = ['Upper', 'a_b', 'a b', '-a', 'a-', '.a', 'a..b', 'a/b', 'ä', '..', 'x'.repeat(254), 'a%2Fb', 'a\u0000b'];
const BAD_LABEL_NAMES = [...BAD_SUBDOMAIN_NAMES, 'a.b', 'x'.repeat(64)];

const invalidName: Generator = (d, f) => {
  const t = d.pick(f.all);
  const isNs = t === f.ns;
  const name = d.pick(isNs ? BAD_LABEL_NAMES : BAD_SUBDOMAIN_NAMES);
  // `a-` + `-` is a fine prefix: a trailing dash is allowed there.
  const prefix = name === 'a-' ? 'a_' : name;
  // generateName is validated as a prefix even when a name is given (apimachinery ValidateObjectMeta).
  const [variant, meta] = d.pick<[string, object]>([['name', { name }], ['generate-name', { name: undefined, generateName: `${prefix}-` }],
    ['generate-name-with-name', { generateName: `${prefix}-` }]]);
  return { generator: `invalid-name/${variant}`, request: request('POST', t.collection, { ...t.manifest, metadata: { ...t.manifest.metadata, ...meta } }), expect: [422] };
};

const BAD_LABELS: Record<string, string>[] = [
  { 'Bad Key': 'v' }, { 'a/b/c': 'v' }, { '-a': 'v' }, { '': 'v' }, { 'UPPER.com/x': 'v' }, { [`${'p'.repeat(254)}/x`]: 'v' },
  { [`x${'y'.repeat(63)}`]: 'v' }, { a: 'x'.repeat(64) }, { a: '-bad' }, { a: 'has space' }, { a: 'ü' }, { 'a/': 'v' }, { '/a': 'v' },
];
const BAD_ANNOTATIONS: Record<string, string>[] = [{ 'Bad Key': 'v' }, { 'a/b/c': 'v' }, { '': 'v' }, { big: 'x'.repeat(262_145) }];
const BAD_FINALIZERS = [['Bad Finalizer'], ['a/b/c'], ['']];

const invalidMetadata: Generator = (d, f) => {
  const t = d.pick(f.all);
  const field = d.pick(['labels', 'labels', 'annotations', 'finalizers'] as const);
  const value = field === 'labels' ? d.pick(BAD_LABELS) : field === 'annotations' ? d.pick(BAD_ANNOTATIONS) : d.pick(BAD_FINALIZERS);
  const g = `invalid-${field}`;
  switch (d.int(5)) {
    case 0:
      return { generator: `${g}/post`, request: request('POST', t.collection, { ...t.manifest, metadata: { ...t.manifest.metadata, [field]: value } }), expect: [422] };
    case 1:
      return { generator: `${g}/put`, request: request('PUT', t.object, { ...copy(t.stored), metadata: { ...copy(t.stored.metadata), [field]: value } }), expect: [422] };
    case 2:
      return { generator: `${g}/merge`, request: request('PATCH', t.object, { metadata: { [field]: value } }, { 'content-type': CT.merge }), expect: [422] };
    case 3:
      return { generator: `${g}/strategic`, request: request('PATCH', t.object, { metadata: { [field]: value } }, { 'content-type': CT.strategic }), expect: [422] };
    default: {
      const body = { apiVersion: t.apiVersion, kind: t.kind, metadata: { name: nameOf(t), [field]: value } };
      return { generator: `${g}/apply`, request: request('PATCH', `${t.object}?fieldManager=fuzz`, body, { 'content-type': CT.apply }), expect: [422] };
    }
  }
};

const badPath: Generator = (d, f) => {
  const ns = f.namespace;
  const paths: [string, number][] = [
    ['/api/v2/namespaces/fuzz/pods', 404], ['/apis/nope.example.com/v1/namespaces/fuzz/widgets', 404],
    ['/apis/apps/v9/namespaces/fuzz/controllerrevisions', 404], ['/apis/apps/v1/namespaces/fuzz/pods', 404],
    [`/api/v1/namespaces/${ns}/widgets`, 404], [`/api/v1/namespaces/${ns}/Pods`, 404], [`${f.configMap.object}/extra/more`, 404],
    [`${f.pod.object}/status/extra`, 404], [`${f.configMap.object}/status`, 404], [`${f.pod.object}/logs`, 404],
    [`/api/v1/namespaces/${ns}/configmaps/%zz`, 400], [`/api/v1/namespaces/%zz/configmaps`, 400], ['/api/v1/namespaces/fu%2', 400],
    [`/api/v1/namespaces/${ns}/nodes/n1`, 404], [`/api/v1/namespaces/${ns}/namespaces`, 404], ['/api/v1/pods/p1', 404],
    ['/apis/apps/v1/controllerrevisions/cr1', 404], ['/nope', 404], ['/api/v1/namespaces/fuzz/pods/p1/eviction/x', 404],
  ];
  const getOnly: [string, number][] = [['/openapi/v3/nope', 404], ['/apis/nope', 404], ['/apis/apps/v9', 404], ['/healthz/x', 404]];
  const writeOnly: [string, number][] = [['/apis', 404], ['/api', 404], ['/version', 404], ['/openapi/v3', 404]];
  const method = d.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  const pool = method === 'GET' ? [...paths, ...getOnly] : [...paths, ...writeOnly];
  const [url, code] = d.pick(pool);
  const body = method === 'GET' || method === 'DELETE' ? undefined : f.configMap.manifest;
  const ct = method === 'PATCH' ? CT.merge : CT.json;
  return { generator: `bad-path/${method.toLowerCase()}`, request: request(method, url, body, { 'content-type': ct }), expect: [code] };
};

const protobuf: Generator = (d, f) => {
  // The bytes encode one kind and go to another's endpoint: even a decodable corruption is refused.
  const [from, to] = [d.pick(f.all), d.pick(f.all)];
  const target = to.kind === from.kind ? (from === f.revision ? f.configMap : f.revision) : to;
  return protobufRequest(d, from, target);
};

function protobufRequest(d: Draw, from: Target, to: Target): Malformed {
  const valid = encodeProtobuf(from.manifest);
  const intact = d.chance(0.3);
  const { how, body } = intact ? { how: 'foreign-kind', body: valid } : corruptProtobuf(d, valid);
  const put = d.chance(0.4);
  return { generator: `protobuf/${how}`, request: request(put ? 'PUT' : 'POST', put ? to.object : to.collection, body, { 'content-type': CT.protobuf }) };
}

const staleWrite: Generator = (d, f) => {
  const t = d.pick(f.all);
  switch (d.int(5)) {
    case 0:
      return { generator: 'stale/put', request: request('PUT', t.object, { ...changedCopy(t), metadata: { ...changedCopy(t).metadata, resourceVersion: staleRv(t) } }), expect: [409] };
    case 1:
      return { generator: 'stale/merge', request: request('PATCH', t.object, { metadata: { resourceVersion: staleRv(t), labels: { fuzzed: 'yes' } } }, { 'content-type': CT.merge }), expect: [409] };
    case 2:
      return { generator: 'stale/put-uid', request: request('PUT', t.object, { ...changedCopy(t), metadata: { ...changedCopy(t).metadata, uid: '00000000-0000-4000-8000-000000000000' } }), expect: [409] };
    case 3:
      return { generator: 'stale/delete-precondition-rv', request: request('DELETE', t.object, { preconditions: { resourceVersion: staleRv(t) } }), expect: [409] };
    default:
      return { generator: 'stale/delete-precondition-uid', request: request('DELETE', t.object, { preconditions: { uid: 'not-the-uid' } }), expect: [409] };
  }
};

const immutable: Generator = (d, f) => {
  const r = f.revision;
  const cm = f.immutableConfigMap;
  const pod = f.pod;
  const cases: (() => Malformed)[] = [
    () => ({ generator: 'immutable/revision-put', request: request('PUT', r.object, { ...copy(r.stored), data: { changed: d.int(100) } }), expect: [422] }),
    () => ({ generator: 'immutable/revision-merge', request: request('PATCH', r.object, { data: d.pick([null, { x: 1 }, 'x', [1]]) }, { 'content-type': CT.merge }), expect: [422] }),
    () => ({ generator: 'immutable/revision-json-patch', request: request('PATCH', r.object, [{ op: 'replace', path: '/data/spec/template/replicas', value: 7 }], { 'content-type': CT.jsonPatch }), expect: [422] }),
    () => ({ generator: 'immutable/revision-apply', request: request('PATCH', `${r.object}?fieldManager=fuzz&force=true`, { ...r.manifest, data: { other: true } }, { 'content-type': CT.apply }), expect: [422] }),
    () => ({ generator: 'immutable/configmap-merge', request: request('PATCH', cm.object, d.pick([{ data: { k: 'w' } }, { immutable: false }, { data: null }, { binaryData: { b: 'AA==' } }]), { 'content-type': CT.merge }), expect: [422] }),
    () => ({ generator: 'immutable/pod-spec-merge', request: request('PATCH', pod.object, { spec: d.pick([{ restartPolicy: 'Never' }, { nodeName: 'n1' }, { hostNetwork: true }, { containers: [{ name: 'c', image: 'nginx:1.27', command: ['x'] }] }]) }, { 'content-type': CT.merge }), expect: [422] }),
    () => ({ generator: 'immutable/pod-spec-json-patch', request: request('PATCH', pod.object, [{ op: 'add', path: '/spec/containers/-', value: { name: 'd', image: 'busybox' } }], { 'content-type': CT.jsonPatch }), expect: [422] }),
  ];
  return d.pick(cases)();
};

const applyYaml: Generator = (d, f) => {
  const t = d.pick(f.all);
  const strict = d.chance(0.3);
  if (strict) {
    const body = `apiVersion: ${t.apiVersion}\nkind: ${t.kind}\nmetadata:\n  name: ${nameOf(t)}\n  name: ${nameOf(t)}\n`;
    return { generator: 'apply/duplicate-keys-strict', request: request('PATCH', `${t.object}?fieldManager=fuzz&fieldValidation=Strict`, body, { 'content-type': CT.apply }), expect: [400] };
  }
  if (d.chance(0.2)) {
    return { generator: 'apply/no-field-manager', request: request('PATCH', t.object, { ...t.manifest, metadata: { ...t.manifest.metadata, labels: { fuzzed: 'yes' } } }, { 'content-type': CT.apply }), expect: [422] };
  }
  return { generator: 'apply/yaml-error', request: request('PATCH', `${t.object}?fieldManager=fuzz`, d.pick(BAD_YAML), { 'content-type': CT.apply }), expect: [400] };
};

/** Families and their weights: how often each is drawn. */
export const GENERATORS: [string, number, Generator][] = [
  ['bad-json', 14, badJson], ['duplicate-keys', 3, duplicateKeys], ['deep-nesting', 2, deepNesting], ['wrong-type', 14, wrongType],
  ['identity', 5, identity], ['invalid-name', 4, invalidName], ['invalid-metadata', 6, invalidMetadata], ['bad-path', 6, badPath],
  ['bad-query', 10, badQuery], ['bad-media', 6, badMedia], ['bad-patch', 8, badPatch], ['apply-yaml', 4, applyYaml],
  ['protobuf', 5, protobuf], ['stale', 4, staleWrite], ['immutable', 4, immutable], ['method', 4, methodNotAllowed],
  ['subresource', 4, subresourceBodies],
];

const TOTAL_WEIGHT = GENERATORS.reduce((s, [, w]) => s + w, 0);

export function malformedRequest(d: Draw, f: Fixtures): Malformed {
  let n = d.int(TOTAL_WEIGHT);
  for (const [, weight, make] of GENERATORS) {
    if (n < weight) return make(d, f);
    n -= weight;
  }
  throw new Error('unreachable: weights do not add up');
}
