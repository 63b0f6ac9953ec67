// An actor's context as JSON a page can show: plain data as it is; Maps as objects, Sets as
// arrays; functions and the services a host hands its machine (a random stream, a clock) by name
// only; long arrays and deep nesting cut short, saying so. Never throws.

const MAX_DEPTH = 6;
const MAX_ITEMS = 200;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** `value` as JSON-safe data. */
export function contextJson(value: unknown): Json {
  return convert(value, 0, new Set());
}

function convert(value: unknown, depth: number, seen: Set<object>): Json {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'boolean':
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
    case 'symbol':
      return String(value);
  }
  const object = value as object;
  if (seen.has(object)) return '[cycle]';
  if (depth >= MAX_DEPTH) return '[…]';
  seen.add(object);
  try {
    if (Array.isArray(object)) return list(object, depth, seen);
    if (object instanceof Set) return list([...object], depth, seen);
    if (object instanceof Map) return record([...object].map(([k, v]) => [String(k), v]), depth, seen);
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? String(object) : object.toISOString();
    const entries = Object.entries(object);
    // A service the host handed its machine (a random stream, a clock): its functions by name.
    if (entries.length === 0 || entries.every(([, v]) => typeof v === 'function')) {
      const proto = Object.getPrototypeOf(object);
      const name = proto && proto !== Object.prototype ? proto.constructor?.name : undefined;
      if (entries.length > 0 || name) return `[${name ?? 'service'}${entries.length ? `: ${entries.map(([k]) => k).join(', ')}` : ''}]`;
    }
    return record(entries, depth, seen);
  } finally {
    seen.delete(object);
  }
}

function list(items: unknown[], depth: number, seen: Set<object>): Json[] {
  const out = items.slice(0, MAX_ITEMS).map((v) => convert(v, depth + 1, seen));
  if (items.length > MAX_ITEMS) out.push(`[${items.length - MAX_ITEMS} more]`);
  return out;
}

function record(entries: [string, unknown][], depth: number, seen: Set<object>): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [k, v] of entries.slice(0, MAX_ITEMS)) if (typeof v !== 'undefined') out[k] = convert(v, depth + 1, seen);
  if (entries.length > MAX_ITEMS) out['…'] = `${entries.length - MAX_ITEMS} more keys`;
  return out;
}
