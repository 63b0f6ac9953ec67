import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { StatusError } from '../../../../actors/api/status.ts';
import type { Json } from '../../../../actors/api/types.ts';
import { parseJson, parseYaml } from '../../../../actors/apiserver/codec/json.ts';

function failure(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw new Error(`expected a StatusError, got ${String(e)}`);
  }
  throw new Error('expected a failure');
}

const CORPUS = [
  '{}', '[]', '0', '-0', '1.5', '-12.5e3', '1E+2', '2e-3', '123456789012345678901234567890', '9007199254740993',
  'true', 'false', 'null', '""', '"plain"', ' \t\r\n{ "a" : [ 1 , 2 ] } \n',
  '"\\u00e9\\u4e2d\\ud83d\\ude00 \\" \\\\ \\/ \\b\\f\\n\\r\\t"', '"é中😀 raw"',
  '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":80}]}]}}',
  '[[[[[]]]],{"a":{"b":{"c":[null,true,false,0.25]}}}]', '{"__proto__":{"x":1},"constructor":2}', '{"":""}',
];

test('valid JSON reads exactly as JSON.parse reads it', () => {
  for (const text of CORPUS) {
    const { value, duplicates } = parseJson(text);
    assert.equal(value, JSON.parse(text), text);
    assert.equal(duplicates, [], text);
  }
});

test('a __proto__ key is an own field, not a prototype', () => {
  const { value } = parseJson('{"__proto__":{"polluted":true}}');
  assert.ok(Object.hasOwn(value as object, '__proto__'));
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  assert.is(Object.getPrototypeOf(value), Object.prototype);
});

test('duplicate keys are reported by path and the last value wins', () => {
  const text = '{"spec":{"y":1,"y":2,"containers":[{"name":"a"},{"name":"b","name":"c"}]},"metadata":{"labels":{"a":"1","a":"2","a":"3"}},"kind":"Pod","kind":"Pod"}';
  const { value, duplicates } = parseJson(text);
  assert.equal(duplicates, ['spec.y', 'spec.containers[1].name', 'metadata.labels.a', 'metadata.labels.a', 'kind']);
  const v = value as { spec: { y: number; containers: { name: string }[] }; metadata: { labels: { a: string } } };
  assert.is(v.spec.y, 2);
  assert.is(v.spec.containers[1]?.name, 'c');
  assert.is(v.metadata.labels.a, '3');
});

test('duplicates inside nested arrays carry every index', () => {
  assert.equal(parseJson('[[{"a":1}],[{"b":1,"b":2}]]').duplicates, ['[1][0].b']);
});

const MALFORMED: [string, string][] = [
  ['', 'unexpected end of JSON input'],
  ['   ', 'unexpected end of JSON input'],
  ['x', "invalid character 'x' looking for beginning of value"],
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
  ['[1,]', "invalid character ']' looking for beginning of value"],
  ['{"a" 1}', "invalid character '1' after object key"],
  ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
  ['[1 2]', "invalid character '2' after array element"],
  ['{"a":1}x', "invalid character 'x' after top-level value"],
  ['01', "invalid character '1' after top-level value"],
  ['-', 'unexpected end of JSON input'],
  ['-a', "invalid character 'a' in numeric literal"],
  ['1.x', "invalid character 'x' after decimal point in numeric literal"],
  ['1ex', "invalid character 'x' in exponent of numeric literal"],
  ['trux', "invalid character 'x' in literal true (expecting 'e')"],
  ['nul', 'unexpected end of JSON input'],
  ['"abc', 'unexpected end of JSON input'],
  ['"a\nb"', "invalid character '\\n' in string literal"],
  ['"\\x"', "invalid character 'x' in string escape code"],
  ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
  ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
  ['NaN', "invalid character 'N' looking for beginning of value"],
  ['é', "invalid character '\\xc3' looking for beginning of value"],
  ['[1e400]', 'json: cannot unmarshal number 1e400 into Go value of type float64'],
  ['{"a":[1,{"b":}]}', "invalid character '}' looking for beginning of value"],
];

test('malformed input is a 400 with the message Go would give', () => {
  for (const [text, message] of MALFORMED) {
    const e = failure(() => parseJson(text));
    assert.is(e.code, 400, text);
    assert.is(e.status.reason, 'BadRequest', text);
    assert.is(e.message, message, JSON.stringify(text));
  }
});

test('lone surrogate escapes become U+FFFD, as in Go', () => {
  assert.is(parseJson('"a\\ud800b\\udc00"').value, 'a\ufffdb\ufffd');
  assert.is(parseJson('"\\ud83d\\u0041"').value, '\ufffdA');
});

test('nesting up to 10000 levels is read; deeper is a 400, however deep', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  assert.ok(Array.isArray(parseJson(deep(10_000)).value));
  assert.is(failure(() => parseJson(deep(10_001))).message, "invalid character '[' exceeded max depth");
  assert.is(failure(() => parseJson('{"a":'.repeat(1_000_000))).code, 400);
});

test('a million-element array and a long string read in linear time', () => {
  const started = performance.now();
  const big = `[${'1,'.repeat(999_999)}1]`;
  assert.is((parseJson(big).value as number[]).length, 1_000_000);
  const long = `"${'ab\\n'.repeat(300_000)}"`;
  assert.is((parseJson(long).value as string).length, 900_000);
  assert.ok(performance.now() - started < 5_000);
});

