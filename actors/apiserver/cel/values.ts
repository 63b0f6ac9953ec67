// Custom object values as CEL sees them (apiextensions pkg/apiserver/schema/cel/model): objects
// and maps as CEL maps, integers as int (bigint), `type: number` as double, strings, booleans,
// lists; at a resource root `metadata` shows only name and generateName.
import type { CelInput } from '@bufbuild/cel';
import { isPlainObject, type Json } from '../../api/types.ts';
import { fieldSchema, type Structural } from '../crd/structural.ts';

type JsonObject = { [key: string]: Json };

export function toCel(v: Json, s: Structural | undefined): CelInput {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return s?.type !== 'number' && Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? BigInt(v) : v;
  if (Array.isArray(v)) return v.map((item) => toCel(item, s?.items));
  const out = new Map<string, CelInput>();
  for (const k in v) out.set(k, toCel(v[k] as Json, fieldSchema(s, k)));
  return out;
}

/** The resource root: its fields, apiVersion, kind, and metadata's name and generateName. */
export function rootToCel(v: Json, s: Structural | undefined): CelInput {
  if (!isPlainObject(v)) return toCel(v, s);
  const obj = v as JsonObject;
  const out = toCel(obj, s) as Map<string, CelInput>;
  if (isPlainObject(obj.metadata)) {
    const meta = new Map<string, CelInput>();
    for (const k of ['name', 'generateName']) {
      const value = (obj.metadata as JsonObject)[k];
      if (typeof value === 'string') meta.set(k, value);
    }
    out.set('metadata', meta);
  }
  return out;
}
