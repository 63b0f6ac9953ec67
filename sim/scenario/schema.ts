// The scalar rules of the scenario format, one function per kind of field: each reads a Field,
// returns the value in the form the Scenario type holds, or throws a ScenarioError naming the
// field, the value and the rule. Structures (pools, workloads, faults) are built from these.
import { parseDuration } from '../../actors/api/duration.ts';
import { parseQuantity } from '../../actors/api/quantity.ts';
import { isMapping, show, type Field } from './field.ts';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const NAME_MAX_CHARS = 63;
const SUBDOMAIN_MAX_CHARS = 253;

const DNS_LABEL_RULE = "must be a DNS-1123 label: at most 63 lower-case letters, digits or '-', starting and ending with a letter or digit";
const LABEL_VALUE_RULE = "must be a label value: empty, or at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
const LABEL_KEY_RULE = "must be a label key: an optional DNS subdomain and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
const DURATION_RULE = 'must be a Go duration such as 300ms, 30s, 5m or 1h30m';
const QUANTITY_RULE = 'must be a quantity such as 500m, 2, 128Mi or 10Gi';

export function string(f: Field): string {
  if (typeof f.value !== 'string') f.fail('must be a string');
  return f.value;
}

export function nonEmptyString(f: Field): string {
  if (typeof f.value !== 'string' || f.value.trim() === '') f.fail('must be a non-empty string');
  return f.value;
}

/** An integer in [min, max]; `what` describes the range for the error ("a positive integer"). */
export function integer(f: Field, min: number, max: number, what: string): number {
  const v = f.value;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) f.fail(`must be ${what}`);
  if (v > max) f.fail(`must be at most ${max.toLocaleString('en-US')}`);
  return v;
}

export const positiveInteger = (f: Field, max: number): number => integer(f, 1, max, 'a positive integer');

/** A finite number in [min, max]. */
export function number(f: Field, min: number, max: number, what: string): number {
  const v = f.value;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) f.fail(`must be ${what}`);
  return v;
}

/** Milliseconds of a Go duration (`30s`, `5m0s`); a bare `0` is accepted as Go accepts it. Any sign. */
export function durationMs(f: Field): number {
  const v = f.value;
  if (typeof v !== 'string' && typeof v !== 'number') f.fail(DURATION_RULE);
  try {
    return parseDuration(String(v));
  } catch {
    f.fail(DURATION_RULE);
  }
}

/** A resource quantity, returned as text (`8`, `32Gi`); numbers are accepted and turned into text. */
export function quantity(f: Field, options: { positive: boolean }): string {
  const v = f.value;
  if (typeof v !== 'string' && typeof v !== 'number') f.fail(QUANTITY_RULE);
  let value: number;
  try {
    value = parseQuantity(v);
  } catch {
    f.fail(QUANTITY_RULE);
  }
  if (options.positive ? !(value > 0) : value < 0) f.fail(options.positive ? 'must be greater than 0' : 'must not be negative');
  return typeof v === 'number' ? String(v) : v.trim();
}

export function dnsLabel(f: Field): string {
  const v = f.value;
  if (typeof v !== 'string' || v.length > NAME_MAX_CHARS || !DNS1123_LABEL.test(v)) f.fail(DNS_LABEL_RULE);
  return v;
}

export function labelValue(f: Field): string {
  const v = f.value;
  if (typeof v !== 'string') f.fail(`${LABEL_VALUE_RULE} (quote numbers and booleans)`);
  if (v.length > NAME_MAX_CHARS || !LABEL_VALUE.test(v)) f.fail(LABEL_VALUE_RULE);
  return v;
}

/** Whether `key` is a qualified name with an optional DNS-subdomain prefix (label, taint and toleration keys). */
export function isLabelKey(key: string): boolean {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : '';
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (slash >= 0 && (prefix.length > SUBDOMAIN_MAX_CHARS || !DNS1123_SUBDOMAIN.test(prefix))) return false;
  return name.length <= NAME_MAX_CHARS && QUALIFIED_NAME.test(name);
}

export function labelKey(f: Field): string {
  if (typeof f.value !== 'string' || !isLabelKey(f.value)) f.fail(LABEL_KEY_RULE);
  return f.value;
}

/** A map of label keys to label values (`labels:`, `nodeSelector:`); absent is empty. */
export function labels(f: Field): Record<string, string> {
  if (!f.present) return {};
  if (!isMapping(f.value)) f.fail('must be a mapping of label keys to values');
  const out: Record<string, string> = {};
  for (const key of Object.keys(f.value)) {
    const at = f.child(key);
    if (!isLabelKey(key)) at.error(`invalid key ${show(key)}: ${LABEL_KEY_RULE}`);
    out[key] = labelValue(at);
  }
  return out;
}

export function boolean(f: Field): boolean {
  if (typeof f.value !== 'boolean') f.fail('must be true or false');
  return f.value as boolean;
}

export function oneOf<T extends string>(f: Field, values: readonly T[]): T {
  if (!values.includes(f.value as T)) f.fail(`must be one of ${values.join(', ')}`);
  return f.value as T;
}

/** `f`'s value when present, else `fallback` (YAML's empty value counts as absent). */
export function optional<T>(f: Field, read: (f: Field) => T, fallback: T): T {
  return f.present ? read(f) : fallback;
}
