// A compiled CRD version on custom objects: pruning (with the unknown paths fieldValidation
// reports), defaulting, and the strategy's validation order (type meta, schema, scale, embedded
// resources, list types, rules), with ratcheting on update.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { StatusError } from '../../../../actors/api/status.ts';
import type { Json } from '../../../../actors/api/types.ts';
import { compileVersion, type JSONSchemaProps } from '../../../../actors/apiserver/crd/index.ts';
import { deepFreeze } from '../patch/deep-freeze.ts';
import { cronTab, cronTabSchema, lines } from './fixtures.ts';

type JsonObject = { [key: string]: Json };
const version = (schema?: JSONSchemaProps) => compileVersion(cronTab(schema), 'v1');
const obj = (spec: JsonObject, extra: JsonObject = {}): JsonObject =>
  deepFreeze({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a', namespace: 'ns' }, spec, ...extra });

test('unknown fields are pruned and reported as the real decoder reports them', () => {
  const v = version();
  const input = obj({ image: 'x', bogus: 1, ports: [{ name: 'a', extra: true }] }, { metadata: { name: 'a', colour: 'red' }, other: {} });
  const { object, unknown } = v.prune(input);
  assert.equal(unknown, ['metadata.colour', 'other', 'spec.bogus', 'spec.ports[0].extra']);
  assert.equal(object, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a' }, spec: { image: 'x', ports: [{ name: 'a' }] } });
  const clean = obj({ image: 'x' });
  assert.is(v.prune(clean).object, clean, 'an object with nothing to prune is returned as is');
});

test('x-kubernetes-preserve-unknown-fields keeps unknown fields but prunes specified ones', () => {
  const s = cronTabSchema();
  s.properties!.spec = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } };
  const { object, unknown } = version(s).prune(obj({ anything: { goes: [1] }, known: { a: 'x', b: 'y' } }));
  assert.equal(unknown, ['spec.known.b']);
  assert.equal(object.spec, { anything: { goes: [1] }, known: { a: 'x' } });
});

test('nulls of fields neither nullable nor defaulted are dropped; metadata of the wrong type is a 400', () => {
  const s = cronTabSchema();
  (s.properties!.spec!.properties as Record<string, JSONSchemaProps>).opt = { type: 'string', nullable: true };
  const { object } = version(s).prune(obj({ image: null, opt: null, replicas: null }));
  assert.equal(object.spec, { opt: null, replicas: null });
  try {
    version().prune(obj({}, { metadata: { name: 5 } }));
    assert.unreachable('a numeric name must be refused');
  } catch (e) {
    assert.instance(e, StatusError);
    assert.is((e as StatusError).code, 400);
  }
});

test('embedded resources keep type meta, read their metadata as ObjectMeta, and are validated', () => {
  const s = cronTabSchema();
  (s.properties!.spec!.properties as Record<string, JSONSchemaProps>).template = {
    type: 'object',
    'x-kubernetes-embedded-resource': true,
    properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  };
  const v = version(s);
  const { object, unknown } = v.prune(obj({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', junk: 1 }, spec: { x: 1 } } }));
  assert.equal(unknown, ['spec.template.metadata.junk']);
  assert.equal((object.spec as JsonObject).template, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 1 } });
  assert.equal(lines(v.validate(obj({ template: { metadata: { name: 'a/b' } } }))), [
    'spec.template.apiVersion: Required value: must not be empty',
    'spec.template.kind: Required value: must not be empty',
    "spec.template.metadata.name: Invalid value: \"a/b\": may not contain '/'",
  ]);
});

test('defaults apply at every level, in lists and maps, and to non-nullable nulls', () => {
  const s = cronTabSchema();
  const props = s.properties!.spec!.properties as Record<string, JSONSchemaProps>;
  props.ports!.items = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } } };
  props.limits = { type: 'object', additionalProperties: { type: 'object', properties: { max: { type: 'integer', default: 5 } } } };
  props.nested = { type: 'object', default: {}, properties: { inner: { type: 'string', default: 'in' } } };
  const v = version(s);
  const input = obj({ replicas: null, ports: [{ name: 'a' }], limits: { cpu: {} } });
  const out = v.applyDefaults(input);
  assert.equal(out.spec, { replicas: 1, ports: [{ name: 'a', protocol: 'TCP' }], limits: { cpu: { max: 5 } }, nested: { inner: 'in' } });
  assert.equal(input.spec, { replicas: null, ports: [{ name: 'a' }], limits: { cpu: {} } }, 'the input is left as it was');
});

