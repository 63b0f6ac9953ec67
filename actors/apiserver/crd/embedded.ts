// Metadata of the resource and of x-kubernetes-embedded-resource values (apiextensions
// pkg/apiserver/schema/objectmeta): at decode time the metadata is read as ObjectMeta (its unknown
// fields reported and dropped, a field of the wrong type refusing the body), apiVersion and kind
// must be strings; at validation time an embedded resource needs apiVersion and kind, and its
// metadata follows ObjectMeta's rules with names as path segments.
import { badRequest, type StatusCause } from '../../api/status.ts';
import { isPlainObject, type Json } from '../../api/types.ts';
import { validateAnnotations, validateFinalizers, validateGenerateName, validateLabels, validateName } from '../validation/names.ts';
import { checkModel } from '../validation/schema.ts';
import { child, index, invalid, key, required } from './field-errors.ts';
import type { Structural } from './structural.ts';

type JsonObject = { [key: string]: Json };

/**
 * Reads `metadata` as ObjectMeta: returns it without unknown fields (which go to `unknown` as
 * `<path>.metadata.<field>`); throws 400 with Go's decoding message when a field has the wrong type.
 */
export function coerceMetadata(metadata: Json, path: string, unknown: string[]): Json {
  const report = checkModel('V1ObjectMeta', metadata);
  const first = report.typeErrors[0];
  if (first) {
    const message = first.message ?? 'invalid metadata';
    throw badRequest(path ? `${child(path, 'metadata')}: Invalid value: ${JSON.stringify(metadata)}: ${message}` : message);
  }
  const prefix = child(path, 'metadata');
  for (const u of report.unknown) unknown.push(`${prefix}.${u}`);
  return report.pruned;
}

/** objectmeta.Coerce below the root: each embedded resource's type meta and metadata. */
export function coerceEmbedded(value: Json, s: Structural | undefined, path: string, unknown: string[]): Json {
  if (!s) return value;
  if (Array.isArray(value)) {
    let out: Json[] | null = null;
    value.forEach((item, i) => {
      const next = coerceEmbedded(item, s.items, index(path, i), unknown);
      if (next !== item) (out ??= value.slice())[i] = next;
    });
    return out ?? value;
  }
  if (!isPlainObject(value)) return value;
  let obj = value as JsonObject;
  if (s.embeddedResource) obj = coerceTypeMeta(obj, path, unknown);
  let out: JsonObject | null = null;
  for (const k in obj) {
    const prop = s.properties?.get(k);
    const schema = prop ?? s.additionalProperties?.schema;
    if (!prop && !s.additionalProperties) continue;
    const v = obj[k] as Json;
    const next = coerceEmbedded(v, schema, prop ? child(path, k) : key(path, k), unknown);
    if (next !== v) (out ??= { ...obj })[k] = next;
  }
  return out ?? obj;
}

function coerceTypeMeta(obj: JsonObject, path: string, unknown: string[]): JsonObject {
  for (const k of ['apiVersion', 'kind']) {
    if (Object.hasOwn(obj, k) && typeof obj[k] !== 'string') {
      throw badRequest(`${child(path, k)}: Invalid value: ${JSON.stringify(obj[k])}: must be a string`);
    }
  }
  if (!Object.hasOwn(obj, 'metadata')) return obj;
  const metadata = coerceMetadata(obj.metadata as Json, path, unknown);
  const out = { ...obj, metadata };
  if (isPlainObject(metadata) && (metadata as JsonObject).creationTimestamp === null) {
    const { creationTimestamp: _, ...rest } = metadata as JsonObject;
    out.metadata = rest;
  }
  return out;
}

/** objectmeta.Validate from the root (not itself checked): every embedded resource below it. */
export function validateEmbedded(value: Json, s: Structural | undefined, path: string, out: StatusCause[]): void {
  if (!s) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => validateEmbedded(item, s.items, index(path, i), out));
    return;
  }
  if (!isPlainObject(value)) return;
  const obj = value as JsonObject;
  if (s.embeddedResource && path !== '') validateResource(obj, path, out);
  for (const k in obj) {
    const prop = s.properties?.get(k);
    if (prop) validateEmbedded(obj[k] as Json, prop, child(path, k), out);
    else if (s.additionalProperties) validateEmbedded(obj[k] as Json, s.additionalProperties.schema, key(path, k), out);
  }
}

const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function validateResource(obj: JsonObject, path: string, out: StatusCause[]): void {
  if (!Object.hasOwn(obj, 'apiVersion')) out.push(required(child(path, 'apiVersion'), 'must not be empty'));
  if (!Object.hasOwn(obj, 'kind')) out.push(required(child(path, 'kind'), 'must not be empty'));
  const apiVersion = obj.apiVersion;
  if (Object.hasOwn(obj, 'apiVersion')) {
    if (typeof apiVersion !== 'string') out.push(invalid(child(path, 'apiVersion'), apiVersion, 'must be a string'));
    else if (apiVersion === '') out.push(invalid(child(path, 'apiVersion'), apiVersion, 'must not be empty'));
    else if (apiVersion.split('/').length > 2) out.push(invalid(child(path, 'apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  }
  const kind = obj.kind;
  if (Object.hasOwn(obj, 'kind')) {
    if (typeof kind !== 'string') out.push(invalid(child(path, 'kind'), kind, 'must be a string'));
    else if (kind === '') out.push(invalid(child(path, 'kind'), kind, 'must not be empty'));
    else if (kind.length > 63 || !DNS1035.test(kind.toLowerCase()))
      out.push(invalid(child(path, 'kind'), kind, `may have mixed case, but should otherwise match: ${dns1035Problems(kind.toLowerCase())}`));
  }
  if (isPlainObject(obj.metadata)) validateEmbeddedMeta(obj.metadata as JsonObject, child(path, 'metadata'), out);
}

/** IsDNS1035Label's messages, joined as the callers join them. */
export function dns1035Problems(s: string): string {
  const problems: string[] = [];
  if (s.length > 63) problems.push('must be no more than 63 characters');
  if (!DNS1035.test(s))
    problems.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  return problems.join(',');
}

function validateEmbeddedMeta(meta: JsonObject, path: string, out: StatusCause[]): void {
  const name = typeof meta.name === 'string' && meta.name ? meta.name : 'fakename';
  if (typeof meta.generateName === 'string' && meta.generateName) out.push(...relocate(validateGenerateName(meta.generateName, 'path'), 'metadata', path));
  out.push(...validateName(name, 'path', child(path, 'name')));
  if (typeof meta.namespace === 'string' && meta.namespace) out.push(...validateName(meta.namespace, 'label', child(path, 'namespace')));
  out.push(...validateLabels(meta.labels, child(path, 'labels')));
  out.push(...validateAnnotations(meta.annotations, child(path, 'annotations')));
  out.push(...validateFinalizers(meta.finalizers, child(path, 'finalizers')));
}

const relocate = (causes: StatusCause[], from: string, to: string): StatusCause[] =>
  causes.map((c) => ({ ...c, field: c.field?.startsWith(from) ? `${to}${c.field.slice(from.length)}` : c.field }));
