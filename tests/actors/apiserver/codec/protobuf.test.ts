import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { invalid, notFound, StatusError, success } from '../../../../actors/api/status.ts';
import type { KObject } from '../../../../actors/api/types.ts';
import { decodeProtobuf, encodeProtobuf, PROTOBUF_MAGIC, supportsProtobuf } from '../../../../actors/apiserver/codec/protobuf.ts';
import { ProtoWriter } from '../../../../actors/apiserver/codec/protobuf-wire.ts';
import { listOf, objects } from './protobuf-fixtures.ts';

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

/** A body around a raw message, built by hand: typeMeta=1 {apiVersion=1, kind=2}, raw=2, then extra envelope bytes. */
function envelope(apiVersion: string, kind: string, raw: ProtoWriter, extra?: (w: ProtoWriter) => void): Uint8Array {
  const typeMeta = new ProtoWriter().tag(1, 2).string(apiVersion).tag(2, 2).string(kind);
  const w = new ProtoWriter().tag(1, 2).embed(typeMeta).tag(2, 2).embed(raw);
  extra?.(w);
  return Uint8Array.from([...PROTOBUF_MAGIC, ...w.finish()]);
}

function statusError(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a StatusError');
}

for (const [name, obj] of Object.entries(objects)) {
  test(`a ${name} survives encode then decode unchanged`, () => {
    assert.equal(decodeProtobuf(encodeProtobuf(obj)), obj);
  });
}

for (const name of ['Namespace', 'ConfigMap', 'Secret', 'ServiceAccount', 'Deployment', 'Pod', 'Node', 'ControllerRevision',
  'Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding', 'Job', 'CronJob', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
  test(`a ${name}List survives encode then decode, items and list metadata included`, () => {
    const list = listOf(objects[name], 2);
    assert.ok(supportsProtobuf(String(list.apiVersion), String(list.kind)));
    assert.equal(decodeProtobuf(encodeProtobuf(list)), list);
  });
}

test('an empty list decodes with items: [], as JSON always carries them', () => {
  const list = { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '3' }, items: [] } as unknown as KObject;
  assert.equal(decodeProtobuf(encodeProtobuf(list)), list);
});

test('Status bodies survive a round trip, causes and details included', () => {
  const failure = invalid('apps', 'Deployment', 'web', [{ reason: 'FieldValueRequired', field: 'spec.selector', message: 'Required value' }]).status;
  assert.equal(decodeProtobuf(encodeProtobuf(failure)), failure);
  assert.equal(decodeProtobuf(encodeProtobuf(success())), success());
});

test('a Status for a core resource loses its empty group, as omitempty does in Go', () => {
  const s = notFound({ group: '', resource: 'pods', name: 'x' }).status;
  assert.equal(decodeProtobuf(encodeProtobuf(s)), { ...s, details: { name: 'x', kind: 'pods' } });
});

// Bytes kubectl 1.32.4 sent to a local capturing server (the envelope closes with the empty
// contentEncoding and contentType Go writes; every ObjectMeta carries empty strings and an empty Time).
const kubectl = {
  canICreatePods: hex('6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577123f0a100a0012001a0022002a0032003800420012210a1f0a0764656661756c7412066372656174651a0022002a04706f647332003a001a08080012001a0020001a002200'),
  createConfigMap: hex('6b3873000a0f0a0276311209436f6e6669674d6170122d0a130a03636d3112001a0022002a0032003800420012060a0161120162120e0a046b657932120676616c7565321a002200'),
  createSecret: hex('6b3873000a0c0a027631120653656372657412250a120a02733112001a0022002a00320038004200120d0a027077120768756e746572321a001a002200'),
  createDeployment: hex('6b3873000a150a07617070732f7631120a4465706c6f796d656e7412b4010a1d0a02643112001a0022002a003200380042005a090a03617070120264311284010802120b0a090a03617070120264311a6b0a1b0a0012001a0022002a003200380042005a090a0361707012026431124c122e0a056e67696e7812056e67696e782a00320a0a001000185022002a0042006a007200800100880100900100a201001a00320042004a0052005800600068008201008a01009a0100c2010022020a00280038001a0c0800100018002000280038001a002200'),
};

