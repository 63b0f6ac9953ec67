// JSON patch (RFC 6902), the `application/json-patch+json` patch type, with the behaviour of the
// library the real apiserver uses (gopkg.in/evanphx/json-patch.v4) where the two differ.
import type { Json } from '../../api/types.ts';
import { copyJson, goJsonKind, hasKey, isObject, jsonEqual, setKey } from './json-value.ts';
import { MAX_NESTING_DEPTH, nestingDepth } from '../validation/nesting.ts';
import { malformedPatch, patchNotApplicable, tooManyOperations } from './patch-errors.ts';

/** apiserver handlers/patch.go maxJSONPatchOperations. */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;
/** apiserver JSONPatchMaxCopyBytes (json-patch v4 AccumulatedCopySizeLimit): what all `copy` ops together may add. */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

type Operation = { [field: string]: Json };
type Container = Json[] | { [key: string]: Json };

/**
 * Applies an RFC 6902 operation list to a copy of `target`.
 *
 * Errors, as the real server reports them:
 * - the body is not an array of objects: 400 BadRequest with Go's decoding message;
 * - more than 10000 operations: 413;
 * - any operation that cannot apply (unknown `op`, missing `path`/`from`, a path that does not
 *   exist, an index out of range, a failed `test`): 422 Invalid with the fixed message
 *   "the server rejected our request due to an error in our request"; so are `copy` ops adding
 *   more than 3 MiB in all (each can double the document: unbounded, thirty of them exhaust memory);
 * - an op placing a value more than MAX_NESTING_DEPTH levels deep: 400 (this server's limit).
 *
 * Like json-patch v4: `replace` of a missing object key adds it, a missing `value` is `null`,
 * negative array indices count from the end, and the empty path (whole document) is not
 * addressable.
 */
export function applyJsonPatch(target: Json, ops: Json): Json {
  const operations = decodeOperations(ops);
  if (operations.length > MAX_JSON_PATCH_OPERATIONS) throw tooManyOperations(MAX_JSON_PATCH_OPERATIONS, operations.length);
  const doc = copyJson(target);
  const copied = { bytes: 0 };
  for (const op of operations) applyOperation(doc, op, copied);
  return doc;
}

function decodeOperations(ops: Json): Operation[] {
  if (ops === null) return []; // Go decodes `null` into an empty patch
  if (!Array.isArray(ops)) throw malformedPatch(`json: cannot unmarshal ${goJsonKind(ops)} into Go value of type jsonpatch.Patch`);
  return ops.map((op) => {
    if (op === null) return {};
    if (!isObject(op)) throw malformedPatch(`json: cannot unmarshal ${goJsonKind(op)} into Go value of type jsonpatch.Operation`);
    return op;
  });
}

function applyOperation(doc: Json, op: Operation, copied: { bytes: number }): void {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  switch (kind) {
    case 'add':
      return add(doc, pathOf(op, 'path', kind), valueOf(op));
    case 'remove':
      return void remove(doc, pathOf(op, 'path', kind), kind);
    case 'replace':
      return replace(doc, pathOf(op, 'path', kind), valueOf(op));
    case 'move': {
      const value = remove(doc, pathOf(op, 'from', kind), kind);
      return add(doc, pathOf(op, 'path', kind), value);
    }
    case 'copy': {
      const from = pathOf(op, 'from', kind);
      const { container, key } = locate(doc, from, `copy operation does not apply: doc is missing from path: ${from}`);
      const value = read(container, key);
      if (value === undefined) throw patchNotApplicable(`copy operation does not apply: doc is missing from path: ${from}`);
      copied.bytes += Buffer.byteLength(JSON.stringify(value));
      if (copied.bytes > MAX_JSON_PATCH_COPY_BYTES)
        throw patchNotApplicable(`Unable to complete the copy, the accumulated size increase of copy is ${copied.bytes}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`);
      return add(doc, pathOf(op, 'path', kind), copyJson(value));
    }
    case 'test':
      return test(doc, pathOf(op, 'path', kind), valueOf(op));
    default:
      throw patchNotApplicable(`Unexpected kind: ${kind}`);
  }
}

