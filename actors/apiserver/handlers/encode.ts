// Objects and lists to the negotiated representation: JSON, YAML, Protobuf or a Table.
import { stringify as toYaml } from 'yaml';
import { apiVersionOf, type ResourceType } from '../../api/resources.ts';
import { badRequest } from '../../api/status.ts';
import type { KObject, ListMeta } from '../../api/types.ts';
import { encodeProtobuf, supportsProtobuf } from '../codec/protobuf.ts';
import { isLossyAsProtobuf } from '../codec/protobuf-messages.ts';
import { negotiate, PROTOBUF_TYPE, type Output } from '../negotiation.ts';
import type { Query } from '../request.ts';
import { kindOf } from '../registry/kinds/index.ts';
import { tableCells, tableColumns, tableOrder } from '../registry/tables.ts';
import type { ApiResponse } from './response.ts';

export interface EncodeContext {
  type: ResourceType;
  accept: string | undefined;
  query: Query;
  /** Reads (get, list, watch) may be served as a Table; writes may not. */
  read: boolean;
  nowMs: number;
}

export function outputFor(ctx: EncodeContext, kind: string): Output {
  const apiVersion = apiVersionOf(ctx.type);
  const offer = { table: ctx.read && !ctx.type.virtual, protobuf: supportsProtobuf(apiVersion, kind), pretty: ctx.query.bool('pretty') };
  if (offer.protobuf && isLossyAsProtobuf(apiVersion, kind)) {
    try {
      return negotiate(ctx.accept, { ...offer, protobuf: false });
    } catch {
      return negotiate(ctx.accept, offer);
    }
  }
  return negotiate(ctx.accept, offer);
}

function includeObject(query: Query): 'None' | 'Metadata' | 'Object' {
  const v = query.string('includeObject') ?? 'Metadata';
  if (v === '' ) return 'Metadata';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  throw badRequest(`invalid includeObject value ${JSON.stringify(v)}: must be one of None, Metadata, Object`);
}

function rowObject(obj: KObject, mode: 'None' | 'Metadata' | 'Object', tableVersion: string): unknown {
  if (mode === 'None') return null;
  if (mode === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${tableVersion}`, metadata: obj.metadata };
}

export function table(ctx: EncodeContext, items: KObject[], listMeta: ListMeta, version: string, withColumns = true) {
  const mode = includeObject(ctx.query);
  const kind = kindOf(ctx.type);
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${version}`,
    metadata: listMeta,
    columnDefinitions: withColumns ? tableColumns(kind) : null,
    rows: tableOrder(kind, items).map((o) => ({ cells: tableCells(kind, o, ctx.nowMs), object: rowObject(o, mode, version) })),
  };
}

function serialize(value: unknown, out: Output, status: number, headers: Record<string, string | string[]>): ApiResponse {
  switch (out.format) {
    case 'protobuf':
      return { status, headers: { ...headers, 'content-type': PROTOBUF_TYPE }, body: encodeProtobuf(value as KObject) };
    case 'yaml':
      return { status, headers: { ...headers, 'content-type': 'application/yaml' }, body: toYaml(value) };
    case 'table':
      return out.yaml
        ? { status, headers: { ...headers, 'content-type': 'application/yaml' }, body: toYaml(value) }
        : { status, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(value) };
    case 'json':
      return { status, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(value, null, out.pretty ? 2 : undefined) };
  }
}

// Encode once: stored objects never change, so each one's JSON (without apiVersion and kind, as
// list items are written) is computed once and reused by every get and list that returns it.
const encoded = new WeakMap<KObject, string>();

function itemJson(obj: KObject, keep = true): string {
  let json = encoded.get(obj);
  if (json === undefined) {
    const { apiVersion: _a, kind: _k, ...rest } = obj;
    json = JSON.stringify(rest);
    if (keep) encoded.set(obj, json);
  }
  return json;
}

