// metav1.Condition lists as status writes carry them (apimachinery ValidateConditions): one of each
// type, each a qualified type name, a known status, a transition time, a well-formed reason.
import { regexError } from '../../api/name-rules.ts';
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
import { validateQualifiedKey } from './names.ts';

const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON = new RegExp(`^${REASON_FMT}$`);
const REASON_RULE = regexError("a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
  REASON_FMT, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB');
const REASON_MAX = 1024;
const MESSAGE_MAX = 32 * 1024;

export function validateConditions(conditions: unknown, field: string): StatusCause[] {
  if (!Array.isArray(conditions)) return [];
  const causes: StatusCause[] = [];
  const seen = new Set<string>();
  conditions.forEach((raw, i) => {
    const c = isPlainObject(raw) ? raw : {};
    const path = `${field}[${i}]`;
    const type = String(c.type ?? '');
    if (seen.has(type)) causes.push({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${JSON.stringify(type)}`, field: `${path}.type` });
    seen.add(type);
    causes.push(...conditionCauses(c, path));
  });
  return causes;
}

function conditionCauses(c: Record<string, unknown>, path: string): StatusCause[] {
  const causes = validateQualifiedKey(String(c.type ?? ''), `${path}.type`);
  const status = String(c.status ?? '');
  if (!['False', 'True', 'Unknown'].includes(status))
    causes.push({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(status)}: supported values: "False", "True", "Unknown"`, field: `${path}.status` });
  if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0)
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${c.observedGeneration}: must be greater than or equal to zero`, field: `${path}.observedGeneration` });
  if (!c.lastTransitionTime) causes.push({ reason: 'FieldValueRequired', message: 'Required value: must be set', field: `${path}.lastTransitionTime` });
  const reason = String(c.reason ?? '');
  if (reason === '') causes.push({ reason: 'FieldValueRequired', message: 'Required value: must be set', field: `${path}.reason` });
  else {
    if (!REASON.test(reason)) causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(reason)}: ${REASON_RULE}`, field: `${path}.reason` });
    if (reason.length > REASON_MAX) causes.push({ reason: 'FieldValueTooLong', message: `Too long: must have at most ${REASON_MAX} bytes`, field: `${path}.reason` });
  }
  if (String(c.message ?? '').length > MESSAGE_MAX) causes.push({ reason: 'FieldValueTooLong', message: `Too long: must have at most ${MESSAGE_MAX} bytes`, field: `${path}.message` });
  return causes;
}
