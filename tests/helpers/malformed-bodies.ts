// Broken request bodies for the API server fuzzer: JSON no reader accepts, values of the wrong
// type at any path, YAML that does not parse, and Protobuf bytes that are not an envelope. Each
// corruption is certain to be invalid, so a server that accepts one has a bug.
import type { Random } from '../../actors/api/env.ts';
import type { Json } from '../../actors/api/types.ts';
import { utf8 } from './fuzz-fixtures.ts';

/** Draws from one seeded stream; every choice the fuzzer makes goes through here. */
export class Draw {
  constructor(private readonly random: Random) {}

  int(n: number): number {
    return Math.floor(this.random.next() * n);
  }

  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }

  chance(p: number): boolean {
    return this.random.next() < p;
  }

  bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => this.int(256));
  }
}

const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

/** Go's encoding/json refuses deeper documents; so does the server's reader. */
export const MAX_JSON_DEPTH = 10_000;

/** `[[[...]]]`, `depth` levels: balanced, so only the depth is wrong when it exceeds the limit. */
export const nested = (depth: number, leaf = '1'): string => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;

const TRAILING = ['x', '}', ']', ',', '{}', ' 1', '\u0000', ' null', '"', '/* c */', ' {"a":1}'];
const BAD_LITERALS = ['NaN', 'Infinity', '-Infinity', 'undefined', '0x1F', '01', '.5', '+1', '1.', '1e', "'single'", 'True', 'nul', 'tru', '- 1'];
const BAD_UTF8: number[][] = [[0xff], [0xfe], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x80], [0xc0, 0xaf]];
const BAD_ESCAPES = ['\\x41', '\\u12G4', '\\u', '\\', '\\U0001F600', '\\a'];

/**
 * JSON text (an object or array) made unreadable. The corruption is always outside string values or
 * a syntax error inside one, so no decoder that follows RFC 8259 can accept the result.
 */
export function corruptJson(d: Draw, text: string): { how: string; body: Uint8Array } {
  const open = text.indexOf('"');
  switch (d.int(9)) {
    case 0:
      // A proper prefix of an object or array is never a whole document; at least one byte stays.
      return { how: 'truncated', body: utf8(text.slice(0, 1 + d.int(text.length - 1))) };
    case 1:
      return { how: 'trailing-garbage', body: utf8(text + d.pick(TRAILING)) };
    case 2:
      return { how: 'bad-literal', body: utf8(text.replace(/^([{[])/, (c) => (c === '{' ? `{"fuzz":${d.pick(BAD_LITERALS)},` : `[${d.pick(BAD_LITERALS)},`))) };
    case 3:
      return { how: 'trailing-comma', body: utf8(text.replace(/([}\]])$/, ',$1')) };
    case 4:
      // After the opening bracket: between tokens, where no byte but whitespace may appear.
      return { how: 'invalid-utf8', body: concat(utf8(text.slice(0, 1)), Uint8Array.from(d.pick(BAD_UTF8)), utf8(text.slice(1))) };
    case 5:
      return { how: 'bom', body: concat(Uint8Array.of(0xef, 0xbb, 0xbf), utf8(text)) };
    case 6:
      return { how: 'too-deep', body: utf8(nested(MAX_JSON_DEPTH + d.between(1, 2000))) };
    case 7:
      // A raw control character inside the first string.
      return { how: 'control-char', body: utf8(`${text.slice(0, open + 1)}${d.pick(['\u0001', '\n', '\t', '\u001f'])}${text.slice(open + 1)}`) };
    default:
      return { how: 'bad-escape', body: utf8(`${text.slice(0, open + 1)}${d.pick(BAD_ESCAPES)}${text.slice(open + 1)}`) };
  }
}

export type ValueKind = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

export function kindOf(v: Json): ValueKind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v as 'string' | 'number' | 'boolean';
}

const REPLACEMENTS: Json[] = ['x', '', 'Not A Name', 0, 42, -1.5, 1e300, true, false, null, {}, { k: 'v' }, { k: 5 }, [], ['x'], [1, { a: [] }]];

export type Path = (string | number)[];

/** Every path to a value inside `root` (not the root itself), depth first. */
export function pathsOf(root: Json): Path[] {
  const out: Path[] = [];
  const todo: { value: Json; path: Path }[] = [{ value: root, path: [] }];
  for (let item = todo.pop(); item; item = todo.pop()) {
    const { value, path } = item;
    if (path.length > 0) out.push(path);
    if (Array.isArray(value)) value.forEach((v, i) => todo.push({ value: v, path: [...path, i] }));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) todo.push({ value: v, path: [...path, k] });
  }
  return out;
}

export function valueAt(root: Json, path: Path): Json {
  let v: Json = root;
  for (const p of path) v = (v as Record<string | number, Json>)[p] as Json;
  return v;
}

/** A copy of `root` with the value at `path` replaced. */
export function withValueAt(root: Json, path: Path, value: Json): Json {
  const copy = structuredClone(root);
  let v: Json = copy;
  for (const p of path.slice(0, -1)) v = (v as Record<string | number, Json>)[p] as Json;
  (v as Record<string | number, Json>)[path[path.length - 1] as string | number] = value;
  return copy;
}

/** Replaces one value (at a random path `keep` allows) by a value of another JSON type. */
export function wrongTypeAt(d: Draw, root: Json, keep: (path: Path) => boolean): { path: string; value: Json } {
  const candidates = pathsOf(root).filter(keep);
  const path = d.pick(candidates);
  const old = kindOf(valueAt(root, path));
  const options = REPLACEMENTS.filter((r) => kindOf(r) !== old);
  return { path: path.join('.'), value: withValueAt(root, path, d.pick(options)) };
}

/** Apply bodies that no YAML 1.1 reader accepts, or that decode to something other than an object. */
export const BAD_YAML = [
  'a: b: c',
  'metadata: [',
  'metadata: {name: x',
  'kind: "unclosed',
  'apiVersion: v1\n\tkind: Pod',
  '- a\nb: c',
  'a:\n- b\n  c: d',
  '{{}}',
  'key: @reserved',
  '- just\n- a\n- list',
  'just a scalar',
  '42',
  '!!binary AAAA',
  'a: &x [*x]',
  'a: *undefined',
  '---\napiVersion: v1\n---\nkind: Pod\n---',
  `lol: &a ["x","x","x","x","x","x","x","x","x"]\n${Array.from({ length: 8 }, (_, i) => `l${i}: &${String.fromCharCode(98 + i)} [${Array(9).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`).join('\n')}`,
];

/** Protobuf bodies that are not a well-formed envelope: random, prefixed, truncated or bit-flipped. */
export function corruptProtobuf(d: Draw, valid: Uint8Array): { how: string; body: Uint8Array } {
  const magic = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);
  switch (d.int(5)) {
    case 0:
      return { how: 'random', body: d.bytes(d.between(0, 64)) };
    case 1:
      return { how: 'magic-then-random', body: concat(magic, d.bytes(d.between(0, 64))) };
    case 2:
      return { how: 'truncated', body: valid.slice(0, d.int(valid.length)) };
    case 3: {
      const out = valid.slice();
      for (let i = d.between(1, 6); i > 0; i--) {
        const at = 4 + d.int(out.length - 4);
        out[at] = (out[at] as number) ^ (1 << d.int(8));
      }
      return { how: 'bit-flipped', body: out };
    }
    default:
      // A length prefix far beyond the bytes that follow.
      return { how: 'overlong-length', body: concat(magic, Uint8Array.of(0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f), d.bytes(8)) };
  }
}
