// How server-side apply combines an applied configuration with the live object, and removes
// the fields its manager stopped applying (structured-merge-diff's typed Merge and RemoveItems).
import type { Json } from '../../api/types.ts';
import type { Path } from './field-set.ts';
import { copyJson, hasKey, isObject, setKey, type JsonObject } from './json-value.ts';
import { childShape, granular, itemElement } from './object-fields.ts';
import type { Shape } from './shape.ts';

/**
 * The live value with the configuration merged in: objects field by field, associative lists
 * and sets item by item, everything else replaced. Undefined means "no value" (a scalar applied
 * as null). Inputs are not changed.
 */
export function mergeApplied(live: Json | undefined, config: Json | undefined, shape: Shape): Json | undefined {
  if (config === undefined) return live === undefined ? undefined : copyJson(live);
  if (config === null) {
    // A null container changes nothing; a null scalar unsets the field.
    const container = shape.kind === 'struct' || shape.kind === 'map' || shape.kind === 'list';
    return container && live !== undefined ? copyJson(live) : undefined;
  }
  const gl = granular(live, shape);
  const gc = granular(config, shape);
  if (!gl || !gc || gl.kind !== gc.kind) return withoutNulls(config);
  if (gc.kind === 'object') {
    const out = copyJson(live as JsonObject);
    for (const [key, value] of Object.entries(config as JsonObject)) {
      const merged = mergeApplied(hasKey(out, key) ? out[key] : undefined, value, childShape(shape, `f:${key}`));
      if (merged === undefined) delete out[key];
      else setKey(out, key, merged);
    }
    return out;
  }
  return mergeItems(gl.entries, gc.entries, shape);
}

// Items the configuration names appear in its order; items only the live list has stay after
// the live item they followed.
function mergeItems(live: Map<string, Json>, config: Map<string, Json>, shape: Shape): Json[] {
  const configOrder = [...config.keys()];
  const out: Json[] = [];
  let next = 0;
  const emitConfigUpTo = (end: number): void => {
    for (; next <= end && next < configOrder.length; next++) {
      const element = configOrder[next];
      const merged = mergeApplied(live.get(element), config.get(element), childShape(shape, element));
      if (merged !== undefined) out.push(merged);
    }
  };
  for (const [element, item] of live) {
    const position = configOrder.indexOf(element);
    if (position < 0) out.push(copyJson(item));
    else emitConfigUpTo(position);
  }
  emitConfigUpTo(configOrder.length - 1);
  return out;
}

function withoutNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) if (child !== null) setKey(out, key, withoutNulls(child));
  return out;
}

/** Removes the value at each path (and everything under it) from `root`, in place. */
export function removePaths(root: JsonObject, paths: Path[], shape: Shape): void {
  for (const path of paths) removePath(root, path, shape);
}

function removePath(node: Json, path: Path, shape: Shape): void {
  const [element, ...rest] = path;
  const child = childShape(shape, element);
  if (isObject(node) && element.startsWith('f:')) {
    const key = element.slice(2);
    if (!hasKey(node, key)) return;
    if (rest.length > 0) removePath(node[key], rest, child);
    else delete node[key];
  } else if (Array.isArray(node) && shape.kind === 'list') {
    const i = node.findIndex((item, n) => itemElement(item, n, shape.rule) === element);
    if (i < 0) return;
    if (rest.length > 0) removePath(node[i], rest, child);
    else node.splice(i, 1);
  }
}
