// A structured label selector's rules (apimachinery ValidateLabelSelector): its matchLabels are
// labels, and each of its matchExpressions names a valid key, a known operator, and values only
// where the operator takes them.
import { isValidLabelValue } from '../../api/name-rules.ts';
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
import { validateLabels, validateQualifiedKey } from './names.ts';

export function validateLabelSelector(selector: unknown, field: string): StatusCause[] {
  if (!isPlainObject(selector)) return [];
  const causes = validateLabels(selector.matchLabels, `${field}.matchLabels`);
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  expressions.forEach((e, i) => causes.push(...requirementCauses(isPlainObject(e) ? e : {}, `${field}.matchExpressions[${i}]`)));
  return causes;
}

function requirementCauses(e: Record<string, unknown>, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const values = Array.isArray(e.values) ? e.values.map(String) : [];
  const operator = String(e.operator ?? '');
  if (operator === 'In' || operator === 'NotIn') {
    if (values.length === 0) causes.push({ reason: 'FieldValueRequired', message: "Required value: must be specified when `operator` is 'In' or 'NotIn'", field: `${path}.values` });
  } else if (operator === 'Exists' || operator === 'DoesNotExist') {
    if (values.length > 0) causes.push({ reason: 'FieldValueForbidden', message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'", field: `${path}.values` });
  } else causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(operator)}: not a valid selector operator`, field: `${path}.operator` });
  causes.push(...validateQualifiedKey(String(e.key ?? ''), `${path}.key`));
  values.forEach((v, i) => {
    for (const why of isValidLabelValue(v)) causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(v)}: ${why}`, field: `${path}.values[${i}]` });
  });
  return causes;
}
