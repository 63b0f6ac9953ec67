// The pieces several kinds' rules are made of: reading a spec, the causes of the real validation
// errors, and the checks pods and every pod template share.
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';

export type Spec = Record<string, unknown>;

export const specOf = (o: KObject): Spec => (o.spec ?? {}) as Spec;

export const forbidden = (field: string, message: string): StatusCause => ({ reason: 'FieldValueForbidden', message: `Forbidden: ${message}`, field });

export const immutable = (field: string, value: unknown): StatusCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value)}: field is immutable`,
  field,
});

export const notNegative = (field: string, value: number): StatusCause =>
  ({ reason: 'FieldValueInvalid', message: `Invalid value: ${value}: must be greater than or equal to 0`, field });

export const required = (field: string, detail = ''): StatusCause =>
  ({ reason: 'FieldValueRequired', message: detail ? `Required value: ${detail}` : 'Required value', field });

/** `shown` is the value as Go's field error prints it (`"text"`, `5`, `[]core.X{"a"}`). */
export const invalid = (field: string, shown: string, detail: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', message: `Invalid value: ${shown}: ${detail}`, field });

export const notSupported = (field: string, shown: string, supported: readonly string[]): StatusCause =>
  ({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${shown}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`, field });

export const duplicate = (field: string, shown: string): StatusCause => ({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${shown}`, field });

/** Every container of a pod spec names an image (pod templates and pods alike). */
export function containerImages(spec: Spec | undefined, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  for (const list of ['initContainers', 'containers'] as const) {
    const cs = spec?.[list];
    if (!Array.isArray(cs)) continue;
    cs.forEach((c, i) => {
      const image = (c as Spec | null)?.image;
      if (typeof image !== 'string' || image.trim() === '')
        causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: `${path}.${list}[${i}].image` });
    });
  }
  return causes;
}
