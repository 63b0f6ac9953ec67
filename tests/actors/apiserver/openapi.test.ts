import { createHash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RESOURCES, apiVersionOf, groupVersions } from '../../../actors/api/resources.ts';
import { Catalogue } from '../../../actors/apiserver/catalogue.ts';
import { openapiDocument, openapiRoot } from '../../../actors/apiserver/openapi.ts';

const catalogue = new Catalogue();

type Obj = Record<string, any>;
const root = openapiRoot(catalogue) as { paths: Record<string, { serverRelativeURL: string }> };
const doc = (key: string) => openapiDocument(catalogue, key) as Obj;
const keyOf = (group: string, version: string) => (group ? `apis/${group}/${version}` : `api/${version}`);

test('the root lists every served group version, each with the SHA-512 of its document', () => {
  assert.equal(Object.keys(root.paths), groupVersions().map((g) => keyOf(g.group, g.version)));
  for (const [key, { serverRelativeURL }] of Object.entries(root.paths)) {
    const hash = createHash('sha512').update(JSON.stringify(openapiDocument(catalogue, key))).digest('hex').toUpperCase();
    assert.is(serverRelativeURL, `/openapi/v3/${key}?hash=${hash}`);
  }
});

test('documents are built once and unknown group versions are absent', () => {
  assert.is(openapiDocument(catalogue, 'api/v1'), openapiDocument(catalogue, '/api/v1'));
  assert.is(openapiDocument(catalogue, 'apis/widgets.example.com/v1'), undefined);
  assert.equal(doc('api/v1').info, { title: 'Kubernetes', version: 'v1.32.0' });
  assert.is(doc('api/v1').openapi, '3.0.0');
});

test('the pods PATCH operation carries its kind, fieldValidation and every patch type', () => {
  const patch = doc('api/v1').paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
  assert.equal(patch['x-kubernetes-group-version-kind'], { group: '', version: 'v1', kind: 'Pod' });
  assert.is(patch['x-kubernetes-action'], 'patch');
  assert.is(patch.operationId, 'patchCoreV1NamespacedPod');
  const names = patch.parameters.map((p: Obj) => `${p.in}:${p.name}`);
  for (const p of ['query:fieldValidation', 'query:dryRun', 'query:fieldManager', 'query:force']) assert.ok(names.includes(p), p);
  assert.equal(Object.keys(patch.requestBody.content).sort(), ['application/apply-patch+yaml', 'application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
  assert.is(patch.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/io.k8s.api.core.v1.Pod');
});

test('every resource has its paths, and every patchable kind a PATCH operation kubectl can find', () => {
  for (const t of RESOURCES) {
    const d = doc(keyOf(t.group, t.version));
    const base = t.group ? `/apis/${t.group}/${t.version}` : `/api/${t.version}`;
    const collection = t.scope === 'Namespaced' ? `${base}/namespaces/{namespace}/${t.resource}` : `${base}/${t.resource}`;
    assert.ok(d.paths[collection], collection);
    if (t.verbs.includes('create')) assert.ok(d.paths[collection].post.parameters.some((p: Obj) => p.name === 'fieldValidation'), collection);
    if (t.scope === 'Namespaced' && t.verbs.includes('list')) assert.ok(d.paths[`${base}/${t.resource}`].get, `${base}/${t.resource}`);
    if (!t.verbs.includes('patch')) continue;
    const found = Object.values(d.paths).some((item: any) => {
      const gvk = item.patch?.['x-kubernetes-group-version-kind'];
      return gvk && gvk.group === t.group && gvk.version === t.version && gvk.kind === t.kind && item.patch.parameters.some((p: Obj) => p.name === 'fieldValidation' && p.in === 'query');
    });
    assert.ok(found, `no PATCH operation for ${apiVersionOf(t)} ${t.kind}`);
  }
  assert.ok(doc('api/v1').paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post, 'eviction');
  assert.equal(doc('api/v1').paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post['x-kubernetes-group-version-kind'], { group: 'policy', version: 'v1', kind: 'Eviction' });
  assert.equal(Object.keys(doc('apis/authorization.k8s.io/v1').paths['/apis/authorization.k8s.io/v1/subjectaccessreviews']).sort(), ['parameters', 'post']);
});

test('the Pod schema is named like the real one, with description and group-version-kind array', () => {
  const schemas = doc('api/v1').components.schemas;
  const pod = schemas['io.k8s.api.core.v1.Pod'];
  assert.equal(pod['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Pod', version: 'v1' }]);
  assert.match(pod.description, /^Pod is a collection of containers/);
  assert.is(pod.type, 'object');
  assert.equal(pod.properties.spec.allOf, [{ $ref: '#/components/schemas/io.k8s.api.core.v1.PodSpec' }]);
  assert.equal(pod.properties.metadata.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }]);
  const spec = schemas['io.k8s.api.core.v1.PodSpec'];
  assert.equal(spec.required, ['containers']);
  assert.equal(schemas['io.k8s.api.core.v1.Container'].required, ['name']);
  assert.equal(schemas['io.k8s.api.core.v1.PodList']['x-kubernetes-group-version-kind'], [{ group: '', kind: 'PodList', version: 'v1' }]);
  assert.equal(schemas['io.k8s.api.policy.v1.Eviction']['x-kubernetes-group-version-kind'], [{ group: 'policy', kind: 'Eviction', version: 'v1' }]);
});

