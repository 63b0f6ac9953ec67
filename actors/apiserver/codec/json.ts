// A strict JSON reader (RFC 8259) for request bodies. Unlike JSON.parse it reports every duplicated
// object key by its path (`spec.containers[0].name`), keeping the last value as Go's decoder does, and
// its syntax errors read like Go's encoding/json ones. It never recurses, so hostile nesting cannot
// overflow the stack, and it throws nothing but a 400 StatusError.
import { badRequest } from '../../api/status.ts';
import { shared } from '../../api/shared-strings.ts';
import type { Json } from '../../api/types.ts';

export { parseYaml } from './yaml.ts';

export interface Decoded {
  value: Json;
  /** Paths of duplicated object keys in the order met, one entry per repeat. */
  duplicates: string[];
}

/** Go's maxNestingDepth (encoding/json scanner.go). */
const MAX_DEPTH = 10_000;

const QUOTE = 0x22;
const SIMPLE_ESCAPES: Record<string, string | undefined> = Object.assign(Object.create(null) as object, {
  '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t',
});
const BACKSLASH = 0x5c;

interface Frame {
  array: Json[] | null;
  object: { [key: string]: Json } | null;
  /** The key whose value is being read (objects only). */
  key: string;
}

export function parseJson(text: string): Decoded {
  return new Reader(text).read();
}

/** Go's quoteChar: how a syntax error names the offending byte. */
function quoteChar(text: string, pos: number): string {
  const c = text.charCodeAt(pos);
  if (c === 0x27) return `'\\''`;
  if (c === QUOTE) return `'"'`;
  if (c < 0x20 || c === 0x7f) {
    const named: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };
    return `'${named[c] ?? `\\x${c.toString(16).padStart(2, '0')}`}'`;
  }
  if (c < 0x80) return `'${text[pos]}'`;
  // Go reports the first byte of the UTF-8 sequence.
  const first = Buffer.from(String.fromCodePoint(text.codePointAt(pos) ?? c))[0] ?? 0;
  return `'\\x${first.toString(16).padStart(2, '0')}'`;
}

function setKey(object: { [key: string]: Json }, key: string, value: Json): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

class Reader {
  private pos = 0;
  private readonly stack: Frame[] = [];
  private readonly duplicates: string[] = [];

  constructor(private readonly text: string) {}

  read(): Decoded {
    let value = this.value();
    // Each turn stores one finished value into the innermost container, then either closes that
    // container (which becomes the finished value) or starts the next element.
    for (let frame = this.top(); frame; frame = this.top()) {
      this.store(frame, value);
      this.skipSpace();
      const context = frame.array ? 'after array element' : 'after object key:value pair';
      const c = this.peek();
      this.pos++;
      if (c === (frame.array ? 0x5d : 0x7d)) {
        this.stack.pop();
        value = frame.array ?? (frame.object as { [key: string]: Json });
        continue;
      }
      if (c !== 0x2c) this.fail(context, this.pos - 1);
      if (frame.object) frame.key = this.memberKey();
      value = this.value();
    }
    this.skipSpace();
    if (this.pos < this.text.length) this.fail('after top-level value');
    return { value, duplicates: this.duplicates };
  }

  private top(): Frame | undefined {
    return this.stack[this.stack.length - 1];
  }

  private store(frame: Frame, value: Json): void {
    if (frame.array) {
      frame.array.push(value);
      return;
    }
    const object = frame.object as { [key: string]: Json };
    if (Object.hasOwn(object, frame.key)) this.duplicates.push(this.pathTo(frame.key));
    setKey(object, frame.key, value);
  }