test('the minimal body of kubectl auth can-i create pods decodes to the review it asks for', () => {
  const resourceAttributes = new ProtoWriter().tag(1, 2).string('default').tag(2, 2).string('create').tag(5, 2).string('pods');
  const spec = new ProtoWriter().tag(1, 2).embed(resourceAttributes);
  const raw = new ProtoWriter().tag(1, 2).embed(new ProtoWriter()).tag(2, 2).embed(spec);
  assert.equal(decodeProtobuf(envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', raw)), {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    metadata: {},
    spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } },
  });
});

test('the real bytes of kubectl auth can-i create pods decode as kubectl would write them in JSON', () => {
  // kubectl also sends its zero status, which JSON writes as {"allowed":false}.
  assert.equal(decodeProtobuf(kubectl.canICreatePods), {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    metadata: {},
    spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } },
    status: { allowed: false },
  });
});

test('kubectl create configmap and create secret decode to their JSON shape', () => {
  assert.equal(decodeProtobuf(kubectl.createConfigMap), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b', key2: 'value2' } });
  assert.equal(decodeProtobuf(kubectl.createSecret), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, data: { pw: Buffer.from('hunter2').toString('base64') } });
});

test('kubectl create deployment decodes to what kubectl --dry-run=client -o json prints, less the null creationTimestamp', () => {
  assert.equal(decodeProtobuf(kubectl.createDeployment), {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd1', labels: { app: 'd1' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'd1' } },
      template: { metadata: { labels: { app: 'd1' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }], resources: {} }] } },
      strategy: {},
    },
    status: {},
  });
});

test('a decoded object always has metadata, even when the wire has none', () => {
  const obj = decodeProtobuf(envelope('v1', 'ConfigMap', new ProtoWriter()));
  assert.equal(obj, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} });
});

test('unknown field numbers are skipped at every level', () => {
  const meta = new ProtoWriter().tag(1, 2).string('n').tag(99, 0).uint(7).tag(100, 5).fixed32(1).tag(101, 1).fixed64(2).tag(102, 2).string('x');
  const raw = new ProtoWriter().tag(1, 2).embed(meta).tag(50, 2).string('ignored');
  const body = envelope('v1', 'Namespace', raw, (w) => w.tag(9, 0).uint(1));
  assert.equal(decodeProtobuf(body), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } });
});

test('a map key named __proto__ becomes a plain key, not a prototype', () => {
  const entry = new ProtoWriter().tag(1, 2).string('__proto__').tag(2, 2).string('{"polluted":true}');
  const obj = decodeProtobuf(envelope('v1', 'ConfigMap', new ProtoWriter().tag(2, 2).embed(entry)));
  const data = obj.data as Record<string, unknown>;
  assert.is(Object.getPrototypeOf(data), Object.prototype);
  assert.is(Object.getOwnPropertyDescriptor(data, '__proto__')?.value, '{"polluted":true}');
});

test('a body without the k8s\\0 prefix is a 400', () => {
  const e = statusError(() => decodeProtobuf(new TextEncoder().encode('{"kind":"Pod"}')));
  assert.is(e.code, 400);
  assert.match(e.message, /6b 38 73 00/);
  assert.is(statusError(() => decodeProtobuf(Uint8Array.of(0x6b, 0x38))).code, 400);
});

