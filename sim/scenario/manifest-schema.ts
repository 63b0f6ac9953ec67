// Node, Pod and PodTemplate manifests in a scenario are checked against the API server's own
// schema of the kind (actors/apiserver/validation), so a misspelt field or a value of the wrong
// type is reported against the scenario file, with the fields the object allows at that place,
// instead of being dropped or rejected once the run has started.
import type { Json } from '../../actors/api/types.ts';
import { checkModel, checkSchema, type SchemaReport } from '../../actors/apiserver/validation/schema.ts';
import { describeKind, innermost, model, type Model } from '../../actors/apiserver/validation/schema-source.ts';
import { isMapping, type Field } from './field.ts';

/**
 * `f` as a `v1` object of `kind`: `apiVersion` and `kind` must be `v1` and `kind` when given, and
 * every field must be one the kind has, of the right type; required fields must be present.
 * Returns a deep copy with `apiVersion` and `kind` filled in (YAML aliases share objects, and the
 * callers adjust what they return).
 */
export function manifest(f: Field, kind: string): Record<string, unknown> {
  if (!isMapping(f.value)) f.fail(`must be a ${kind} manifest (a mapping)`);
  const apiVersion = f.child('apiVersion');
  if (apiVersion.present && apiVersion.value !== 'v1') apiVersion.fail(`must be v1 for a ${kind}`);
  const kindField = f.child('kind');
  if (kindField.present && kindField.value !== kind) kindField.fail(`must be ${kind} here`);
  const body: Record<string, unknown> = { apiVersion: 'v1', kind, ...structuredClone(f.value) };
  body.apiVersion = 'v1';
  body.kind = kind;
  body.metadata ??= {};
  refuse(f, checkSchema('v1', kind, body as Json), describeKind('v1', kind), `a ${kind}`);
  return body;
}

/**
 * `f` as a value of the client model `modelName` (`V2MetricSpec`), checked as a manifest is: an
 * unknown field, a value of the wrong type or a missing required field is an error at its place,
 * `what` naming the thing in the message (`a metric`).
 */
export function schemaPart(f: Field, modelName: string, what: string): void {
  refuse(f, checkModel(modelName, f.value as Json), model(modelName), what);
}

/** Throws at the first problem `report` found in `f`, a value of `root`. */
function refuse(f: Field, report: SchemaReport, root: Model | undefined, what: string): void {
  const unknown = report.unknown[0];
  if (unknown !== undefined) {
    const parent = unknown.slice(0, Math.max(unknown.lastIndexOf('.'), 0));
    const key = unknown.slice(unknown.lastIndexOf('.') + 1);
    at(f, parent).rejectKey(key, allowedFields(root, parent), `unknown field of ${what}`);
  }
  const typeError = report.typeErrors[0];
  if (typeError) at(f, typeError.field ?? '').error(plainTypeError(typeError.message ?? 'wrong type'));
  const missing = report.missing[0];
  if (missing) at(f, missing.field ?? '').error(`required in ${what}`);
}

/** A Field for `path` (`spec.containers[0].name`) under `f`. */
function at(f: Field, path: string): Field {
  let out = f;
  for (const [, name, index] of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out = index !== undefined ? out.item(Number(index)) : out.child(name!);
  return out;
}

/** Go's decoding message without the prefix that repeats the path: "cannot unmarshal string into ... of type int32". */
function plainTypeError(message: string): string {
  return message.replace(/^json: /, '');
}

/** The fields the schema of `root` has at `path` (`spec.containers[0]`). */
function allowedFields(root: Model | undefined, path: string): string[] {
  let current = root;
  for (const step of path.replace(/\[\d+\]/g, '').split('.').filter((s) => s !== '')) {
    const field = current?.fields.get(step);
    const type = field ? innermost(field.type) : undefined;
    current = type?.kind === 'model' ? model(type.model) : undefined;
  }
  return current ? [...current.fields.keys()] : [];
}