test('type meta must match the version, and alone is reported when wrong', () => {
  const v = version();
  assert.equal(lines(v.validate({ ...obj({ replicas: 'x' }), kind: 'Other', apiVersion: 'stable.example.com/v2' })), [
    'kind: Invalid value: "Other": must be CronTab',
    'apiVersion: Invalid value: "stable.example.com/v2": must be stable.example.com/v1',
  ]);
});

test('list-type set and map duplicates are reported once per value, as the real messages', () => {
  const v = version();
  assert.equal(lines(v.validate(obj({ tags: ['a', 'b', 'a', 'a', 'b'], ports: [{ name: 'x', port: 1 }, { name: 'x', port: 2 }] }))), [
    'spec.tags[2]: Duplicate value: "a"',
    'spec.tags[4]: Duplicate value: "b"',
    'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"x"}',
  ]);
});

test('scale replicas must be a non-negative int32', () => {
  const v = version();
  assert.equal(lines(v.validate(obj({}, { status: { replicas: -1 } }))), ['.status.replicas: Invalid value: -1: should be a non-negative integer']);
});

test('rules run after the schema, not while a blocking error stands; messages and reasons as the real ones', () => {
  const s = cronTabSchema();
  s.properties!.spec!['x-kubernetes-validations'] = [
    { rule: 'self.replicas <= 5', message: 'at most five replicas' },
    { rule: "self.image.startsWith('registry/')", messageExpression: "'image ' + self.image + ' is not from the registry'", reason: 'FieldValueForbidden', fieldPath: '.image' },
  ];
  const v = version(s);
  assert.equal(lines(v.validate(obj({ replicas: 7, image: 'docker.io/x' }))), [
    'spec: Invalid value: "object": at most five replicas',
    'spec.image: Forbidden: image docker.io/x is not from the registry',
  ]);
  assert.equal(lines(v.validate(obj({ replicas: 'seven', image: 'x' }))), [
    'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: seven is of the type string, expected int64',
    ': Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  ]);
  assert.equal(v.validate(obj({ replicas: 3, image: 'registry/x' })), []);
});

test('transition rules compare with the old value, and only on update', () => {
  const s = cronTabSchema();
  s.properties!.spec!['x-kubernetes-validations'] = [{ rule: 'self.replicas >= oldSelf.replicas', message: 'replicas may not decrease' }];
  const v = version(s);
  assert.equal(v.validate(obj({ replicas: 2 })), [], 'no old object: the transition rule does not run');
  assert.equal(lines(v.validate(obj({ replicas: 2 }), obj({ replicas: 3 }))), ['spec: Invalid value: "object": replicas may not decrease']);
});

test('an update ratchets: findings on values it did not change are dropped', () => {
  const s = cronTabSchema();
  (s.properties!.spec!.properties as Record<string, JSONSchemaProps>).image = { type: 'string', maxLength: 3 };
  const v = version(s);
  const old = obj({ image: 'toolong' });
  assert.equal(v.validate(obj({ image: 'toolong', replicas: 2 }), old), [], 'the unchanged image is not held against the update');
  assert.equal(lines(v.validate(obj({ image: 'longer' }), old)), ['spec.image: Too long: may not be more than 3 bytes']);
});

test('status updates validate status by its own schema, its paths under status', () => {
  const v = version();
  assert.equal(lines(v.validateStatus(obj({}, { status: { replicas: 'x' } }), obj({}))), [
    'status.replicas: Invalid value: "string": replicas in body must be of type integer: "string"',
    '.status.replicas: Invalid value: 0: .status.replicas accessor error: x is of the type string, expected int64',
  ]);
});

test.run();
