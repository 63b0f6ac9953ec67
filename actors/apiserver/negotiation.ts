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

const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply',
};

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** The decoder for a create or update body. A missing Content-Type is read as JSON, as curl users expect. */
/** A request body's format by its Content-Type; 415 for one the kind does not read (custom resources: no Protobuf). */
export function bodyFormat(contentType: string | undefined, protobuf = true): BodyFormat {
  const t = mediaType(contentType);
  if (t === '' || t === JSON_TYPE) return 'json';
  if (t === YAML_TYPE) return 'yaml';
  if ((t === PROTOBUF_TYPE || t === PROTOBUF_ALIAS) && protobuf) return 'protobuf';
  throw unsupportedMediaType(t, protobuf ? [JSON_TYPE, YAML_TYPE, PROTOBUF_TYPE] : [JSON_TYPE, YAML_TYPE]);
}

export function patchType(contentType: string | undefined): PatchType {
  const t = mediaType(contentType);
  const p = PATCH_TYPES[t];
  if (!p || t === 'application/apply-patch+cbor') throw unsupportedMediaType(t, Object.keys(PATCH_TYPES).filter((k) => !k.endsWith('cbor')));
  return p;
}
