// Request bodies to objects: JSON (duplicate keys seen), YAML or the Protobuf envelope, then the
// kind's schema: type errors always fail, unknown and duplicate fields follow fieldValidation.
import { jsonCopy } from '../../api/json-copy.ts';
import type { ResourceType } from '../../api/resources.ts';
import { badRequest, invalid, StatusError, type StatusCause } from '../../api/status.ts';
import { isPlainObject, type Json, type KObject } from '../../api/types.ts';
import { parseJson, parseYaml } from '../codec/json.ts';
import { decodeProtobuf } from '../codec/protobuf.ts';
import { bodyFormat } from '../negotiation.ts';
import type { ApiRequest, Query } from '../request.ts';
import { checkNesting, MAX_NESTING_DEPTH } from '../validation/nesting.ts';
import type { BodySchema } from '../registry/kind.ts';
import { checkSchema, type SchemaReport } from '../validation/schema.ts';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions';

export function fieldValidation(query: Query, optionsKind: OptionsKind): FieldValidation {
  const v = query.string('fieldValidation');
  if (v === undefined || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw invalid('meta.k8s.io', optionsKind, '', [
    // The real list is a sorted set that includes the empty value (meta/v1/validation ValidateFieldValidation).
    { reason: 'FieldValueNotSupported', field: 'fieldValidation', message: `Unsupported value: ${JSON.stringify(v)}: supported values: "", "Ignore", "Strict", "Warn"` },
  ]);
}

/** dryRun: absent, bare, or `All`; anything else is Invalid on the options kind. */
export function dryRun(values: string[], optionsKind: string): boolean {
  if (values.length === 0) return false;
  for (const v of values)
    if (v !== 'All' && v !== '')
      // The bad value is the whole list, printed as Go's %#v prints a []string.
      throw invalid('meta.k8s.io', optionsKind, '', [{ reason: 'FieldValueNotSupported', field: 'dryRun',
        message: `Unsupported value: []string{${values.map((x) => JSON.stringify(x)).join(', ')}}: supported values: "All"` }]);
  return true;
}

export interface Decoded {
  value: Json;
  duplicates: string[];
}

/** A request body as UTF-8 text. */
export function bodyText(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

/**
 * The JSON body a client in this process sent as a value, copied (what parsing its text would
 * give, and the caller's own to change); undefined without a value, or past the nesting limit
 * (the text route then answers its 400).
 */
export function copiedBody(req: Pick<ApiRequest, 'value'>): Json | undefined {
  return req.value !== undefined ? jsonCopy(req.value, MAX_NESTING_DEPTH) : undefined;
}

/** The request's body decoded by its Content-Type (Protobuf only where the kind has a message): a value of the caller's own, which it may change. */
export function parseBody(req: Pick<ApiRequest, 'body' | 'value' | 'headers'>, protobuf = true): Decoded {
  const format = bodyFormat(req.headers['content-type'], protobuf);
  const copied = format === 'json' ? copiedBody(req) : undefined;
  if (copied !== undefined) return { value: copied, duplicates: [] };
  const body = req.body;
  if (format === 'protobuf') return nestingChecked({ value: decodeProtobuf(body) as unknown as Json, duplicates: [] });
  const text = bodyText(body);
  if (text.trim() === '') throw badRequest('the body of the request was empty');
  return nestingChecked(format === 'yaml' ? parseYaml(text) : parseJson(text));
}

function nestingChecked(decoded: Decoded): Decoded {
  checkNesting(decoded.value, 'the request body');
  return decoded;
}

export interface Checked {
  object: KObject;
  warnings: string[];
}

/**
 * Groups whose registry validation finds missing fields as the real server does, once defaulting
 * has filled some in: a binding's roleRef.apiGroup is defaulted, not required, and an empty rule's
 * verbs are refused with the real message; so are a webhook's sideEffects and review versions.
 * Their schema's required list is not checked here.
 */
const CHECKED_AFTER_DEFAULTS: ReadonlySet<string> = new Set(['rbac.authorization.k8s.io', 'admissionregistration.k8s.io']);

/** `Pod in version "v1" cannot be handled as a Pod: ...`: the message of every decode failure. */
function cannotHandle(kind: string, version: string, why: string): StatusError {
  return badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${why}`);
}

/**
 * Checks a decoded body against the kind the endpoint serves (`expect`): its apiVersion and kind,
 * field types, required fields, unknown and duplicate fields. A server-side apply configuration
 * (`applyConfiguration`) keeps its nulls and may leave out required fields: the merged object is
 * what must hold them (requiredProblems).
 */
export function checkObject(decoded: Decoded, expect: { apiVersion: string; kind: string; group: string; version: string }, mode: FieldValidation,
  acceptedApiVersions: string[] = [expect.apiVersion], schema?: BodySchema, { applyConfiguration = false } = {}): Checked {
  const body = decoded.value;
  if (!isPlainObject(body)) throw cannotHandle(expect.kind, expect.version, 'the body must be a JSON object');
  if (body.apiVersion !== undefined && !acceptedApiVersions.includes(String(body.apiVersion)))
    throw badRequest(`the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${expect.apiVersion})`);
  if (body.kind !== undefined && body.kind !== expect.kind)
    throw badRequest(`the kind in the data (${String(body.kind)}) does not match the expected kind (${expect.kind})`);
  if (body.metadata !== undefined && !isPlainObject(body.metadata))
    throw cannotHandle(expect.kind, expect.version, 'json: cannot unmarshal into Go struct field .metadata of type v1.ObjectMeta');
  if (schema) return customObject(body, schema, decoded.duplicates, mode, expect);
  const report = checkSchema(expect.apiVersion, expect.kind, body, { keepNulls: applyConfiguration });
  if (report.typeErrors.length > 0) throw cannotHandle(expect.kind, expect.version, report.typeErrors.map((c) => c.message).join(', '));
  const problems = [...report.unknown.map((f) => `unknown field "${f}"`), ...decoded.duplicates.map((f) => `duplicate field "${f}"`)];
  if (mode === 'Strict' && problems.length > 0) throw cannotHandle(expect.kind, expect.version, `strict decoding error: ${problems.join(', ')}`);
  const object = report.pruned as unknown as KObject;
  object.metadata ??= {};
  const missing = applyConfiguration ? [] : requiredProblems(report, expect.group);
  if (missing.length > 0) throw invalid(expect.group, expect.kind, String(object.metadata.name ?? ''), missing);
  return { object, warnings: mode === 'Warn' ? problems : [] };
}

/**
 * A custom object as its schema reads it: unknown fields pruned and reported as fieldValidation
 * says; its values are the kind's validation's business (422), as the real server's unstructured
 * decoding leaves them.
 */
function customObject(body: Record<string, Json>, schema: BodySchema, duplicates: string[], mode: FieldValidation,
  expect: { kind: string; version: string }): Checked {
  const { object, unknown } = schema.prune(body);
  const problems = [...unknown.map((f) => `unknown field "${f}"`), ...duplicates.map((f) => `duplicate field "${f}"`)];
  if (mode === 'Strict' && problems.length > 0) throw cannotHandle(expect.kind, expect.version, `strict decoding error: ${problems.join(', ')}`);
  const out = object as unknown as KObject;
  out.metadata ??= {};
  return { object: out, warnings: mode === 'Warn' ? problems : [] };
}

/**
 * The required fields an object to store lacks. Status is written by controllers and node agents,
 * which real servers let omit fields (Go decodes them as zero values); required fields are enforced
 * where users write: spec and data.
 */
export function requiredProblems(report: SchemaReport, group: string): StatusCause[] {
  if (CHECKED_AFTER_DEFAULTS.has(group)) return [];
  return report.missing.filter((c) => c.field !== 'status' && !c.field?.startsWith('status.'));
}

/** One `Warning` header value per problem, each said once, as real servers send them. */
export function warningHeaders(warnings: string[]): Record<string, string[]> {
  if (warnings.length === 0) return {};
  return { warning: [...new Set(warnings)].map((w) => `299 - ${JSON.stringify(w)}`) };
}

export function expectOf(type: ResourceType): { apiVersion: string; kind: string; group: string; version: string } {
  return { apiVersion: type.group ? `${type.group}/${type.version}` : type.version, kind: type.kind, group: type.group, version: type.version };
}