function pathOf(op: Operation, field: 'path' | 'from', kind: string): string {
  const p = op[field];
  if (typeof p !== 'string') throw patchNotApplicable(`${kind} operation failed to decode ${field}`);
  return p;
}

const valueOf = (op: Operation): Json => (hasKey(op, 'value') ? copyJson(op.value) : null);

/** The container holding the pointer's last token, and that token decoded (~1 → /, ~0 → ~). */
function locate(doc: Json, pointer: string, missing: string): { container: Container; key: string } {
  const tokens = pointer.split('/');
  if (tokens.length < 2) throw patchNotApplicable(missing);
  let node: Json | undefined = doc;
  for (const token of tokens.slice(1, -1)) {
    node = isContainer(node) ? read(node, unescape(token)) : undefined;
  }
  if (!isContainer(node)) throw patchNotApplicable(missing);
  return { container: node, key: unescape(tokens[tokens.length - 1]) };
}

const isContainer = (v: Json | undefined): v is Container => Array.isArray(v) || isObject(v);
const unescape = (token: string): string => token.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));

function read(container: Container, key: string): Json | undefined {
  if (!Array.isArray(container)) return hasKey(container, key) ? container[key] : undefined;
  const i = arrayIndex(key);
  return i !== undefined && i >= 0 && i < container.length ? container[i] : undefined;
}

function arrayIndex(key: string): number | undefined {
  return /^-?\d+$/.test(key) ? Number(key) : undefined;
}

/**
 * Each op is applied without recursion, but `test` and `copy` walk values recursively: a document
 * deepened op by op would overflow the stack. No op may place a value beyond the nesting limit.
 */
function checkDepthAt(path: string, value: Json): void {
  if (path.split('/').length - 1 + nestingDepth(value) > MAX_NESTING_DEPTH)
    throw malformedPatch(`the patch would nest objects and arrays more than ${MAX_NESTING_DEPTH} levels deep, which this server does not accept`);
}

function add(doc: Json, path: string, value: Json): void {
  checkDepthAt(path, value);
  const { container, key } = locate(doc, path, `add operation does not apply: doc is missing path: "${path}"`);
  if (!Array.isArray(container)) return setKey(container, key, value);
  if (key === '-') return void container.push(value);
  let i = arrayIndex(key);
  if (i === undefined) throw patchNotApplicable(`value was not a proper array index: '${key}'`);
  if (i < 0) i += container.length + 1;
  if (i < 0 || i > container.length) throw patchNotApplicable(`Unable to access invalid index: ${key}`);
  container.splice(i, 0, value);
}

function remove(doc: Json, path: string, kind: string): Json {
  const { container, key } = locate(doc, path, `${kind} operation does not apply: doc is missing path: "${path}"`);
  if (!Array.isArray(container)) {
    if (!hasKey(container, key)) throw patchNotApplicable(`Unable to remove nonexistent key: ${key}`);
    const value = container[key];
    delete container[key];
    return value;
  }
  let i = arrayIndex(key);
  if (i !== undefined && i < 0) i += container.length;
  if (i === undefined || i < 0 || i >= container.length) throw patchNotApplicable(`Unable to access invalid index: ${key}`);
  return container.splice(i, 1)[0];
}

function replace(doc: Json, path: string, value: Json): void {
  checkDepthAt(path, value);
  const { container, key } = locate(doc, path, `replace operation does not apply: doc is missing path: ${path}`);
  if (!Array.isArray(container)) return setKey(container, key, value);
  const i = arrayIndex(key);
  if (i === undefined || i < 0 || i >= container.length) throw patchNotApplicable(`Unable to access invalid index: ${key}`);
  container[i] = value;
}

function test(doc: Json, path: string, expected: Json): void {
  const { container, key } = locate(doc, path, `test operation does not apply: is missing path: ${path}`);
  const actual = read(container, key);
  // A missing member tests equal to null, as in json-patch v4.
  if (!jsonEqual(actual === undefined ? null : actual, expected)) throw patchNotApplicable(`testing value ${path} failed`);
}
