// One served version of a CRD, compiled once when the CRD is (re)established: the structural
// schema, the value validators (object and status), the rules, the printer, the patch shape and
// the OpenAPI components. Its methods are what the request path calls per object: prune on
// decode, default, validate, print, and nothing re-reads the schema definition.
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject, type Json } from '../../api/types.ts';
import type { Printer } from '../registry/tables-format.ts';
import type { Shape } from '../patch/shape.ts';
import { compileRules } from '../cel/validate.ts';
import { customPrinter } from './columns.ts';
import { applyDefaults } from './defaulting.ts';
import { coerceEmbedded, coerceMetadata } from './embedded.ts';
import { validateObject, validateStatusUpdate, type ObjectValidation } from './object-validation.ts';
import { customResourceComponents } from './openapi.ts';
import { pruneValue } from './pruning.ts';
import { schemaShape } from './shape.ts';
import { asResourceRoot, toStructural, type Structural } from './structural.ts';
import type { CustomResourceDefinition, CustomResourceSubresourceScale, JSONSchemaProps } from './types.ts';
import { compileValue } from './value-validator.ts';

type JsonObject = { [key: string]: Json };

export interface PruneResult {
  /** The object without the fields its schema does not specify; the input when nothing went. */
  object: JsonObject;
  /** Their paths (`metadata.foo`, then `spec.bar`, then embedded metadata), for fieldValidation. */
  unknown: string[];
}

export interface CustomResourceVersion {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  served: boolean;
  storage: boolean;
  statusSubresource: boolean;
  scale?: CustomResourceSubresourceScale;
  structural: Structural;
  /** Server-side apply's shape of the kind's objects. */
  shape: Shape;
  /** The Table's columns and cells. */
  printer: Printer;
  /** `metadata` read as ObjectMeta, unknown fields pruned; throws a 400 StatusError for metadata of wrong types. */
  prune(obj: JsonObject): PruneResult;
  /** The schema's defaults applied (a new object when any was). */
  applyDefaults(obj: JsonObject): JsonObject;
  /** The strategy's validation of a create (`old` undefined) or an update: 422 causes. */
  validate(obj: JsonObject, old?: JsonObject): StatusCause[];
  /** An update through the status subresource. */
  validateStatus(obj: JsonObject, old: JsonObject): StatusCause[];
  /** The OpenAPI v3 component schemas of the kind and its list. */
  openAPIComponents(): JsonObject;
}

/**
 * Compiles `versionName` of a CRD that validateCRD accepted. Throws when the version is absent or
 * its schema cannot be read (which validation refuses first).
 */
export function compileVersion(crd: CustomResourceDefinition, versionName: string): CustomResourceVersion {
  const v = crd.spec.versions.find((x) => x.name === versionName);
  if (!v) throw new Error(`version ${versionName} not found in CustomResourceDefinition ${crd.metadata.name}`);
  const schema: JSONSchemaProps = v.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const structural = toStructural(schema);
  const root = asResourceRoot(structural);
  const names = crd.spec.names;
  const statusSchema = structural.properties?.get('status')?.source;
  const validation: ObjectValidation = {
    group: crd.spec.group,
    version: v.name,
    kind: names.kind,
    structural,
    values: compileValue(schema),
    rules: compileRules(structural),
  };
  if (statusSchema) validation.statusValues = compileValue(statusSchema);
  if (v.subresources?.scale) validation.scale = v.subresources.scale;
  const listKind = names.listKind ?? `${names.kind}List`;
  const out: CustomResourceVersion = {
    group: crd.spec.group,
    version: v.name,
    kind: names.kind,
    listKind,
    plural: names.plural,
    singular: names.singular ?? names.kind.toLowerCase(),
    namespaced: crd.spec.scope === 'Namespaced',
    served: v.served,
    storage: v.storage,
    statusSubresource: isPlainObject(v.subresources?.status),
    structural,
    shape: schemaShape(structural),
    printer: customPrinter(v.additionalPrinterColumns),
    prune: (obj) => pruneObject(obj, root),
    applyDefaults: (obj) => applyDefaults(obj, structural) as JsonObject,
    validate: (obj, old) => validateObject(validation, obj, old),
    validateStatus: (obj, old) => validateStatusUpdate(validation, obj, old),
    openAPIComponents: () => customResourceComponents(schema, { group: crd.spec.group, version: v.name, kind: names.kind, listKind, plural: names.plural }),
  };
  if (validation.scale) out.scale = validation.scale;
  return out;
}

/** unstructuredSchemaCoercer.apply: metadata as ObjectMeta, pruning, null dropping, embedded metadata. */
function pruneObject(obj: JsonObject, root: Structural): PruneResult {
  const unknown: string[] = [];
  let out = obj;
  if (Object.hasOwn(obj, 'metadata')) {
    const metadata = coerceMetadata(obj.metadata as Json, '', unknown);
    if (metadata !== obj.metadata) out = { ...obj, metadata };
  }
  const pruned: string[] = [];
  out = pruneValue(out, root, '', pruned) as JsonObject;
  unknown.push(...pruned.sort());
  const embedded: string[] = [];
  out = coerceEmbedded(out, { ...root, embeddedResource: false }, '', embedded) as JsonObject;
  unknown.push(...embedded.sort());
  return { object: out, unknown };
}

