// The kinds of value a component's option takes (seed 001's Type column), each read from the
// command line the way the components' flag library reads it, and from a configuration or scenario
// file, where YAML gives numbers, booleans, lists and mappings. A kind says what it wants when a
// value is not of it; the option's own rule (ranges, allowed values) is checked after.
import { isIP } from 'node:net';
import { formatDuration, parseDuration } from '../duration.ts';
import { parseQuantity } from '../quantity.ts';

export interface Kind<V = unknown> {
  /** As `--help` shows it: `int`, `duration`, `strings`, ... */
  readonly name: string;
  /** From command-line text; throws a RangeError saying what the text should be. */
  parse(text: string): V;
  /** From a file or scenario value (YAML scalars, lists, mappings). */
  read(value: unknown): V;
  /** Whether a value given in code already is of this kind (durations in milliseconds). */
  is(value: unknown): boolean;
  /** As help shows a default, and `--write-config-to` writes it. */
  format(value: V): string;
  /** A later occurrence of a repeatable flag joined to the earlier ones; without it the last wins. */
  merge?(earlier: V, later: V): V;
  /** Given without `=value` (`--leader-elect`, `--version`): this text. */
  readonly bare?: string;
}

const fail = (want: string): never => {
  throw new RangeError(want);
};
/** Scalars of a file read as their text, so one parser serves both. */
function scalarText(value: unknown, want: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fail(want);
}

const BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const BOOL_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function parseBool(text: string): boolean {
  if (BOOL_TRUE.has(text)) return true;
  if (BOOL_FALSE.has(text)) return false;
  return fail('must be true or false');
}

export const bool: Kind<boolean> = {
  name: 'bool', bare: 'true',
  parse: parseBool,
  read: (v) => (typeof v === 'boolean' ? v : parseBool(scalarText(v, 'must be true or false'))),
  is: (v) => typeof v === 'boolean',
  format: String,
};

/** Go's integer syntax with base prefixes (strconv.ParseInt with base 0), within `bits`. */
function integer(bits: 32 | 64): Kind<number> {
  const max = bits === 32 ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
  const min = bits === 32 ? -(2 ** 31) : Number.MIN_SAFE_INTEGER;
  const want = `must be an integer${bits === 32 ? ' (32-bit)' : ''}`;
  const inRange = (n: number) => Number.isInteger(n) && n >= min && n <= max;
  const parse = (text: string): number => {
    const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\d[\d_]*)$/.exec(text);
    if (!m) return fail(want);
    const body = m[2].replace(/_/g, '');
    const n = (m[1] === '-' ? -1 : 1) * Number(/^0\d/.test(body) ? `0o${body.slice(1)}` : body);
    return inRange(n) ? n : fail(`${want}, from ${min} to ${max}`);
  };
  return {
    name: bits === 32 ? 'int32' : 'int', parse,
    read: (v) => (typeof v === 'number' ? (inRange(v) ? v : fail(want)) : parse(scalarText(v, want))),
    is: (v) => typeof v === 'number' && inRange(v),
    format: String,
  };
}
export const int32 = integer(32);
export const int = integer(64);

const FLOAT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
export const float: Kind<number> = {
  name: 'float',
  parse: (text) => (FLOAT.test(text) ? Number(text) : fail('must be a number')),
  read: (v) => (typeof v === 'number' && Number.isFinite(v) ? v : float.parse(scalarText(v, 'must be a number'))),
  is: (v) => typeof v === 'number' && Number.isFinite(v),
  format: String,
};

export const string: Kind<string> = {
  name: 'string',
  parse: (text) => text,
  read: (v) => scalarText(v, 'must be a string'),
  is: (v) => typeof v === 'string',
  format: (v) => v,
};

/** Durations in milliseconds, written `10s`, `5m0s`, `1h0m0s` (Go's syntax; a bare number only for 0). */
export const duration: Kind<number> = {
  name: 'duration',
  parse: (text) => {
    try {
      return parseDuration(text);
    } catch {
      return fail('must be a duration such as 10s, 5m0s or 1h0m0s');
    }
  },
  read: (v) => duration.parse(scalarText(v, 'must be a duration such as 10s, 5m0s or 1h0m0s')),
  is: (v) => typeof v === 'number' && Number.isFinite(v),
  format: formatDuration,
};