test('a known field with the wrong wire type is a 400 that names the field', () => {
  const raw = new ProtoWriter().tag(2, 0).uint(1); // SSAR spec as a varint
  const e = statusError(() => decodeProtobuf(envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', raw)));
  assert.is(e.code, 400);
  assert.match(e.message, /field 2 \(spec\) of SelfSubjectAccessReview has wire type 0, expected 2/);
});

test('truncated varints and lengths past the end are 400s', () => {
  const good = encodeProtobuf(objects.ConfigMap);
  assert.is(statusError(() => decodeProtobuf(good.subarray(0, good.length - 3))).code, 400);
  assert.match(statusError(() => decodeProtobuf(Uint8Array.of(...PROTOBUF_MAGIC, 0x0a, 0x80))).message, /truncated varint/);
  assert.match(statusError(() => decodeProtobuf(Uint8Array.of(...PROTOBUF_MAGIC, 0x12, 0xff, 0xff, 0xff, 0xff, 0x0f))).message, /past the end/);
});

test('an envelope with no kind is a 400; a kind not served as Protobuf is a 415', () => {
  assert.is(statusError(() => decodeProtobuf(envelope('', '', new ProtoWriter()))).code, 400);
  const e = statusError(() => decodeProtobuf(envelope('stable.example.com/v1', 'CronTab', new ProtoWriter())));
  assert.is(e.code, 415);
  assert.is(e.reason, 'UnsupportedMediaType');
});

test('a compressed envelope is a 400; raw in another content type is a 415', () => {
  const gzip = envelope('v1', 'ConfigMap', new ProtoWriter(), (w) => w.tag(3, 2).string('gzip'));
  assert.match(statusError(() => decodeProtobuf(gzip)).message, /contentEncoding "gzip" is not supported/);
  const json = envelope('v1', 'ConfigMap', new ProtoWriter(), (w) => w.tag(4, 2).string('application/json'));
  assert.is(statusError(() => decodeProtobuf(json)).code, 415);
});

test('a ControllerRevision whose data is not JSON is a 400', () => {
  const data = new ProtoWriter().tag(1, 2).string('{not json');
  const e = statusError(() => decodeProtobuf(envelope('apps/v1', 'ControllerRevision', new ProtoWriter().tag(2, 2).embed(data))));
  assert.is(e.code, 400);
  assert.match(e.message, /field 1 \(raw\) of RawExtension does not hold valid JSON, in field 2 \(data\) of ControllerRevision/);
});

test('encoding a kind without a message is a 406; a value of the wrong type is a 500 naming its path', () => {
  assert.is(statusError(() => encodeProtobuf({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: {} })).code, 406);
  const bad = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {}, spec: { replicas: 'three' } };
  const e = statusError(() => encodeProtobuf(bad));
  assert.is(e.code, 500);
  assert.match(e.message, /Deployment\.spec\.replicas/);
});

test('times keep whole seconds; the zero Go time and an empty Time are left out', () => {
  const time = (seconds: number, nanos = 0) => new ProtoWriter().tag(1, 0).int(seconds).tag(2, 0).int(nanos);
  const meta = new ProtoWriter().tag(8, 2).embed(time(1704164645, 999_000_000)).tag(9, 2).embed(time(-62135596800));
  const obj = decodeProtobuf(envelope('v1', 'Namespace', new ProtoWriter().tag(1, 2).embed(meta)));
  assert.equal(obj.metadata, { creationTimestamp: '2024-01-02T03:04:05Z' });
  const encoded = encodeProtobuf({ apiVersion: 'v1', kind: 'Namespace', metadata: { creationTimestamp: '2024-01-02T05:04:05.5+02:00' } });
  assert.is(decodeProtobuf(encoded).metadata.creationTimestamp, '2024-01-02T03:04:05Z');
});

test('supportsProtobuf answers for served kinds and their lists only', () => {
  assert.ok(supportsProtobuf('v1', 'Pod'));
  assert.ok(supportsProtobuf('v1', 'PodList'));
  assert.ok(supportsProtobuf('v1', 'Status'));
  assert.ok(supportsProtobuf('policy/v1', 'Eviction'));
  assert.ok(supportsProtobuf('v1', 'ServiceList'));
  assert.not.ok(supportsProtobuf('stable.example.com/v1', 'CronTab'));
  assert.ok(supportsProtobuf('discovery.k8s.io/v1', 'EndpointSliceList'));
  assert.not.ok(supportsProtobuf('apps/v1', 'Pod'));
  assert.not.ok(supportsProtobuf('authorization.k8s.io/v1', 'SelfSubjectAccessReviewList'));
});

test('encoding is deterministic: map keys are written sorted', () => {
  const a = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { b: '2', a: '1' } });
  const b = encodeProtobuf({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {}, data: { a: '1', b: '2' } });
  assert.equal(a, b);
});

test.run();
