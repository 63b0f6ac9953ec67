// Name, label and annotation rules of object metadata (apimachinery validation).
import { isDns1123Label, isDns1123Subdomain, isQualifiedName, isValidLabelValue } from '../../api/name-rules.ts';
import type { StatusCause } from '../../api/status.ts';

export type NameRule = 'label' | 'subdomain' | 'path';

const required = (field: string): StatusCause => ({ reason: 'FieldValueRequired', message: 'Required value', field });
const invalidValue = (field: string, value: unknown, why: string): StatusCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: ${why}`,
  field,
});

/** `shown` is the value error messages quote (a generateName before masking). */
export function validateName(name: string | undefined, rule: NameRule, field = 'metadata.name', shown = name): StatusCause[] {
  if (!name) return [required(field)];
  if (rule === 'path') return pathSegmentProblems(name).map((why) => invalidValue(field, shown, why));
  const problems = rule === 'label' ? isDns1123Label(name) : isDns1123Subdomain(name);
  return problems.map((why) => invalidValue(field, shown, why));
}

/** A name that is safe as one segment of a URL path, and nothing more (path.IsValidPathSegmentName). */
function pathSegmentProblems(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

/**
 * A generateName is a name prefix: checked by the kind's name rule once a trailing '-' is masked
 * (apimachinery maskTrailingDash), even when a name is given too (ValidateObjectMeta).
 */
export function validateGenerateName(prefix: string, rule: NameRule): StatusCause[] {
  const masked = prefix.length > 1 && prefix.endsWith('-') ? `${prefix.slice(0, -1)}a` : prefix;
  return validateName(masked, rule, 'metadata.generateName', prefix);
}

/** A label or annotation key: an optional DNS subdomain prefix and a qualified name; one cause per problem (ValidateLabelName). */
export function validateQualifiedKey(key: string, field: string, shown = key): StatusCause[] {
  return isQualifiedName(key).map((why) => invalidValue(field, shown, why));
}

export function validateLabels(labels: unknown, field = 'metadata.labels'): StatusCause[] {
  if (labels === undefined || labels === null) return [];
  const causes: StatusCause[] = [];
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    causes.push(...validateQualifiedKey(k, field));
    if (typeof v === 'string') causes.push(...isValidLabelValue(v).map((why) => invalidValue(field, v, why)));
  }
  return causes;
}

const ANNOTATIONS_MAX_BYTES = 256 * 1024;

export function validateAnnotations(annotations: unknown, field = 'metadata.annotations'): StatusCause[] {
  if (annotations === undefined || annotations === null) return [];
  const causes: StatusCause[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    causes.push(...validateQualifiedKey(k.toLowerCase(), field, k));
    size += k.length + (typeof v === 'string' ? v.length : 0);
  }
  if (size > ANNOTATIONS_MAX_BYTES)
    causes.push({ reason: 'FieldValueTooLong', message: `Too long: may not be more than ${ANNOTATIONS_MAX_BYTES} bytes`, field });
  return causes;
}

export function validateFinalizers(finalizers: unknown, field = 'metadata.finalizers'): StatusCause[] {
  if (finalizers === undefined || finalizers === null) return [];
  const causes: StatusCause[] = [];
  (finalizers as unknown[]).forEach((f, i) => {
    if (typeof f !== 'string') return;
    causes.push(...validateQualifiedKey(f, `${field}[${i}]`));
  });
  return causes;
}
