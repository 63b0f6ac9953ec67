// The subresources and printer columns of a CRD version (apiextensions validation.go,
// ValidateCustomResourceDefinitionSubresources and ValidateCustomResourceColumnDefinition).
import type { StatusCause } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
import { child, index, invalid, required } from './field-errors.ts';
import type { CustomResourceColumnDefinition, CustomResourceSubresources } from './types.ts';

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** validateSimpleJSONPath: a dotted path that starts with a dot. */
function simplePath(s: string, path: string): StatusCause[] {
  if (s === '') return [invalid(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

export function validateSubresources(sub: CustomResourceSubresources, path: string): StatusCause[] {
  const scale = sub.scale;
  if (!isPlainObject(scale)) return [];
  const out: StatusCause[] = [];
  const check = (value: unknown, name: string, prefixes: string[], why: string) => {
    const at = `${path}.scale.${name}`;
    const text = typeof value === 'string' ? value : '';
    const problems = simplePath(text, at);
    if (problems.length) out.push(...problems);
    else if (!prefixes.some((p) => text.startsWith(p))) out.push(invalid(at, text, why));
  };
  if (!scale.specReplicasPath) out.push(required(`${path}.scale.specReplicasPath`));
  else check(scale.specReplicasPath, 'specReplicasPath', ['.spec.'], 'should be a json path under .spec');
  if (!scale.statusReplicasPath) out.push(required(`${path}.scale.statusReplicasPath`));
  else check(scale.statusReplicasPath, 'statusReplicasPath', ['.status.'], 'should be a json path under .status');
  if (typeof scale.labelSelectorPath === 'string' && scale.labelSelectorPath)
    check(scale.labelSelectorPath, 'labelSelectorPath', ['.spec.', '.status.'], 'should be a json path under either .spec or .status');
  return out;
}

export function validateColumns(columns: CustomResourceColumnDefinition[], path: string): StatusCause[] {
  if (!Array.isArray(columns)) return [];
  const out: StatusCause[] = [];
  columns.forEach((col, i) => {
    const at = index(path, i);
    const c = isPlainObject(col) ? col : ({} as CustomResourceColumnDefinition);
    if (!c.name) out.push(required(child(at, 'name')));
    if (!c.type) out.push(required(child(at, 'type'), `must be one of ${COLUMN_TYPES.join(',')}`));
    else if (!COLUMN_TYPES.includes(c.type)) out.push(invalid(child(at, 'type'), c.type, `must be one of ${COLUMN_TYPES.join(',')}`));
    if (c.format && !COLUMN_FORMATS.includes(c.format)) out.push(invalid(child(at, 'format'), c.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
    const jsonPath = typeof c.jsonPath === 'string' ? c.jsonPath : '';
    if (!jsonPath) out.push(required(child(at, 'JSONPath')));
    else out.push(...simplePath(jsonPath, child(at, 'JSONPath')));
  });
  return out;
}
