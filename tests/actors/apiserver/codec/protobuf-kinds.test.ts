// The Protobuf forms of Service, Endpoints, Event, PodTemplate, the apps workloads, Lease,
// PodDisruptionBudget and the flowcontrol kinds: lists survive a round trip, and the fields whose
// zero means something (a pointer in Go) or whose JSON differs from Time (MicroTime) come out as
// the real server writes them. Single objects round-trip in protobuf.test.ts with the others.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../../actors/api/types.ts';
import { decodeProtobuf, encodeProtobuf, PROTOBUF_MAGIC, supportsProtobuf } from '../../../../actors/apiserver/codec/protobuf.ts';
import { ProtoWriter } from '../../../../actors/apiserver/codec/protobuf-wire.ts';
import { kindObjects } from './protobuf-fixtures-kinds.ts';
import { listOf } from './protobuf-fixtures.ts';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function envelope(apiVersion: string, kind: string, raw: ProtoWriter): Uint8Array {
  const typeMeta = new ProtoWriter().tag(1, 2).string(apiVersion).tag(2, 2).string(kind);
  return Uint8Array.from([...PROTOBUF_MAGIC, ...new ProtoWriter().tag(1, 2).embed(typeMeta).tag(2, 2).embed(raw).finish()]);
}

for (const [name, obj] of Object.entries(kindObjects)) {
  test(`a list of ${name} survives encode then decode, items and list metadata included`, () => {
    const list = listOf(obj, 3);
    assert.ok(supportsProtobuf(String(list.apiVersion), String(list.kind)));
    assert.equal(decodeProtobuf(encodeProtobuf(list)), list);
  });
}

test('every kind the server serves with a Protobuf form is served as Protobuf, lists too', () => {
  const kinds: [string, string][] = [['v1', 'Service'], ['v1', 'Endpoints'], ['v1', 'Event'], ['v1', 'PodTemplate'], ['apps/v1', 'ReplicaSet'],
    ['apps/v1', 'DaemonSet'], ['apps/v1', 'StatefulSet'], ['coordination.k8s.io/v1', 'Lease'], ['discovery.k8s.io/v1', 'EndpointSlice'], ['policy/v1', 'PodDisruptionBudget'],
    ['flowcontrol.apiserver.k8s.io/v1', 'FlowSchema'], ['flowcontrol.apiserver.k8s.io/v1', 'PriorityLevelConfiguration']];
  for (const [apiVersion, kind] of kinds) {
    assert.ok(supportsProtobuf(apiVersion, kind), `${apiVersion} ${kind}`);
    assert.ok(supportsProtobuf(apiVersion, `${kind}List`), `${apiVersion} ${kind}List`);
  }
});

test('MicroTimes keep six fraction digits, cut rather than rounded, and carry whole seconds of nanos over', () => {
  const time = (seconds: number, nanos: number) => new ProtoWriter().tag(1, 0).int(seconds).tag(2, 0).int(nanos);
  const spec = new ProtoWriter().tag(3, 2).embed(time(1704164645, 123_456_999)).tag(4, 2).embed(time(1704164645, 1_000_000_500));
  const lease = decodeProtobuf(envelope('coordination.k8s.io/v1', 'Lease', new ProtoWriter().tag(2, 2).embed(spec)));
  assert.equal(lease.spec, { acquireTime: '2024-01-02T03:04:05.123456Z', renewTime: '2024-01-02T03:04:06.000000Z' });
  const event = { apiVersion: 'v1', kind: 'Event', metadata: {}, involvedObject: {}, eventTime: '2024-01-02T05:04:05.1+02:00', reportingComponent: '', reportingInstance: '' };
  assert.is(decodeProtobuf(encodeProtobuf(event as KObject)).eventTime, '2024-01-02T03:04:05.100000Z');
});

test('a Time in a map (a budget\'s disruptedPods) and a zero MicroTime come out as JSON has them', () => {
  const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b' }, status: { disruptedPods: { 'p-1': '2024-01-02T03:04:05Z' },
    disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 } } as unknown as KObject;
  assert.equal(decodeProtobuf(encodeProtobuf(pdb)), pdb);
  const zero = new ProtoWriter().tag(1, 0).int(-62135596800).tag(2, 0).int(0);
  const event = decodeProtobuf(envelope('v1', 'Event', new ProtoWriter().tag(10, 2).embed(zero)));
  assert.is(event.eventTime, undefined);
});

test('a budget of 0 and a ServicePort targetPort of 0 are written and read back; absent ones stay absent', () => {
  const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'b' }, spec: { maxUnavailable: 0 } } as unknown as KObject;
  assert.equal((decodeProtobuf(encodeProtobuf(pdb)) as Rec).spec, { maxUnavailable: 0 });
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 0 }, { port: 81 }] } } as unknown as KObject;
  assert.equal((decodeProtobuf(encodeProtobuf(svc)) as Rec).spec.ports, [{ port: 80, targetPort: 0 }, { port: 81 }]);
});

test('a Service port as Go writes it, every plain field on the wire, decodes to kubectl\'s JSON', () => {
  // name "", protocol "TCP", port 80, targetPort {type 0, intVal 8080, strVal ""}, nodePort 0: Go writes them all.
  const targetPort = new ProtoWriter().tag(1, 0).int(0).tag(2, 0).int(8080).tag(3, 2).string('');
  const port = new ProtoWriter().tag(1, 2).string('').tag(2, 2).string('TCP').tag(3, 0).int(80).tag(4, 2).embed(targetPort).tag(5, 0).int(0);
  const spec = new ProtoWriter().tag(1, 2).embed(port).tag(2, 2).embed(new ProtoWriter().tag(1, 2).string('app').tag(2, 2).string('web'))
    .tag(3, 2).string('').tag(4, 2).string('ClusterIP').tag(7, 2).string('').tag(12, 0).int(0).tag(13, 0).int(0);
  const raw = new ProtoWriter().tag(1, 2).embed(new ProtoWriter().tag(1, 2).string('web')).tag(2, 2).embed(spec).tag(3, 2).embed(new ProtoWriter().tag(1, 2).embed(new ProtoWriter()));
  assert.equal(decodeProtobuf(envelope('v1', 'Service', raw)), {
    apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' },
    spec: { ports: [{ protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'web' }, type: 'ClusterIP' },
    status: { loadBalancer: {} },
  });
});

test('the flowcontrol rules\' lists are always there after a decode, as Go writes them without omitempty', () => {
  const rule = new ProtoWriter().tag(2, 2).embed(new ProtoWriter().tag(1, 2).string('get').tag(4, 0).int(1));
  const spec = new ProtoWriter().tag(1, 2).embed(new ProtoWriter().tag(1, 2).string('p')).tag(4, 2).embed(rule);
  const fs = decodeProtobuf(envelope('flowcontrol.apiserver.k8s.io/v1', 'FlowSchema', new ProtoWriter().tag(2, 2).embed(spec))) as Rec;
  assert.equal(fs.spec, { priorityLevelConfiguration: { name: 'p' },
    rules: [{ subjects: [], resourceRules: [{ verbs: ['get'], apiGroups: [], resources: [], clusterScope: true, namespaces: [] }] }] });
});

test('a StatefulSet\'s claim templates keep their metadata, spec and status but no type fields, which have no Protobuf form', () => {
  const sts = kindObjects.StatefulSet as Rec;
  const withTypes = { ...sts, spec: { ...sts.spec, volumeClaimTemplates: [{ apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...sts.spec.volumeClaimTemplates[0] }] } };
  assert.equal(decodeProtobuf(encodeProtobuf(withTypes as unknown as KObject)), sts);
});

test.run();
