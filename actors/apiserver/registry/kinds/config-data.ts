// What ConfigMaps and Secrets share: keys that are file names (ValidateConfigMap, ValidateSecret),
// at most 1 MiB of data, and once `immutable` is set, neither it nor the data may change.
import { isConfigMapKey } from '../../../api/name-rules.ts';
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { deepEqual } from '../deep-equal.ts';
import { forbidden } from './rules.ts';

/** The most data a ConfigMap or a Secret holds, in bytes (MaxSecretSize). */
export const MAX_DATA_BYTES = 1024 * 1024;

const tooLong = (field: string): StatusCause => ({ reason: 'FieldValueTooLong', message: `Too long: may not be more than ${MAX_DATA_BYTES} bytes`, field });

const entries = (map: unknown): [string, unknown][] => (map !== null && typeof map === 'object' ? Object.entries(map) : []);

/** One cause per problem of each key, on `<field>[<key>]`. */
function keyCauses(field: string, key: string): StatusCause[] {
  return isConfigMapKey(key).map((why) => ({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(key)}: ${why}`, field: `${field}[${key}]` }));
}

/** Bytes of a string value (UTF-8) or of a base64 one once decoded. */
const bytesOf = (value: unknown, base64: boolean): number => (typeof value === 'string' ? Buffer.byteLength(value, base64 ? 'base64' : 'utf8') : 0);

/**
 * ValidateConfigMap's data rules: every key of data and binaryData a config key, none in both, and
 * at most 1 MiB in all (an error on the whole object).
 */
export function validateConfigMapData(obj: KObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const binary = new Map(entries(obj.binaryData));
  let size = 0;
  for (const [key, value] of entries(obj.data)) {
    causes.push(...keyCauses('data', key));
    if (binary.has(key)) causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(key)}: duplicate of key present in binaryData`, field: `data[${key}]` });
    size += bytesOf(value, false);
  }
  for (const [key, value] of binary) {
    causes.push(...keyCauses('binaryData', key));
    size += bytesOf(value, true);
  }
  if (size > MAX_DATA_BYTES) causes.push(tooLong(''));
  return causes;
}

/** ValidateSecret's data rules: every key (stringData's included, merged before) a config key, at most 1 MiB decoded. */
export function validateSecretData(obj: KObject): StatusCause[] {
  const causes: StatusCause[] = [];
  let size = 0;
  for (const [key, value] of entries(obj.data)) {
    causes.push(...keyCauses('data', key));
    size += bytesOf(value, true);
  }
  if (size > MAX_DATA_BYTES) causes.push(tooLong('data'));
  return causes;
}

export function immutableData(obj: KObject, old: KObject): StatusCause[] {
  if (old.immutable !== true) return [];
  const causes: StatusCause[] = [];
  if (obj.immutable !== true) causes.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  if (!deepEqual(obj.data, old.data)) causes.push(forbidden('data', 'field is immutable when `immutable` is set'));
  if (!deepEqual(obj.binaryData, old.binaryData) && old.kind === 'ConfigMap') causes.push(forbidden('binaryData', 'field is immutable when `immutable` is set'));
  return causes;
}