/**
 * An object's JSON with its kind and apiVersion first, from the per-object cache when it has both.
 * `keep` false (the answer to a write) does not add to the cache: a version written and never read
 * would otherwise hold its JSON for as long as the store keeps the version.
 */
export function objectJson(obj: KObject, keep = true): string {
  if (!obj.kind || !obj.apiVersion) return JSON.stringify(obj);
  const rest = itemJson(obj, keep);
  return `{"kind":${JSON.stringify(obj.kind)},"apiVersion":${JSON.stringify(obj.apiVersion)}${rest === '{}' ? '' : `,${rest.slice(1, -1)}`}}`;
}

/**
 * An object's JSON answer, written only when read: a client in this process takes `value`, the
 * object itself, and the JSON is never made (HTTPS and other processes read `body`).
 */
function objectBody(status: number, headers: Record<string, string | string[]>, obj: KObject, keep: boolean): ApiResponse {
  let json: string | undefined;
  return {
    status,
    headers: { ...headers, 'content-type': 'application/json' },
    get body() {
      return (json ??= objectJson(obj, keep));
    },
    value: obj,
  };
}

/**
 * `obj` as the request's version serves it. Objects of a resource served at several versions (a
 * custom resource's, whose conversion is None) are stored at one of them: at another, only their
 * apiVersion differs. A view kind's (events.k8s.io Events) are converted from the kind they are stored as.
 */
export function servedAs(type: ResourceType, obj: KObject): KObject {
  const view = kindOf(type).view;
  // A view kind's objects come from the store as the kind it shows (a watch's events do).
  if (view) return obj.apiVersion === apiVersionOf(view.of) && obj.kind === view.of.kind ? view.fromStored(obj) : obj;
  const apiVersion = apiVersionOf(type);
  return obj.apiVersion === apiVersion || obj.kind !== type.kind ? obj : { ...obj, apiVersion };
}

export function encodeObject(ctx: EncodeContext, stored: KObject, status = 200, headers: Record<string, string | string[]> = {}): ApiResponse {
  const obj = servedAs(ctx.type, stored);
  const out = outputFor(ctx, String(obj.kind ?? ctx.type.kind));
  if (out.format === 'table') return serialize(table(ctx, [obj], { resourceVersion: obj.metadata.resourceVersion }, out.version), out, status, headers);
  if (out.format === 'json' && !out.pretty && obj.kind && obj.apiVersion) return objectBody(status, headers, obj, ctx.read);
  return serialize(obj, out, status, headers);
}

/** Lists carry their items without apiVersion and kind, as real servers send them. */
export function encodeList(ctx: EncodeContext, items: KObject[], meta: ListMeta, status = 200, headers: Record<string, string | string[]> = {}): ApiResponse {
  const kind = `${ctx.type.kind}List`;
  const out = outputFor(ctx, kind);
  if (out.format === 'table') return serialize(table(ctx, items, meta, out.version), out, status, headers);
  const apiVersion = apiVersionOf(ctx.type);
  // Each item a shallow copy without its type: a client in this process shares the rest with the store.
  const stripped = items.map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
  if (out.format === 'json' && !out.pretty) {
    let json: string | undefined;
    return {
      status,
      headers: { ...headers, 'content-type': 'application/json' },
      get body() {
        const head = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(meta)},"items":[`;
        return (json ??= `${head}${items.map((o) => itemJson(o)).join(',')}]}`);
      },
      value: { kind, apiVersion, metadata: meta, items: stripped },
    };
  }
  return serialize({ kind, apiVersion, metadata: meta, items: stripped }, out, status, headers);
}

/** A Status or other non-kind body (success of a delete, an eviction): JSON or Protobuf. */
export function encodeStatus(ctx: EncodeContext, value: KObject | object, status: number, headers: Record<string, string | string[]> = {}): ApiResponse {
  const out = negotiate(ctx.accept, { table: false, protobuf: true, pretty: ctx.query.bool('pretty') });
  return serialize(value, out, status, headers);
}
