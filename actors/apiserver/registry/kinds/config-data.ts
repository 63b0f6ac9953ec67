// What ConfigMaps and Secrets share: once `immutable` is set, neither it nor the data may change.
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { deepEqual } from '../deep-equal.ts';
import { forbidden } from './rules.ts';

export function immutableData(obj: KObject, old: KObject): StatusCause[] {
  if (old.immutable !== true) return [];
  const causes: StatusCause[] = [];
  if (obj.immutable !== true) causes.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  if (!deepEqual(obj.data, old.data)) causes.push(forbidden('data', 'field is immutable when `immutable` is set'));
  if (!deepEqual(obj.binaryData, old.binaryData) && old.kind === 'ConfigMap') causes.push(forbidden('binaryData', 'field is immutable when `immutable` is set'));
  return causes;
}
