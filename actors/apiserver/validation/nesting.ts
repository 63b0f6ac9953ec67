// How deeply an object in a request may nest. The JSON reader takes Go's 10,000 levels without
// recursion, but the code after it (the YAML composer, schema checks, copies, field sets, encoders)
// recurses, and a JavaScript stack runs out after several hundred to a couple of thousand levels:
// a deeper body would fail with a 500, or be stored and then break every read of it (the YAML
// composer, inside the server, overflowed at about 800). Such bodies are refused up front, 400.
import { badRequest } from '../../api/status.ts';

/** Far above any real object (a pod with its managedFields nests about 15 levels), well below the stack's limit. */
export const MAX_NESTING_DEPTH = 256;

/** Levels of objects and arrays in `value` (a scalar is 0), counted without recursion; stops once past `limit`. */
export function nestingDepth(value: unknown, limit = MAX_NESTING_DEPTH): number {
  let deepest = 0;
  const todo: { v: unknown; depth: number }[] = [{ v: value, depth: 1 }];
  for (let item = todo.pop(); item; item = todo.pop()) {
    if (item.v === null || typeof item.v !== 'object') continue;
    deepest = Math.max(deepest, item.depth);
    if (deepest > limit) break;
    for (const child of Object.values(item.v)) todo.push({ v: child, depth: item.depth + 1 });
  }
  return deepest;
}

/** A 400 when `value` nests deeper than MAX_NESTING_DEPTH levels. */
export function checkNesting(value: unknown, what: string): void {
  if (nestingDepth(value) > MAX_NESTING_DEPTH)
    throw badRequest(`${what} nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep, which this server does not accept`);
}
