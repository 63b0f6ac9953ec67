// YAML bodies (`application/apply-patch+yaml`), read the way the real server's sigs.k8s.io/yaml does:
// YAML 1.1 scalars (so `yes`, `on` and `y` are booleans and `0777` is octal) with merge keys, except
// that timestamps stay strings. Duplicate keys are reported by path, last value kept; any failure
// is a 400 StatusError.
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Tags } from 'yaml';
import { badRequest } from '../../api/status.ts';
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
    } catch {
      // not JSON after all: read it as YAML flow syntax below
    }
  }
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

/** Checks, without recursion, that the YAML produced only JSON values. */
function toJson(raw: unknown): Json {
  const todo: unknown[] = [raw];
  while (todo.length > 0) {
    const v = todo.pop();
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw badRequest(`error converting YAML to JSON: json: unsupported value: ${v}`);
    } else if (Array.isArray(v)) {
      for (const child of v) todo.push(child);
    } else if (isPlainObject(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v))) {
      for (const key in v) todo.push(v[key]);
    } else {
      const type = v === undefined ? 'undefined' : ((v as object).constructor?.name ?? typeof v);
      throw badRequest(`error converting YAML to JSON: unsupported value of type ${type}`);
    }
  }
  return raw as Json;
}
