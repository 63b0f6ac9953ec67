// What POST customresourcedefinitions answers 422 for, with the real server's paths and words.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { prepareCRDForCreate, validateCRD, validateCRDUpdate, type CustomResourceDefinition, type JSONSchemaProps } from '../../../../actors/apiserver/crd/index.ts';
import { cronTab, cronTabSchema, lines } from './fixtures.ts';

const ROOT = 'spec.validation.openAPIV3Schema';

function withSpecField(name: string, schema: JSONSchemaProps): CustomResourceDefinition {
  const s = cronTabSchema();
  (s.properties!.spec!.properties as Record<string, JSONSchemaProps>)[name] = schema;
  return cronTab(s);
}

test('the documented CronTab is valid', () => {
  assert.equal(validateCRD(cronTab()), []);
});

test('defaulting fills singular, listKind, conversion None and the stored version', () => {
  const crd = cronTab();
  crd.spec.names = { plural: 'crontabs', kind: 'CronTab' };
  delete crd.spec.conversion;
  delete crd.status;
  const d = prepareCRDForCreate(crd);
  assert.equal(d.spec.names, { plural: 'crontabs', kind: 'CronTab', singular: 'crontab', listKind: 'CronTabList' });
  assert.equal(d.spec.conversion, { strategy: 'None' });
  assert.equal(d.status, { storedVersions: ['v1'] });
  assert.equal(validateCRD(d), []);
});

test('metadata.name must be <plural>.<group>, and the group a dotted DNS subdomain', () => {
  const crd = cronTab();
  crd.metadata.name = 'crontab.stable.example.com';
  assert.equal(lines(validateCRD(crd)), ['metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group']);
  const nodot = cronTab();
  nodot.spec.group = 'example';
  nodot.metadata.name = 'crontabs.example';
  assert.equal(lines(validateCRD(nodot)), ['spec.group: Invalid value: "example": should be a domain with at least one dot']);
});

test('scope, names and versions are checked as the real validation words them', () => {
  const crd = cronTab();
  crd.spec.scope = 'Global';
  crd.spec.names.kind = 'Cron_Tab';
  crd.spec.names.shortNames = ['CT'];
  crd.spec.versions.push({ ...crd.spec.versions[0]!, storage: true });
  const got = lines(validateCRD(crd));
  assert.ok(got.includes('spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'), got.join('\n'));
  assert.ok(got.some((l) => l.startsWith('spec.names.kind: Invalid value: "Cron_Tab": may have mixed case, but should otherwise match: a DNS-1035 label must consist of')));
  assert.ok(got.some((l) => l.startsWith('spec.names.shortNames[0]: Invalid value: "CT": a DNS-1035 label')));
  assert.ok(got.some((l) => l.startsWith('spec.versions: Invalid value: ') && l.endsWith('must contain unique version names')));
  assert.ok(got.some((l) => l.endsWith('must have exactly one version marked as storage version')));
});

test('a schema node without a type is not structural', () => {
  const got = lines(validateCRD(withSpecField('x', { properties: { a: { type: 'string' } } })));
  assert.equal(got, [`${ROOT}.properties[spec].properties[x].type: Required value: must not be empty for specified object fields`]);
});

test('inside anyOf only value validations are allowed, and what they name must be specified', () => {
  const got = lines(validateCRD(withSpecField('x', { type: 'object', anyOf: [{ type: 'string', properties: { a: { minLength: 1 } } }] })));
  assert.equal(got, [`${ROOT}.properties[spec].properties[x].anyOf[0].type: Forbidden: must be empty to be structural`]);
  const root = cronTabSchema();
  root.anyOf = [{ properties: { missing: { minLength: 1 } } }];
  const crd = cronTab(root);
  crd.spec.versions[0]!.subresources = undefined;
  assert.equal(lines(validateCRD(crd)), [`${ROOT}.properties[missing]: Required value: because it is defined in ${ROOT}.anyOf[0].properties[missing]`]);
});

