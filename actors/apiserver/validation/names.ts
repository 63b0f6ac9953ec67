// Name, label and annotation rules of object metadata (apimachinery validation).
import type { StatusCause } from '../../api/status.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

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
  if (rule === 'label') {
    if (name.length > 63) return [invalidValue(field, shown, 'must be no more than 63 characters')];
    if (!DNS1123_LABEL.test(name))
      return [invalidValue(field, shown, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")];
    return [];
  }
  if (name.length > 253) return [invalidValue(field, shown, 'must be no more than 253 characters')];
  if (!DNS1123_SUBDOMAIN.test(name))
    return [invalidValue(field, shown, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")];
  return [];
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

/** A label or annotation key: an optional DNS subdomain prefix and a qualified name. */
export function validateQualifiedKey(key: string, field: string): StatusCause[] {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : '';
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (slash >= 0 && (prefix === '' || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)))
    return [invalidValue(field, key, 'prefix part must be a lowercase RFC 1123 subdomain')];
  if (name === '' || name.length > 63 || !QUALIFIED_NAME.test(name))
    return [invalidValue(field, key, "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, and be at most 63 characters")];
  return [];
}

export function validateLabels(labels: unknown, field = 'metadata.labels'): StatusCause[] {
  if (labels === undefined || labels === null) return [];
  const causes: StatusCause[] = [];
  for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
    causes.push(...validateQualifiedKey(k, field));
    if (typeof v !== 'string' || v.length > 63 || !LABEL_VALUE.test(v))
      causes.push(invalidValue(`${field}`, v, "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, and be at most 63 characters"));
  }
  return causes;
}

const ANNOTATIONS_MAX_BYTES = 256 * 1024;

export function validateAnnotations(annotations: unknown, field = 'metadata.annotations'): StatusCause[] {
  if (annotations === undefined || annotations === null) return [];
  const causes: StatusCause[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    causes.push(...validateQualifiedKey(k.toLowerCase(), field));
    size += k.length + (typeof v === 'string' ? v.length : 0);
  }
  if (size > ANNOTATIONS_MAX_BYTES)
    causes.push({ reason: 'FieldValueTooLong', message: `Too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes`, field });
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
