import * as k8s from '@kubernetes/client-node';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RESOURCES, apiVersionOf, groupVersion } from '../../../../actors/api/resources.ts';
import type { Json } from '../../../../actors/api/types.ts';
import { listKeyEntries, listKeys } from '../../../../actors/apiserver/validation/list-keys.ts';
import { model, quantityFields } from '../../../../actors/apiserver/validation/schema-source.ts';
import { checkSchema, describeKind, modelName } from '../../../../actors/apiserver/validation/schema.ts';

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** A pod like kubectl sends, about 1.5 KB of JSON. */
const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7d4b9c8f6d-x2k4p', namespace: 'default', generateName: 'web-7d4b9c8f6d-',
    labels: { app: 'web', 'pod-template-hash': '7d4b9c8f6d', tier: 'frontend' },
    annotations: { 'kubectl.kubernetes.io/restartedAt': '2024-05-01T10:00:00Z' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c8f6d', uid: '6f1c7c1e-1111-4a4a-9999-0123456789ab', controller: true, blockOwnerDeletion: true }],
  },
  spec: {
    containers: [{
      name: 'nginx', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent',
      ports: [{ containerPort: 80, name: 'http', protocol: 'TCP' }, { containerPort: 443, name: 'https', protocol: 'TCP' }],
      env: [{ name: 'MODE', value: 'production' }, { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: 0.25, memory: '128Mi' } },
      readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 5, periodSeconds: 10 },
      volumeMounts: [{ name: 'config', mountPath: '/etc/nginx/conf.d', readOnly: true }],
    }],
    volumes: [{ name: 'config', configMap: { name: 'web-config', defaultMode: 420 } }],
    restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst', serviceAccountName: 'default',
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'web' } } } }] } },
  },
};

test('a well-formed pod passes untouched', () => {
  const r = checkSchema('v1', 'Pod', POD as unknown as Json);
  assert.equal(r.unknown, []);
  assert.equal(r.typeErrors, []);
  assert.equal(r.missing, []);
  assert.is(r.pruned, POD as unknown as Json);
});

test('unknown fields are found at every depth and pruned from a copy', () => {
  const pod = clone(POD) as any;
  pod.bogusTop = 1;
  pod.metadata.bogus = 2;
  pod.spec.bogusField = true;
  pod.spec.containers[0].foo = 'x';
  pod.spec.containers[0].ports[1].bar = 1;
  pod.spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector.baz = {};
  const before = clone(pod);
  const r = checkSchema('v1', 'Pod', pod);
  assert.equal(r.unknown, [
    'metadata.bogus', 'spec.containers[0].ports[1].bar', 'spec.containers[0].foo',
    'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector.baz',
    'spec.bogusField', 'bogusTop',
  ]);
  assert.equal(r.pruned, POD);
  assert.equal(pod, before, 'the input is not modified');
  assert.is((r.pruned as any).spec.volumes, pod.spec.volumes, 'untouched branches are shared');
});

test('field names are case-sensitive, as in the real decoder', () => {
  assert.equal(checkSchema('v1', 'ConfigMap', { metadata: { name: 'a' }, Data: {} }).unknown, ['Data']);
});

test('nested templates are checked against their own types', () => {
  const deployment = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'x', bar: 1 }] } }, replicas: '3' },
  };
  const r = checkSchema('apps/v1', 'Deployment', deployment);
  assert.equal(r.unknown, ['spec.template.spec.containers[0].bar']);
  assert.equal(r.typeErrors.map((c) => c.message), ['json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32']);
});