  /**
   * Reads until one value is complete. Opening a non-empty container pushes a frame and moves on to
   * its first element, so what returns is always a scalar or an empty container, and it belongs to
   * the innermost frame.
   */
  private value(): Json {
    for (;;) {
      this.skipSpace();
      const c = this.peek();
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        // Like Go, count the opener being read, even of an empty container.
        if (this.stack.length >= MAX_DEPTH) this.fail('exceeded max depth');
        const closer = c === 0x7b ? 0x7d : 0x5d;
        this.pos++;
        this.skipSpace();
        if (this.peek() === closer) {
          this.pos++;
          return c === 0x7b ? {} : [];
        }
        const frame: Frame = c === 0x5b ? { array: [], object: null, key: '' } : { array: null, object: {}, key: '' };
        this.stack.push(frame);
        if (frame.object) frame.key = this.memberKey();
        continue;
      }
      if (c === QUOTE) return this.string(true);
      if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
      if (c === 0x74) return this.literal('true', true);
      if (c === 0x66) return this.literal('false', false);
      if (c === 0x6e) return this.literal('null', null);
      return this.fail('looking for beginning of value');
    }
  }

  /** Reads `"key"` and the colon after it. */
  private memberKey(): string {
    this.skipSpace();
    if (this.peek() !== QUOTE) this.fail('looking for beginning of object key string');
    // V8 keeps its own single copy of every property name: keys need no sharing.
    const key = this.string(false);
    this.skipSpace();
    if (this.peek() !== 0x3a) this.fail('after object key');
    this.pos++;
    return key;
  }

  /** The dotted path of `key` inside the innermost object, as real servers print it. */
  private pathTo(key: string): string {
    let path = '';
    for (let i = 0; i < this.stack.length - 1; i++) {
      const f = this.stack[i] as Frame;
      if (f.array) path += `[${f.array.length}]`;
      else path += path ? `.${f.key}` : f.key;
    }
    return path ? `${path}.${key}` : key;
  }

  private skipSpace(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  /** The code unit at pos; at the end of input, Go's "unexpected end of JSON input". */
  private peek(): number {
    if (this.pos >= this.text.length) throw badRequest('unexpected end of JSON input');
    return this.text.charCodeAt(this.pos);
  }

  private fail(context: string, at = this.pos): never {
    if (at >= this.text.length) throw badRequest('unexpected end of JSON input');
    throw badRequest(`invalid character ${quoteChar(this.text, at)} ${context}`);
  }

  private literal(word: string, value: Json): Json {
    for (let i = 1; i < word.length; i++) {
      const at = this.pos + i;
      if (at >= this.text.length) throw badRequest('unexpected end of JSON input');
      if (this.text[at] !== word[i]) this.fail(`in literal ${word} (expecting '${word[i]}')`, at);
    }
    this.pos += word.length;
    return value;
  }

  private digits(context: string): void {
    const start = this.pos;
    while (this.pos < this.text.length) {
      const c = this.text.charCodeAt(this.pos);
      if (c < 0x30 || c > 0x39) break;
      this.pos++;
    }
    if (this.pos === start) this.fail(context);
  }

  private number(): number {
    const t = this.text;
    const start = this.pos;
    if (t.charCodeAt(this.pos) === 0x2d) this.pos++;
    if (t.charCodeAt(this.pos) === 0x30) this.pos++;
    else this.digits('in numeric literal');
    if (t.charCodeAt(this.pos) === 0x2e) {
      this.pos++;
      this.digits('after decimal point in numeric literal');
    }
    const e = t.charCodeAt(this.pos);
    if (e === 0x65 || e === 0x45) {
      this.pos++;
      const sign = t.charCodeAt(this.pos);
      if (sign === 0x2b || sign === 0x2d) this.pos++;
      this.digits('in exponent of numeric literal');
    }
    const literal = t.slice(start, this.pos);
    const n = Number(literal);
    if (!Number.isFinite(n)) throw badRequest(`json: cannot unmarshal number ${literal} into Go value of type float64`);
    return n;
  }

  private string(value: boolean): string {
    const t = this.text;
    let p = this.pos + 1;
    let chunkStart = p;
    let out = '';
    for (;;) {
      if (p >= t.length) throw badRequest('unexpected end of JSON input');
      const c = t.charCodeAt(p);
      if (c === QUOTE) break;
      if (c < 0x20) this.fail('in string literal', p);
      if (c !== BACKSLASH) {
        p++;
        continue;
      }
      out += t.slice(chunkStart, p);
      const [text, next] = this.escape(p);
      out += text;
      p = next;
      chunkStart = p;
    }
    this.pos = p + 1;
    const s = out === '' ? t.slice(chunkStart, p) : out + t.slice(chunkStart, p);
    // A value is kept by the object it is read into; a cut of the body must not keep the body alive.
    return value ? shared(s) : s;
  }

  /** Decodes the escape at `p` (a backslash); returns its text and the position after it. */
  private escape(p: number): [string, number] {
    const t = this.text;
    if (p + 1 >= t.length) throw badRequest('unexpected end of JSON input');
    const c = t[p + 1] as string;
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) return [simple, p + 2];
    if (c !== 'u') this.fail('in string escape code', p + 1);
    const unit = this.hex4(p + 2);
    if (unit >= 0xd800 && unit < 0xdc00 && t.charCodeAt(p + 6) === BACKSLASH && t[p + 7] === 'u') {
      const low = this.hex4(p + 8);
      if (low >= 0xdc00 && low < 0xe000) return [String.fromCharCode(unit, low), p + 12];
    }
    // A lone surrogate becomes U+FFFD, as in Go.
    if (unit >= 0xd800 && unit < 0xe000) return ['\ufffd', p + 6];
    return [String.fromCharCode(unit), p + 6];
  }

  private hex4(p: number): number {
    let n = 0;
    for (let i = p; i < p + 4; i++) {
      if (i >= this.text.length) throw badRequest('unexpected end of JSON input');
      const d = parseInt(this.text[i] as string, 16);
      if (Number.isNaN(d)) this.fail('in \\u hexadecimal character escape', i);
      n = n * 16 + d;
    }
    return n;
  }
}
