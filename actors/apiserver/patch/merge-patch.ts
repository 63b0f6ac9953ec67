// JSON merge patch (RFC 7386), the `application/merge-patch+json` patch type.
import type { Json } from '../../api/types.ts';
import { copyJson, hasKey, isObject, setKey, type JsonObject } from './json-value.ts';
import { copyOf } from '../../api/objects.ts';

/**
 * Applies `patch` to `target` per RFC 7386: objects merge key by key, `null` removes a key,
 * anything else (arrays included) replaces. Neither input is mutated; the result shares the
 * subtrees the patch does not touch with `target` (copy on write: a status patch of a pod copies
 * the path to what it changes, not the whole pod), so callers copy it before changing it in place.
 *
 * The server only ever patches objects: a patch body that is `null` or a scalar is rejected by
 * the caller with 400 "Invalid JSON Patch" (evanphx/json-patch MergePatch), and an array body
 * replaces the object, which then fails to decode as the kind (422).
 */
export function applyMergePatch(target: Json, patch: Json): Json {
  // Scalars are values: only arrays need a copy.
  if (!isObject(patch)) return Array.isArray(patch) ? copyJson(patch) : patch;
  // A copy by Object.assign, not a spread: keys the patch adds keep shared hidden classes (objects.ts).
  const out: JsonObject = isObject(target) ? copyOf(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setKey(out, key, applyMergePatch(hasKey(out, key) ? out[key] : null, value));
  }
  return out;
}
