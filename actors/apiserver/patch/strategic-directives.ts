// The `$`-keys of strategic merge patch, and how patch values that land in the object unmerged
// are cleaned of them.
import type { Json } from '../../api/types.ts';
import { hasKey, isObject, setKey } from './json-value.ts';
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

/**
 * A patch value stored where the object had no value of its kind to merge with, as the real merge
 * stores it: null fields dropped (discardNullValuesFromPatch), then every map carrying `$patch`,
 * whatever its value, dropped (removeDirectives). Other `$` keys stay, and decoding reports them
 * as unknown fields. Undefined: the value itself is dropped. `value` is a private copy, changed in place.
 */
export function inserted(value: Json): Json | undefined {
  discardNulls(value);
  return removeDirectives(value);
}

function discardNulls(value: Json): void {
  if (Array.isArray(value)) for (const item of value) discardNulls(item);
  else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else discardNulls(value[key]!);
    }
  }
}

/** Go's removeDirectives: maps carrying `$patch` go, lists keep their other items. */
export function removeDirectives(value: Json): Json | undefined {
  if (Array.isArray(value)) {
    const out: Json[] = [];
    for (const item of value) {
      const kept = removeDirectives(item);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  if (!isObject(value)) return value;
  if (hasKey(value, DIRECTIVE)) return undefined;
  for (const key of Object.keys(value)) {
    const kept = removeDirectives(value[key]!);
    if (kept === undefined) delete value[key];
    else setKey(value, key, kept);
  }
  return value;
}
