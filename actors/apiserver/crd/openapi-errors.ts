// The findings of kube-openapi's validator (pkg/validation/errors), worded as it words them, and
// their conversion into field errors as apiextensions' kubeOpenAPIResultToFieldErrors does
// (pkg/apiserver/validation/validation.go). `name` is the value's path in the validator's dotted
// form (`spec.items[0].name`; '' for the root), always "in body".
import type { StatusCause } from '../../api/status.ts';
import type { Json } from '../../api/types.ts';
import { goFormat } from '../patch/json-value.ts';
import { child, goPrint, goQuote, invalid, notSupported, required, tooLong, tooMany, typeInvalid, type BadValue } from './field-errors.ts';

export type Code =
  | 'type'
  | 'required'
  | 'tooLong'
  | 'tooShort'
  | 'pattern'
  | 'enum'
  | 'multipleOf'
  | 'max'
  | 'min'
  | 'unique'
  | 'maxItems'
  | 'minItems'
  | 'tooFewProperties'
  | 'tooManyProperties'
  | 'unallowedProperty'
  | 'multipleOfMustBePositive'
  /** anyOf, oneOf, allOf and not: plain errors, not validation errors, in kube-openapi. */
  | 'composite';

export interface OpenAPIError {
  code: Code;
  name: string;
  message: string;
  value?: BadValue;
  /** The bound a length or count was held to. */
  valid?: number;
  values?: Json[];
}

const inBody = (name: string) => `${name} in body`;


/** %v of a float64: strconv's shortest 'g' (`10`, `1.5`, `1e+07`). */
export const goFloat = (n: number): string => goFormat(n);

/** %v of an int64 (`10000000`). */
export const goInt = (n: number): string => BigInt(Math.trunc(n)).toString();

export function invalidType(name: string, typeName: string, value: string): OpenAPIError {
  return { code: 'type', name, value, message: `${inBody(name)} must be of type ${typeName}: ${goQuote(value)}` };
}

export const requiredError = (name: string): OpenAPIError => ({ code: 'required', name, message: `${inBody(name)} is required` });

export const tooLongError = (name: string, max: number, value: string): OpenAPIError => ({
  code: 'tooLong',
  name,
  value,
  valid: max,
  message: `${inBody(name)} should be at most ${max} chars long`,
});

export const tooShortError = (name: string, min: number, value: string): OpenAPIError => ({
  code: 'tooShort',
  name,
  value,
  valid: min,
  message: `${inBody(name)} should be at least ${min} chars long`,
});

export const patternError = (name: string, pattern: string, value: string): OpenAPIError => ({
  code: 'pattern',
  name,
  value,
  message: `${inBody(name)} should match '${pattern}'`,
});

/** %v of the enum's values: `[a b 1]`. */
export const enumError = (name: string, value: Json, values: Json[]): OpenAPIError => ({
  code: 'enum',
  name,
  value,
  values,
  message: `${inBody(name)} should be one of [${values.map(goPrint).join(' ')}]`,
});

export function boundError(name: string, bound: string, exclusive: boolean, isMax: boolean, value: number): OpenAPIError {
  const relation = isMax ? (exclusive ? 'less than' : 'less than or equal to') : exclusive ? 'greater than' : 'greater than or equal to';
  return { code: isMax ? 'max' : 'min', name, value, message: `${inBody(name)} should be ${relation} ${bound}` };
}

export const multipleOfError = (name: string, factor: string, value: number): OpenAPIError => ({
  code: 'multipleOf',
  name,
  value,
  message: `${inBody(name)} should be a multiple of ${factor}`,
});

export const multipleOfPositiveError = (name: string, factor: string): OpenAPIError => ({
  code: 'multipleOfMustBePositive',
  name,
  value: Number(factor),
  message: `factor MultipleOf declared for ${name} must be positive: ${factor}`,
});

export const itemsError = (name: string, bound: number, size: number, isMax: boolean): OpenAPIError => ({
  code: isMax ? 'maxItems' : 'minItems',
  name,
  value: size,
  valid: bound,
  message: `${inBody(name)} should have ${isMax ? 'at most' : 'at least'} ${bound} items`,
});

export const uniqueError = (name: string): OpenAPIError => ({ code: 'unique', name, message: `${inBody(name)} shouldn't contain duplicates` });

export const propertiesError = (name: string, bound: number, size: number, isMax: boolean): OpenAPIError => ({
  code: isMax ? 'tooManyProperties' : 'tooFewProperties',
  name,
  value: size,
  valid: bound,
  message: `${inBody(name)} should have ${isMax ? 'at most' : 'at least'} ${bound} properties`,
});

export const unallowedPropertyError = (name: string, key: string): OpenAPIError => ({
  code: 'unallowedProperty',
  name,
  value: key,
  message: `${name}.${key} in body is a forbidden property`,
});

export const compositeError = (message: string): OpenAPIError => ({ code: 'composite', name: '', message });

/**
 * kubeOpenAPIResultToFieldErrors: each finding as a field error under `base` (the object's root
 * is '', a default value's is `...default`).
 */
export function toCauses(base: string, errors: readonly OpenAPIError[]): StatusCause[] {
  return errors.map((e) => {
    if (e.code === 'composite') return invalid(base, '', e.message);
    const path = e.name && e.name !== '.' ? child(base, e.name.replace(/^\./, '')) : base;
    const value = e.value === undefined ? '' : e.value;
    switch (e.code) {
      case 'required':
        return required(path);
      case 'enum':
        return notSupported(path, e.value ?? null, (e.values ?? []).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))));
      case 'tooLong':
        return tooLong(path, e.valid ?? -1);
      case 'maxItems':
      case 'tooManyProperties':
        return tooMany(path, typeof e.value === 'number' ? e.value : -1, e.valid ?? -1);
      case 'type':
        return typeInvalid(path, value, e.message);
      default:
        return invalid(path, value, e.message);
    }
  });
}