/** Go's csv reading of a flag value: fields split on commas, double quotes keep commas in one field. */
export function csvFields(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= text.length) {
    if (text[i] === '"') {
      let field = '';
      i++;
      for (;;) {
        if (i >= text.length) return fail('has an unterminated double quote');
        if (text[i] === '"') {
          if (text[i + 1] === '"') { field += '"'; i += 2; continue; }
          i++;
          break;
        }
        field += text[i++];
      }
      if (i < text.length && text[i] !== ',') return fail('has text after a closing double quote');
      out.push(field);
      i++;
    } else {
      const end = text.indexOf(',', i);
      const stop = end < 0 ? text.length : end;
      const field = text.slice(i, stop);
      if (field.includes('"')) return fail('has a double quote inside an unquoted field');
      out.push(field);
      i = stop + 1;
    }
  }
  return out;
}

/** A list, comma-separated on the command line (repeating the flag adds to it), a YAML list in a file. */
export const strings: Kind<string[]> = {
  name: 'strings',
  parse: (text) => (text === '' ? [] : csvFields(text)),
  read: (v) => (Array.isArray(v) ? v.map((x) => scalarText(x, 'must be a list of strings')) : strings.parse(scalarText(v, 'must be a list of strings'))),
  is: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  format: (v) => `[${v.join(',')}]`,
  merge: (a, b) => [...a, ...b],
};

function mapOf<V>(name: string, value: (text: string, key: string) => V, show: (v: V) => string, fromFile: (v: unknown, key: string) => V): Kind<Record<string, V>> {
  const want = 'must be key=value pairs separated by commas';
  const parse = (text: string): Record<string, V> => {
    const out: Record<string, V> = {};
    if (text.trim() === '') return out;
    for (const pair of csvFields(text)) {
      const eq = pair.indexOf('=');
      if (eq <= 0) return fail(`${want}; ${JSON.stringify(pair)} is not key=value`);
      const key = pair.slice(0, eq).trim();
      out[key] = value(pair.slice(eq + 1).trim(), key);
    }
    return out;
  };
  return {
    name, parse,
    read: (v) => {
      if (typeof v === 'string') return parse(v);
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return fail(`must be a mapping (${want} on the command line)`);
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromFile(x, k)]));
    },
    is: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
    format: (v) => `[${Object.entries(v).map(([k, x]) => `${k}=${show(x)}`).join(',')}]`,
    merge: (a, b) => ({ ...a, ...b }),
  };
}

/** `key=value,...` of strings. */
export const stringMap = mapOf<string>('mapStringString', (t) => t, (v) => v, (v, k) => scalarText(v, `${k} must be a string`));
/** `Name=true,Other=false` (feature gates). */
function gateValue(text: string, key: string): boolean {
  try {
    return parseBool(text);
  } catch {
    return fail(`the value of ${key} must be true or false, got ${JSON.stringify(text)}`);
  }
}
export const boolMap = mapOf<boolean>('mapStringBool', gateValue, String, (v, k) => (typeof v === 'boolean' ? v : gateValue(scalarText(v, `${k} must be true or false`), k)));

/** A quantity such as `100Mi` or `0.5`, kept as written. */
export const quantity: Kind<string> = {
  name: 'quantity',
  parse: (text) => {
    try {
      parseQuantity(text);
      return text;
    } catch {
      return fail('must be a quantity such as 100Mi, 2Gi, 500m or 3');
    }
  },
  read: (v) => quantity.parse(scalarText(v, 'must be a quantity')),
  is: (v) => typeof v === 'string',
  format: (v) => v,
};

/** An IPv4 or IPv6 address. */
export const ip: Kind<string> = {
  name: 'ip',
  parse: (text) => (isIP(text) ? text : fail('must be an IPv4 or IPv6 address')),
  read: (v) => ip.parse(scalarText(v, 'must be an IP address')),
  is: (v) => typeof v === 'string',
  format: (v) => v,
};

export function checkCidr(text: string): string | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return `${JSON.stringify(text)} is not a CIDR (address/bits)`;
  const family = isIP(text.slice(0, slash));
  const bits = text.slice(slash + 1);
  if (!family || !/^\d+$/.test(bits) || Number(bits) > (family === 4 ? 32 : 128)) return `${JSON.stringify(text)} is not a CIDR (address/bits)`;
  return undefined;
}

/** Comma-separated CIDRs. */
export const cidrs: Kind<string[]> = {
  name: 'cidrs',
  parse: (text) => {
    const list = text === '' ? [] : text.split(',').map((s) => s.trim());
    for (const c of list) {
      const bad = checkCidr(c);
      if (bad) fail(`must be CIDRs such as 10.0.0.0/8; ${bad}`);
    }
    return list;
  },
  read: (v) => cidrs.parse(Array.isArray(v) ? v.join(',') : scalarText(v, 'must be a list of CIDRs')),
  is: (v) => Array.isArray(v),
  format: (v) => v.join(','),
};

