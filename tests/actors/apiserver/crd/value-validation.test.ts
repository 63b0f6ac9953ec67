// Custom objects against their version's schema: kube-openapi's findings converted to the causes
// of the real Invalid Status (paths, reasons, and Go's printing of the bad value).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileValue, validateValue } from '../../../../actors/apiserver/crd/value-validator.ts';
import { toCauses } from '../../../../actors/apiserver/crd/openapi-errors.ts';
import type { JSONSchemaProps } from '../../../../actors/apiserver/crd/index.ts';
import type { Json } from '../../../../actors/api/types.ts';

const check = (schema: JSONSchemaProps, value: Json) => toCauses('', validateValue(compileValue(schema), value));
const spec = (props: Record<string, JSONSchemaProps>, required?: string[]): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: props, ...(required ? { required } : {}) } },
});
const one = (schema: JSONSchemaProps, value: Json) => check(schema, value).map((c) => [c.reason, c.field, c.message]);

test('a value of the wrong type is FieldValueTypeInvalid naming the JSON type', () => {
  assert.equal(one(spec({ replicas: { type: 'integer' } }), { spec: { replicas: 'three' } }), [
    ['FieldValueTypeInvalid', 'spec.replicas', 'Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
  ]);
  assert.equal(one(spec({ on: { type: 'boolean' } }), { spec: { on: 1.5 } }), [
    ['FieldValueTypeInvalid', 'spec.on', 'Invalid value: "number": spec.on in body must be of type boolean: "number"'],
  ]);
});

test('integral numbers are integers, integers are numbers', () => {
  assert.equal(check(spec({ n: { type: 'integer' }, f: { type: 'number' } }), { spec: { n: 3.0, f: 3 } }), []);
});

test('null is refused unless nullable', () => {
  assert.equal(one(spec({ n: { type: 'integer' } }), { spec: { n: null } }), [
    ['FieldValueTypeInvalid', 'spec.n', 'Invalid value: "null": spec.n in body must be of type integer: "null"'],
  ]);
  assert.equal(check(spec({ n: { type: 'integer', nullable: true } }), { spec: { n: null } }), []);
});

test('bounds: minimum, maximum, exclusive, multipleOf, with Go numbers', () => {
  const s = spec({ a: { type: 'integer', minimum: 2, maximum: 10000000, exclusiveMaximum: true }, b: { type: 'number', multipleOf: 0.5 }, c: { type: 'number', maximum: 1e7 } });
  assert.equal(one(s, { spec: { a: 1, b: 0.75, c: 20000000.5 } }), [
    ['FieldValueInvalid', 'spec.a', 'Invalid value: 1: spec.a in body should be greater than or equal to 2'],
    ['FieldValueInvalid', 'spec.b', 'Invalid value: 0.75: spec.b in body should be a multiple of 0.5'],
    ['FieldValueInvalid', 'spec.c', 'Invalid value: 2.00000005e+07: spec.c in body should be less than or equal to 1e+07'],
  ]);
  // An integral value is Go's int64: the bound is truncated to an integer and printed whole.
  assert.equal(one(s, { spec: { c: 2e7 } }), [
    ['FieldValueInvalid', 'spec.c', 'Invalid value: 20000000: spec.c in body should be less than or equal to 10000000'],
  ]);
  assert.equal(one(s, { spec: { a: 10000000 } })[0], ['FieldValueInvalid', 'spec.a', 'Invalid value: 10000000: spec.a in body should be less than 10000000']);
  assert.equal(check(spec({ r: { type: 'number', multipleOf: 0.1 } }), { spec: { r: 0.3 } }), [], '0.3 is a multiple of 0.1 within float error');
});

test('strings: length in runes, pattern, and formats the server keeps', () => {
  const s = spec({ name: { type: 'string', maxLength: 3 }, code: { type: 'string', minLength: 2, pattern: '^[a-z]+$' }, when: { type: 'string', format: 'date-time' }, id: { type: 'string', format: 'uuid' }, n: { type: 'string', format: 'int32' } });
  assert.equal(check(s, { spec: { name: 'ééé' } }), [], 'three runes fit maxLength 3');
  assert.equal(one(s, { spec: { name: 'abcd', code: 'A', when: 'yesterday', id: 'x', n: 'not a number' } }), [
    ['FieldValueTooLong', 'spec.name', 'Too long: may not be more than 3 bytes'],
    ['FieldValueInvalid', 'spec.code', 'Invalid value: "A": spec.code in body should be at least 2 chars long'],
    ['FieldValueTypeInvalid', 'spec.when', 'Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"'],
    ['FieldValueTypeInvalid', 'spec.id', 'Invalid value: "x": spec.id in body must be of type uuid: "x"'],
  ]);
  assert.equal(one(s, { spec: { code: 'AB' } }), [['FieldValueInvalid', 'spec.code', `Invalid value: "AB": spec.code in body should match '^[a-z]+$'`]]);
  assert.equal(check(s, { spec: { when: '2026-01-02T03:04:05Z', id: '123e4567-e89b-12d3-a456-426614174000' } }), []);
});

test('enum answers Unsupported value with the supported values', () => {
  assert.equal(one(spec({ mode: { type: 'string', enum: ['Fast', 'Slow'] }, level: { type: 'integer', enum: [1, 2] } }), { spec: { mode: 'Medium', level: 3 } }), [
    ['FieldValueNotSupported', 'spec.mode', 'Unsupported value: "Medium": supported values: "Fast", "Slow"'],
    ['FieldValueNotSupported', 'spec.level', 'Unsupported value: 3: supported values: "1", "2"'],
  ]);
});

test('lists and maps: item counts, property counts, required fields', () => {
  const s = spec({ items: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string' } }, m: { type: 'object', maxProperties: 1, additionalProperties: { type: 'integer' } } }, ['name']);
  assert.equal(one(s, { spec: { items: [], m: { a: 1, b: 'x' } } }), [
    ['FieldValueInvalid', 'spec.items', 'Invalid value: 0: spec.items in body should have at least 1 items'],
    ['FieldValueTooMany', 'spec.m', 'Too many: 2: must have at most 1 items'],
    ['FieldValueTypeInvalid', 'spec.m.b', 'Invalid value: "string": spec.m.b in body must be of type integer: "string"'],
    ['FieldValueRequired', 'spec.name', 'Required value'],
  ]);
  assert.equal(one(s, { spec: { name: 'x', items: ['a', 'b', 'c'] } }), [['FieldValueTooMany', 'spec.items', 'Too many: 3: must have at most 2 items']]);
});

test('int-or-string accepts both and refuses the rest', () => {
  const s = spec({ port: { 'x-kubernetes-int-or-string': true } });
  assert.equal(check(s, { spec: { port: 80 } }), []);
  assert.equal(check(s, { spec: { port: 'http' } }), []);
  assert.equal(one(s, { spec: { port: true } }), [['FieldValueTypeInvalid', 'spec.port', 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"']]);
});

test('anyOf, oneOf, allOf and not report as kube-openapi does', () => {
  const s = spec({ x: { type: 'string', anyOf: [{ pattern: '^a' }, { pattern: '^b' }] }, y: { type: 'integer', oneOf: [{ minimum: 0 }, { maximum: 10 }] }, z: { type: 'string', not: { pattern: '^z' } } });
  assert.equal(one(s, { spec: { x: 'c', y: 5, z: 'zed' } }), [
    ['FieldValueInvalid', '', 'Invalid value: "": "spec.x" must validate at least one schema (anyOf)'],
    ['FieldValueInvalid', 'spec.x', `Invalid value: "c": spec.x in body should match '^a'`],
    ['FieldValueInvalid', '', 'Invalid value: "": "spec.y" must validate one and only one schema (oneOf). Found 2 valid alternatives'],
    ['FieldValueInvalid', '', 'Invalid value: "": "spec.z" must not validate the schema (not)'],
  ]);
  assert.equal(check(s, { spec: { x: 'b', y: -1, z: 'a' } }), []);
});

test('one compiled validator serves many objects; deep and large objects do not crash it', () => {
  const node = compileValue(spec({ items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer', minimum: 0 } } } } }));
  const items = Array.from({ length: 20000 }, (_, i) => ({ n: i % 1000 === 0 ? -1 : i, extra: { deep: [1, 2, 3] } }));
  const found = validateValue(node, { spec: { items } });
  assert.is(found.length, 20);
  let deep: Json = 1;
  for (let i = 0; i < 5000; i++) deep = [deep];
  assert.equal(validateValue(node, { spec: { items: [{ n: 1, other: deep }] } }), []);
});

test.run();
