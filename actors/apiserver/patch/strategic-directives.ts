// The `$`-keys of strategic merge patch, and how patch values that land in the object unmerged
// are cleaned of them.
import type { Json } from '../../api/types.ts';
import { isObject, setKey, type JsonObject } from './json-value.ts';
import { malformedPatch } from './patch-errors.ts';

export const DIRECTIVE = '$patch';
export const RETAIN_KEYS = '$retainKeys';
export const SET_ELEMENT_ORDER = '$setElementOrder';
export const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';

/** `$setElementOrder/containers` → `containers`; a malformed key is a 400 with `message`. */
export function directiveField(key: string, prefix: string, message: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw malformedPatch(message);
  return key.slice(slash + 1);
}

const isDirectiveKey = (key: string): boolean =>
  key === DIRECTIVE || key === RETAIN_KEYS || key.startsWith(`${SET_ELEMENT_ORDER}/`) || key.startsWith(`${DELETE_FROM_PRIMITIVE_LIST}/`);

/**
 * A patch value stored where the object had nothing to merge with. The real server stores the
 * raw value and lets decoding into the typed object drop directive keys and null fields; here the
 * object stays JSON, so they are dropped explicitly, along with list items marked for deletion.
 */
export function cleanInserted(value: Json): Json {
  if (Array.isArray(value)) {
    return value.filter((item) => !(isObject(item) && item[DIRECTIVE] === 'delete')).map(cleanInserted);
  }
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (child !== null && !isDirectiveKey(key)) setKey(out, key, cleanInserted(child));
  }
  return out;
}