test('list fields carry the merge keys strategic merge patch and apply need', () => {
  const schemas = doc('api/v1').components.schemas;
  const containers = schemas['io.k8s.api.core.v1.PodSpec'].properties.containers;
  assert.is(containers.type, 'array');
  assert.equal(containers.items, { $ref: '#/components/schemas/io.k8s.api.core.v1.Container' });
  assert.is(containers['x-kubernetes-patch-merge-key'], 'name');
  assert.is(containers['x-kubernetes-patch-strategy'], 'merge');
  assert.is(containers['x-kubernetes-list-type'], 'map');
  assert.equal(containers['x-kubernetes-list-map-keys'], ['name']);
  assert.is(schemas['io.k8s.api.core.v1.Container'].properties.ports['x-kubernetes-patch-merge-key'], 'containerPort');
  assert.is(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.finalizers['x-kubernetes-patch-strategy'], 'merge');
  assert.equal(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.labels, {
    type: 'object', additionalProperties: { type: 'string' }, description: schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'].properties.labels.description,
  });
  assert.equal(schemas['io.k8s.api.core.v1.ResourceRequirements'].properties.limits.additionalProperties, { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity' });
});

test('ControllerRevision is described for explain, with its raw data and required revision', () => {
  const schemas = doc('apis/apps/v1').components.schemas;
  const cr = schemas['io.k8s.api.apps.v1.ControllerRevision'];
  assert.equal(cr['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'ControllerRevision', version: 'v1' }]);
  assert.equal(cr.required, ['revision']);
  assert.equal(cr.properties.revision, { type: 'integer', format: 'int64', description: cr.properties.revision.description });
  assert.equal(cr.properties.data.allOf, [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension' }]);
  // Core types inside apps kinds keep their core names.
  assert.ok(schemas['io.k8s.api.core.v1.PodTemplateSpec']);
  assert.ok(schemas['io.k8s.api.core.v1.PersistentVolumeClaim']);
  assert.ok(schemas['io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector']);
});

test('every $ref in every document resolves inside it', () => {
  for (const key of Object.keys(root.paths)) {
    const d = doc(key);
    const refs = JSON.stringify(d).match(/"\$ref":"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const r of new Set(refs)) {
      const name = r.slice('"$ref":"#/components/schemas/'.length, -1);
      assert.ok(d.components.schemas[name], `${key}: ${name}`);
    }
  }
});

test.run();