test('int-or-string needs no type; its anyOf pattern is accepted', () => {
  const crd = withSpecField('port', { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
  assert.equal(validateCRD(crd), []);
});

test('metadata at the root may restrict only name and generateName', () => {
  const s = cronTabSchema();
  s.properties!.metadata = { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } };
  assert.equal(validateCRD(cronTab(s)), []);
  s.properties!.metadata = { type: 'object', properties: { labels: { type: 'object' } } };
  assert.equal(lines(validateCRD(cronTab(s))), [
    `${ROOT}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
  ]);
});

test('additionalProperties beside properties is refused', () => {
  const got = lines(validateCRD(withSpecField('m', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } })));
  assert.equal(got, [`${ROOT}.properties[spec].properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`]);
});

test('a pattern RE2 cannot compile is reported in Go words', () => {
  const got = lines(validateCRD(withSpecField('p', { type: 'string', pattern: 'a(?=b)' })));
  assert.equal(got, [
    `${ROOT}.properties[spec].properties[p].pattern: Invalid value: "a(?=b)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
  ]);
});

test('defaults must validate against their schema and be pruned', () => {
  // The default's own path in the validator is empty, so the real message has " in body" after the colon.
  const got = lines(validateCRD(withSpecField('n', { type: 'integer', maximum: 5, default: 7 })));
  assert.equal(got, [`${ROOT}.properties[spec].properties[n].default: Invalid value: 7:  in body should be less than or equal to 5`]);
  const unpruned = lines(validateCRD(withSpecField('o', { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', b: 'y' } })));
  assert.equal(unpruned, [`${ROOT}.properties[spec].properties[o].default: Invalid value: map[string]interface {}{"a":"x", "b":"y"}: must not have unknown fields`]);
});

test('defaults are forbidden in top-level metadata', () => {
  const s = cronTabSchema();
  s.properties!.metadata = { type: 'object', properties: { name: { type: 'string', default: 'x' } } };
  assert.ok(lines(validateCRD(cronTab(s))).includes(`${ROOT}.properties[metadata].properties[name].default: Forbidden: must not be set in top-level metadata`));
});

test('list types and their map keys must be consistent', () => {
  const got = lines(
    validateCRD(
      withSpecField('l', {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['id', 'nope'],
        items: { type: 'object', properties: { id: { type: 'string' } } },
      }),
    ),
  );
  const at = `${ROOT}.properties[spec].properties[l]`;
  assert.equal(got, [
    `${at}.x-kubernetes-list-map-keys: Invalid value: []string{"id", "nope"}: entries must all be names of item properties`,
    `${at}.items.properties[id].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
  ]);
  const set = lines(validateCRD(withSpecField('s', { type: 'string', 'x-kubernetes-list-type': 'bag' })));
  assert.equal(set, [
    `${ROOT}.properties[spec].properties[s].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
    `${ROOT}.properties[spec].properties[s].x-kubernetes-list-type: Unsupported value: "bag": supported values: "atomic", "set", "map"`,
  ]);
});

test('uniqueItems, $ref and a null type are refused', () => {
  const got = lines(validateCRD(withSpecField('u', { type: 'array', uniqueItems: true, items: { type: 'string' } })));
  assert.equal(got, [`${ROOT}.properties[spec].properties[u].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`]);
  const ref = lines(validateCRD(withSpecField('r', { $ref: '#/x' })));
  assert.ok(ref.includes(`${ROOT}.properties[spec].properties[r].$ref: Forbidden: $ref is not supported`), ref.join('\n'));
});

test('conversion Webhook is refused with a message naming it', () => {
  const crd = cronTab();
  crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'] } };
  const got = validateCRD(crd);
  assert.is(got.length, 1);
  assert.is(got[0]!.field, 'spec.conversion.strategy');
  assert.match(got[0]!.message!, /"Webhook" is not supported/);
});

test('a rule that does not compile answers with the compile error on its rule', () => {
  const got = lines(validateCRD(withSpecField('v', { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.b > 1' }] })));
  assert.equal(got.length, 1);
  assert.match(got[0]!, /^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[v\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.b > 1"/);
  assert.match(got[0]!, /compilation failed: ERROR: <input>:1:1: undefined field 'b'$/);
  const syntax = lines(validateCRD(withSpecField('w', { type: 'string', 'x-kubernetes-validations': [{ rule: 'self ==' }] })));
  assert.match(syntax[0]!, /compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
});

test('oldSelf is refused where old and new values cannot be correlated', () => {
  const got = lines(
    validateCRD(withSpecField('list', { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } })),
  );
  assert.equal(got, [
    `${ROOT}.properties[spec].properties[list].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${ROOT}.properties[spec].properties[list]`,
  ]);
});

test('per-version schemas that differ are reported under their version', () => {
  const crd = cronTab();
  const v2 = structuredClone(crd.spec.versions[0]!);
  v2.name = 'v2';
  v2.storage = false;
  (v2.schema!.openAPIV3Schema!.properties!.spec!.properties as Record<string, JSONSchemaProps>).x = { properties: {} };
  crd.spec.versions.push(v2);
  assert.equal(lines(validateCRD(crd)), [
    'spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[x].type: Required value: must not be empty for specified object fields',
  ]);
});

test('a version without a schema is refused', () => {
  const crd = cronTab();
  delete crd.spec.versions[0]!.schema;
  assert.equal(lines(validateCRD(crd)), ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
});

test('scale paths must sit under .spec and .status; printer columns need a known type', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.subresources!.scale = { specReplicasPath: '.replicas', statusReplicasPath: 'status.replicas' };
  crd.spec.versions[0]!.additionalPrinterColumns = [{ name: 'X', type: 'float', jsonPath: '.spec.x' }];
  assert.equal(lines(validateCRD(crd)), [
    'spec.subresources.scale.specReplicasPath: Invalid value: ".replicas": should be a json path under .spec',
    'spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .',
    'spec.additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
  ]);
});

test('with the status subresource only some fields may sit at the root of the schema', () => {
  const s = cronTabSchema();
  s.nullable = true;
  const got = lines(validateCRD(cronTab(s)));
  assert.ok(got.some((l) => l.startsWith(`${ROOT}: Invalid value: `) && l.includes('fields are allowed at the root of the schema if the status subresource is enabled')), got.join('\n'));
  assert.ok(got.includes(`${ROOT}.nullable: Forbidden: nullable cannot be true at the root`));
});

test('groups under k8s.io need the API approval annotation', () => {
  const crd = cronTab();
  crd.spec.group = 'things.k8s.io';
  crd.metadata.name = 'crontabs.things.k8s.io';
  assert.equal(lines(validateCRD(crd)), [
    'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
  ]);
  crd.metadata.annotations = { 'api-approved.kubernetes.io': 'unapproved, testing only' };
  assert.equal(validateCRD(crd), []);
});

test('an update may not change the group or the plural', () => {
  const old = cronTab();
  const crd = cronTab();
  crd.spec.names.plural = 'crontabz';
  crd.metadata.name = 'crontabz.stable.example.com';
  assert.ok(lines(validateCRDUpdate(crd, old)).includes('spec.names.plural: Invalid value: "crontabz": field is immutable'));
});

test('bad input of every shape gives causes, never an exception', () => {
  const inputs: unknown[] = [{}, { spec: null }, { spec: { versions: 'v1' } }, { spec: { versions: [null, 1, { name: 5 }] } }, { metadata: {}, spec: { names: 'x', group: 7 } }];
  for (const input of inputs) {
    const got = validateCRD(input as CustomResourceDefinition);
    assert.ok(got.length > 0, JSON.stringify(input));
  }
  const deep: JSONSchemaProps = { type: 'object' };
  let node = deep;
  for (let i = 0; i < 200; i++) {
    node.properties = { a: { type: 'object' } };
    node = node.properties.a!;
  }
  assert.equal(validateCRD(withSpecField('deep', deep)), []);
});

test.run();