/** mulberry32: a small seeded generator, so a failure replays. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('seeded garbage and mutated documents never throw anything but a 400, and agree with JSON.parse', () => {
  const next = random(20241122);
  const alphabet = ['{', '}', '[', ']', ':', ',', '"', '\\', 'u', '0', '1', '9', '-', '.', 'e', 'E', '+', 't', 'r', 'n', 'a', ' ', '\n', 'x', 'é', '\u0001'];
  const base = CORPUS.filter((t) => t.length > 8);
  for (let i = 0; i < 20_000; i++) {
    let text: string;
    if (i % 2 === 0) {
      const n = Math.floor(next() * 24);
      text = Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    } else {
      const chars = [...(base[Math.floor(next() * base.length)] as string)];
      for (let k = 0; k < 1 + Math.floor(next() * 3); k++) {
        const at = Math.floor(next() * chars.length);
        const op = next();
        if (op < 0.33) chars.splice(at, 1);
        else if (op < 0.66) chars.splice(at, 0, alphabet[Math.floor(next() * alphabet.length)] as string);
        else chars[at] = alphabet[Math.floor(next() * alphabet.length)] as string;
      }
      text = chars.join('');
    }
    let expected: unknown;
    let valid = true;
    try {
      expected = JSON.parse(text);
    } catch {
      valid = false;
    }
    try {
      const { value } = parseJson(text);
      assert.ok(valid, `accepted what JSON.parse rejects: ${JSON.stringify(text)}`);
      if (!/\\u[dD][89a-fA-F]/.test(text)) assert.equal(value, expected, JSON.stringify(text));
    } catch (e) {
      if (!(e instanceof StatusError)) throw new Error(`${JSON.stringify(text)} threw ${String(e)}`);
      assert.is(e.code, 400);
      // The only valid JSON refused: numbers too large for float64.
      if (valid) assert.match(e.message, /cannot unmarshal number/, JSON.stringify(text));
    }
  }
});

test('YAML bodies report duplicate keys by path and keep the last value', () => {
  const { value, duplicates } = parseYaml('apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\nspec:\n  containers:\n  - name: c\n    image: one\n    image: two\n');
  assert.equal(duplicates, ['metadata.name', 'spec.containers[0].image']);
  assert.equal(value, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b' }, spec: { containers: [{ name: 'c', image: 'two' }] } });
});

test('YAML reads scalars as sigs.k8s.io/yaml does: 1.1 booleans, timestamps as strings', () => {
  const { value } = parseYaml('a: yes\nb: off\nc: 2024-01-02T03:04:05Z\nd: "007"\ne: 0777\nf: ~\n');
  assert.equal(value, { a: true, b: false, c: '2024-01-02T03:04:05Z', d: '007', e: 511, f: null });
  assert.equal(parseYaml('{"kind": "Pod", "spec": {"x": [1, 2]}}').value, { kind: 'Pod', spec: { x: [1, 2] } });
});

test('a JSON apply body reads as JSON would, duplicates included', () => {
  const text = '{"kind":"Pod","metadata":{"name":"a","name":"b"},"spec":{"x":[1.5,"y",true,null]}}';
  assert.equal(parseYaml(text), parseJson(text));
  assert.equal(parseYaml(text).duplicates, ['metadata.name']);
  assert.equal(parseYaml('{kind: Pod, spec: {x: [1, y]}}').value, { kind: 'Pod', spec: { x: [1, true] } });
});

test('bad YAML is a 400 naming the line', () => {
  const e = failure(() => parseYaml('a: [1\nb: 2\n'));
  assert.is(e.code, 400);
  assert.match(e.message, /^error converting YAML to JSON: yaml: line \d+: /);
  assert.is(failure(() => parseYaml('a: 1\n---\nb: 2\n')).code, 400);
  assert.is(failure(() => parseYaml('a: .inf\n')).code, 400);
  assert.is(failure(() => parseYaml('a: !!binary aGk=\n')).code, 400);
});

/** Bytes of heap still held, after full collections, by what `read` returns for bodies of 50 KB. */
function heapKept(count: number, read: (i: number, padding: string) => Json): { grown: number; kept: Json[] } {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  const before = process.memoryUsage().heapUsed;
  const padding = 'x'.repeat(50_000);
  const kept: Json[] = [];
  for (let i = 0; i < count; i++) kept.push(read(i, padding));
  gc();
  return { grown: process.memoryUsage().heapUsed - before, kept };
}

test('a string read from a body does not keep the body alive', () => {
  // Each body leaves behind a timestamp, a name, a long and an escaped string, and a key.
  const { grown, kept } = heapKept(2_000, (i, padding) => {
    const text = `{"padding":"${padding}","renewTime":"2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.${i}Z","name":"node-lease-${i}-abcdef",` +
      `"long":"${'y'.repeat(80)}${i}","escaped":"line\\n${i}-0123456789","labels":{"example.com/key-${i}":"v"}}`;
    const { value } = parseJson(text) as { value: { [k: string]: Json } };
    return [value.renewTime, value.name, value.long, value.escaped, value.labels];
  });
  // Holding the bodies would be 100 MB; what is kept is about 1 MB.
  assert.ok(grown < 10e6, `${(grown / 1e6).toFixed(1)} MB`);
  assert.is((kept[7] as string[])[0], '2026-01-01T00:00:07.7Z');
  assert.is((kept[7] as string[])[3], 'line\n7-0123456789');
});

test('a string read from a YAML body does not keep the body alive', () => {
  const { grown, kept } = heapKept(1_000, (i, padding) => {
    const { value } = parseYaml(`padding: ${padding}\nspec:\n  names: [node-lease-${i}-abcdef]\n`) as unknown as { value: { spec: { names: Json[] } } };
    return value.spec.names[0] as Json;
  });
  assert.ok(grown < 10e6, `${(grown / 1e6).toFixed(1)} MB`);
  assert.is(kept[7], 'node-lease-7-abcdef');
});

test.run();
