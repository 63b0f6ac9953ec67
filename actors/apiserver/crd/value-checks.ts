// The number and enum checks of kube-openapi's validator (validate/values.go, validator.go) with
// Go's typing of JSON numbers: an integral value in int64 range is an int64, whose bounds and
// factor are truncated to integers before comparing; anything else is a float64.
import type { Json } from '../../api/types.ts';
import { jsonEqual } from '../patch/json-value.ts';
import { boundError, goFloat, goInt, multipleOfError, multipleOfPositiveError, type OpenAPIError } from './openapi-errors.ts';

export interface NumberBounds {
  multipleOf?: number;
  maximum?: number;
  exclusiveMaximum: boolean;
  minimum?: number;
  exclusiveMinimum: boolean;
}

const MAX_JSON_FLOAT = 2 ** 53 - 1;

/** swag.IsFloat64AJSONInteger: integral, or within a relative 1e-9 of the integer below it. */
export function isJsonInteger(f: number): boolean {
  if (!Number.isFinite(f) || f < -MAX_JSON_FLOAT || f > MAX_JSON_FLOAT) return false;
  if (Number.isInteger(f)) return true;
  if (f < 0) return false;
  const g = Math.trunc(f);
  if (g === 0) return false;
  return Math.abs(f - g) / (Math.abs(f) + g) < 1e-9;
}

/** multipleOf, then minimum, then maximum, as numberValidator merges them. */
export function checkNumber(n: NumberBounds, value: number, isInt: boolean, path: string, out: OpenAPIError[]): void {
  if (n.multipleOf !== undefined) {
    if (isInt) {
      const factor = Math.trunc(n.multipleOf);
      if (factor <= 0) out.push(multipleOfPositiveError(path, goInt(factor)));
      else if (value % factor !== 0) out.push(multipleOfError(path, goInt(factor), value));
    } else if (n.multipleOf <= 0) {
      out.push(multipleOfPositiveError(path, goFloat(n.multipleOf)));
    } else {
      const mult = n.multipleOf < 1 ? (1 / n.multipleOf) * value : value / n.multipleOf;
      if (!isJsonInteger(mult)) out.push(multipleOfError(path, goFloat(n.multipleOf), value));
    }
  }
  const print = isInt ? goInt : goFloat;
  if (n.minimum !== undefined) {
    const min = isInt ? Math.trunc(n.minimum) : n.minimum;
    if (n.exclusiveMinimum ? value <= min : value < min) out.push(boundError(path, print(min), n.exclusiveMinimum, false, value));
  }
  if (n.maximum !== undefined) {
    const max = isInt ? Math.trunc(n.maximum) : n.maximum;
    if (n.exclusiveMaximum ? value >= max : value > max) out.push(boundError(path, print(max), n.exclusiveMaximum, true, value));
  }
}

/** Whether `value` is one of `values` (JSON equality; numbers compare by value). */
export function checkEnum(value: Json, values: readonly Json[]): boolean {
  for (const v of values) if (jsonEqual(value, v)) return true;
  return false;
}