test('type errors read like Go decoding errors and name the field path', () => {
  const r = checkSchema('v1', 'Pod', { metadata: { labels: { a: 1 } }, spec: { containers: 'x', restartPolicy: 5, hostNetwork: 'yes', activeDeadlineSeconds: 1.5 } });
  // In document order; Go stops at the first, the caller reports them all.
  assert.equal(r.typeErrors, [
    { reason: 'FieldValueTypeInvalid', message: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string', field: 'metadata.labels.a' },
    { reason: 'FieldValueTypeInvalid', message: 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container', field: 'spec.containers' },
    { reason: 'FieldValueTypeInvalid', message: 'json: cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type string', field: 'spec.restartPolicy' },
    { reason: 'FieldValueTypeInvalid', message: 'json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool', field: 'spec.hostNetwork' },
    { reason: 'FieldValueTypeInvalid', message: 'json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64', field: 'spec.activeDeadlineSeconds' },
  ]);
  const port = checkSchema('v1', 'Pod', { spec: { containers: [{ name: 'a', ports: [{ containerPort: 99999999999 }] }] } });
  assert.is(port.typeErrors[0]?.message, 'json: cannot unmarshal number 99999999999 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32');
  assert.is(port.typeErrors[0]?.field, 'spec.containers[0].ports[0].containerPort');
  assert.is(checkSchema('v1', 'Pod', []).typeErrors[0]?.message, 'json: cannot unmarshal array into Go value of type v1.Pod');
  assert.is(checkSchema('v1', 'Pod', { spec: [] }).typeErrors[0]?.message, 'json: cannot unmarshal array into Go struct field Pod.spec of type v1.PodSpec');
});

test('quantities take strings with suffixes or bare numbers', () => {
  const pod = (limits: Json) => ({ spec: { containers: [{ name: 'a', resources: { limits } }] } });
  assert.equal(checkSchema('v1', 'Pod', pod({ cpu: 1, memory: '1Gi', x: '500m', y: '1e3', z: 0.5 })).typeErrors, []);
  const bad = checkSchema('v1', 'Pod', pod({ cpu: 'lots', memory: '1Kii', gpu: true }));
  assert.equal(bad.typeErrors.map((c) => [c.field, c.message]), [
    ['spec.containers[0].resources.limits.cpu', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['spec.containers[0].resources.limits.memory', "unable to parse quantity's suffix"],
    ['spec.containers[0].resources.limits.gpu', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ]);
});

test('int-or-string, timestamps, bytes and free-form fields follow their Go types', () => {
  const pdb = (minAvailable: Json) => checkSchema('policy/v1', 'PodDisruptionBudget', { spec: { minAvailable } }).typeErrors;
  assert.equal(pdb('50%'), []);
  assert.equal(pdb(2), []);
  assert.is(pdb(true)[0]?.message, 'json: cannot unmarshal bool into Go struct field PodDisruptionBudgetSpec.spec.minAvailable of type int32');
  assert.is(pdb(1.5)[0]?.message, 'json: cannot unmarshal number 1.5 into Go struct field PodDisruptionBudgetSpec.spec.minAvailable of type int32');
  const lease = (renewTime: Json) => checkSchema('coordination.k8s.io/v1', 'Lease', { spec: { renewTime } }).typeErrors;
  assert.equal(lease('2024-05-01T10:00:00.123456Z'), []);
  assert.equal(lease('2024-05-01T10:00:00+02:00'), []);
  assert.match(lease('yesterday')[0]?.message ?? '', /^parsing time "yesterday" as "2006-01-02T15:04:05.000000Z07:00"/);
  assert.equal(checkSchema('v1', 'Secret', { data: { a: 'aGVsbG8=' } }).typeErrors, []);
  assert.is(checkSchema('v1', 'Secret', { data: { a: 'not base64!' } }).typeErrors[0]?.message, 'illegal base64 data at input byte 3');
  const revision = checkSchema('apps/v1', 'ControllerRevision', { revision: 1, data: { spec: { anything: [1, 'x', { deep: null }] } } });
  assert.equal(revision, { unknown: [], typeErrors: [], missing: [], pruned: { revision: 1, data: { spec: { anything: [1, 'x', { deep: null }] } } } });
});

test('null is accepted for any field, as Go leaves the zero value', () => {
  const r = checkSchema('v1', 'Pod', { metadata: { creationTimestamp: null, labels: null }, spec: { containers: [{ name: 'a', ports: null }] }, status: {} });
  assert.equal(r.typeErrors, []);
});

test('required fields are reported only inside objects that are present', () => {
  assert.equal(checkSchema('apps/v1', 'ControllerRevision', { metadata: { name: 'r' } }).missing, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'revision' }]);
  assert.equal(checkSchema('v1', 'Pod', { metadata: { name: 'p' }, spec: {} }).missing, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.containers' }]);
  assert.equal(checkSchema('v1', 'Pod', { metadata: { name: 'p' } }).missing, []);
  assert.equal(checkSchema('v1', 'Pod', { spec: { containers: [{ image: 'x' }, { name: 'b' }, { name: null }] } }).missing.map((c) => c.field),
    ['spec.containers[0].name', 'spec.containers[2].name']);
});

test('every kind the server serves has a client model, with its List', () => {
  for (const t of RESOURCES) {
    const apiVersion = apiVersionOf(t);
    assert.ok(describeKind(apiVersion, t.kind), `${apiVersion} ${t.kind} has no model`);
    if (t.verbs.includes('list')) assert.ok(describeKind(apiVersion, `${t.kind}List`), `${apiVersion} ${t.kind}List has no model`);
    for (const s of t.subresources) {
      const gv = groupVersion(s.group ?? t.group, s.version ?? t.version);
      assert.ok(describeKind(gv, s.kind), `${gv} ${s.kind} (${t.resource}/${s.name}) has no model`);
    }
  }
  assert.is(modelName('v1', 'Event'), 'CoreV1Event');
  assert.is(modelName('policy/v1', 'Eviction'), 'V1Eviction');
  assert.is(modelName('coordination.k8s.io/v1', 'Lease'), 'V1Lease');
  assert.is(modelName('apps/v1', 'Deployment'), 'V1Deployment');
  assert.is(modelName('example.com/v1alpha1', 'Widget'), 'V1alpha1Widget');
});

test('models carry required fields and descriptions from the declaration files', () => {
  const spec = model('V1PodSpec');
  assert.equal(spec?.required, ['containers']);
  assert.match(spec?.fields.get('containers')?.description ?? '', /List of containers belonging to the pod/);
  assert.match(model('V1Pod')?.description ?? '', /^Pod is a collection of containers/);
  assert.is(model('V1ListMeta')?.fields.get('continue')?.type.kind, 'string');
});

test('every quantity override names a string field of a client model', () => {
  const all = k8s as unknown as Record<string, { attributeTypeMap?: { baseName: string; type: string }[] }>;
  for (const entry of quantityFields()) {
    const [type, field] = entry.split('.') as [string, string];
    const attribute = all[`V1${type}`]?.attributeTypeMap?.find((a) => a.baseName === field);
    assert.ok(attribute, `${entry} is not a field of V1${type}`);
    assert.match(attribute.type, /string/, entry);
  }
});

test('list merge keys are found by client, OpenAPI or Go name, and name real list fields', () => {
  assert.equal(listKeys('V1PodSpec', 'containers'), { strategy: 'merge', mergeKey: 'name', listType: 'map', mapKeys: ['name'] });
  assert.equal(listKeys('io.k8s.api.core.v1.Container', 'ports'), { strategy: 'merge', mergeKey: 'containerPort', listType: 'map', mapKeys: ['containerPort', 'protocol'] });
  assert.equal(listKeys('Container', 'volumeMounts')?.mergeKey, 'mountPath');
  assert.equal(listKeys('V1ObjectMeta', 'finalizers'), { strategy: 'merge', listType: 'set' });
  assert.is(listKeys('V1PodSpec', 'volumes')?.strategy, 'merge,retainKeys');
  assert.is(listKeys('V1PodSpec', 'nodeName'), undefined);
  assert.is(listKeys('V1Nothing', 'containers'), undefined);
  assert.is(listKeys('V1PodSpec', 'constructor'), undefined);
  for (const [type, field] of listKeyEntries()) {
    const m = model(`V1${type}`);
    assert.ok(m, `no model V1${type}`);
    assert.is(m.fields.get(field)?.type.kind, 'array', `${type}.${field}`);
  }
});

test('a 1.5 KB pod validates in well under 50 µs', () => {
  const body = JSON.stringify(POD);
  assert.ok(body.length > 1300 && body.length < 1800, `pod is ${body.length} bytes`);
  const pod = JSON.parse(body) as Json;
  for (let i = 0; i < 2_000; i++) checkSchema('v1', 'Pod', pod);
  const runs = 20_000;
  const started = performance.now();
  for (let i = 0; i < runs; i++) checkSchema('v1', 'Pod', pod);
  const micros = ((performance.now() - started) * 1000) / runs;
  console.log(`checkSchema: ${micros.toFixed(1)} µs per ${body.length}-byte pod`);
  assert.ok(micros < 50, `${micros.toFixed(1)} µs per pod`);
});

test.run();
