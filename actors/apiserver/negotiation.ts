// Content negotiation: which representation a response takes (Accept), and which decoder a
// request body needs (Content-Type). Table is offered only for reads of listable types.
import { notAcceptable, unsupportedMediaType } from '../api/status.ts';

export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';
/** The specification's neutral name for the same media type. */
export const PROTOBUF_ALIAS = 'application/vnd.orchestrator.protobuf';

export type Output =
  | { format: 'json'; pretty: boolean }
  | { format: 'yaml' }
  | { format: 'protobuf' }
  | { format: 'table'; version: 'v1' | 'v1beta1'; yaml: boolean };

interface MediaRange {
  type: string;
  params: Record<string, string>;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [type, ...rest] = part.split(';').map((s) => s.trim());
    if (!type) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim();
      const v = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
      if (k === 'q') q = Number.isFinite(Number(v)) ? Number(v) : 0;
      else params[k] = v;
    }
    if (q > 0) ranges.push({ type: type.toLowerCase(), params, q });
  }
  // Stable: equal q keeps the client's order.
  return ranges.map((r, i) => ({ r, i })).sort((a, b) => b.r.q - a.r.q || a.i - b.i).map((x) => x.r);
}

export interface Offer {
  /** Table is possible: a read (get, list, watch) of a type with a table convertor. */
  table: boolean;
  /** Protobuf is possible for this kind. */
  protobuf: boolean;
  pretty: boolean;
}

const MEDIA_TYPES = [JSON_TYPE, YAML_TYPE, PROTOBUF_TYPE];

/** Picks the response representation; 406 when nothing acceptable is served. */
export function negotiate(accept: string | undefined, offer: Offer): Output {
  // No Accept, or exactly JSON (every in-process client): nothing to parse.
  if (!accept || accept === JSON_TYPE || accept.trim() === '') return { format: 'json', pretty: offer.pretty };
  for (const r of parseAccept(accept)) {
    const as = r.params.as;
    if (as === 'Table') {
      const g = r.params.g;
      const v = r.params.v;
      if (!offer.table || g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) continue;
      if (r.type === JSON_TYPE) return { format: 'table', version: v, yaml: false };
      if (r.type === YAML_TYPE) return { format: 'table', version: v, yaml: true };
      continue;
    }
    if (as !== undefined) continue; // PartialObjectMetadata and others: not served yet
    if (r.type === JSON_TYPE || r.type === '*/*' || r.type === 'application/*') return { format: 'json', pretty: offer.pretty };
    if (r.type === YAML_TYPE) return { format: 'yaml' };
    if ((r.type === PROTOBUF_TYPE || r.type === PROTOBUF_ALIAS) && offer.protobuf) return { format: 'protobuf' };
  }
  throw notAcceptable(offer.protobuf ? MEDIA_TYPES : [JSON_TYPE, YAML_TYPE]);
}

export type BodyFormat = 'json' | 'yaml' | 'protobuf';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** The patch types built-in kinds take, in the order the real server lists them (CBOR apply is off in 1.32). */
const PATCH_TYPES: ReadonlyMap<string, PatchType> = new Map([
  ['application/json-patch+json', 'json'],
  ['application/merge-patch+json', 'merge'],
  ['application/strategic-merge-patch+json', 'strategic'],
  ['application/apply-patch+yaml', 'apply'],
]);

const BODY_TYPES: ReadonlyMap<string, BodyFormat> = new Map([
  [JSON_TYPE, 'json'], [YAML_TYPE, 'yaml'], [PROTOBUF_TYPE, 'protobuf'], [PROTOBUF_ALIAS, 'protobuf'],
]);

// RFC 2045 tokens, as Go's mime package reads them: printable ASCII but for blanks and tspecials.
const TOKEN = String.raw`[!#$%&'*+\-.^_\`|~0-9A-Za-z]+`;
const MEDIA_TYPE = new RegExp(`^${TOKEN}(?:/${TOKEN})?$`);
const PARAMETER = new RegExp(String.raw`^\s*;\s*(${TOKEN})\s*=\s*(?:${TOKEN}|"(?:[^"\\]|\\.)*")`);

/**
 * The media type of a Content-Type as Go's mime.ParseMediaType reads it: lower case, blanks
 * trimmed, parameters checked (a trailing `;` allowed); undefined when it does not parse.
 */
function parseMediaType(value: string): string | undefined {
  const semicolon = value.indexOf(';');
  const type = (semicolon < 0 ? value : value.slice(0, semicolon)).toLowerCase().trim();
  if (!MEDIA_TYPE.test(type)) return undefined;
  let rest = semicolon < 0 ? '' : value.slice(semicolon);
  const names = new Set<string>();
  while (rest.trim() !== '' && rest.trim() !== ';') {
    const m = PARAMETER.exec(rest);
    const name = m?.[1]!.toLowerCase();
    if (!m || names.has(name!)) return undefined;
    names.add(name!);
    rest = rest.slice(m[0].length);
  }
  return type;
}

/**
 * The decoder for a create or update body (NegotiateInputSerializer): a missing Content-Type is
 * the first supported type, JSON; parameters (`; charset=utf-8`) are allowed; else 415, also for
 * Protobuf to a kind that has no Protobuf form (`protobuf` false: custom resources).
 */
export function bodyFormat(contentType: string | undefined, protobuf = true): BodyFormat {
  if (!contentType) return 'json';
  const format = BODY_TYPES.get(parseMediaType(contentType) ?? '');
  if (!format || (format === 'protobuf' && !protobuf)) throw unsupportedMediaType('', protobuf ? MEDIA_TYPES : [JSON_TYPE, YAML_TYPE]);
  return format;
}

/**
 * The patch type of a PATCH (PatchResource): the Content-Type up to its first `;`, exactly (no
 * trimming, no case folding); a missing or unknown one is 415.
 */
export function patchType(contentType: string | undefined): PatchType {
  const value = contentType ?? '';
  const semicolon = value.indexOf(';');
  const type = PATCH_TYPES.get(semicolon > 0 ? value.slice(0, semicolon) : value);
  if (!type) throw unsupportedMediaType('', [...PATCH_TYPES.keys()]);
  return type;
}
