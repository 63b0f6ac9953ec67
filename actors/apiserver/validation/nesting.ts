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
  // Containers still to look into, and their depths: two stacks, so nothing is allocated per value.
  const values: object[] = [];
  const depths: number[] = [];
  if (value !== null && typeof value === 'object') {
    values.push(value);
    depths.push(1);
  }
  while (values.length > 0) {
    const v = values.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) break;
    for (const k in v) {
      const child = v[k];
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}

/** A 400 when `value` nests deeper than MAX_NESTING_DEPTH levels. */
export function checkNesting(value: unknown, what: string): void {
  if (nestingDepth(value) > MAX_NESTING_DEPTH)
    throw badRequest(`${what} nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep, which this server does not accept`);
}
