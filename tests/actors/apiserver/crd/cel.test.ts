// x-kubernetes-validations through @bufbuild/cel: what compiles, what runs, and how failures read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Json } from '../../../../actors/api/types.ts';
import { compileRule } from '../../../../actors/apiserver/cel/compile.ts';
import { compileRules, validateRules } from '../../../../actors/apiserver/cel/validate.ts';
import { toStructural, type JSONSchemaProps, type ValidationRule } from '../../../../actors/apiserver/crd/index.ts';
import { lines } from './fixtures.ts';

const schema = (rules: ValidationRule[]): JSONSchemaProps => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': rules,
      properties: { min: { type: 'integer' }, max: { type: 'integer' }, names: { type: 'array', items: { type: 'string' } }, extra: { type: 'object', additionalProperties: { type: 'string' } } },
    },
  },
});

function run(rules: ValidationRule[], obj: Json, old?: Json) {
  const s = toStructural(schema(rules));
  return lines(validateRules(compileRules(s), s, obj, old));
}

test('the Kubernetes list library and the strings extension are there', () => {
  const rules = [{ rule: 'self.names.isSorted()' }, { rule: "self.names.map(n, n.lowerAscii()).indexOf('b') == 1" }, { rule: '[self.min, self.max].max() == self.max' }];
  assert.equal(run(rules, { spec: { min: 1, max: 3, names: ['a', 'b'] } }), []);
  assert.equal(run(rules, { spec: { min: 1, max: 3, names: ['b', 'a'] } }), ['spec: Invalid value: "object": failed rule: self.names.isSorted()', 'spec: Invalid value: "object": failed rule: self.names.map(n, n.lowerAscii()).indexOf(\'b\') == 1']);
});

test('reasons choose the error type; Duplicate quotes the schema type', () => {
  const rules: ValidationRule[] = [
    { rule: 'self.min < self.max', message: 'min must be below max', reason: 'FieldValueRequired' },
    { rule: 'false', message: 'no', reason: 'FieldValueDuplicate' },
  ];
  assert.equal(run(rules, { spec: { min: 2, max: 1 } }), ['spec: Required value: min must be below max', 'spec: Duplicate value: "object"']);
});

test('a failed messageExpression falls back to the message', () => {
  assert.equal(run([{ rule: 'false', message: 'plain', messageExpression: "self.extra['absent']" }], { spec: { extra: {} } }), ['spec: Invalid value: "object": plain']);
  assert.equal(run([{ rule: 'self.min > 0', message: 'plain', messageExpression: 'string(self.max)' }], { spec: { min: 0 } }), ['spec: Invalid value: "object": plain']);
});

test('evaluation errors read as the real ones', () => {
  assert.equal(run([{ rule: 'self.extra.k == "v"' }], { spec: { extra: {} } }), ['spec: Invalid value: "object": no such key: k evaluating rule: self.extra.k == "v"']);
});

test('names the schema does not declare, unknown functions and optional syntax do not compile', () => {
  const s = toStructural(schema([]));
  const spec = s.properties!.get('spec')!;
  assert.is(compileRule({ rule: 'self.nope > 1' }, spec, false).error, "compilation failed: ERROR: <input>:1:1: undefined field 'nope'");
  assert.is(compileRule({ rule: 'self.min.quantity() > 1' }, spec, false).error, "compilation failed: ERROR: <input>:1:1: undeclared reference to 'quantity' (in container '')");
  assert.is(compileRule({ rule: 'other > 1' }, spec, false).error, "compilation failed: ERROR: <input>:1:1: undeclared reference to 'other' (in container '')");
  assert.match(compileRule({ rule: 'self.?min.orValue(1) > 0' }, spec, false).error ?? '', /^compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
  assert.ok(compileRule({ rule: 'self.extra.anything == "x"' }, spec, false).program, 'map entries may have any key');
  assert.ok(compileRule({ rule: 'self.names.all(n, n.size() > 0)' }, spec, false).program);
  assert.is(compileRule({ rule: 'x'.repeat(70000) }, spec, false).error?.startsWith('compilation failed: ERROR: <input>:1:1: expression is longer than'), true);
});

test('at the resource root, rules see apiVersion, kind and metadata.name', () => {
  const s = toStructural({ type: 'object', 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('ok-') && self.kind == 'Thing'" }], properties: {} });
  const rules = compileRules(s);
  assert.equal(lines(validateRules(rules, s, { kind: 'Thing', metadata: { name: 'ok-1', labels: { a: 'b' } } }, undefined)), []);
  assert.equal(lines(validateRules(rules, s, { kind: 'Thing', metadata: { name: 'bad' } }, undefined)), [
    ": Invalid value: \"object\": failed rule: self.metadata.name.startsWith('ok-') && self.kind == 'Thing'",
  ]);
});

test.run();
