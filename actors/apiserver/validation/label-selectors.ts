// Validation of a structured label selector (apimachinery pkg/apis/meta/v1/validation
// ValidateLabelSelector): matchLabels as labels, and each matchExpressions requirement's operator,
// value count, key and values. Matching lives in actors/scheduler/label-selector.ts.
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
import { isValidLabelValue } from '../../api/name-rules.ts';
import { validateLabels, validateQualifiedKey } from './names.ts';

export function validateLabelSelector(selector: unknown, field: string): StatusCause[] {
  if (!isPlainObject(selector)) return [];
  const causes = validateLabels(selector.matchLabels, `${field}.matchLabels`);
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  expressions.forEach((e, i) => causes.push(...validateRequirement(isPlainObject(e) ? e : {}, `${field}.matchExpressions[${i}]`)));
  return causes;
}

function validateRequirement(r: Record<string, unknown>, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const values = Array.isArray(r.values) ? r.values : [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0)
        causes.push({ reason: 'FieldValueRequired', message: "Required value: must be specified when `operator` is 'In' or 'NotIn'", field: `${field}.values` });
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0)
        causes.push({ reason: 'FieldValueForbidden', message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'", field: `${field}.values` });
      break;
    default:
      causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(r.operator ?? '')}: not a valid selector operator`, field: `${field}.operator` });
  }
  causes.push(...validateQualifiedKey(typeof r.key === 'string' ? r.key : '', `${field}.key`));
  values.forEach((v, i) => {
    if (typeof v === 'string') causes.push(...isValidLabelValue(v).map((why) => ({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(v)}: ${why}`, field: `${field}.values[${i}]` })));
  });
  return causes;
}
