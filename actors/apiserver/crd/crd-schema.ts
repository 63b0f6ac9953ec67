// One schema of a CRD (apiextensions validation.go, validateCustomResourceDefinitionValidation):
// with the status subresource only a few fields may sit at the root; the schema must be structural
// (its findings first), its defaults valid and pruned; then the per-node checks; rules compile only
// on a structural schema with valid defaults. A schema that cannot even be read as structural is
// reported only when nothing else is.
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
import { checkDefaults } from './default-checks.ts';
import { child, forbidden, GoText, invalid } from './field-errors.ts';
import { checkSchema } from './schema-checks.ts';
import { StructuralError, toStructural, type Structural } from './structural.ts';
import { validateStructural } from './structural-validation.ts';
import type { JSONSchemaProps } from './types.ts';

const ROOT_FIELDS_WITH_STATUS = new Set([
  'description', 'type', 'format', 'title', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'required', 'items', 'properties', 'externalDocs', 'example',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations',
]);
const GO_ROOT_FIELDS =
  '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';

const isZero = (v: unknown) => v === undefined || v === null || v === false || v === '' || v === 0 || (Array.isArray(v) && v.length === 0);

export function validateSchema(validation: { openAPIV3Schema?: JSONSchemaProps }, path: string, statusEnabled: boolean): StatusCause[] {
  const schema = validation.openAPIV3Schema;
  if (!isPlainObject(schema)) return [];
  const at = child(path, 'openAPIV3Schema');
  const out: StatusCause[] = [];
  if (statusEnabled)
    for (const [k, v] of Object.entries(schema)) {
      if (isZero(v)) continue;
      if (k === 'type') {
        if (v !== 'object') {
          out.push(invalid(`${path}.openAPIV3Schema.type`, v as string, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!ROOT_FIELDS_WITH_STATUS.has(k)) {
        out.push(invalid(at, new GoText('apiextensions.JSONSchemaProps{...}'), `only ${GO_ROOT_FIELDS} fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  if (schema.nullable === true) out.push(forbidden(`${path}.openAPIV3Schema.nullable`, 'nullable cannot be true at the root'));
  let structural: Structural | undefined;
  let unreadable: StatusCause | undefined;
  try {
    const s = toStructural(schema);
    const problems = validateStructural(s, at);
    if (problems.length > 0) out.push(...problems);
    else {
      const defaults = checkDefaults(s, at);
      if (defaults.length > 0) out.push(...defaults);
      else structural = s;
    }
  } catch (e) {
    if (!(e instanceof StructuralError)) throw e;
    unreadable = invalid(at, '', e.message);
  }
  const findings = checkSchema(schema, at, structural);
  out.push(...findings.schema, ...findings.cel);
  if (out.length === 0 && unreadable) out.push(unreadable);
  return out;
}
