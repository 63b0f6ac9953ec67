// Defaults must be valid and pruned (apiextensions pkg/apiserver/schema/defaulting/validation.go):
// each default is pruned by its own schema (a field the schema does not know is an error), its
// embedded metadata is read, then it is validated by its schema's value validations and rules,
// with findings under `<path>.default`.
import type { StatusCause } from '../../api/status.ts';
import type { Json } from '../../api/types.ts';
import { jsonEqual } from '../patch/json-value.ts';
import { compileRules, validateRules } from '../cel/validate.ts';
import { coerceEmbedded, validateEmbedded } from './embedded.ts';
import { child, invalid, key } from './field-errors.ts';
import { toCauses } from './openapi-errors.ts';
import { pruneValue } from './pruning.ts';
import type { Structural } from './structural.ts';
import { compileValue, validateValue } from './value-validator.ts';

export function checkDefaults(root: Structural, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  visit({ ...root, embeddedResource: true }, path, false, out);
  return out;
}

function visit(s: Structural, path: string, insideMeta: boolean, out: StatusCause[]): void {
  const meta = s.embeddedResource ? false : insideMeta;
  if (s.default !== undefined) out.push(...checkOne(s, s.default, child(path, 'default'), meta));
  if (s.items) visit(s.items, child(path, 'items'), meta, out);
  s.properties?.forEach((p, k) => {
    const sub = s.embeddedResource && (k === 'metadata' || k === 'apiVersion' || k === 'kind') ? true : meta;
    visit(p, key(child(path, 'properties'), k), sub, out);
  });
}

function checkOne(s: Structural, value: Json, path: string, insideMeta: boolean): StatusCause[] {
  const out: StatusCause[] = [];
  if (!insideMeta) {
    const unknown: string[] = [];
    const pruned = pruneValue(value, s, '', unknown);
    if (!jsonEqual(pruned, value)) out.push(invalid(path, value, 'must not have unknown fields'));
    try {
      coerceEmbedded(value, s, path, []);
    } catch (e) {
      out.push(invalid(path, value, e instanceof Error ? e.message : String(e)));
      return out;
    }
    const embedded: StatusCause[] = [];
    validateEmbedded(value, s, path, embedded);
    if (embedded.length > 0) return [...out, ...embedded];
  }
  const findings = toCauses(path, validateValue(compileValue(s.source), value));
  if (findings.length > 0) return [...out, ...findings];
  const rules = compileRules(s);
  const failed = validateRules(rules, s, value, undefined);
  return [...out, ...failed.map((c) => ({ ...c, field: c.field ? `${path}.${c.field}` : path }))];
}