/** A port range: `30000-32767`, `30000+2768` (base and size) or one port. */
export interface PortRange {
  base: number;
  size: number;
}
export const portRange: Kind<PortRange> = {
  name: 'portRange',
  parse: (text) => {
    const m = /^(\d+)(?:([-+])(\d+))?$/.exec(text.trim());
    if (!m) return fail('must be a port range N1-N2 (inclusive), N+size or a port');
    const base = Number(m[1]);
    const size = m[2] === undefined ? 1 : m[2] === '+' ? Number(m[3]) : Number(m[3]) - base + 1;
    if (base > 65535 || size < 1 || base + size - 1 > 65535) return fail('must be a port range within 0-65535 whose end is not below its start');
    return { base, size };
  },
  read: (v) => portRange.parse(scalarText(v, 'must be a port range such as 30000-32767')),
  is: (v) => v !== null && typeof v === 'object' && 'base' in (v as object),
  format: (v) => (v.size === 1 ? String(v.base) : `${v.base}-${v.base + v.size - 1}`),
};

/** `pattern=N,...`: per-file log verbosity. */
export const vmodule: Kind<{ pattern: string; level: number }[]> = {
  name: 'pattern=N,...',
  parse: (text) => {
    if (text.trim() === '') return [];
    return text.split(',').map((part) => {
      const m = /^([^=]+)=(\d+)$/.exec(part.trim());
      if (!m) return fail(`must be pattern=N entries separated by commas, with N a non-negative integer; ${JSON.stringify(part)} is not`);
      return { pattern: m[1], level: Number(m[2]) };
    });
  },
  read: (v) => vmodule.parse(Array.isArray(v) ? v.map((e) => (typeof e === 'object' && e ? `${(e as { filePattern?: string }).filePattern}=${(e as { verbosity?: number }).verbosity}` : String(e))).join(',') : scalarText(v, 'must be pattern=N entries')),
  is: (v) => Array.isArray(v),
  format: (v) => v.map((e) => `${e.pattern}=${e.level}`).join(','),
};

/** `--version`, `--version=true`, `--version=raw`, `--version=false`. */
export const versionFlag: Kind<'false' | 'true' | 'raw'> = {
  name: 'version[=true]', bare: 'true',
  parse: (text) => {
    if (text === 'raw') return 'raw';
    try {
      return parseBool(text) ? 'true' : 'false';
    } catch {
      return fail('must be true, false or raw');
    }
  },
  read: (v) => versionFlag.parse(scalarText(v, 'must be true, false or raw')),
  is: (v) => v === 'true' || v === 'false' || v === 'raw',
  format: (v) => v,
};

/** One of a fixed set of strings. */
export function oneOf<const T extends string>(...values: T[]): Kind<T> {
  const want = `must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  const parse = (text: string): T => ((values as string[]).includes(text) ? (text as T) : fail(want));
  return { name: 'string', parse, read: (v) => parse(scalarText(v, want)), is: (v) => (values as unknown[]).includes(v), format: (v) => v };
}

/** One `--tls-sni-cert-key`: a certificate and key file, with the domain patterns they serve. */
export interface NamedCertKey {
  certFile: string;
  keyFile: string;
  names: string[];
}
const CERT_KEY_WANT = 'must be certfile,keyfile optionally followed by :domain,domain (for example foo.crt,foo.key:*.foo.com,foo.com)';
function parseCertKey(text: string): NamedCertKey {
  const colon = text.indexOf(':');
  const files = (colon < 0 ? text : text.slice(0, colon)).split(',').map((s) => s.trim());
  if (files.length !== 2 || !files[0] || !files[1]) return fail(CERT_KEY_WANT);
  const names = colon < 0 ? [] : text.slice(colon + 1).split(',').map((s) => s.trim()).filter((s) => s !== '');
  return { certFile: files[0], keyFile: files[1], names };
}
/** `certfile,keyfile[:domain,...]`, repeatable: each occurrence adds a pair. */
export const namedCertKeys: Kind<NamedCertKey[]> = {
  name: 'namedCertKey',
  parse: (text) => [parseCertKey(text)],
  read: (v) => (Array.isArray(v) ? v.map((x) => parseCertKey(scalarText(x, CERT_KEY_WANT))) : [parseCertKey(scalarText(v, CERT_KEY_WANT))]),
  is: (v) => Array.isArray(v) && v.every((x) => x !== null && typeof x === 'object' && 'certFile' in x && 'keyFile' in x),
  format: (v) => `[${v.map((c) => `${c.certFile},${c.keyFile}${c.names.length ? `:${c.names.join(',')}` : ''}`).join(' ')}]`,
  merge: (a, b) => [...a, ...b],
};
