// YAML bodies (`application/apply-patch+yaml`), read the way the real server's sigs.k8s.io/yaml does:
// YAML 1.1 scalars (so `yes`, `on` and `y` are booleans and `0777` is octal) with merge keys, except
// that timestamps stay strings. Duplicate keys are reported by path, last value kept; any failure
// is a 400 StatusError.
import { isAlias, isMap, isScalar, isSeq, parseDocument, Parser, type CST, type Tags } from 'yaml';
import { shared } from '../../api/shared-strings.ts';
import { badRequest } from '../../api/status.ts';
import { MAX_NESTING_DEPTH } from '../validation/nesting.ts';
import { isPlainObject, type Json } from '../../api/types.ts';
import { parseJson, type Decoded } from './json.ts';

/** Aliases expanded per document: bounds "billion laughs" bodies. */
const MAX_ALIASES = 100;
const MAX_DEPTH = 10_000;

const OPTIONS = {
  version: '1.1' as const,
  merge: true,
  uniqueKeys: false,
  // go-yaml v2 leaves timestamp-looking scalars as strings when the target is interface{}, and does
  // not read sexagesimal numbers.
  customTags: (tags: Tags): Tags =>
    tags.filter((t) => {
      const tag = typeof t === 'object' && t !== null && 'tag' in t ? String(t.tag) : '';
      const format = typeof t === 'object' && t !== null && 'format' in t ? t.format : undefined;
      return !tag.endsWith(':timestamp') && format !== 'TIME';
    }),
};

export function parseYaml(text: string): Decoded {
  // kubectl sends apply bodies as JSON, which reads the same either way and some thirty times
  // faster as JSON; anything JSON refuses still gets a full YAML reading.
  if (/^\s*[{[]/.test(text)) {
    try {
      return parseJson(text);
    } catch (e) {
      // Too deep as JSON is too deep as YAML: no second, slower reading to find that out.
      if (e instanceof Error && e.message.endsWith('exceeded max depth')) throw e;
      // otherwise not JSON after all: read it as YAML flow syntax below
    }
  }
  checkDepth(text);
  let doc;
  try {
    doc = parseDocument(text, OPTIONS);
  } catch (e) {
    throw badRequest(`error converting YAML to JSON: yaml: ${(e as Error).message}`);
  }
  const error = doc.errors[0];
  if (error) {
    const line = error.linePos?.[0]?.line;
    const message = error.message.split(' at line ')[0] ?? error.message;
    throw badRequest(`error converting YAML to JSON: yaml: ${line ? `line ${line}: ` : ''}${message}`);
  }
  const duplicates = findDuplicates(doc.contents);
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (e) {
    throw badRequest(`error converting YAML to JSON: yaml: ${(e as Error).message}`);
  }
  return { value: toJson(raw), duplicates };
}

/**
 * The YAML library composes documents recursively, and a stack overflow there can land in V8's
 * RegExp compiler, which aborts the whole process instead of throwing. So the nesting is measured
 * first on the library's CST, which it builds without recursion: deep documents never reach the
 * composer.
 */
function checkDepth(text: string): void {
  const todo: { token: CST.Token | undefined; depth: number }[] = [...new Parser().parse(text)].map((token) => ({ token, depth: 0 }));
  for (let item = todo.pop(); item; item = todo.pop()) {
    const { token, depth } = item;
    if (token?.type === 'document') todo.push({ token: token.value, depth });
    if (token?.type !== 'block-map' && token?.type !== 'block-seq' && token?.type !== 'flow-collection') continue;
    if (depth + 1 > MAX_NESTING_DEPTH) throw badRequest('error converting YAML to JSON: yaml: exceeded max depth');
    for (const it of token.items) todo.push({ token: it.key ?? undefined, depth: depth + 1 }, { token: it.value, depth: depth + 1 });
  }
}

function keyText(node: unknown): string {
  if (isScalar(node)) return String(node.value);
  return String(node);
}

/**
 * Walks the syntax tree depth first without recursion, collecting `spec.x` paths of repeated keys.
 * A map's repeats are reported when the map is visited, before those inside its values.
 */
function findDuplicates(root: unknown): string[] {
  const out: string[] = [];
  const todo: { node: unknown; path: string; depth: number }[] = [{ node: root, path: '', depth: 0 }];
  for (let item = todo.pop(); item; item = todo.pop()) {
    const { node, path, depth } = item;
    if (depth > MAX_DEPTH) throw badRequest('error converting YAML to JSON: yaml: exceeded max depth');
    const children: { node: unknown; path: string; depth: number }[] = [];
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (isAlias(pair.key)) continue;
        // go-yaml cannot hash a mapping or sequence as a key; the YAML library would stringify it.
        if (isMap(pair.key) || isSeq(pair.key)) throw badRequest('error converting YAML to JSON: yaml: invalid map key: a mapping or sequence cannot be a key');
        const key = keyText(pair.key);
        if (key === '<<') continue;
        const at = path ? `${path}.${key}` : key;
        if (seen.has(key)) out.push(at);
        seen.add(key);
        children.push({ node: pair.value, path: at, depth: depth + 1 });
      }
    } else if (isSeq(node)) {
      node.items.forEach((child: unknown, i: number) => children.push({ node: child, path: `${path}[${i}]`, depth: depth + 1 }));
    }
    for (let i = children.length - 1; i >= 0; i--) todo.push(children[i] as (typeof children)[number]);
  }
  return out;
}

/**
 * Checks, without recursion, that the YAML produced only JSON values, and gives its strings memory
 * of their own. An alias inside its own anchor (`a: &x [*x]`) comes out of the YAML library as a
 * cycle: refused, as go-yaml does, rather than walked forever. Aliases used twice share a value
 * without a cycle, which is fine.
 */
function toJson(raw: unknown): Json {
  // Each entry is a value to check, or (leave) a container whose children have all been checked.
  const todo: { value: unknown; leave?: boolean }[] = [{ value: raw }];
  const open = new Set<object>();
  for (let item = todo.pop(); item; item = todo.pop()) {
    const v = item.value;
    if (item.leave) {
      open.delete(v as object);
      continue;
    }
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw badRequest(`error converting YAML to JSON: json: unsupported value: ${v}`);
      continue;
    }
    const container = Array.isArray(v) || (isPlainObject(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v)));
    if (!container) {
      const type = v === undefined ? 'undefined' : ((v as object).constructor?.name ?? typeof v);
      throw badRequest(`error converting YAML to JSON: unsupported value of type ${type}`);
    }
    if (open.has(v as object)) throw badRequest('error converting YAML to JSON: yaml: anchor value contains itself');
    open.add(v as object);
    todo.push({ value: v, leave: true });
    for (const [key, child] of Object.entries(v as object)) {
      // Strings cut from the body would keep it alive inside stored objects (shared-strings.ts).
      if (typeof child === 'string') Object.defineProperty(v, key, { value: shared(child), writable: true, enumerable: true, configurable: true });
      else todo.push({ value: child });
    }
  }
  return raw as Json;
}
